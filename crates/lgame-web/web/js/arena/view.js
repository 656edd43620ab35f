// @ts-check
// The arenas, drawn: at `#/arena` the list (each arena's variant, clock, length, rated or
// casual, state, players and times) and the form that creates one (accounts); at
// `#/arena/ID` one arena, live: its summary, join and leave, this account's current game,
// the standings (rank, player, score with its streak, the sheet of points, the game being
// played) and the podium once it is finished. arena/ctrl.js holds them.

import { h, panel } from '../dom.js';
import { href } from '../address.js';
import { t, number, plural, language } from '../i18n.js';
import { variantNames } from '../catalog.js';
import { variantLabel, clockOf } from '../ui/choosers.js';
import { controlText } from '../game/clock.js';
import { playerLink } from '../game/seats.js';
import { loggedOutView } from '../account/view.js';
import { controlSelect } from '../play/lobby.js';
import { ArenaCtrl, ArenaListCtrl } from './ctrl.js';
import { arenaName } from './name.js';

/** @typedef {import('../api.js').ArenaSummary} ArenaSummary */
/** @typedef {import('../api.js').Arena} Arena */

/** A time of the server's, in the page's language. @param {number} ms */
const timeOf = (ms) => new Intl.DateTimeFormat(language(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));

/**
 * An arena in one line, and when it starts or ends.
 * @param {ArenaSummary} a
 */
function summaryLines(a) {
  const when = a.state === 'upcoming' ? t('arena.starts', { time: timeOf(a.starts_at) })
    : a.state === 'running' ? t('arena.ends', { time: timeOf(a.ends_at) }) : t('arena.ended', { time: timeOf(a.ends_at) });
  return [
    h('p', { class: 'arena-summary', text: t('arena.summary', {
      variant: variantLabel(a.variant), clock: controlText(a.clock), minutes: number(a.minutes), mode: t(a.rated ? 'lobby.ratedGame' : 'lobby.casual'),
    }) }),
    h('p', { class: 'arena-when muted' },
      h('span', { class: 'arena-state', 'data-state': a.state, text: t(`arena.state.${a.state}`) }), ' · ', when, ' · ',
      plural('arena.players', a.players), ' · ', t('arena.by', { name: a.creator })),
  ];
}

/**
 * The list of arenas.
 * @param {{ arenas: ArenaSummary[] | null, error: string }} s
 */
function listView(s) {
  return h('div', { class: 'part' },
    h('p', { class: 'error', role: 'alert', hidden: !s.error, text: s.error }),
    s.arenas && !s.arenas.length && h('p', { class: 'muted arenas-none', text: t('arena.none') }),
    h('ul', { class: 'arena-list' }, (s.arenas || []).map((a) => h('li', { class: 'arena-item', 'data-id': a.id, 'data-key': a.id },
      h('a', { class: 'arena-link', href: href('arena', {}, [a.id]), text: arenaName(a) }),
      summaryLines(a)))));
}

/**
 * The form that creates an arena: its variant, clock, length, start and whether it is rated.
 * @param {ArenaListCtrl} ctrl
 */
function createForm(ctrl) {
  const variant = h('select', { id: 'arena-variant', name: 'variant' });
  for (const v of variantNames) variant.add(new Option(variantLabel(v), v));
  const control = controlSelect();
  control.id = 'arena-clock';
  const minutes = h('input', { id: 'arena-minutes', name: 'minutes', type: 'number', min: 10, max: 180, value: 30 });
  const delay = h('input', { id: 'arena-delay', name: 'delay', type: 'number', min: 0, max: 1440, value: 0 });
  const rated = h('input', { id: 'arena-rated', name: 'rated', type: 'checkbox', checked: true });
  const form = h('form', { class: 'panel arena-create', 'aria-labelledby': 'arena-create-title' },
    h('h2', { id: 'arena-create-title', text: t('arena.createTitle') }),
    h('div', { class: 'form-grid' },
      h('label', { for: 'arena-variant', text: t('play.variant') }), variant,
      h('label', { for: 'arena-clock', text: t('clock.choose') }), control,
      h('label', { for: 'arena-minutes', text: t('arena.minutes') }), minutes,
      h('label', { for: 'arena-delay', text: t('arena.delay') }), delay,
      h('label', { for: 'arena-rated', text: t('lobby.rated') }), rated),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary arena-submit', text: t('arena.create') })));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const later = Number(delay.value);
    ctrl.create({
      variant: variant.value, clock: /** @type {import('../api-types.js').TimeControl} */ (clockOf(control.value)),
      minutes: Number(minutes.value), rated: rated.checked, starts_at: later > 0 ? Date.now() + later * 60_000 : undefined,
    });
  });
  return form;
}

