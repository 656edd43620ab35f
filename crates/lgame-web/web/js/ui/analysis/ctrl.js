// @ts-check
// The solved game at a person's fingertips, the data: the solver's analysis of a position
// (asked once per page), each L placement's best move, and who stood better at each turn of
// a game. Values come from the server's solver (/api/analysis); view.js draws them.

import * as api from '../../api.js';
import { turnOf } from '../../notation.js';

/** @typedef {import('../../api.js').Analysis} Analysis */
/** @typedef {import('../../api.js').AnalysedMove} AnalysedMove */
/** @typedef {import('../../api.js').MoveEntry} MoveEntry */
/** @typedef {import('../../api.js').PositionDesc} PositionDesc */

/** @type {Map<string, Promise<Analysis>>} */
const cache = new Map();

/**
 * The analysis of a position, asked once per page.
 * @param {string} variant
 * @param {string} position
 * @returns {Promise<Analysis>}
 */
export function analyse(variant, position) {
  const key = `${variant}|${position}`;
  let request = cache.get(key);
  if (!request) {
    request = api.analysis(variant, position);
    request.catch(() => cache.delete(key));
    cache.set(key, request);
  }
  return request;
}

/**
 * Each legal L placement (its cells sorted, as a key) with the best of the moves that put the
 * L there: the first of them in the analysis, which lists the best first.
 * @param {PositionDesc} desc
 * @param {Analysis} analysis
 * @returns {Map<string, AnalysedMove & { entry: MoveEntry }>}
 */
export function bestPlacements(desc, analysis) {
  const entries = movesByName(desc);
  /** @type {Map<string, AnalysedMove & { entry: MoveEntry }>} */
  const best = new Map();
  for (const m of analysis.moves) {
    const entry = entries.get(m.move);
    if (!entry) continue;
    const key = entry.l.slice().sort().join(',');
    if (!best.has(key)) best.set(key, { ...m, entry });
  }
  return best;
}

/**
 * The legal moves of a position by their notation.
 * @param {PositionDesc} desc
 * @returns {Map<string, MoveEntry>}
 */
export function movesByName(desc) {
  return new Map((desc.moves || []).map((m) => [m.move, m]));
}

/**
 * A score for Red between -1 and 1: a quicker win counts more.
 * @param {Analysis} analysis
 */
export function redScore(analysis) {
  const sign = { win: 1, draw: 0, loss: -1 }[analysis.value];
  const strength = sign === 0 ? 0 : sign * (1 - Math.min(analysis.plies || 0, 60) / 80);
  return turnOf(analysis.position) === 'red' ? strength : -strength;
}

/**
 * The analyses of a game's positions, one by one (null where the solver gave none).
 * @param {string} variant
 * @param {string[]} history
 */
export function analyseAll(variant, history) {
  return Promise.all(history.map((p) => analyse(variant, p).catch(() => null)));
}
