// @ts-check
// The browser's storage, the page's one way to it: every key is named here once, every value
// is kept as JSON, and a storage that refuses (a private window, a full quota, storage turned
// off, where even reading `localStorage` throws) never breaks the page: reading gives
// nothing, writing is forgotten when the page closes (the value is kept in memory instead).
// Values written before the page kept JSON (plain words: `ru`, `dark`, `on`) read as those
// words.

/** The keys, by the page's name for what they keep. */
export const KEYS = /** @type {const} */ ({
  /** The page's language: `en`, `ru`. */
  language: 'lgame.language',
  /** The theme chosen: `light`, `dark`. */
  theme: 'lgame.theme',
  /** Move sounds: `on`, `off`. */
  sound: 'lgame.sound',
  /** The solved puzzles' ids (`variant|position`), a list. */
  puzzles: 'lgame.puzzles',
  /** The puzzles' streak: `{ current, best }`. */
  streak: 'lgame.puzzles.streak',
  /** The friend invitations this browser made, by game: `{ [id]: { side, url } }` (the newest kept). */
  invitations: 'lgame.invitations',
  /** The games played in this browser without the server (engine/local.js), a list. */
  offlineGames: 'lgame.offline-games',
  /** The arenas this browser joined and has not left (arena/follow.js): their ids. */
  arenas: 'lgame.arenas',
});

/** @typedef {keyof typeof KEYS} Key */

/** What could not be stored, kept for this page's life. @type {Map<string, string>} */
const memory = new Map();

/**
 * The stored value of `key` (JSON read back; a plain word as it is), or `undefined` when
 * nothing is stored or the storage cannot be read.
 * @param {Key} key
 * @returns {unknown}
 */
export function read(key) {
  // What this page could not store is newer than what the storage holds.
  let raw = memory.get(KEYS[key]) ?? null;
  if (raw === null) {
    try {
      raw = localStorage.getItem(KEYS[key]);
    } catch {
      // Storage forbidden: nothing stored.
    }
  }
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * The stored value of `key` when it is one of `allowed`, else `undefined`.
 * @template {string} T
 * @param {Key} key
 * @param {readonly T[]} allowed
 * @returns {T | undefined}
 */
export function readOneOf(key, allowed) {
  const value = read(key);
  return allowed.find((a) => a === value);
}

/**
 * Stores `value` as JSON under `key`; returns whether the browser kept it (when it did not,
 * the value lasts for this page only).
 * @param {Key} key
 * @param {unknown} value
 * @returns {boolean}
 */
export function write(key, value) {
  const text = JSON.stringify(value);
  try {
    localStorage.setItem(KEYS[key], text);
    memory.delete(KEYS[key]);
    return true;
  } catch {
    memory.set(KEYS[key], text);
    return false;
  }
}
