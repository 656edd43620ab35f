// @ts-check
// The page's shell and router: the navigation, the account area, language and theme, and the
// views by address (`#/play`, `#/game/ID`, `#/analyse?variant=…&position=…`,
// `#/leaderboard/CATEGORY`, `#/arena` and `#/arena/ID`, a mailed link's `#/reset?code=…`, …, and a
// player's profile at the path `/@/NAME`). Each view is a
// controller and a view (`<name>/ctrl.js`, `<name>/view.js`); the view module exports
// `render(main, params, rest)`, which may return (or resolve to) a function that cleans up.
// Views never import this module: addresses are written with address.js.

import { t, language, setLanguage, onLanguageChange, LANGUAGES, ready } from './i18n.js';
import { h } from './dom.js';
import { readOneOf, write } from './storage.js';
import { messageOf } from './api.js';
import { href } from './address.js';
import { icon } from './ui/icons.js';
import * as session from './session.js';
import { installWorker, importKeptGames } from './engine/install.js';
import { follow } from './arena/follow.js';
// Loaded with the page, not on demand: a headless print (`chromium --print-to-pdf`) prints
// at the load event, which a dynamic import does not hold back.
import * as printView from './print/view.js';

/**
 * A view module.
 * @typedef {{ render: (main: HTMLElement, params: URLSearchParams, rest: string[]) => unknown }} View
 */

/** @type {Record<string, () => Promise<View>>} */
const VIEWS = {
  play: () => import('./play/view.js'),
  game: () => import('./game/view.js'),
  analyse: () => import('./analyse/view.js'),
  editor: () => import('./editor/view.js'),
  puzzles: () => import('./puzzles/view.js'),
  learn: () => import('./learn/view.js'),
  print: async () => printView,
  login: async () => {
    const forms = await import('./account/forms.js');
    return { render: (main, params) => forms.render(main, params, 'login') };
  },
  signup: async () => {
    const forms = await import('./account/forms.js');
    return { render: (main, params) => forms.render(main, params, 'signup') };
  },
  forgot: async () => {
    const mail = await import('./account/mail.js');
    return { render: (main) => mail.renderForgot(main) };
  },
  reset: async () => {
    const mail = await import('./account/mail.js');
    return { render: (main, params) => mail.renderReset(main, params) };
  },
  'confirm-email': async () => {
    const mail = await import('./account/mail.js');
    return { render: (main, params) => mail.renderConfirm(main, params) };
  },
  account: () => import('./account/view.js'),
  games: () => import('./games/view.js'),
  profile: () => import('./profile/view.js'),
  leaderboard: () => import('./leaderboard/view.js'),
  arena: () => import('./arena/view.js'),
};
const NAV = ['play', 'leaderboard', 'arena', 'analyse', 'editor', 'puzzles', 'learn', 'print'];

/** @type {(() => void) | null} */
let cleanup = null;
let rendering = 0;
/** The view and path last shown (`game/ID`): its parameters alone changing keeps the scroll. */
let shownPlace = '';

/**
 * An element of the page's shell (index.html).
 * @param {string} id
 */
function shell(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`index.html has no #${id}`);
  return node;
}

/** The current address: view name, path rest and parameters. */
function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  // A player's profile is a path of its own (`/@/NAME`), its filters in the query.
  const player = location.pathname.match(/^\/@\/([^/]+)\/?$/);
  if (player && !hash) {
    return { view: 'profile', rest: [decodeURIComponent(player[1])], params: new URLSearchParams(location.search) };
  }
  const [path, search = ''] = hash.split('?');
  const [view, ...rest] = path.split('/');
  return { view: VIEWS[view] ? view : 'play', rest, params: new URLSearchParams(search) };
}

/** What the views' addresses (`#/…`) need before them: the root's path from a profile's (`/@/NAME`). */
function root() {
  return location.pathname === '/' ? '' : '/';
}

/** @param {string} current */
function renderNav(current) {
  shell('nav').replaceChildren(h('ul', {}, NAV.map((name) => h('li', {}, h('a', {
    href: `${root()}#/${name}`,
    'aria-current': name === current || (current === 'game' && name === 'play') ? 'page' : null,
    text: t(`nav.${name}`),
  })))));
  const select = /** @type {HTMLSelectElement} */ (shell('language'));
  select.replaceChildren(...Object.keys(LANGUAGES).map((code) => {
    const option = new Option(LANGUAGES[code], code);
    option.selected = code === language();
    return option;
  }));
  if (select.previousElementSibling) select.previousElementSibling.textContent = t('language.label');
  const skip = document.querySelector('.skip');
  if (skip) skip.textContent = t('nav.skip');
  const theme = shell('theme');
  const dark = document.documentElement.dataset.theme === 'dark';
  theme.replaceChildren(icon(dark ? 'sun' : 'moon'));
  theme.setAttribute('aria-label', dark ? t('theme.light') : t('theme.dark'));
  theme.title = theme.getAttribute('aria-label') || '';
  const menu = shell('menu');
  menu.setAttribute('aria-label', t('site.menu'));
  menu.title = t('site.menu');
  document.querySelector('meta[name="description"]')?.setAttribute('content', t('site.description'));
  renderAccount(current);
}

/**
 * The header's account area: log in and sign up (back to this view afterwards), or the
 * username with its menu (my games, profile, account settings, log out).
 * @param {string} current the view shown
 */
