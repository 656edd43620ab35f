// @ts-check
// Following the arenas this browser joined, from any page of the site: the moment the arena
// pairs its player, the page goes to the game (as on lichess), unless the player is in the
// middle of another game. The arenas joined are kept in the browser (storage.js) from the
// join to the leave or the arena's end, and asked after every two seconds; the arena's own
// page tells what it reads too.

import * as api from '../api.js';
import { href } from '../address.js';
import { read, write } from '../storage.js';
import * as session from '../session.js';
import { playing } from '../game/playing.js';

/** How often the arenas joined are asked after. */
export const FOLLOW_MS = 2000;

/** The games this page was sent to already (each is opened once). */
const opened = new Set();

/** The arenas this browser joined and has not left. @returns {string[]} */
function joined() {
  const ids = read('arenas');
  return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : [];
}

/**
 * Notes that this browser joined (`true`) or left arena `id`.
 * @param {string} id
 * @param {boolean} member
 */
export function remember(id, member) {
  const others = joined().filter((a) => a !== id);
  write('arenas', member ? [...others, id] : others);
}

/**
 * What an arena's answer says for this page: its player's new game opens; a finished arena,
 * or one this account is not in, is forgotten.
 * @param {import('../api.js').Arena} arena
 */
export function arrived(arena) {
  const me = session.account();
  const name = me ? me.username.toLowerCase() : null;
  const mine = name ? arena.standings.find((s) => s.username.toLowerCase() === name) : null;
  if (arena.state === 'finished' || (me && (!mine || mine.withdrawn))) {
    if (joined().includes(arena.id)) remember(arena.id, false);
    return;
  }
  const game = mine && mine.game;
  if (!game || opened.has(game)) return;
  opened.add(game);
  // Another game of this player's still going on keeps its page.
  if (playing.game && playing.game !== game && !playing.over) return;
  const page = href('game', {}, [game]);
  if (location.hash !== page) location.hash = page;
}

/** Asks after every arena joined, every two seconds, for as long as the page is open. */
export function follow() {
  setInterval(async () => {
    const ids = joined();
    if (!ids.length) return;
    await session.load();
    for (const id of ids) {
      try {
        arrived(await api.arenas.get(id));
      } catch (e) {
        // An arena that is no more is forgotten; the server away is asked again later.
        if (e instanceof api.ApiError && e.status === 404) remember(id, false);
      }
    }
  }, FOLLOW_MS);
}
