// @ts-check
// The game requests js/api.js does not make (docs/api.md): asking for a rematch.

/** @typedef {import('../api.js').CreatedGame} CreatedGame */

import { ApiError, messageOf } from '../api.js';

/**
 * Asks for a rematch of a finished game with a side's token: the new game (colours swapped,
 * same rules and levels) with the token of that person's new side.
 * @param {string} id
 * @param {string} token
 * @returns {Promise<CreatedGame>}
 */
export async function rematch(id, token) {
  let response;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(id)}/rematch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
  } catch (e) {
    throw new ApiError(0, `the server cannot be reached (${messageOf(e)})`);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || response.statusText, data);
  return data;
}
