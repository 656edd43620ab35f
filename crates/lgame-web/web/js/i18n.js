// @ts-check
// Every text the page shows lives in i18n/<language>/: one place per language. Here: the
// current language, a text by its key, and the words for what the server gives as data
// (sides, values, refusals, endings). It imports no other module of the page but the texts
// (api.js words its errors with it) and the storage, which imports nothing: the server's
// types come from types.js. English comes with the page (every text falls back to it); another
// language's texts are loaded when it is the page's language (`ready`) or chosen.
import en from '../i18n/en/index.js';
import { read, write } from './storage.js';

/** @typedef {import('./types.js').Color} Color */
/** @typedef {Record<string, string | number | null | undefined>} Vars */

/** @type {Record<string, string>} */
const english = en;
/** The languages the page offers: each one's name in its own words. */
export const LANGUAGES = /** @type {Record<string, string>} */ ({ en: 'English', ru: 'Русский' });
/** The texts of the languages loaded so far. @type {Record<string, Record<string, string>>} */
const loaded = { en };

/** @returns {string} */
function initial() {
  const stored = read('language');
  if (typeof stored === 'string' && LANGUAGES[stored]) return stored;
  for (const lang of navigator.languages || [navigator.language || 'en']) {
    const code = String(lang).slice(0, 2).toLowerCase();
    if (LANGUAGES[code]) return code;
  }
  return 'en';
}

/**
 * Loads a language's texts (once).
 * @param {string} code
 */
async function load(code) {
  if (!loaded[code]) loaded[code] = (await import(`../i18n/${code}/index.js`)).default;
}

let current = initial();
/** Resolves once the page's language's texts are loaded (at once for English). */
export const ready = load(current).catch((e) => {
  // Its texts could not be had (offline and never kept): English.
  console.warn('the language could not be loaded', e);
  current = 'en';
});
/** @type {Set<(code: string) => void>} */
const listeners = new Set();

export function language() {
  return current;
}

/** @param {string} code */
export async function setLanguage(code) {
  if (!LANGUAGES[code] || code === current) return;
  await load(code);
  current = code;
  write('language', code);
  document.documentElement.lang = code;
  for (const f of listeners) f(code);
}

/**
 * Calls `f` when the language changes; returns a function that stops it.
 * @param {(code: string) => void} f
 */
export function onLanguageChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/**
 * Whether there is a text for `key`.
 * @param {string} key
 */
export function has(key) {
  return english[key] !== undefined;
}

/**
 * The text for `key` in the current language, `{name}` replaced from `vars`.
 * @param {string} key
 * @param {Vars} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  let text = (loaded[current] || english)[key];
  if (text === undefined) text = english[key];
  if (text === undefined) {
    console.warn(`no text for ${key}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = vars[name];
    return value !== undefined && value !== null ? String(value) : `{${name}}`;
  });
}

/**
 * A number written the language's way (`18,368`, `18 368`).
 * @param {number} n
 */
export function number(n) {
  return new Intl.NumberFormat(current).format(n);
}

/**
 * The text `base.<plural category of n>` (`puzzles.grade.few` for 2 in Russian), with `{n}`.
 * @param {string} base
 * @param {number} n
 * @param {Vars} [vars]
 */
export function plural(base, n, vars = {}) {
  const category = new Intl.PluralRules(current).select(n);
  return t(`${base}.${category}`, { n: number(n), ...vars });
}

/**
 * Numbers as a list of alternatives (`2, 4, 6 or 8`).
 * @param {number[]} numbers
 */
export function alternatives(numbers) {
  return new Intl.ListFormat(current, { type: 'disjunction' }).format(numbers.map(number));
}

/**
 * The side's name (`red`, `blue`) in the current language.
 * @param {Color} color
 */
export function side(color) {
  return t(color === 'red' ? 'side.red' : 'side.blue');
}

/**
 * "wins in 5 plies", "draw", "loses in 2 plies" for the side to move.
 * @param {import('./types.js').ValueName} value
 * @param {number | null} plies
 */
export function valueText(value, plies) {
  if (value === 'draw') return t('value.draw');
  if (plies === 0) return t(value === 'win' ? 'value.won' : 'value.lost');
  return plural(value === 'win' ? 'value.winIn' : 'value.lossIn', plies ?? 0); // null only for a draw
}

