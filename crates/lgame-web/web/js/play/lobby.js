// @ts-check
// The home page's quick pairing and lobby (docs/api.md, "The lobby"): a grid of the pool's
// controls, each a button that waits for an opponent of that control; and the open seeks,
// live from the lobby's stream, each with its button (play it, or withdraw one's own), and
// a form to add a seek (rated or casual, for an account: each seek says which, and its
// seeker's rating). The stream keeps this browser's seeks and tickets alive while the
// page is open; its `game` message (a seek taken, a ticket paired) opens the game, as does
// a ticket's poll, which stands in if the stream missed it. Beside them, the bots (docs/
// bots.md): the server's levels and the programs' bots, each challenged with a button; a
// challenge a program's bot has not answered yet is asked after at each poll.

import * as api from '../api.js';
import { h, panel } from '../dom.js';
import { href } from '../address.js';
import { t } from '../i18n.js';
import * as session from '../session.js';
import { controlText } from '../game/clock.js';
import { CONTROLS, clockOf, variantLabel } from '../ui/choosers.js';
import { ratingText } from '../ui/rating.js';
import { COLOURS } from './ctrl.js';

/** @typedef {import('../api.js').SeekView} SeekView */
/** @typedef {import('../api.js').LobbyMessage} LobbyMessage */
/** @typedef {import('../api.js').BotInfo} BotInfo */
/** Where a control of the lobby's stands: quick pairing, the open seeks, the bots. @typedef {'pool' | 'lobby' | 'bots'} Place */

/**
 * The error of the lobby's controls at `place`, said there (a live region), or nothing.
 * @param {LobbyCtrl} ctrl
 * @param {Place} place
 */
function errorHere(ctrl, place) {
  return ctrl.errorAt === place ? ctrl.error : '';
}

/** How often a waiting ticket is asked after. */
const POLL_MS = 3000;

export class LobbyCtrl {
  /** @param {() => void} redraw */
  constructor(redraw) {
    this.redraw = redraw;
    /** @type {Map<string, SeekView>} the open seeks, by id */
    this.seeks = new Map();
    /** @type {{ control: string, ticket: string } | null} quick pairing's ticket waiting */
    this.waiting = null;
    this.error = '';
    /** Where the error came from, to be said beside it: quick pairing, the lobby or the bots. @type {Place} */
    this.errorAt = 'lobby';
    this.busy = false;
    /**
     * Whether quick pairing, a new seek and a bot's challenge ask for a rated game: yes
     * unless the player unticks it (it counts for accounts only).
     */
    this.rated = true;
    /** @type {BotInfo[]} the bots, the server's levels first */
    this.bots = [];
    /** @type {{ id: string, name: string } | null} a challenge waiting for its bot's answer */
    this.challenge = null;
    this.stream = api.lobby.watch((message) => this.heard(message));
    this.poll = setInterval(() => this.check(), POLL_MS);
    this.listBots();
  }

  async listBots() {
    try {
      this.bots = (await api.bots.list()).bots;
      this.redraw();
    } catch {
      // The list comes again at the next poll.
    }
  }

  /**
   * Challenges bot `name` to a game of `control` (`untimed`: none), the page's player as
   * `colour`: the server's levels accept at once, a program's bot is waited for.
   * @param {string} name @param {string} control @param {string} colour
   */
  challengeBot(name, control, colour) {
    return this.act('bots', async () => {
      const clock = control === 'untimed' ? null : /** @type {any} */ (clockOf(control));
      const challenge = await api.bots.challenge(name, { clock, color: colour, rated: this.rated && this.canRate() && clock !== null });
      if (challenge.status === 'accepted' && challenge.game) return this.open(challenge.game);
      this.challenge = { id: challenge.id, name };
    });
  }

