// The solved game at a person's fingertips: the position's value, every L placement's best
// value, the moves best first (hover to preview, click to play), and a chart of who stood
// better at each turn of the game. Values come from the server's solver (/api/analysis).

import * as api from './api.js';
import { t, side } from './i18n.js';
import { miniBoard } from './board.js';

const cache = new Map();

/** The analysis of a position, asked once per page. */
export function analyse(variant, position) {
  const key = `${variant}|${position}`;
  if (!cache.has(key)) {
    const request = api.analysis(variant, position);
    request.catch(() => cache.delete(key));
    cache.set(key, request);
  }
  return cache.get(key);
}

/** "wins in 5 plies", "draw", "loses in 2 plies" for the side to move. */
export function valueText(value, plies) {
  if (value === 'draw') return t('value.draw');
  if (plies === 0) return t(value === 'win' ? 'value.won' : 'value.lost');
  return t(value === 'win' ? 'value.winIn' : 'value.lossIn', { plies });
}

/** The side to move in a one-line position (its last letter). */
export function turnOf(position) {
  return position.trim().endsWith('b') ? 'blue' : 'red';
}

/** A score for Red between -1 and 1: a quicker win counts more. */
function redScore(analysis) {
  const sign = { win: 1, draw: 0, loss: -1 }[analysis.value];
  const strength = sign === 0 ? 0 : sign * (1 - Math.min(analysis.plies, 60) / 80);
  return turnOf(analysis.position) === 'red' ? strength : -strength;
}

export class AnalysisPanel {
  /**
   * @param {HTMLElement} container
   * @param {object} hooks `preview(moveEntry|null)` shows a move on the board;
   *   `play(moveText)` plays one (or null when moves cannot be played here)
   */
  constructor(container, hooks) {
    this.hooks = hooks;
    this.root = document.createElement('section');
    this.root.className = 'analysis panel';
    this.root.setAttribute('aria-label', t('analysis.title'));
    container.appendChild(this.root);
    this.ticket = 0;
  }

  /** Shows the analysis of `desc` (an /api/position answer) and the chart of `history`. */
  async update(desc, history = []) {
    const ticket = ++this.ticket;
    this.root.innerHTML = `<h2>${t('analysis.title')}</h2><p class="muted">${t('analysis.loading')}</p>`;
    let analysis;
    try {
      analysis = await analyse(desc.variant, desc.position);
    } catch (e) {
      if (ticket === this.ticket) this.root.innerHTML = `<h2>${t('analysis.title')}</h2><p class="error" role="alert"></p>`;
      if (ticket === this.ticket) this.root.querySelector('.error').textContent = e.message;
      return;
    }
    if (ticket !== this.ticket) return;
    this.root.textContent = '';
    const h = document.createElement('h2');
    h.textContent = t('analysis.title');
    this.root.appendChild(h);
    const value = document.createElement('p');
    value.className = 'position-value';
    value.dataset.value = analysis.value;
    value.dataset.plies = analysis.plies ?? '';
    value.innerHTML = `${side(desc.turn)}: <span class="value ${analysis.value}"></span>`;
    value.querySelector('.value').textContent = valueText(analysis.value, analysis.plies);
    this.root.appendChild(value);
    if (history.length > 1) this.root.appendChild(await this.chart(desc.variant, history));
    if (ticket !== this.ticket) return;
    this.root.appendChild(this.placements(desc, analysis));
    this.root.appendChild(this.moveTable(desc, analysis));
  }

  /** Each legal L placement with the best value of the moves that put the L there. */
  placements(desc, analysis) {
    const box = document.createElement('details');
    box.open = true;
    const summary = document.createElement('summary');
    summary.textContent = t('analysis.placements');
    box.appendChild(summary);
    const grid = document.createElement('div');
    grid.className = 'placements';
    const entries = new Map((desc.moves || []).map((m) => [m.move, m]));
    const best = new Map();
    for (const m of analysis.moves) {
      const entry = entries.get(m.move);
      if (!entry) continue;
      const key = entry.l.slice().sort().join(',');
      if (!best.has(key)) best.set(key, { ...m, entry });
    }
    for (const [key, m] of best) {
      const figure = document.createElement('button');
      figure.type = 'button';
      figure.className = `placement ${m.value}`;
      figure.dataset.l = key;
      figure.dataset.value = m.value;
      figure.dataset.plies = m.plies ?? '';
      const label = `${key}: ${valueText(m.value, m.plies)}`;
      figure.setAttribute('aria-label', label);
      figure.appendChild(miniBoard(desc, m.entry.l, m.value, label));
      const caption = document.createElement('span');
      caption.className = `value ${m.value}`;
      caption.textContent = m.plies ?? '';
      figure.appendChild(caption);
      figure.addEventListener('mouseenter', () => this.hooks.preview({ l: m.entry.l, neutrals: [] }));
      figure.addEventListener('mouseleave', () => this.hooks.preview(null));
      figure.addEventListener('focus', () => this.hooks.preview({ l: m.entry.l, neutrals: [] }));
      figure.addEventListener('blur', () => this.hooks.preview(null));
      grid.appendChild(figure);
    }
    box.appendChild(grid);
    return box;
  }

