// @ts-check
// A player's profile (`/@/NAME`), drawn: their name and since when they play, the counts of
// their wins, draws and losses, their ratings (each with its history's chart), their current games, and their games with the filters
// (result, variant, opponent) and pages. profile/ctrl.js asks for them.

import { h, panel } from '../dom.js';
import { t, number, plural } from '../i18n.js';
import { href } from '../address.js';
import { variantNames } from '../catalog.js';
import { gamesTable, pager, variantName } from '../ui/gamelist.js';
import { dateOf } from '../account/view.js';
import { ratingWithDeviation, ratingChart, categoryName, percent } from '../ui/rating.js';
import { ProfileCtrl, RESULTS } from './ctrl.js';

/** @typedef {import('../api.js').Profile} Profile */

/**
 * The player: name, since when, counts, and the games they play now.
 * @param {{ profile: Profile | null, missing: string, error: string }} s
 * @param {ProfileCtrl} ctrl
 */
function headView(s, ctrl) {
  const p = s.profile;
  const counts = p && [['games', p.counts.games], ['wins', p.counts.wins], ['draws', p.counts.draws], ['losses', p.counts.losses]];
  return h('div', { class: 'part' },
    h('h1', { class: 'profile-name' }, p ? p.username : s.missing ? t('title.profile') : ctrl.name,
      p && p.bot ? [' ', h('span', { class: 'bot-badge', text: t('bots.badge') })] : null),
    p && p.bot && !ctrl.own() && challengeButton(ctrl),
    s.missing && h('p', { class: 'error not-found', role: 'alert', text: s.missing }),
    h('p', { class: 'error', role: 'alert', hidden: !s.error, text: s.error }),
    p && [
      h('p', { class: 'muted', text: t('profile.since', { date: dateOf(p.created) }) }),
      h('section', { class: 'panel counts', 'aria-label': t('profile.counts') },
        h('dl', { class: 'count-list' }, (counts || []).map(([k, n]) => h('div', { class: `count ${k}`, 'data-count': k },
          h('dt', { text: t(`profile.${k}`) }), h('dd', { text: number(Number(n)) }))))),
      h('section', { class: 'panel playing' },
        h('h2', { text: t('profile.playing') }),
        p.playing.length ? gamesTable(p.playing, ctrl.own()) : h('p', { class: 'muted', text: t('profile.noneNow') })),
    ]);
}

/**
 * A bot's profile's button: challenge it (5+0, colours drawn).
 * @param {ProfileCtrl} ctrl
 */
function challengeButton(ctrl) {
  const button = h('button', { type: 'button', class: 'bot-challenge primary', text: ctrl.challenging ? t('bots.waiting', { name: ctrl.name }) : t('bots.challenge') });
  button.disabled = ctrl.challenging;
  button.addEventListener('click', () => ctrl.challenge());
  return button;
}

/**
 * The accuracy in rated games: the average, and the last ten games' beside it with its trend.
 * @param {import('../api.js').RatingAccuracy} a
 */
function accuracyText(a) {
  const trend = a.recent > a.average + 0.005 ? 'up' : a.recent < a.average - 0.005 ? 'down' : 'flat';
  return t(`rating.accuracy.${trend}`, { average: percent(a.average), recent: percent(a.recent) });
}

/**
 * The player's ratings, a card a category: the rating with its deviation, the games, the
 * accuracy, and the history's chart.
 * @param {import('../api.js').Rating[] | null} ratings
 */
function ratingsView(ratings) {
  return h('section', { class: 'panel ratings', hidden: !ratings, 'aria-labelledby': 'ratings-title' },
    h('h2', { id: 'ratings-title', text: t('rating.title') }),
    ratings && !ratings.length && h('p', { class: 'muted ratings-none', text: t('rating.none') }),
    h('div', { class: 'rating-cards' }, (ratings || []).map((r) => h('article', { class: 'rating-card', 'data-category': r.category, 'data-key': r.category },
      h('h3', {}, h('a', { href: `/${href('leaderboard', {}, [r.category])}`, text: categoryName(r.category) })),
      h('p', { class: 'rating-value' }, h('strong', { text: ratingWithDeviation(r) }), ' ',
        h('span', { class: 'muted rating-games', text: plural('rating.games', r.games) })),
      r.accuracy && h('p', { class: 'rating-accuracy muted', text: accuracyText(r.accuracy) }),
      r.history.length > 0 && ratingChart(r.category, r.history)))));
}

/**
 * The filters' form, built once (what a person chose stays as they choose it).
 * @param {ProfileCtrl} ctrl
 */
function filtersForm(ctrl) {
  const result = h('select', { id: 'filter-result', name: 'result' });
  result.add(new Option(t('profile.anyResult'), ''));
  const words = { win: 'profile.wins', draw: 'profile.draws', loss: 'profile.losses', ongoing: 'games.playing' };
  for (const r of RESULTS) result.add(new Option(t(words[r]), r));
  const variant = h('select', { id: 'filter-variant', name: 'variant' });
  variant.add(new Option(t('profile.anyVariant'), ''));
  for (const v of variantNames) variant.add(new Option(variantName(v), v));
  const opponent = h('input', { id: 'filter-opponent', name: 'opponent', autocomplete: 'off', spellcheck: 'false' });
  result.value = ctrl.filters.result;
  variant.value = ctrl.filters.variant;
  opponent.value = ctrl.filters.opponent;
  const form = h('form', { class: 'filters row', role: 'search', 'aria-label': t('profile.filter') },
    h('label', { for: 'filter-result', class: 'visually-hidden', text: t('games.result') }), result, ' ',
    h('label', { for: 'filter-variant', class: 'visually-hidden', text: t('games.variant') }), variant, ' ',
    h('label', { for: 'filter-opponent', text: t('profile.opponent') }), ' ', opponent, ' ',
    h('button', { type: 'submit', class: 'apply', text: t('profile.apply') }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ctrl.filter({ result: result.value, variant: variant.value, opponent: opponent.value.trim() });
  });
  form.addEventListener('change', (event) => {
    if (event.target !== opponent) form.requestSubmit();
  });
  return form;
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 * @param {string[]} rest the player's name
 */
export async function render(main, params, rest) {
  const ctrl = new ProfileCtrl(rest[0] || '', params, () => redraw());
  const head = h('div', { class: 'part' });
  const ratings = h('section');
  const list = h('div', { class: 'part' });
  const history = h('section', { class: 'panel history-list', hidden: true },
    h('h2', { text: t('profile.history') }), filtersForm(ctrl), list);
  main.append(head, ratings, history);
  const draw = {
    head: panel(head, (/** @type {Parameters<typeof headView>[0]} */ s) => headView(s, ctrl)),
    ratings: panel(ratings, ratingsView),
    list: panel(list, (/** @type {{ games: import('../api.js').GamesPage | null }} */ s) => h('div', { class: 'part' },
      s.games && (s.games.games.length
        ? [gamesTable(s.games.games, ctrl.own()), pager(s.games, (page) => ctrl.load(page))]
        : h('p', { class: 'muted games-none', text: t('games.none') })))),
  };
  function redraw() {
    draw.head({ profile: ctrl.profile, missing: ctrl.missing ? t('profile.notFound', { name: ctrl.name }) : '', error: ctrl.error });
    draw.ratings(ctrl.ratings);
    draw.list({ games: ctrl.games });
    history.hidden = !ctrl.profile;
    if (ctrl.profile) document.title = `${ctrl.profile.username} · lgame`;
  }
  redraw();
  await ctrl.start();
}
