// @ts-check
// A category's leaderboard, drawn: the category picker and the table of its best players
// (rank, player linked to their profile, rating, games). leaderboard/ctrl.js asks for it.

import { h, panel } from '../dom.js';
import { t, number } from '../i18n.js';
import { playerLink } from '../game/seats.js';
import { CATEGORIES, categoryName, ratingText } from '../ui/rating.js';
import { LeaderboardCtrl } from './ctrl.js';

/**
 * A table of players: rank (none for the provisional), name, rating and games.
 * @param {string} cls
 * @param {string} caption
 * @param {import('../api.js').Leader[]} players
 * @param {boolean} ranked
 * @param {string} category
 */
function playersTable(cls, caption, players, ranked, category) {
  const heads = [ranked && 'leaders.rank', 'lobby.player', 'rating.rating', 'leaders.games'].filter(Boolean);
  return h('table', { class: `leaders ${cls}`, 'data-category': category },
    h('caption', { text: caption }),
    h('thead', {}, h('tr', {}, heads.map((k) => h('th', { scope: 'col', text: t(String(k)) })))),
    h('tbody', {}, players.map((p) => h('tr', { 'data-username': p.username },
      ranked && h('td', { class: 'rank', text: number(p.rank) }),
      h('td', {}, playerLink({ kind: 'user', name: p.username })),
      h('td', { class: 'rating', text: ratingText(p.rating, !ranked) }),
      h('td', { class: 'games', text: number(p.games) })))));
}

/**
 * The ranked players, and beside them those whose rating is still provisional (with why they
 * are not ranked yet).
 * @param {{ category: string, players: import('../api.js').Leader[] | null, provisional: import('../api.js').Leader[], error: string }} s
 */
function tableView(s) {
  const provisional = s.provisional;
  return h('div', { class: 'part' },
    h('p', { class: 'error', role: 'alert', hidden: !s.error, text: s.error }),
    s.players && !s.players.length && h('p', { class: 'muted leaders-none', text: t(provisional.length ? 'leaders.noneEstablished' : 'leaders.none') }),
    s.players && s.players.length > 0 && playersTable('established', categoryName(s.category), s.players, true, s.category),
    provisional.length > 0 && [
      playersTable('provisional', t('leaders.provisional'), provisional, false, s.category),
      h('p', { class: 'muted leaders-why', text: t('leaders.provisionalWhy') }),
    ]);
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} _params
 * @param {string[]} rest the category
 */
export async function render(main, _params, rest) {
  const ctrl = new LeaderboardCtrl(rest[0], () => redraw());
  const picker = h('select', { id: 'leaders-category', name: 'category' });
  for (const c of CATEGORIES) picker.add(new Option(categoryName(c), c));
  picker.value = ctrl.category;
  picker.addEventListener('change', () => ctrl.show(picker.value));
  const table = h('div', { class: 'part' });
  main.append(h('section', { class: 'panel leaderboard' },
    h('h1', { text: t('title.leaderboard') }),
    h('div', { class: 'row' }, h('label', { for: 'leaders-category', text: t('leaders.category') }), ' ', picker),
    table));
  const draw = panel(table, tableView);
  function redraw() {
    draw({ category: ctrl.category, players: ctrl.players, provisional: ctrl.provisional, error: ctrl.error });
  }
  await ctrl.show(ctrl.category);
}
