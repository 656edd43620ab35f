// Every text the page shows lives in i18n/<language>/: one place per language.
import en from '../i18n/en/index.js';
import ru from '../i18n/ru/index.js';

export const LANGUAGES = { en, ru };
const STORAGE_KEY = 'lgame.language';

function initial() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored && LANGUAGES[stored]) return stored;
  for (const lang of navigator.languages || [navigator.language || 'en']) {
    const code = String(lang).slice(0, 2).toLowerCase();
    if (LANGUAGES[code]) return code;
  }
  return 'en';
}

let current = initial();
const listeners = new Set();

export function language() {
  return current;
}

export function setLanguage(code) {
  if (!LANGUAGES[code] || code === current) return;
  current = code;
  localStorage.setItem(STORAGE_KEY, code);
  document.documentElement.lang = code;
  for (const f of listeners) f(code);
}

export function onLanguageChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** The text for `key` in the current language, `{name}` replaced from `vars`. */
export function t(key, vars = {}) {
  let text = LANGUAGES[current][key];
  if (text === undefined) text = en[key];
  if (text === undefined) {
    console.warn(`no text for ${key}`);
    return key;
  }
  if (typeof text !== 'string') return text;
  return text.replace(/\{(\w+)\}/g, (_, name) => (vars[name] !== undefined ? vars[name] : `{${name}}`));
}

/** The side's name (`red`, `blue`) in the current language. */
export function side(color) {
  return t(color === 'red' ? 'side.red' : 'side.blue');
}

/** A finished position's outcome (`/api/position`'s `outcome`) in words. */
export function outcomeText(outcome, toMove) {
  return conclusion(outcome.winner, outcome.ending, toMove);
}

/**
 * The rules' reason for refusing a move or a cell, given as data by the server (`reason` of a
 * refused move, `refusal_reasons` of /api/position), in the page's language; the server's
 * English `text` when there is no data or the kind is new.
 */
export function refusal(reason, text) {
  if (!reason || !LANGUAGES.en[`refusal.${reason.kind}`]) return text;
  const piece = (name) => (name ? t(`refusal.piece.${name}`) : '');
  if (reason.kind === 'no_neutral' && !reason.piece) return t('refusal.no_neutral_empty', reason);
  return t(`refusal.${reason.kind}`, { ...reason, piece: piece(reason.piece) });
}

/** A refused move (an ApiError from the server) in the page's language. */
export function refusedMove(error, move) {
  const reason = error.body && error.body.reason;
  if (!reason) return error.message;
  return t('refusal.move', { move, reason: refusal(reason, error.message) });
}

/**
 * How a game ended, in words: `winner` (`red`, `blue`, or null for a draw), the `ending`'s
 * name as the server gives it, and the side `toMove` at the end (the trapped one).
 */
export function conclusion(winner, ending, toMove) {
  const loser = winner === 'red' ? 'blue' : 'red';
  const headline = winner ? t('end.wins', { side: side(winner) }) : t('end.drawn');
  const who = { trapped: toMove, resignation: loser }[ending];
  const key = `end.${String(ending).replace(' ', '-')}`;
  const how = t(key, { side: who ? side(who) : '' });
  return t('end.sentence', { headline, how });
}

/** The winner a result token names (`1-0`: Red, `0-1`: Blue), or null. */
export function winnerOf(result) {
  return { '1-0': 'red', '0-1': 'blue' }[result] || null;
}
