// @ts-check
// A list of games (a person's own, a profile's), drawn: each game's date, opponent, side,
// result, variant and length, with the link that opens it (to resume it, to watch it, or to
// replay and analyse it), and the pages of the list. The games/ and profile/ views share it.

import { controlText } from '../game/clock.js';
import { h } from '../dom.js';
import { t, has, side, number, plural } from '../i18n.js';
import { playerLink } from '../game/seats.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {import('../api.js').GameSummary} GameSummary */
/** @typedef {import('../api.js').GamesPage} GamesPage */

/**
 * What a game's result is for `mine`: `won`, `lost`, `drawn`, `aborted` (over with no
 * result), or `playing` while it goes on (null when the list is nobody's side).
 * @param {GameSummary} game
 * @param {Color | null} mine
 * @returns {'won' | 'lost' | 'drawn' | 'aborted' | 'playing' | null}
 */
export function resultFor(game, mine) {
  if (game.aborted) return 'aborted';
  if (!game.over || game.result === '*') return 'playing';
  if (game.result === '1/2-1/2') return 'drawn';
  if (!mine) return null;
  const winner = game.result === '1-0' ? 'red' : 'blue';
  return winner === mine ? 'won' : 'lost';
}

/**
 * A variant's name in the page's language (the classic rules when the game names none).
 * @param {string | null} variant
 */
export function variantName(variant) {
  const key = `variant.${variant || 'classic'}`;
  return has(key) ? t(key) : String(variant);
}

/**
 * A date and time from unix seconds.
 * @param {number} seconds
 */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The games, newest first, each a row from the side of the player whose list it is (the
 * asker's own, or the profile's player's: the summaries' `you`); `own` when that player is
 * the asker (their unfinished games are theirs to resume, another's to watch).
 * @param {GameSummary[]} games
 * @param {boolean} own
 */
export function gamesTable(games, own) {
  const head = ['date', 'opponent', 'side', 'result', 'variant', 'plies', 'open'];
  return h('table', { class: 'games-table' },
    h('thead', {}, h('tr', {}, head.map((k) => h('th', { scope: 'col', text: t(`games.${k}`) })))),
    h('tbody', {}, games.map((g) => {
      const mine = g.you;
      const result = resultFor(g, mine);
      /** @type {Color} */
      const other = mine === 'blue' ? 'red' : 'blue';
      const link = g.over ? t('games.replay') : own && mine ? t('games.resume') : t('games.watch');
      return h('tr', { 'data-key': g.id, 'data-id': g.id, 'data-result': result, 'data-over': String(g.over), class: 'game-row' },
        h('td', { text: when(g.created) }),
        h('td', { class: 'opponent' }, mine ? playerLink(g.players[other]) : [playerLink(g.players.red), ' – ', playerLink(g.players.blue)]),
        h('td', { text: mine ? side(mine) : '' }),
        h('td', { class: `result ${result || ''}`, text: `${result ? t(`games.${result}`) : ''} ${g.over && !g.aborted ? g.result : ''}`.trim() }),
        h('td', { class: 'variant', text: g.clock ? `${variantName(g.variant)} · ${controlText(g.clock)}` : variantName(g.variant) }),
        h('td', { class: 'num', text: number(g.plies) }),
        h('td', {}, h('a', { class: g.over ? 'replay' : own && mine ? 'resume' : 'watch', href: g.url, text: link })));
    })));
}

/**
 * The pages of a list: newer, "page N of M", older.
 * @param {{ page: number, per_page: number, total: number }} s
 * @param {(page: number) => void} go
 */
export function pager(s, go) {
  const pages = Math.max(1, Math.ceil(s.total / Math.max(1, s.per_page)));
  return h('nav', { class: 'pager row', 'aria-label': t('games.pageOf', { page: s.page, pages }) },
    h('button', { type: 'button', class: 'newer', hidden: pages === 1, disabled: s.page <= 1, text: t('games.previous'), onclick: () => go(s.page - 1) }), ' ',
    h('span', { class: 'page-of', text: pages === 1 ? plural('games.total', s.total) : `${t('games.pageOf', { page: number(s.page), pages: number(pages) })} · ${plural('games.total', s.total)}` }), ' ',
    h('button', { type: 'button', class: 'older', hidden: pages === 1, disabled: s.page >= pages, text: t('games.next'), onclick: () => go(s.page + 1) }));
}
