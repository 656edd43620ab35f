// @ts-check
// A game's clocks, drawn by the players' names: each side's time left as the server last told
// it, ticked down from the moment that message arrived for the side whose time runs (the
// server is the clock: every state and change carries its figures again). The mover's clock
// is highlighted; below 10 s it turns red, and this page's own side hears it once. Before
// both first moves, the time left to make one. A player may give the other 15 s, and claim
// a real-time game whose opponent has had no page open for 15 s on their turn (the server
// checks the same). By correspondence, the page offers to notify the player, asking the
// browser only when they press the button: a signed-in player's browser is subscribed to Web
// Push (account/push.js: told even with the page closed); else, or when the browser cannot
// subscribe, the page itself notifies (the Notification API) when the opponent has moved and
// the tab is in the background.

import { h } from '../dom.js';
import { t, side } from '../i18n.js';
import { moveSound } from './sound.js';
import * as api from '../api.js';
import * as session from '../session.js';
import { pushSupported, enableNotifications, notificationsSubscribed, NoPushService } from '../account/push.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {NonNullable<import('../api.js').GameState['clock']>} ClockState */

/** Below this a clock is low: red, and heard once. */
const LOW_MS = 10_000;
/** How long an opponent must be gone, on their turn, before their game may be claimed. */
const GONE_MS = 15_000;
const COLORS = /** @type {Color[]} */ (['red', 'blue']);

/**
 * A time left in words: `1:02:03`, `4:05`, `7.3` (tenths under 10 s), days by correspondence.
 * @param {number} ms
 */
export function clockText(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s >= 86_400) {
    const days = Math.floor(s / 86_400);
    return t('clock.days', { days, hours: Math.floor((s % 86_400) / 3600) });
  }
  if (s < 10) return (Math.floor(s * 10) / 10).toFixed(1);
  const whole = Math.floor(s);
  const [hours, minutes, seconds] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

/**
 * A time control in words: `3+2`, `2 d a move`.
 * @param {{ initial_s?: number, increment_s?: number } | { days: number }} clock
 */
export function controlText(clock) {
  if ('days' in clock && clock.days) return t('clock.perMove', { days: clock.days });
  const real = /** @type {{ initial_s?: number, increment_s?: number }} */ (clock);
  const minutes = (real.initial_s ?? 0) / 60;
  const base = /** @type {Record<number, string>} */ ({ 0.25: '¼', 0.5: '½', 0.75: '¾' })[minutes] ?? String(Math.round(minutes * 10) / 10);
  return `${base}+${real.increment_s ?? 0}`;
}

/**
 * What the clocks' buttons do.
 * @typedef {{ give(): void, claim(result: 'win' | 'draw'): void }} ClockActions
 */

