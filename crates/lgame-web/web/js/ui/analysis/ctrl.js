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

/**
 * How a move changed its mover's prospects, as lichess marks them: `blunder` (??) throws a
 * win or a draw into a loss, `mistake` (?) a win into a draw; otherwise none.
 * @typedef {'blunder' | 'mistake' | ''} Mark
 */

/**
 * A move's value change: the mover's value before it (`before`, the position's) and after it
 * (`after`: the next position's value seen from the mover, so its opponent's loss in 4 is the
 * mover's win in 4), and the mark.
 * @typedef {{ before: { value: import('../../api.js').ValueName, plies: number | null },
 *   after: { value: import('../../api.js').ValueName, plies: number | null }, mark: Mark }} Change
 */

/** @type {Record<import('../../api.js').ValueName, import('../../api.js').ValueName>} */
const FLIP = { win: 'loss', draw: 'draw', loss: 'win' };

/**
 * The change a move makes, from the analyses of the positions before and after it.
 * @param {Analysis} before
 * @param {Analysis} after
 * @returns {Change}
 */
export function judge(before, after) {
  const now = { value: FLIP[after.value], plies: after.plies };
  /** @type {Mark} */
  let mark = '';
  if (now.value === 'loss' && before.value !== 'loss') mark = 'blunder';
  else if (before.value === 'win' && now.value === 'draw') mark = 'mistake';
  return { before: { value: before.value, plies: before.plies }, after: now, mark };
}

/**
 * The change each move of a line makes (`positions`: the start and the position after each
 * move); null for a move where the solver gives no value (a variant it does not solve).
 * @param {string} variant
 * @param {string[]} positions
 * @returns {Promise<(Change | null)[]>}
 */
export async function lineChanges(variant, positions) {
  const values = await analyseAll(variant, positions);
  return values.slice(1).map((after, i) => {
    const before = values[i];
    return before && after ? judge(before, after) : null;
  });
}

/**
 * The best move of an analysis with its cells (null when there is none to draw).
 * @param {PositionDesc} desc
 * @param {Analysis} analysis
 * @returns {MoveEntry | null}
 */
export function bestMove(desc, analysis) {
  const first = analysis.moves[0];
  return (first && movesByName(desc).get(first.move)) || null;
}
