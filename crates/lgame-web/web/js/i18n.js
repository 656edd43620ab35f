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