export class Clocks {
  /**
   * @param {HTMLElement} root
   * @param {ClockActions} act
   */
  constructor(root, act) {
    this.root = root;
    root.className = 'clocks';
    /** @type {ClockState | null} */
    this.clock = null;
    /** When the figures arrived (performance.now()). */
    this.at = 0;
    /** This page's sides (the low-time sound is theirs). @type {Color[]} */
    this.mine = [];
    /** Sides already warned of low time. @type {Set<Color>} */
    this.warned = new Set();
    this.timer = 0;
    /** @type {Record<Color, HTMLElement>} */
    this.faces = /** @type {any} */ ({});
    for (const c of COLORS) {
      this.faces[c] = h('span', { class: `clock ${c}`, 'data-side': c, role: 'timer' });
    }
    this.control = h('span', { class: 'clock-control muted' });
    this.firstMove = h('p', { class: 'first-move muted', role: 'status' });
    this.give = h('button', { type: 'button', class: 'give-time', text: t('clock.give'), onclick: () => act.give() });
    this.claims = h('div', { class: 'claims', role: 'alert' },
      h('p', { class: 'claim-text' }),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'claim-win primary', text: t('clock.claimWin'), onclick: () => act.claim('win') }), ' ',
        h('button', { type: 'button', class: 'claim-draw', text: t('clock.claimDraw'), onclick: () => act.claim('draw') })));
    this.notify = h('button', { type: 'button', class: 'notify-me', text: t('clock.notifyMe'), onclick: () => this.askToNotify() });
    /** What pressing it did. */
    this.notified = h('p', { class: 'notify-said muted', role: 'status' });
    root.append(h('div', { class: 'clock-row' }, this.faces.red, this.control, this.faces.blue, this.give), this.firstMove, this.claims, this.notify, this.notified);
    this.notify.hidden = true;
    /** Whether this browser is subscribed to Web Push (`null` until known). @type {boolean | null} */
    this.subscribed = null;
    /** Whether the button was pressed here: the offer goes, what it did is said. */
    this.asked = false;
    if (pushSupported()) notificationsSubscribed().then((yes) => { this.subscribed = yes; this.draw(); }, () => {});
    /** The plies of the last state seen: a new ply on this page's turn may be notified. */
    this.plies = -1;
    root.hidden = true;
    this.give.hidden = true;
    this.claims.hidden = true;
    /** Since when (performance.now()) the opponent has been seen gone on their turn. @type {number | null} */
    this.goneSince = null;
    /** @type {import('../api.js').GameState | null} */
    this.state = null;
  }

  /**
   * The game as it stands; its clock's figures are new when it is a new object.
   * @param {import('../api.js').GameState | null} state
   * @param {Color[]} mine
   */
  update(state, mine) {
    if (state && state.plies !== this.plies) this.moved(state, mine);
    this.state = state;
    const clock = state && state.clock;
    this.mine = mine;
    if (clock !== this.clock) {
      this.clock = clock ?? null;
      this.at = performance.now();
    }
    this.root.hidden = !this.clock;
    this.draw();
    clearTimeout(this.timer);
    const c = this.clock;
    if (c && (c.running || c.first_move_ms !== null)) {
      // Ten times a second under 10 s, else at each whole second.
      const running = c.running ? this.left(c.running) : (c.first_move_ms ?? 0) - (performance.now() - this.at);
      const next = running < LOW_MS ? 100 : (running % 1000) + 5;
      this.timer = window.setTimeout(() => this.update(this.state, this.mine), Math.max(20, next));
    }
  }

  /** A side's time left now. @param {Color} c */
  left(c) {
    const clock = this.clock;
    if (!clock) return 0;
    const told = c === 'red' ? clock.red_ms : clock.blue_ms;
    return Math.max(0, clock.running === c ? told - (performance.now() - this.at) : told);
  }

  draw() {
    const clock = this.clock;
    if (!clock) return;
    this.control.textContent = controlText(clock);
    for (const c of COLORS) {
      const ms = this.left(c);
      const face = this.faces[c];
      const low = ms < LOW_MS && clock.speed !== 'correspondence';
      face.textContent = clockText(ms);
      face.classList.toggle('running', clock.running === c);
      face.classList.toggle('low', low);
      face.dataset.ms = String(Math.round(ms));
      face.setAttribute('aria-label', t('clock.label', { side: side(c), time: clockText(ms) }));
      if (low && clock.running === c && this.mine.includes(c) && !this.warned.has(c)) {
        this.warned.add(c);
        moveSound('low');
      }
    }
    this.drawActions(clock);
    this.notify.hidden = !(this.notifiable() && !this.asked && (this.byPush()
      ? this.subscribed === false && Notification.permission !== 'denied'
      : Notification.permission === 'default'));
    const first = clock.first_move_ms;
    const waiting = first !== null && first !== undefined;
    this.firstMove.hidden = !waiting;
    if (waiting) {
      const ms = Math.max(0, first - (performance.now() - this.at));
      const s = Math.ceil(ms / 1000);
      // Seconds in real time; a correspondence game's day as the clocks show time.
      this.firstMove.textContent = s < 60
        ? t('clock.firstMove', { seconds: s })
        : t('clock.firstMoveWithin', { time: clockText(ms) });
    }
  }

  /**
   * Give time while the game goes on; the claim once the opponent has been gone long enough.
   * @param {ClockState} clock
   */
  drawActions(clock) {
    const state = this.state;
    const [me] = this.mine;
    const playing = Boolean(state && !state.over && this.mine.length === 1 && me);
    const other = me === 'red' ? 'blue' : 'red';
    const againstPerson = Boolean(state && state.seats[other] === 'human');
    this.give.hidden = !(playing && againstPerson && clock.running !== null);
    const gone = playing && againstPerson && state !== null && clock.speed !== 'correspondence' &&
      clock.running === other && !state.present[other];
    if (!gone) this.goneSince = null;
    else if (this.goneSince === null) this.goneSince = performance.now();
    const waited = this.goneSince === null ? 0 : performance.now() - this.goneSince;
    this.claims.hidden = !(gone && waited >= GONE_MS);
    const text = this.claims.querySelector('.claim-text');
    if (text) text.textContent = t('clock.gone', { side: side(other) });
  }

  /** Whether notifications may be offered here (a correspondence game, a person to wait for). */
  notifiable() {
    const state = this.state;
    const [me] = this.mine;
    return Boolean(state && state.clock && state.clock.speed === 'correspondence' && !state.over &&
      this.mine.length === 1 && me && state.seats[me === 'red' ? 'blue' : 'red'] === 'human' &&
      'Notification' in window);
  }

  /** Whether notifications come by Web Push here: a signed-in player, a browser with it. */
  byPush() {
    return Boolean(session.account()) && pushSupported();
  }

  /**
   * Asks the browser for notifications, once the person pressed the button: a subscription
   * by push, else (or when the browser cannot subscribe) the page's own notifications.
   */
  async askToNotify() {
    this.notify.disabled = true;
    try {
      if (!this.byPush()) {
        await Notification.requestPermission();
        return;
      }
      const answer = await enableNotifications();
      this.subscribed = answer === 'granted';
      this.notified.textContent = t(answer === 'granted' ? 'clock.notifyPushed' : 'account.notificationsRefused');
    } catch (e) {
      this.notified.textContent = e instanceof NoPushService ? t('clock.notifyNoPush') : api.messageOf(e);
    } finally {
      this.asked = this.byPush();
      this.notify.disabled = false;
      this.update(this.state, this.mine);
    }
  }

  /**
   * A new ply: if it made it this page's turn while the tab is in the background, and the
   * person allowed it, a notification.
   * @param {import('../api.js').GameState} state
   * @param {Color[]} mine
   */
  moved(state, mine) {
    const first = this.plies < 0;
    this.plies = state.plies;
    // Subscribed, the browser is told by push: not twice.
    if (first || !mine.includes(state.turn) || !document.hidden || !this.notifiable() || this.subscribed) return;
    if (Notification.permission !== 'granted') return;
    try {
      new Notification(t('clock.yourTurn'), { body: t('clock.opponentMoved'), tag: `lgame-${state.id}` });
    } catch {
      // A browser that shows notifications only from a service worker: nothing.
    }
  }

  /** Stops ticking (the page leaves the game). */
  stop() {
    clearTimeout(this.timer);
  }
}
