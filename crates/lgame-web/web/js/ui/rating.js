// @ts-check
// Ratings in words and pictures (docs/ratings.md), shared by the profile, the leaderboard,
// the lobby, the game and the arenas: the categories and their names, a rating as a person
// reads it ("1621 ± 87", "1500?" while provisional, "1500 → 1512 (+12)"), and a category's
// history as a chart (inline SVG, drawn to its box's width).

import { svg } from '../dom.js';
import { t, number, language } from '../i18n.js';

/** The categories, the classic game's speeds first (the server's `ratings::categories`). */
export const CATEGORIES = /** @type {const} */ ([
  'bullet', 'blitz', 'rapid', 'classical', 'correspondence',
  'misere', 'sudden-death', 'neutral-required', 'one-neutral', 'symmetry', 'scoring',
]);

/** @param {string} category */
export const categoryName = (category) => t(`rating.category.${category}`);

/**
 * A rating as the lists show it: rounded, with `?` while provisional (a rating's digits are
 * never grouped: 1500, not 1,500).
 * @param {number} rating
 * @param {boolean} [provisional]
 */
export function ratingText(rating, provisional = false) {
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

/**
 * A rating with its deviation: "1621 ± 87", or "1500?" while provisional.
 * @param {{ rating: number, deviation: number, provisional: boolean }} r
 */
export function ratingWithDeviation(r) {
  return r.provisional ? ratingText(r.rating, true) : `${ratingText(r.rating)} ± ${Math.round(r.deviation)}`;
}

/**
 * A rated game's effect on a player: "1500?" before the end, "1500 → 1512 (+12)" after.
 * @param {{ rating: number, provisional: boolean }} before
 * @param {{ rating: number, provisional: boolean } | null} after
 */
export function ratingChange(before, after) {
  const was = ratingText(before.rating, before.provisional);
  if (!after) return was;
  const change = Math.round(after.rating) - Math.round(before.rating);
  const signed = change > 0 ? `+${change}` : change < 0 ? `−${-change}` : '±0';
  return `${was} → ${ratingText(after.rating, after.provisional)} (${signed})`;
}

/** A share (0..1) as a percentage. @param {number} share */
export const percent = (share) => `${number(Math.round(share * 100))} %`;

/** The chart's box: its width and height and the room left for the axes' labels. */
const BOX = { width: 320, height: 160, left: 44, right: 8, top: 10, bottom: 22 };

/**
 * A rating's history as a line chart: one point a rated game, oldest first (the x axis the
 * games in order, the first and last dates under it), the y axis with its lowest, middle
 * and highest ratings. Named for screen readers by what it shows.
 * @param {string} category
 * @param {import('../api.js').RatingPoint[]} history
 */
export function ratingChart(category, history) {
  const ratings = history.map((p) => p.rating);
  const low = Math.floor((Math.min(...ratings) - 10) / 10) * 10;
  const high = Math.ceil((Math.max(...ratings) + 10) / 10) * 10;
  const { width, height, left, right, top, bottom } = BOX;
  const x = (/** @type {number} */ i) => left + (history.length < 2 ? (width - left - right) / 2 : i * (width - left - right) / (history.length - 1));
  const y = (/** @type {number} */ r) => top + (high - r) * (height - top - bottom) / (high - low);
  const round = (/** @type {number} */ n) => Math.round(n * 10) / 10;
  const last = history[history.length - 1];
  const label = t('rating.chart', {
    category: categoryName(category), games: history.length,
    first: ratingText(history[0].rating), last: ratingText(last.rating),
  });
  const date = (/** @type {number} */ ms) => new Intl.DateTimeFormat(language(), { dateStyle: 'short' }).format(new Date(ms));
  const ticks = [low, Math.round((low + high) / 2), high];
  return svg('svg', {
    class: 'rating-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, 'data-category': category,
  },
  svg('title', { text: label }),
  ticks.map((r) => [
    svg('line', { class: 'rating-grid', x1: left, x2: width - right, y1: round(y(r)), y2: round(y(r)) }),
    svg('text', { class: 'rating-tick', x: left - 4, y: round(y(r)) + 4, 'text-anchor': 'end', text: String(r) }),
  ]),
  svg('text', { class: 'rating-tick', x: left, y: height - 6, text: date(history[0].at_ms) }),
  history.length > 1 && svg('text', { class: 'rating-tick', x: width - right, y: height - 6, 'text-anchor': 'end', text: date(last.at_ms) }),
  svg('polyline', { class: 'rating-line', fill: 'none', points: history.map((p, i) => `${round(x(i))},${round(y(p.rating))}`).join(' ') }),
  history.map((p, i) => svg('circle', { class: 'rating-point', cx: round(x(i)), cy: round(y(p.rating)), r: 2.5, 'data-rating': Math.round(p.rating) },
    svg('title', { text: `${date(p.at_ms)}: ${ratingText(p.rating)}` }))));
}