/**
 * A finished position's outcome (`/api/position`'s `outcome`) in words.
 * @param {import('./types.js').Outcome} outcome
 * @param {Color} toMove
 */
export function outcomeText(outcome, toMove) {
  return conclusion(outcome.winner, outcome.ending, toMove);
}

/**
 * The rules' reason for refusing a move or a cell, given as data by the server (`reason` of a
 * refused move, `refusal_reasons` of /api/position), in the page's language; the server's
 * English `text` when there is no data or the kind is new.
 * @param {import('./types.js').Reason | undefined} reason
 * @param {string} text
 * @returns {string}
 */
export function refusal(reason, text) {
  if (!reason || !has(`refusal.${reason.kind}`)) return text;
  if (reason.kind === 'no_neutral' && !reason.piece) return t('refusal.no_neutral_empty', reason);
  return t(`refusal.${reason.kind}`, { ...reason, piece: reason.piece ? t(`refusal.piece.${reason.piece}`) : '' });
}

/**
 * A refusal's body, when `error` is a refused request (api.js's ApiError).
 * @param {unknown} error
 * @returns {import('./types.js').RefusalBody | undefined}
 */
function refusalBody(error) {
  const body = error instanceof Error ? /** @type {{ body?: unknown }} */ (error).body : undefined;
  return body && typeof body === 'object' ? /** @type {import('./types.js').RefusalBody} */ (body) : undefined;
}

/**
 * A failure in the page's language: a refused request by its `kind` (docs/api.md,
 * "Refusals"), with the text it refused (`input`) and, in the English texts, the server's
 * own words after it (`detail`: the library's reason); a kind without a text keeps the
 * server's words.
 * @param {unknown} error
 * @returns {string}
 */
export function errorText(error) {
  const message = error instanceof Error ? error.message : String(error);
  const body = refusalBody(error);
  if (!body || !body.kind) return message;
  if (body.kind === 'illegal_move' && body.reason) return refusal(body.reason, message);
  if (!has(`error.${body.kind}`)) return message;
  const quoted = body.input !== undefined ? `'${body.input}': ` : null;
  const at = quoted ? message.indexOf(quoted) : -1;
  const detail = at >= 0 ? message.slice(at + String(quoted).length) : message;
  return t(`error.${body.kind}`, { input: body.input, detail });
}

/**
 * A refused move (an ApiError from the server) in the page's language.
 * @param {unknown} error
 * @param {string} move
 */
export function refusedMove(error, move) {
  const body = refusalBody(error);
  const reason = body && body.reason;
  if (!reason) return errorText(error);
  return t('refusal.move', { move, reason: refusal(reason, errorText(error)) });
}

/**
 * How a game ended, in words: `winner` (`red`, `blue`, or null for a draw), the `ending`'s
 * name as the server gives it, and the side `toMove` at the end (the trapped one).
 * @param {Color | null} winner
 * @param {string | null} ending
 * @param {Color} toMove
 */
export function conclusion(winner, ending, toMove) {
  const loser = winner === 'red' ? 'blue' : 'red';
  const headline = endHeadline(winner, ending);
  /** @type {Record<string, Color>} */
  const whose = { trapped: toMove, resignation: loser, time: loser, forfeit: loser, abandoned: loser };
  const who = whose[String(ending)];
  // An abandoned game claimed as a draw names nobody who left.
  const name = ending === 'abandoned' && !winner ? 'abandoned-draw' : String(ending).replace(' ', '-');
  const how = t(`end.${name}`, { side: who ? side(who) : '' });
  return t('end.sentence', { headline, how });
}

/**
 * The first words of an end: who won, a draw, or an aborted game (no result at all).
 * @param {Color | null} winner
 * @param {string | null} ending
 */
export function endHeadline(winner, ending) {
  if (ending === 'aborted') return t('end.aborted-headline');
  return winner ? t('end.wins', { side: side(winner) }) : t('end.drawn');
}


/**
 * The winner a result token names (`1-0`: Red, `0-1`: Blue), or null.
 * @param {string} result
 * @returns {Color | null}
 */
export function winnerOf(result) {
  return result === '1-0' ? 'red' : result === '0-1' ? 'blue' : null;
}
