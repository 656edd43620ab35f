// @ts-check
// The analysis panel: the position's value, the best move on the board on request, every L
// placement's best value (small boards), the moves best first (hover to preview, click to
// play), and a chart of who stood better at each turn of the game (a point goes to its ply).
// Also the parts other views show beside it: a move's value change and mark (?? ?) with their
// legend, and the "Show/Hide analysis" toggle. The data comes from ctrl.js.

import { messageOf } from '../../api.js';
import { h, svg, draw } from '../../dom.js';
import { t, side, valueText } from '../../i18n.js';
import { turnOf } from '../../notation.js';
import { miniBoard } from '../board.js';
import { analyse, analyseAll, bestMove, bestPlacements, movesByName, redScore } from './ctrl.js';

/** @typedef {import('../../api.js').PositionDesc} PositionDesc */
/** @typedef {import('../../api.js').Analysis} Analysis */
/** @typedef {import('./ctrl.js').Change} Change */

/**
 * What the panel does to the page: `preview` shows a move on the board (null: stop); `play`
 * plays one (absent when moves cannot be played here); `go` shows ply N of the game (absent:
 * the chart's points are not links).
 * @typedef {{
 *   preview: (move: import('../board.js').Cells | null) => void, play?: (move: string) => void,
 *   go?: (ply: number) => void
 * }} Hooks
 */

/** The marks' symbols, as lichess writes them. */
const SYMBOL = { blunder: '??', mistake: '?' };

/**
 * A value in a few characters: ✓5 (a win in 5 plies), = (a draw), ✗4 (a loss in 4), and ✓
 * or ✗ alone for a game already over (won, lost: no plies to count).
 * @param {{ value: import('../../api.js').ValueName, plies: number | null }} v
 */
export function shortValue({ value, plies }) {
  return value === 'draw' ? '=' : `${value === 'win' ? '✓' : '✗'}${plies ? plies : ''}`;
}

/**
 * A move's value change and mark, to put beside the move in a list: "✓5→=" and "?" say in
 * signs what the title (and the screen reader's name) says in words.
 * @param {Change | null} change
 */
export function changeBadge(change) {
  if (!change) return h('span', { class: 'change' });
  const { before, after, mark } = change;
  const words = t('analysis.change', {
    before: valueText(before.value, before.plies),
    after: valueText(after.value, after.plies),
  });
  const label = mark ? `${words}. ${t(`analysis.mark.${mark}`)}` : words;
  return h('span', {
    class: `change ${mark}`, title: label, 'aria-label': label, role: 'img',
    'data-before': before.value, 'data-after': after.value, 'data-mark': mark,
  },
  h('span', { class: `value ${after.value} short`, text: shortValue(after) }),
  mark ? h('span', { class: `mark ${mark}`, text: SYMBOL[mark] }) : null);
}

/** The legend of the marks: their signs and what they mean, in words. */
export function marksLegend() {
  return h('dl', { class: 'marks-legend muted' },
    ...(/** @type {const} */ (['blunder', 'mistake'])).flatMap((mark) => [
      h('dt', { class: `mark ${mark}`, text: SYMBOL[mark] }),
      h('dd', { text: t(`analysis.mark.${mark}`) }),
    ]),
    h('dt', { class: 'value short', text: '✓ = ✗' }),
    h('dd', { text: t('analysis.legendValues') }));
}

/**
 * The "Show analysis" / "Hide analysis" button as a function of whether the analysis is
 * shown: its words say what it will do.
 * @param {boolean} on
 * @param {() => void} onclick
 * @param {boolean} [hidden]
 */
export function toggleButton(on, onclick, hidden = false) {
  return h('button', {
    type: 'button', class: 'toggle-analysis', 'aria-expanded': String(on), hidden,
    text: t(on ? 'analysis.hide' : 'analysis.show'), onclick,
  });
}


export class AnalysisPanel {
  /**
   * @param {HTMLElement} container
   * @param {Hooks} hooks
   */
  constructor(container, hooks) {
    this.hooks = hooks;
    this.root = h('section', { class: 'analysis panel', 'aria-label': t('analysis.title') });
    container.appendChild(this.root);
    this.ticket = 0;
    /** Whether the best move is drawn on the board. */
    this.showBest = false;
    /** The best move of the position shown. @type {import('../board.js').Cells | null} */
    this.best = null;
  }