  /** Asks after a challenge waiting for its bot. */
  async checkChallenge() {
    const waiting = this.challenge;
    if (!waiting) return;
    const status = await api.bots.status(waiting.id);
    if (status.status === 'pending') return;
    this.challenge = null;
    if (status.status === 'accepted' && status.game) return this.open(status.game);
    this.errorAt = 'bots';
    this.error = status.status === 'declined'
      ? t('bots.declined', { name: waiting.name, reason: status.reason ?? '' })
      : t('bots.canceled', { name: waiting.name });
    this.redraw();
  }

  /** @param {LobbyMessage} message */
  heard(message) {
    if (message.type === 'lobby') this.seeks = new Map((message.seeks ?? []).map((s) => [s.id, s]));
    else if (message.type === 'seek' && message.seek) this.seeks.set(message.seek.id, message.seek);
    else if (message.type === 'gone' && message.id) this.seeks.delete(message.id);
    else if (message.type === 'game' && message.game) return this.open(message.game);
    this.redraw();
  }

  /** @param {string} game */
  open(game) {
    this.waiting = null;
    location.hash = href('game', {}, [game]);
  }

  /**
   * Runs one of the lobby's requests, its refusal said beside the control that asked (`at`).
   * @param {Place} at
   * @param {() => Promise<void>} request
   */
  async act(at, request) {
    this.error = '';
    this.errorAt = at;
    this.busy = true;
    this.redraw();
    try {
      await request();
    } catch (e) {
      this.error = api.messageOf(e);
    }
    this.busy = false;
    this.redraw();
  }

  /** Waits in the pool for `control` (another ticket of this page's is left first). @param {string} control */
  pair(control) {
    return this.act('pool', async () => {
      await this.leave();
      const status = await api.lobby.pair(control, this.rated && this.canRate());
      this.waiting = { control, ticket: status.ticket };
      // The stream opened before this browser had an identity knows it only now.
      this.stream.reopen();
    });
  }

  /** Leaves the pool, if waiting. */
  async leave() {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) await api.lobby.leave(waiting.ticket).catch(() => {});
  }

  async check() {
    this.listBots();
    await this.checkChallenge().catch((e) => { this.challenge = null; this.errorAt = 'bots'; this.error = api.messageOf(e); this.redraw(); });
    if (!this.waiting) return;
    try {
      const status = await api.lobby.ticket(this.waiting.ticket);
      if (status.status === 'paired' && status.game) this.open(status.game);
    } catch (e) {
      this.waiting = null;
      this.errorAt = 'pool';
      this.error = api.messageOf(e);
      this.redraw();
    }
  }

  /** Whether this page may ask for rated games: an account is logged in. */
  canRate() {
    return Boolean(session.account());
  }

  /** @param {string} control @param {string} colour */
  seek(control, colour) {
    return this.act('lobby', async () => {
      await api.lobby.seek({ clock: /** @type {object} */ (clockOf(control)), colour, rated: this.rated && this.canRate() });
      this.stream.reopen();
    });
  }

  /** @param {SeekView} seek */
  answer(seek) {
    return this.act('lobby', async () => {
      if (seek.mine) await api.lobby.withdraw(seek.id);
      else this.open((await api.lobby.accept(seek.id)).id);
    });
  }

  stop() {
    clearInterval(this.poll);
    this.stream.stop();
    this.leave();
    if (this.challenge) api.bots.cancel(this.challenge.id).catch(() => {});
  }
}

/** @param {string} control */
const controlLabel = (control) => controlText(/** @type {any} */ (clockOf(control)));

/** A control as the grid's buttons say it: `3+2`, `1 d`. @param {string} control */
const shortLabel = (control) => control.endsWith('d') ? t('lobby.days', { days: control.slice(0, -1) }) : control;

/** A select of the usual time controls (5+0 chosen), as a seek or an arena takes them. */
export function controlSelect() {
  const control = h('select', { name: 'control', 'aria-label': t('clock.choose') });
  for (const name of CONTROLS) control.add(new Option(controlLabel(name), name));
  control.value = '5+0';
  return control;
}

