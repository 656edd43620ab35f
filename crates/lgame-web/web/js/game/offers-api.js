// @ts-check
// The answers to what stands between two people (docs/api.md): declining a draw offer,
// accepting or declining a request to take back. js/api.js has the offer, the request and
// the acceptance of a draw (`games.draw`, `games.undo`); these are the rest, asked the same
// way (JSON, the browser's seat by its cookie, a refusal as an ApiError with its state).

import { ApiError, messageOf } from '../api.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {import('../api.js').GameState} GameState */

/**
 * POSTs `{ side }` to one of the game's answers.
 * @param {string} id
 * @param {string} what `draw/decline`, `undo/accept` or `undo/decline`
 * @param {Color} side the side that answers (the one that did not ask)
 * @returns {Promise<GameState>}
 */
async function answer(id, what, side) {
  let response;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(id)}/${what}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ side }),
    });
  } catch (e) {
    throw new ApiError(0, `the server cannot be reached (${messageOf(e)})`, { kind: 'unreachable' });
  }
  const text = await response.text();
  const type = response.headers.get('Content-Type') || '';
  const data = !text ? null : type.includes('json') ? JSON.parse(text) : text;
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || String(data), data);
  return data;
}

/**
 * @param {string} id
 * @param {Color} side
 */
export const declineDraw = (id, side) => answer(id, 'draw/decline', side);

/**
 * Takes back the other side's last move (and this side's reply to it), as they asked.
 * @param {string} id
 * @param {Color} side
 */
export const acceptUndo = (id, side) => answer(id, 'undo/accept', side);

/**
 * @param {string} id
 * @param {Color} side
 */
export const declineUndo = (id, side) => answer(id, 'undo/decline', side);