  /**
   * Shows the analysis of `desc` (an /api/position answer) and the chart of `history` (the
   * game's positions: the whole game, or up to this one), `at` marked on it.
   * @param {PositionDesc} desc
   * @param {string[]} [history]
   * @param {number} [at] the ply of `desc` in `history` (default: the last)
   */
  async update(desc, history = [], at = history.length - 1) {
    const ticket = ++this.ticket;
    const title = () => h('h2', { text: t('analysis.title') });
    this.best = null;
    this.drawBest();
    this.root.replaceChildren(title(), h('p', { class: 'muted', text: t('analysis.loading') }));
    let analysis;
    try {
      analysis = await analyse(desc.variant, desc.position);
    } catch (e) {
      if (ticket === this.ticket) this.root.replaceChildren(title(), h('p', { class: 'error', role: 'alert', text: messageOf(e) }));
      return;
    }
    if (ticket !== this.ticket) return;
    const best = bestMove(desc, analysis);
    this.best = best && { l: best.l, neutrals: best.neutrals };
    const value = h('p', { class: 'position-value', 'data-value': analysis.value, 'data-plies': analysis.plies ?? '' },
      `${side(desc.turn)}: `, h('span', { class: `value ${analysis.value}`, text: valueText(analysis.value, analysis.plies) }));
    this.root.replaceChildren(title(), value);
    // A finished position has no move: no best move, no placements, no list.
    const moves = !desc.outcome && analysis.moves.length > 0;
    if (moves && this.best) this.root.appendChild(this.bestButton(analysis.moves[0].move));
    if (history.length > 1) this.root.appendChild(await this.chart(desc.variant, history, at));
    if (ticket !== this.ticket) return;
    if (moves) {
      // The placements need the list of moves, which the server leaves out when it is huge.
      const placements = bestPlacements(desc, analysis);
      if (placements.size) this.root.append(this.placements(desc, placements));
      this.root.append(this.moveTable(desc, analysis));
    }
    this.drawBest();
  }

  /** Draws the best move on the board while it is asked for (else nothing). */
  drawBest() {
    this.hooks.preview(this.showBest ? this.best : null);
  }

  /**
   * The button that draws the best move on the board.
   * @param {string} move
   */
  bestButton(move) {
    const button = h('button', { type: 'button', class: 'show-best', 'aria-pressed': String(this.showBest) });
    const label = () => {
      button.textContent = t(this.showBest ? 'analysis.hideBest' : 'analysis.showBest');
      button.title = t('analysis.bestIs', { move });
    };
    button.addEventListener('click', () => {
      this.showBest = !this.showBest;
      button.setAttribute('aria-pressed', String(this.showBest));
      label();
      this.drawBest();
    });
    label();
    return h('p', { class: 'row' }, button, h('span', { class: 'mono best-move', hidden: !this.showBest, text: move }));
  }

  /**
   * Shows a move on the board while the pointer or the focus is on `node`.
   * @param {HTMLElement} node
   * @param {import('../board.js').Cells | null} move
   */
  previewOn(node, move) {
    const show = () => { if (move) this.hooks.preview(move); };
    // Back to the best move, when it is drawn.
    const hide = () => this.drawBest();
    node.addEventListener('mouseenter', show);
    node.addEventListener('focus', show);
    node.addEventListener('mouseleave', hide);
    node.addEventListener('blur', hide);
  }

  /**
   * Each legal L placement with the best value of the moves that put the L there.
   * @param {PositionDesc} desc
   * @param {ReturnType<typeof bestPlacements>} placements
   */
  placements(desc, placements) {
    const grid = h('div', { class: 'placements' });
    for (const [key, m] of placements) {
      const label = `${key}: ${valueText(m.value, m.plies)}`;
      const figure = h('button', {
        type: 'button', class: `placement ${m.value}`, 'data-l': key, 'data-value': m.value,
        'data-plies': m.plies ?? '', 'aria-label': label,
      },
      miniBoard(desc, m.entry.l, m.value, label),
      h('span', { class: `value ${m.value}`, text: m.plies ?? '' }));
      this.previewOn(figure, { l: m.entry.l, neutrals: [] });
      grid.appendChild(figure);
    }
    return h('details', { open: true }, h('summary', { text: t('analysis.placements') }), grid);
  }