  moveTable(desc, analysis) {
    const box = document.createElement('div');
    box.className = 'scroll';
    const table = document.createElement('table');
    table.className = 'moves-table';
    table.innerHTML = `<caption class="visually-hidden">${t('analysis.moves')}</caption>
      <thead><tr><th>${t('analysis.move')}</th><th>${t('analysis.value')}</th></tr></thead>`;
    const body = document.createElement('tbody');
    const entries = new Map((desc.moves || []).map((m) => [m.move, m]));
    for (const m of analysis.moves) {
      const row = document.createElement('tr');
      row.className = 'move-row';
      row.dataset.move = m.move;
      row.dataset.value = m.value;
      row.dataset.plies = m.plies ?? '';
      row.tabIndex = 0;
      row.innerHTML = '<td class="mono"></td><td><span class="value"></span></td>';
      row.cells[0].textContent = m.move;
      row.querySelector('.value').classList.add(m.value);
      row.querySelector('.value').textContent = valueText(m.value, m.plies);
      const entry = entries.get(m.move);
      const show = () => entry && this.hooks.preview({ l: entry.l, neutrals: entry.neutrals });
      row.addEventListener('mouseenter', show);
      row.addEventListener('focus', show);
      row.addEventListener('mouseleave', () => this.hooks.preview(null));
      row.addEventListener('blur', () => this.hooks.preview(null));
      if (this.hooks.play) {
        row.title = t('analysis.clickToPlay');
        const play = () => { this.hooks.preview(null); this.hooks.play(m.move); };
        row.addEventListener('click', play);
        row.addEventListener('keydown', (e) => { if (e.key === 'Enter') play(); });
      }
      body.appendChild(row);
    }
    table.appendChild(body);
    box.appendChild(table);
    const count = document.createElement('p');
    count.className = 'muted';
    count.textContent = t('analysis.legalMoves', { count: analysis.legal_moves });
    const wrap = document.createElement('div');
    wrap.append(count, box);
    return wrap;
  }

  /** Who stood better at each position of the game, from Red's side. */
  async chart(variant, history) {
    const values = await Promise.all(history.map((p) => analyse(variant, p).catch(() => null)));
    const figure = document.createElement('figure');
    figure.className = 'value-chart';
    const w = 320;
    const h = 120;
    const pad = 18;
    const n = history.length;
    const x = (i) => pad + (n === 1 ? 0 : (i * (w - 2 * pad)) / (n - 1));
    const y = (s) => h / 2 - s * (h / 2 - pad);
    const points = values.map((a, i) => (a ? [x(i), y(redScore(a)), a, i] : null)).filter(Boolean);
    const svgNs = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNs, 'svg');
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('class', 'chart');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t('analysis.chart'));
    const add = (name, attrs, text) => {
      const node = document.createElementNS(svgNs, name);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text) node.textContent = text;
      svg.appendChild(node);
      return node;
    };
    add('line', { x1: pad, x2: w - pad, y1: h / 2, y2: h / 2, class: 'axis' });
    add('text', { x: 2, y: pad - 4 }, t('analysis.chartRed'));
    add('text', { x: 2, y: h - 4 }, t('analysis.chartBlue'));
    add('polyline', { points: points.map((p) => `${p[0]},${p[1]}`).join(' '), class: 'line' });
    for (const [px, py, a, i] of points) {
      const s = redScore(a);
      const dot = add('circle', { cx: px, cy: py, r: 4, class: `pt ${s > 0 ? 'win' : s < 0 ? 'loss' : 'draw'}` });
      const title = document.createElementNS(svgNs, 'title');
      title.textContent = `${t('analysis.ply', { ply: i })}: ${side(turnOf(a.position))} ${valueText(a.value, a.plies)}`;
      dot.appendChild(title);
    }
    figure.appendChild(svg);
    const caption = document.createElement('figcaption');
    caption.className = 'muted';
    caption.textContent = t('analysis.chartCaption');
    figure.appendChild(caption);
    return figure;
  }
}
