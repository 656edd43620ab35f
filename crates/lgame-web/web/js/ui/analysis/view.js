// @ts-check
// The analysis panel: the position's value, every L placement's best value (small boards),
// the moves best first (hover to preview, click to play), and a chart of who stood better at
// each turn of the game. The data comes from ctrl.js.

import { messageOf } from '../../api.js';
import { h, svg, draw } from '../../dom.js';
import { t, side, valueText } from '../../i18n.js';
import { turnOf } from '../../notation.js';
import { miniBoard } from '../board.js';
import { analyse, analyseAll, bestPlacements, movesByName, redScore } from './ctrl.js';

/** @typedef {import('../../api.js').PositionDesc} PositionDesc */
/** @typedef {import('../../api.js').Analysis} Analysis */

/**
 * What the panel does to the page: `preview` shows a move on the board (null: stop); `play`
 * plays one (absent when moves cannot be played here).
 * @typedef {{ preview: (move: import('../board.js').Cells | null) => void, play?: (move: string) => void }} Hooks
 */

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
  }

  /**
   * Shows the analysis of `desc` (an /api/position answer) and the chart of `history`.
   * @param {PositionDesc} desc
   * @param {string[]} [history]
   */
  async update(desc, history = []) {
    const ticket = ++this.ticket;
    const title = () => h('h2', { text: t('analysis.title') });
    this.root.replaceChildren(title(), h('p', { class: 'muted', text: t('analysis.loading') }));
    let analysis;
    try {
      analysis = await analyse(desc.variant, desc.position);
    } catch (e) {
      if (ticket === this.ticket) this.root.replaceChildren(title(), h('p', { class: 'error', role: 'alert', text: messageOf(e) }));
      return;
    }
    if (ticket !== this.ticket) return;
    this.root.replaceChildren(
      title(),
      h('p', { class: 'position-value', 'data-value': analysis.value, 'data-plies': analysis.plies ?? '' },
        `${side(desc.turn)}: `, h('span', { class: `value ${analysis.value}`, text: valueText(analysis.value, analysis.plies) })),
    );
    if (history.length > 1) this.root.appendChild(await this.chart(desc.variant, history));
    if (ticket !== this.ticket) return;
    this.root.append(this.placements(desc, analysis), this.moveTable(desc, analysis));
  }

  /**
   * Shows a move on the board while the pointer or the focus is on `node`.
   * @param {HTMLElement} node
   * @param {import('../board.js').Cells | null} move
   */
  previewOn(node, move) {
    const show = () => { if (move) this.hooks.preview(move); };
    const hide = () => this.hooks.preview(null);
    node.addEventListener('mouseenter', show);
    node.addEventListener('focus', show);
    node.addEventListener('mouseleave', hide);
    node.addEventListener('blur', hide);
  }

  /**
   * Each legal L placement with the best value of the moves that put the L there.
   * @param {PositionDesc} desc
   * @param {Analysis} analysis
   */
  placements(desc, analysis) {
    const grid = h('div', { class: 'placements' });
    for (const [key, m] of bestPlacements(desc, analysis)) {
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
   * Who stood better at each position of the game, from Red's side.
   * @param {string} variant
   * @param {string[]} history
   */
  async chart(variant, history) {
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
    const chart = svg('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'chart', role: 'img', 'aria-label': t('analysis.chart') });
    draw(chart, 'line', { x1: pad, x2: w - pad, y1: hgt / 2, y2: hgt / 2, class: 'axis' });
    draw(chart, 'text', { x: 2, y: pad - 4, text: t('analysis.chartRed') });
    draw(chart, 'text', { x: 2, y: hgt - 4, text: t('analysis.chartBlue') });
    draw(chart, 'polyline', { points: points.map((p) => `${x(p.i)},${y(p.s)}`).join(' '), class: 'line' });
    for (const { a, i, s } of points) {
      const dot = draw(chart, 'circle', { cx: x(i), cy: y(s), r: 4, class: `pt ${s > 0 ? 'win' : s < 0 ? 'loss' : 'draw'}` });
      draw(dot, 'title', { text: `${t('analysis.ply', { ply: i })}: ${side(turnOf(a.position))} ${valueText(a.value, a.plies)}` });
    }
    return h('figure', { class: 'value-chart' }, chart, h('figcaption', { class: 'muted', text: t('analysis.chartCaption') }));
  }
}
