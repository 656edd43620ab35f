// @ts-check
// Who plays a game, drawn: the players by the board (names, the computer's level, a seat
// still open), the host's invitation of a friend (the one-time link, a new one when it is
// lost, the friend joined or here) and the seat an invitation offers (its button). Each a
// function of its slice, as game/view.js's panels.

import * as api from '../api.js';
import { h } from '../dom.js';
import { t, has, side } from '../i18n.js';
import { ratingChange, categoryName } from '../ui/rating.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {import('../api.js').Player} Player */

/**
 * A player's name in words: the username, "Anonymous", the computer and its level, …
 * @param {Player} player
 */
export function playerName(player) {
  if ((player.kind === 'user' || player.kind === 'bot') && player.name) return player.name;
  if (player.kind === 'computer') {
    const level = (player.name || '').split(':')[0];
    return t('player.computer', { level: has(`level.${level}`) ? t(`level.${level}`) : player.name });
  }
  return t(`player.${player.kind}`);
}

/**
 * A player: a user's name links to their profile page.
 * @param {Player} player
 */
export function playerLink(player) {
  const name = playerName(player);
  if ((player.kind !== 'user' && player.kind !== 'bot') || !player.name) return h('span', { class: `player-name ${player.kind}`, text: name });
  const link = h('a', { class: `player-name ${player.kind}`, href: `/@/${encodeURIComponent(player.name)}`, text: name });
  return player.kind === 'bot' ? h('span', {}, link, ' ', h('span', { class: 'bot-badge', text: t('bots.badge') })) : link;
}

/**
 * The players by the board, each side with its name (and "you" for this page's sides), and
 * in a rated game its category and each player's rating (its change once the game ended).
 * @param {{ players: Record<Color, Player>, yours: Color[], category: string | null,
 *   ratings: Record<Color, import('../api.js').RatingChange> | null } | null} s
 */
export function playersView(s) {
  return h('p', { class: 'players' },
    s && /** @type {Color[]} */ (['red', 'blue']).map((c, i) => h('span', { class: `player ${c}`, 'data-side': c, 'data-kind': s.players[c].kind, 'data-you': s.yours.includes(c) ? 'true' : null },
      i ? h('span', { class: 'player-sep', text: ' · ' }) : '', h('span', { class: `turn-dot ${c}` }), ' ', h('span', { text: `${side(c)}: ` }), playerLink(s.players[c]),
      s.ratings && h('span', { class: 'player-rating muted', text: ` ${ratingChange(s.ratings[c].before, s.ratings[c].after)}` }),
      s.yours.includes(c) ? h('span', { class: 'muted', text: ` ${t('player.you')}` }) : null)),
    s && s.category && h('span', { class: 'game-rated muted', 'data-category': s.category },
      h('span', { class: 'player-sep', text: ' · ' }), t('game.rated', { category: categoryName(s.category) })));
}

/**
 * A link to copy, with its button.
 * @param {string} cls
 * @param {string} label
 * @param {string} url
 * @param {string} copyText the copy button's words
 * @param {(url: string, field: HTMLInputElement | null) => void} copy
 */
function linkField(cls, label, url, copyText, copy) {
  return h('div', { class: 'link-field' },
    h('label', {}, h('span', { text: label }), h('input', { class: cls, readonly: true, value: url })),
    h('div', { class: 'row' }, h('button', {
      type: 'button', class: `copy copy-${cls}`, text: copyText,
      onclick: (/** @type {Event} */ e) => {
        const field = /** @type {Element} */ (e.currentTarget).closest('.link-field');
        copy(url, field && field.querySelector('input'));
      },
    })));
}

/**
 * Copies a link to the clipboard, and says so (`say`); where the clipboard is refused, the
 * link's field is selected for the person to copy.
 * @param {(text: string) => void} say
 * @returns {(url: string, field: HTMLInputElement | null) => Promise<void>}
 */
export function copier(say) {
  return async (url, field) => {
    try {
      await navigator.clipboard.writeText(url);
      say(t('game.copied'));
    } catch {
      if (field) field.select();
      say(t('game.copyByHand'));
    }
  };
}

/**
 * The host's invitation of a friend: while the friend's seat is open, the one-time link with
 * its QR code (or, when this browser lost it, a button for a new one); once taken, that the
 * friend joined and whether they are here. The spectators' link always.
 * @typedef {{ friend: Color, open: boolean, link: string | null, joined: boolean, present: boolean, watch: string }} ShareSlice
 * @param {ShareSlice | null} s
 * @param {{ copy: (url: string, field: HTMLInputElement | null) => void, renew: () => void }} act
 */
export function shareView(s, act) {
  const presence = !s ? '' : s.open ? t('game.waitingFriend') : s.joined ? t('game.friendJoined')
    : t(s.present ? 'game.friendHere' : 'game.friendAway');
  return h('div', {
    class: 'share panel', hidden: !s,
    'data-friend-present': s ? String(s.present) : null, 'data-friend-joined': s ? String(!s.open) : null,
  },
  s && [
    h('h2', { text: t(s.open ? 'game.inviteTitle' : 'game.friendTitle') }),
    h('p', { class: `presence${s.open ? ' waiting' : ''}`, 'aria-live': 'polite', text: presence }),
    s.open && s.link && [
      linkField('friend-link', t('game.inviteLabel', { side: side(s.friend) }), s.link, t('game.copy'), act.copy),
      h('p', { class: 'muted invite-once', text: t('game.inviteOnce') }),
      h('img', { class: 'qr', src: api.qrUrl(s.link), alt: t('game.qrAlt') }),
    ],
    s.open && h('p', { class: 'muted invite-lost', hidden: Boolean(s.link), text: t('game.inviteLost') }),
    s.open && !s.link && h('div', { class: 'row' }, h('button', { type: 'button', class: 'new-invitation', text: t('game.newInvitation'), onclick: act.renew })),
    linkField('watch-link', t('game.watchLabel'), s.watch, t('game.copyWatch'), act.copy),
  ]);
}

/**
 * The seat a friend's invitation offers: what it is, and the button that takes it.
 * @param {{ side: Color, text: string } | null} s
 * @param {() => void} take
 */
export function inviteView(s, take) {
  return h('div', { class: 'invite panel', hidden: !s, 'data-side': s ? s.side : null },
    s && [
      h('p', { class: 'invite-text', text: s.text }),
      h('div', { class: 'row' }, h('button', {
        type: 'button', class: 'take-seat primary', text: t('game.takeSeat', { side: side(s.side) }), onclick: take,
      })),
    ]);
}
