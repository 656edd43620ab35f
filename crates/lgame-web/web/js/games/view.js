// @ts-check
// This browser's games (`#/games`), drawn: a word for a person without an account (signing
// up keeps these games), the list with its links to resume, replay and analyse, its pages.
// games/ctrl.js asks for them.

import { h, panel } from '../dom.js';
import { t } from '../i18n.js';
import { href } from '../address.js';
import { gamesTable, pager } from '../ui/gamelist.js';
import { onImported } from '../engine/install.js';
import { GamesCtrl } from './ctrl.js';

/** @typedef {import('../api.js').GamesPage} GamesPage */

/**
 * The list and its pages, or what stands in for them.
 * @param {{ data: GamesPage | null, error: string }} s
 * @param {(page: number) => void} go
 */
function listView(s, go) {
  const data = s.data;
  return h('div', { class: 'part' },
    h('p', { class: 'error', role: 'alert', text: s.error }),
    data && data.games.length === 0 && h('p', { class: 'games-none' }, t('games.none'), ' ',
      h('a', { href: '#/play', text: t('games.newGame') })),
    data && data.games.length > 0 && [gamesTable(data.games, true), pager(data, go)]);
}

/**
 * For a person without an account: their games are this browser's; signing up keeps them.
 * @param {boolean} anonymous
 */
function anonymousView(anonymous) {
  return h('div', { class: 'part' }, anonymous && h('p', { class: 'notice anonymous-note' },
    t('games.anonymous'), ' ',
    h('a', { class: 'to-signup', href: href('signup', { next: '#/games' }), text: t('account.signup') }), ' · ',
    h('a', { class: 'to-login', href: href('login', { next: '#/games' }), text: t('account.login') })));
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export async function render(main, params) {
  const ctrl = new GamesCtrl(params, () => redraw());
  const note = h('div', { class: 'part' });
  const list = h('div', { class: 'part' });
  main.append(h('h1', { text: t('games.title') }), h('section', { class: 'panel my-games' }, note, list));
  const draw = {
    note: panel(note, anonymousView),
    list: panel(list, (/** @type {Parameters<typeof listView>[0]} */ s) => listView(s, (page) => ctrl.load(page))),
  };
  function redraw() {
    draw.note(ctrl.account === null);
    draw.list({ data: ctrl.data, error: ctrl.error });
  }
  await ctrl.start();
  // A game played here without the server, imported now that it answers: listed at once.
  return onImported(() => ctrl.load(ctrl.page));
}
