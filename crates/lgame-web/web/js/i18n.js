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

/** A refusal of a cell for the L (`/api/position`'s `refusal_reasons`), or the server's text. */
export function refusal(reason, text) {
  if (!reason) return text;
  switch (reason.kind) {
    case 'occupied':
      return t('refusal.occupied', { cell: reason.cell, piece: t(`refusal.piece.${reason.piece}`) });
    case 'unchanged':
      return t('refusal.unchanged', { cells: reason.cells });
    case 'no_placement':
      return t('refusal.noPlacement', { cells: reason.cells });
    default:
      return text;
  }
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