/**
 * The "Rated" checkbox (quick pairing's and the seek form's share the choice), shown to an
 * account only; `draw` shows or hides it and keeps it as chosen.
 * @param {LobbyCtrl} ctrl
 * @param {string} cls
 */
function ratedBox(ctrl, cls) {
  const box = h('input', { type: 'checkbox', name: 'rated', class: cls });
  box.addEventListener('change', () => { ctrl.rated = box.checked; ctrl.redraw(); });
  const label = h('label', { class: `rated-choice ${cls}-label` }, box, ' ', h('span', { text: t('lobby.rated') }));
  const draw = () => {
    label.hidden = !ctrl.canRate();
    box.checked = ctrl.rated;
  };
  return { label, draw };
}

/**
 * Quick pairing's grid, and what it waits for.
 * @param {LobbyCtrl} ctrl
 */
export function poolGrid(ctrl) {
  const buttons = CONTROLS.map((control) => {
    const button = h('button', { type: 'button', class: 'pool-control', 'data-control': control, 'aria-label': controlLabel(control), text: shortLabel(control) });
    button.addEventListener('click', () => ctrl.pair(control));
    return button;
  });
  const status = h('p', { class: 'pool-waiting', role: 'status' });
  const cancel = h('button', { type: 'button', class: 'pool-cancel', text: t('lobby.cancel') });
  cancel.addEventListener('click', () => ctrl.act('pool', () => ctrl.leave()));
  const waiting = h('div', { class: 'row pool-status' }, status, cancel);
  const grid = h('div', { class: 'pool', role: 'group', 'aria-label': t('home.quick') }, buttons);
  const rated = ratedBox(ctrl, 'pool-rated');
  const error = h('p', { class: 'error pool-error', role: 'alert' });
  const draw = () => {
    rated.draw();
    error.textContent = errorHere(ctrl, 'pool');
    const control = ctrl.waiting?.control;
    waiting.hidden = !control;
    status.textContent = control ? t('lobby.waiting', { control: controlLabel(control) }) : '';
    for (const button of buttons) {
      button.setAttribute('aria-pressed', String(button.dataset.control === control));
      button.disabled = ctrl.busy;
    }
  };
  return { nodes: [rated.label, grid, waiting, error], draw };
}

/**
 * The open seeks and the form that adds one.
 * @param {LobbyCtrl} ctrl
 */
export function seekList(ctrl) {
  const rows = h('tbody');
  const none = h('p', { class: 'seeks-none hint', text: t('lobby.none') });
  const control = controlSelect();
  const colour = h('select', { name: 'colour', 'aria-label': t('play.colour') });
  for (const c of COLOURS) colour.add(new Option(t(`play.colour.${c}`), c));
  colour.value = 'random';
  const rated = ratedBox(ctrl, 'seek-rated');
  const form = h('form', { class: 'row seek-form' }, control, ' ', colour, ' ', rated.label, ' ',
    h('button', { type: 'submit', class: 'seek-create', text: t('lobby.create') }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ctrl.seek(control.value, colour.value);
  });
  const error = h('p', { class: 'error', role: 'alert' });
  const table = h('table', { class: 'seeks' },
    h('caption', { text: t('lobby.title') }),
    h('thead', {}, h('tr', {}, ['lobby.player', 'lobby.rating', 'clock.choose', 'lobby.colour', 'play.variant', 'lobby.mode'].map((k) => h('th', { scope: 'col', text: t(k) })), h('td'))),
    rows);
  // Rows that stay are kept (a button being tapped is not replaced under the finger).
  const drawRows = panel(rows, (/** @type {{ seeks: SeekView[], busy: boolean }} */ s) => h('tbody', {}, s.seeks.map((seek) =>
    h('tr', { 'data-id': seek.id, 'data-key': seek.id, 'data-rated': String(seek.rated), class: seek.mine ? 'mine' : '' },
      h('td', { class: 'seek-player', text: seek.name ?? t('lobby.anonymous') }),
      h('td', { class: 'seek-rating', text: seek.name ? ratingText(seek.rating, seek.provisional) : t('lobby.noRating') }),
      h('td', { class: 'seek-clock', text: controlText(seek.clock) }),
      h('td', { class: 'seek-colour', text: t(`play.colour.${seek.colour}`) }),
      h('td', { class: 'seek-variant', text: variantLabel(seek.variant) }),
      h('td', { class: 'seek-mode', text: t(seek.rated ? 'lobby.ratedGame' : 'lobby.casual') }),
      h('td', { class: 'seek-act' }, h('button', {
        type: 'button', class: seek.mine ? 'seek-withdraw' : 'seek-accept primary', disabled: s.busy,
        text: t(seek.mine ? 'lobby.withdraw' : 'lobby.play'), onclick: () => ctrl.answer(seek),
      }))))));
  const draw = () => {
    rated.draw();
    const seeks = [...ctrl.seeks.values()].sort((a, b) => b.created_ms - a.created_ms);
    drawRows({ seeks, busy: ctrl.busy });
    table.hidden = seeks.length === 0;
    none.hidden = seeks.length > 0;
    error.textContent = errorHere(ctrl, 'lobby');
  };
  return { nodes: [table, none, form, error], draw };
}