/** @param {HTMLElement} main */
async function renderList(main) {
  const ctrl = new ArenaListCtrl(() => redraw());
  const list = h('div', { class: 'part' });
  const create = h('div', { class: 'part' });
  main.append(h('section', { class: 'panel arenas' }, h('h1', { text: t('arena.list') }), list), create);
  const draw = panel(list, listView);
  let drawnFor = /** @type {boolean | null} */ (null);
  function redraw() {
    draw({ arenas: ctrl.arenas, error: ctrl.error });
    // The form is built once an account is known (what is typed in it stays).
    const can = ctrl.canCreate();
    if (can === drawnFor || !ctrl.arenas) return;
    drawnFor = can;
    create.replaceChildren(can ? createForm(ctrl) : h('div', {}, h('p', { class: 'muted', text: t('arena.loginFirst') }), loggedOutView()));
  }
  await ctrl.load();
}

/**
 * The standings, best first: a player's streak shown by its fire, a player who left marked.
 * @param {import('../api.js').Standing[]} standings
 */
function standingsTable(standings) {
  if (!standings.length) return h('p', { class: 'muted standings-none', text: t('arena.nobody') });
  return h('table', { class: 'standings' },
    h('caption', { text: t('arena.standings') }),
    h('thead', {}, h('tr', {}, ['arena.rank', 'lobby.player', 'arena.score', 'arena.sheet'].map((k) => h('th', { scope: 'col', text: t(k) })), h('td'))),
    h('tbody', {}, standings.map((s) => h('tr', { 'data-username': s.username, 'data-key': s.username, class: s.withdrawn ? 'withdrawn' : '' },
      h('td', { class: 'rank', text: number(s.rank) }),
      h('td', {}, playerLink({ kind: 'user', name: s.username }),
        s.withdrawn && h('span', { class: 'muted', text: ` (${t('arena.withdrawn')})` })),
      h('td', { class: 'score' }, h('span', { text: number(s.score) }),
        s.fire && h('span', { class: 'fire', title: t('arena.fire'), 'aria-label': t('arena.fire'), text: ' 🔥' })),
      h('td', { class: 'sheet mono', text: s.sheet.join(' ') }),
      h('td', {}, s.game && h('a', { class: 'standing-game', href: href('game', {}, [s.game]), text: t('arena.watch') }))))));
}

/**
 * One arena, with what this page's account may do in it.
 * @param {{ arena: Arena | null, error: string, join: boolean, leave: boolean, busy: boolean, game: string | null, waiting: boolean }} s
 * @param {ArenaCtrl} ctrl
 */
function arenaView(s, ctrl) {
  const a = s.arena;
  return h('div', { class: 'part' },
    h('p', {}, h('a', { class: 'arenas-back', href: href('arena'), text: t('arena.back') })),
    h('h1', { text: a ? arenaName(a) : t('title.arena') }),
    h('p', { class: 'error', role: 'alert', hidden: !s.error, text: s.error }),
    a && [
      summaryLines(a),
      a.podium && h('section', { class: 'panel podium', 'aria-labelledby': 'podium-title' },
        h('h2', { id: 'podium-title', text: t('arena.podium') }),
        h('ol', { class: 'podium-list' }, a.podium.filter(Boolean).map((name) => h('li', {}, playerLink({ kind: 'user', name }))))),
      h('div', { class: 'row arena-actions' },
        h('button', { type: 'button', class: 'primary arena-join', hidden: !s.join, disabled: s.busy, onclick: () => ctrl.join(), text: t('arena.join') }),
        h('button', { type: 'button', class: 'arena-leave', hidden: !s.leave, disabled: s.busy, onclick: () => ctrl.leave(), text: t('arena.leave') }),
        s.game && h('a', { class: 'arena-game primary', href: href('game', {}, [s.game]), text: t('arena.yourGame') })),
      h('p', { class: 'arena-waiting', role: 'status', hidden: !s.waiting, text: s.waiting ? t('arena.waiting') : '' }),
      h('section', { class: 'panel arena-standings', 'aria-live': 'polite' }, standingsTable(a.standings)),
    ]);
}

/**
 * @param {HTMLElement} main
 * @param {string} id
 */
async function renderArena(main, id) {
  const ctrl = new ArenaCtrl(id, () => redraw());
  const root = h('div', { class: 'part arena' });
  main.append(root);
  const draw = panel(root, (/** @type {Parameters<typeof arenaView>[0]} */ s) => arenaView(s, ctrl));
  function redraw() {
    const mine = ctrl.mine();
    const waiting = Boolean(ctrl.arena && ctrl.arena.state === 'running' && mine && !mine.withdrawn && !mine.game);
    draw({ arena: ctrl.arena, error: ctrl.error, join: ctrl.canJoin(), leave: ctrl.canLeave(), busy: ctrl.busy, game: mine?.game ?? null, waiting });
    if (ctrl.arena) document.title = `${arenaName(ctrl.arena)} · lgame`;
  }
  redraw();
  await ctrl.start();
  return () => ctrl.stop();
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} _params
 * @param {string[]} rest an arena's id, or none for the list
 */
export function render(main, _params, rest) {
  return rest[0] ? renderArena(main, rest[0]) : renderList(main);
}
