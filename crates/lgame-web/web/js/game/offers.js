// @ts-check
// What stands between two people, drawn under the status line: the other side's draw offer
// or request to take back a move, with Accept and Decline; this page's own, waiting for the
// answer; the answer when it was no (or the move taken back); and, in a rematch this page
// asked for, whether the opponent has come to it yet. A function of its slice, as
// game/view.js's panels; game/ctrl.js's `offers()` cuts the slice.

import { h } from '../dom.js';
import { t, side } from '../i18n.js';

/** @typedef {import('../api.js').Color} Color */

/**
 * `draw`, `undo`: whose offer or request stands (`theirs`, `mine`, or none); `other` the
 * opponent's side; `news` the text key of the last answer to this page's own; `rematch` the
 * rematch's opponent (their username, if they have an account) and whether they came.
 * @typedef {{ draw: 'theirs' | 'mine' | null, undo: 'theirs' | 'mine' | null, other: Color, news: string,
 *   rematch: { name: string | null, joined: boolean } | null }} OffersSlice
 * @typedef {(what: 'draw' | 'undo', yes: boolean) => void} Answer
 */

/**
 * A question of the other side's, with its two answers.
 * @param {'draw' | 'undo'} kind
 * @param {string} text
 * @param {Answer} answer
 */
function question(kind, text, answer) {
  return h('div', { class: `offer ${kind}-offer`, 'data-from': 'theirs' },
    h('p', { class: 'offer-text', text }),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: `accept-${kind} primary`, text: t('offers.accept'), onclick: () => answer(kind, true) }), ' ',
      h('button', { type: 'button', class: `decline-${kind}`, text: t('offers.decline'), onclick: () => answer(kind, false) })));
}

/**
 * @param {string} kind
 * @param {string} text
 */
const waiting = (kind, text) => h('div', { class: `offer ${kind}-offer`, 'data-from': 'mine' }, h('p', { class: 'offer-text muted', text }));

/**
 * @param {NonNullable<OffersSlice['rematch']>} r
 */
function rematchText(r) {
  const named = r.name ? '' : 'Anon';
  return r.joined ? t(`offers.rematchJoined${named}`, { name: r.name || '' }) : t(`offers.rematchWaiting${named}`, { name: r.name || '' });
}

/**
 * @param {OffersSlice | null} s
 * @param {Answer} answer
 */
export function offersView(s, answer) {
  const other = s ? side(s.other) : '';
  const shown = Boolean(s && (s.draw || s.undo || s.news || s.rematch));
  return h('div', {
    class: 'offers', hidden: !shown, role: 'status', 'aria-live': 'polite', 'data-draw': s?.draw ?? '', 'data-undo': s?.undo ?? '', 'data-news': s?.news ?? '',
    'data-rematch': s?.rematch ? (s.rematch.joined ? 'joined' : 'waiting') : '',
  },
  s && [
    s.draw === 'theirs' && question('draw', t('offers.drawOffered', { side: other }), answer),
    s.draw === 'mine' && waiting('draw', t('offers.drawWaiting')),
    s.undo === 'theirs' && question('undo', t('offers.undoAsked', { side: other }), answer),
    s.undo === 'mine' && waiting('undo', t('offers.undoWaiting')),
    h('p', { class: 'offer-news', hidden: !s.news, text: s.news ? t(s.news) : '' }),
    s.rematch && h('p', { class: 'rematch-wait', text: rematchText(s.rematch) }),
  ]);
}