function renderAccount(current) {
  const who = session.account();
  const area = shell('account');
  area.setAttribute('aria-label', t('account.area'));
  area.setAttribute('role', 'group');
  if (who === undefined) {
    area.replaceChildren();
    return;
  }
  const back = ['login', 'signup', 'forgot', 'reset'].includes(current) || location.pathname !== '/' ? null : location.hash || null;
  const link = (/** @type {string} */ cls, /** @type {string} */ view, /** @type {string} */ text) =>
    h('a', { class: cls, href: `${root()}${href(view, view === 'login' || view === 'signup' ? { next: back } : {})}`, text });
  if (!who) {
    area.replaceChildren(link('my-games', 'games', t('account.myGames')), ' ',
      link('login', 'login', t('account.login')), ' ', link('signup', 'signup', t('account.signup')));
    return;
  }
  const menu = h('details', { class: 'account-menu' },
    h('summary', { class: 'account-name', 'aria-label': t('account.menu', { name: who.username }) }, icon('user'), h('span', { text: who.username })),
    h('ul', { class: 'account-links' },
      h('li', {}, link('my-games', 'games', t('account.myGames'))),
      h('li', {}, h('a', { class: 'profile', href: `/@/${encodeURIComponent(who.username)}`, text: t('account.profile') })),
      h('li', {}, link('settings', 'account', t('account.settings'))),
      h('li', {}, h('button', {
        type: 'button', class: 'logout', text: t('account.logout'),
        onclick: async () => {
          try { await session.logOut(); } catch (e) { console.error(e); }
          show();
        },
      }))));
  // A link chosen closes the menu.
  menu.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a, button')) menu.open = false;
  });
  area.replaceChildren(menu);
}

/**
 * Opens or closes the navigation on a narrow screen (where it folds behind the menu button).
 * @param {boolean} open
 */
function setMenu(open) {
  shell('menu').setAttribute('aria-expanded', String(open));
  document.body.classList.toggle('menu-open', open);
}

/**
 * Gives a view without a level-one heading one, seen only by screen readers and search
 * engines: the view's title.
 * @param {HTMLElement} main
 * @param {string} view
 */
function ensureHeading(main, view) {
  if (main.querySelector('h1')) return;
  main.prepend(h('h1', { class: 'visually-hidden', text: t(`title.${view}`) }));
}

async function show() {
  const ticket = ++rendering;
  const { view, rest, params } = route();
  if (cleanup) {
    try { cleanup(); } catch (e) { console.error(e); }
    cleanup = null;
  }
  renderNav(view);
  setMenu(false);
  document.body.dataset.view = view;
  const main = shell('view');
  const module = await VIEWS[view]();
  if (ticket !== rendering) return;
  main.textContent = '';
  // Another view (or another game) opens at its top, not where the last one was scrolled
  // to: on a phone a game opened from far down the home page shows its board and status.
  const place = [view, ...rest].join('/');
  if (place !== shownPlace) window.scrollTo(0, 0);
  shownPlace = place;
  document.title = `${t(`title.${view}`)} · lgame`;
  try {
    const result = await module.render(main, params, rest);
    if (ticket === rendering && typeof result === 'function') cleanup = /** @type {() => void} */ (result);
  } catch (e) {
    console.error(e);
    main.appendChild(h('p', { class: 'error', role: 'alert', text: messageOf(e) }));
  }
  if (ticket !== rendering) return;
  // The address moved on to another view while this one rendered, its `hashchange` not
  // heard yet: that view is shown, and this one is not marked whole at its address.
  if (route().view !== view) {
    show();
    return;
  }
  ensureHeading(main, view);
  // The address whose view is now whole (a view may have rewritten its parameters while
  // rendering): until it equals the address, the page still shows or loads another view.
  document.body.dataset.shown = location.href;
}

function initialTheme() {
  const stored = readOneOf('theme', ['light', 'dark']);
  const dark = stored ? stored === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

initialTheme();
document.documentElement.lang = language();
shell('language').addEventListener('change', (e) => {
  if (e.target instanceof HTMLSelectElement) setLanguage(e.target.value);
});
shell('theme').addEventListener('click', () => {
  const dark = document.documentElement.dataset.theme !== 'dark';
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  write('theme', dark ? 'dark' : 'light');
  renderNav(route().view);
});
// A link chosen in the folded navigation closes it (the same view's link changes no address).
shell('nav').addEventListener('click', (event) => {
  if (event.target instanceof Element && event.target.closest('a')) setMenu(false);
});
shell('menu').addEventListener('click', () => {
  setMenu(shell('menu').getAttribute('aria-expanded') !== 'true');
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && document.body.classList.contains('menu-open')) {
    setMenu(false);
    shell('menu').focus();
  }
});
// The skip link must not change the address: the router owns it.
document.querySelector('.skip')?.addEventListener('click', (event) => {
  event.preventDefault();
  shell('view').focus();
});
onLanguageChange(show);
session.onChange(() => renderAccount(route().view));
session.load();
window.addEventListener('hashchange', show);
// The page's language's texts first (English comes with the page; another is one request).
await ready;
show();
// An arena joined pairs its player from whatever page they have open.
follow();
// Kept for use without a network once the page has loaded and settled (engine/install.js):
// the worker's fetching of every file waits until the first view is done with the network.
window.addEventListener('load', () => {
  importKeptGames();
  setTimeout(installWorker, 2000);
});