/**
 * The bots, each with its button to challenge it at the control and colour chosen above
 * the list (rated as the lobby's "Rated" box says, for a timed game).
 * @param {LobbyCtrl} ctrl
 */
export function botList(ctrl) {
  const control = controlSelect();
  control.add(new Option(t('bots.untimed'), 'untimed'));
  control.setAttribute('name', 'bot-control');
  const colour = h('select', { name: 'bot-colour', 'aria-label': t('play.colour') });
  for (const c of COLOURS) colour.add(new Option(t(`play.colour.${c}`), c));
  colour.value = 'random';
  const rows = h('ul', { class: 'bots' });
  const none = h('p', { class: 'hint bots-none', text: t('bots.none') });
  const status = h('p', { class: 'bots-waiting', role: 'status' });
  const error = h('p', { class: 'error bots-error', role: 'alert' });
  const rated = ratedBox(ctrl, 'bot-rated');
  const nodes = [
    h('h2', { id: 'bots-title', text: t('bots.title') }),
    h('p', { class: 'hint', text: t('bots.hint') }),
    h('div', { class: 'row bots-choice' }, control, ' ', colour, ' ', rated.label),
    rows, none, status, error,
  ];
  // Rows that stay are kept (a button being tapped is not replaced under the finger).
  const drawRows = panel(rows, (/** @type {{ bots: BotInfo[], off: boolean }} */ s) => h('ul', { class: 'bots' }, s.bots.map((bot) =>
    h('li', { class: 'bot', 'data-bot': bot.username, 'data-key': bot.username, 'data-online': String(bot.online) },
      h('a', { class: 'player-name bot', href: `/@/${encodeURIComponent(bot.username)}`, text: bot.username }), ' ',
      h('span', { class: 'bot-badge', text: t('bots.badge') }), ' ',
      bot.online ? null : h('span', { class: 'muted', text: t('bots.offline') }), ' ',
      h('button', {
        type: 'button', class: 'bot-challenge', 'data-bot': bot.username, text: t('bots.challenge'), disabled: s.off || !bot.online,
        onclick: () => ctrl.challengeBot(bot.username, control.value, colour.value),
      })))));
  const draw = () => {
    rated.draw();
    drawRows({ bots: ctrl.bots, off: ctrl.busy || Boolean(ctrl.challenge) });
    error.textContent = errorHere(ctrl, 'bots');
    none.hidden = ctrl.bots.length > 0;
    status.textContent = ctrl.challenge ? t('bots.waiting', { name: ctrl.challenge.name }) : '';
  };
  return { nodes, draw };
}
