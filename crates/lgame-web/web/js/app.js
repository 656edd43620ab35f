// The page's shell: the navigation, language and theme, and the views by address
// (`#/play`, `#/game/ID?token=…`, `#/analyse?variant=…&position=…`, …). Each view module
// exports `render(main, params)`, which may return a function that cleans up.

import { t, language, setLanguage, onLanguageChange, LANGUAGES } from './i18n.js';
// Loaded with the page, not on demand: a headless print (`chromium --print-to-pdf`) prints
// at the load event, which a dynamic import does not hold back.
import * as printView from './print.js';

const VIEWS = {
  play: () => import('./play.js'),
  game: () => import('./game.js'),
  analyse: () => import('./analyse.js'),
  editor: () => import('./editor.js'),
  puzzles: () => import('./puzzles.js'),
  learn: () => import('./learn.js'),
  print: async () => printView,
};
const NAV = ['play', 'analyse', 'editor', 'puzzles', 'learn', 'print'];

let cleanup = null;
let rendering = 0;

/** The current address: view name, path rest and parameters. */
export function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, search = ''] = hash.split('?');
  const [view, ...rest] = path.split('/');
  return { view: VIEWS[view] ? view : 'play', rest, params: new URLSearchParams(search) };
}

/** An address for a view with parameters. */
export function href(view, params = {}, rest = []) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const s = q.toString();
  return `#/${[view, ...rest].join('/')}${s ? '?' + s : ''}`;
}

/** Changes the address without re-rendering the view (the view keeps its state). */
export function replaceAddress(address) {
  history.replaceState(null, '', address);
}

function renderNav(current) {
  const nav = document.getElementById('nav');
  nav.textContent = '';
  const list = document.createElement('ul');
  for (const name of NAV) {
    const item = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#/${name}`;
    a.textContent = t(`nav.${name}`);
    if (name === current || (current === 'game' && name === 'play')) a.setAttribute('aria-current', 'page');
    item.appendChild(a);
    list.appendChild(item);
  }
  nav.appendChild(list);
  const select = document.getElementById('language');
  select.textContent = '';
  for (const code of Object.keys(LANGUAGES)) {
    const option = document.createElement('option');
    option.value = code;
    option.textContent = LANGUAGES[code]['language.name'];
    option.selected = code === language();
    select.appendChild(option);
  }
  select.previousElementSibling.textContent = t('language.label');
  document.querySelector('.skip').textContent = t('nav.skip');
  const theme = document.getElementById('theme');
  const dark = document.documentElement.dataset.theme === 'dark';
  theme.textContent = dark ? '☀' : '☾';
  theme.setAttribute('aria-label', dark ? t('theme.light') : t('theme.dark'));
  theme.title = theme.getAttribute('aria-label');
}

async function show() {
  const ticket = ++rendering;
  const { view, rest, params } = route();
  if (cleanup) {
    try { cleanup(); } catch (e) { console.error(e); }
    cleanup = null;
  }
  renderNav(view);
  document.body.dataset.view = view;
  const main = document.getElementById('view');
  const module = await VIEWS[view]();
  if (ticket !== rendering) return;
  main.textContent = '';
  document.title = `${t(`title.${view}`)} · lgame`;
  try {
    const result = await module.render(main, params, rest);
    if (ticket === rendering && typeof result === 'function') cleanup = result;
  } catch (e) {
    console.error(e);
    const p = document.createElement('p');
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = e.message;
    main.appendChild(p);
  }
}

function initialTheme() {
  const stored = localStorage.getItem('lgame.theme');
  const dark = stored ? stored === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

initialTheme();
document.documentElement.lang = language();
document.getElementById('language').addEventListener('change', (e) => setLanguage(e.target.value));
document.getElementById('theme').addEventListener('click', () => {
  const dark = document.documentElement.dataset.theme !== 'dark';
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  localStorage.setItem('lgame.theme', dark ? 'dark' : 'light');
  renderNav(route().view);
});
// The skip link must not change the address: the router owns it.
document.querySelector('.skip').addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('view').focus();
});
onLanguageChange(show);
window.addEventListener('hashchange', show);
show();
