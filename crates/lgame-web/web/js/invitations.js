// @ts-check
// The friend invitations this browser made, kept by game in the browser's storage: the host
// who reloads the game still sees the link to send (the address holds no secret).

import { read, write } from './storage.js';

/** How many games' invitations are kept (the oldest forgotten first). */
const KEEP = 50;

/** @typedef {import('./api.js').Invitation} Invitation */

/** @returns {Record<string, Invitation>} */
function all() {
  const stored = read('invitations');
  return stored && typeof stored === 'object' ? /** @type {Record<string, Invitation>} */ (stored) : {};
}

/**
 * The invitation kept for game `id`, if any.
 * @param {string} id
 * @returns {Invitation | null}
 */
export function invitationOf(id) {
  const found = all()[id];
  return found && typeof found.url === 'string' && (found.side === 'red' || found.side === 'blue') ? found : null;
}

/**
 * Keeps game `id`'s invitation (a new one replaces the old).
 * @param {string} id
 * @param {Invitation} invitation
 */
export function keepInvitation(id, invitation) {
  const kept = Object.entries(all()).filter(([key]) => key !== id).slice(-(KEEP - 1));
  write('invitations', Object.fromEntries([...kept, [id, { side: invitation.side, url: invitation.url }]]));
}

/**
 * Forgets game `id`'s invitation (the friend took the seat).
 * @param {string} id
 */
export function forgetInvitation(id) {
  const kept = all();
  if (!(id in kept)) return;
  delete kept[id];
  write('invitations', kept);
}