  /**
   * Every move, best first, with its value.
   * @param {PositionDesc} desc
   * @param {Analysis} analysis
   */
  moveTable(desc, analysis) {
    const body = h('tbody');
    const entries = movesByName(desc);
    for (const m of analysis.moves) {
      const row = h('tr', { class: 'move-row', 'data-move': m.move, 'data-value': m.value, 'data-plies': m.plies ?? '', tabindex: 0 },
        h('td', { class: 'mono', text: m.move }),
        h('td', {}, h('span', { class: `value ${m.value}`, text: valueText(m.value, m.plies) })));
      const entry = entries.get(m.move);
      this.previewOn(row, entry ? { l: entry.l, neutrals: entry.neutrals } : null);
      const playHook = this.hooks.play;
      if (playHook) {
        row.title = t('analysis.clickToPlay');
        const play = () => { this.hooks.preview(null); playHook(m.move); };
        row.addEventListener('click', play);
        row.addEventListener('keydown', (e) => { if (e.key === 'Enter') play(); });
      }
      body.appendChild(row);
    }
    const table = h('table', { class: 'moves-table' },
      h('caption', { class: 'visually-hidden', text: t('analysis.moves') }),
      h('thead', {}, h('tr', {}, h('th', { text: t('analysis.move') }), h('th', { text: t('analysis.value') }))),
      body);
    return h('div', {},
      h('p', { class: 'muted', text: t('analysis.legalMoves', { count: analysis.legal_moves }) }),
      h('div', { class: 'scroll' }, table));
  }

  /**
   * Who stood better at each position of the game, from Red's side; the point of ply `at` is
   * marked, and a point is a link to its ply when the page can go there.
   * @param {string} variant
   * @param {string[]} history
   * @param {number} at
   */
  async chart(variant, history, at) {
    const values = await analyseAll(variant, history);
    const w = 320;
    const hgt = 120;
    const pad = 18;
    const n = history.length;
    /** @param {number} i */
    const x = (i) => pad + (n === 1 ? 0 : (i * (w - 2 * pad)) / (n - 1));
    /** @param {number} s */
    const y = (s) => hgt / 2 - s * (hgt / 2 - pad);
    const points = values.flatMap((a, i) => (a ? [{ a, i, s: redScore(a) }] : []));
    const chart = svg('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'chart', role: 'group', 'aria-label': t('analysis.chart') });
    draw(chart, 'line', { x1: pad, x2: w - pad, y1: hgt / 2, y2: hgt / 2, class: 'axis' });
    if (at >= 0 && at < n) draw(chart, 'line', { x1: x(at), x2: x(at), y1: 4, y2: hgt - 4, class: 'now' });
    draw(chart, 'text', { x: 2, y: pad - 4, text: t('analysis.chartRed') });
    draw(chart, 'text', { x: 2, y: hgt - 4, text: t('analysis.chartBlue') });
    draw(chart, 'polyline', { points: points.map((p) => `${x(p.i)},${y(p.s)}`).join(' '), class: 'line' });
    const go = this.hooks.go;
    // Many plies make small dots: the point's target stays wide enough to hit.
    const r = Math.max(2.5, Math.min(4, (w - 2 * pad) / n / 2.5));
    for (const { a, i, s } of points) {
      const label = `${t('analysis.ply', { ply: i })}: ${side(turnOf(a.position))} ${valueText(a.value, a.plies)}`;
      const kind = s > 0 ? 'win' : s < 0 ? 'loss' : 'draw';
      const point = draw(chart, 'g', { class: `pt-group${i === at ? ' current' : ''}`, 'data-ply': i });
      draw(point, 'circle', { cx: x(i), cy: y(s), r: Math.max(r, 8), class: 'hit' });
      draw(point, 'circle', { cx: x(i), cy: y(s), r: i === at ? r + 2 : r, class: `pt ${kind}` });
      draw(point, 'title', { text: label });
      if (go) {
        point.setAttribute('role', 'link');
        point.setAttribute('tabindex', '0');
        point.setAttribute('aria-label', label);
        point.addEventListener('click', () => go(i));
        point.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(i); } });
      }
    }
    return h('figure', { class: 'value-chart' }, chart,
      h('figcaption', { class: 'muted', text: go ? `${t('analysis.chartCaption')} ${t('analysis.chartGo')}` : t('analysis.chartCaption') }));
  }
}
