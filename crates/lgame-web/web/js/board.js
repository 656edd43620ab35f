// The board: an SVG drawing of a position (the answer of /api/position), with the layers a
// person needs while playing: cells that can take the L, the cells chosen so far, a preview
// of a move, the last move, value badges and a keyboard cursor. It knows no rule: what is
// legal is told to it.

import { t, side } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 100;
const MARGIN = 34;
let serial = 0;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** Column letter and row number of a cell name (`B3`). */
export function cellCoords(name) {
  return { col: name.charCodeAt(0) - 65, row: parseInt(name.slice(1), 10) };
}

export function cellName(col, row) {
  return String.fromCharCode(65 + col) + row;
}

/** The cells of a move in notation (`A1,A2,A3,B3 D1-D2`): its L and neutral steps. */
export function moveCells(text) {
  const [l, ...steps] = text.trim().split(/\s+/);
  return { l: l.split(','), neutrals: steps.map((s) => s.split('-')) };
}

/** What stands on each cell: `{A1: 'red' | 'blue' | 'neutral'}`. */
export function occupancy(desc) {
  const map = {};
  for (const c of desc.pieces.red) map[c] = 'red';
  for (const c of desc.pieces.blue) map[c] = 'blue';
  for (const c of desc.pieces.neutrals) map[c] = 'neutral';
  return map;
}

/** The shared patterns that tell the pieces apart without colour. */
function defs(svg, id) {
  const d = el('defs', {}, svg);
  const stripes = el('pattern', { id: `${id}-red`, width: 14, height: 14, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, d);
  el('rect', { width: 14, height: 14, class: 'fill-red' }, stripes);
  el('rect', { width: 5, height: 14, class: 'pattern-red' }, stripes);
  const dots = el('pattern', { id: `${id}-blue`, width: 16, height: 16, patternUnits: 'userSpaceOnUse' }, d);
  el('rect', { width: 16, height: 16, class: 'fill-blue' }, dots);
  el('circle', { cx: 8, cy: 8, r: 3, class: 'pattern-blue' }, dots);
  const arrow = el('marker', { id: `${id}-arrow`, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' }, d);
  el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }, arrow);
}

export class Board {
  /**
   * @param {HTMLElement} container where the board goes
   * @param {object} options `label` (accessible name), `interactive` (cells take clicks)
   */
  constructor(container, { label = '', interactive = true } = {}) {
    this.id = `board${++serial}`;
    this.interactive = interactive;
    this.desc = null;
    this.handlers = {};
    this.cursor = null;
    this.dragging = false;
    this.root = document.createElement('div');
    this.root.className = 'board';
    container.appendChild(this.root);
    this.label = label;
  }

  /** Handlers: `cell(name, how)` with how `click` | `key`; `drag(names)` for a drag over cells. */
  on(handlers) {
    Object.assign(this.handlers, handlers);
  }

  /** Draws a position (`/api/position`'s answer). Overlays are cleared. */
  set(desc) {
    const sizeChanged = !this.desc || this.desc.width !== desc.width || this.desc.height !== desc.height;
    this.desc = desc;
    this.occupied = occupancy(desc);
    if (sizeChanged) this.build();
    this.overlays = { selected: [], open: null, refusals: {}, preview: null, last: null, badges: {}, arrive: [] };
    this.render();
  }

  build() {
    const { width, height } = this.desc;
    this.root.textContent = '';
    const w = width * CELL + 2 * MARGIN;
    const h = height * CELL + 2 * MARGIN;
    const svg = el('svg', { viewBox: `0 0 ${w} ${h}`, class: 'board-svg', role: 'grid', 'aria-label': this.label || t('board.label') });
    if (this.interactive) svg.setAttribute('tabindex', '0');
    this.svg = svg;
    defs(svg, this.id);
    // Cell names on the edges.
    for (let c = 0; c < width; c++) {
      for (const y of [MARGIN / 2, h - MARGIN / 2]) {
        el('text', { x: MARGIN + c * CELL + CELL / 2, y, class: 'edge-label', 'aria-hidden': 'true' }, svg).textContent = String.fromCharCode(65 + c);
      }
    }
    for (let r = 1; r <= height; r++) {
      for (const x of [MARGIN / 2, w - MARGIN / 2]) {
        el('text', { x, y: MARGIN + (height - r) * CELL + CELL / 2, class: 'edge-label', 'aria-hidden': 'true' }, svg).textContent = String(r);
      }
    }
    this.cells = {};
    for (let r = height; r >= 1; r--) {
      const row = el('g', { role: 'row' }, svg);
      for (let c = 0; c < width; c++) {
        const name = cellName(c, r);
        const g = el('g', { role: 'gridcell', id: `${this.id}-${name}`, 'data-cell': name, class: 'cell' }, row);
        const x = MARGIN + c * CELL;
        const y = MARGIN + (height - r) * CELL;
        el('rect', { x, y, width: CELL, height: CELL, class: `square ${(c + r) % 2 ? 'light' : 'dark'}` }, g);
        const title = el('title', {}, g);
        const piece = el('g', { class: 'piece' }, g);
        const badge = el('text', { x: x + CELL - 8, y: y + 22, class: 'badge' }, g);
        this.cells[name] = { g, x, y, title, piece, badge };
      }
    }
    this.bridges = el('g', { class: 'bridges', 'aria-hidden': 'true' }, svg);
    this.marks = el('g', { class: 'marks', 'aria-hidden': 'true' }, svg);
    this.root.appendChild(svg);
    if (this.interactive) this.listen(svg);
  }

  listen(svg) {
    const cellAt = (event) => {
      const target = document.elementFromPoint(event.clientX, event.clientY);
      const g = target && target.closest('[data-cell]');
      return g && svg.contains(g) ? g.dataset.cell : null;
    };
    let path = [];
    svg.addEventListener('pointerdown', (event) => {
      const name = cellAt(event);
      if (!name) return;
      path = [name];
      this.dragging = true;
      svg.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    svg.addEventListener('pointermove', (event) => {
      if (!this.dragging) return;
      const name = cellAt(event);
      if (name && !path.includes(name)) {
        path.push(name);
        this.dragPath(path);
      }
    });
    const finish = (event) => {
      if (!this.dragging) return;
      this.dragging = false;
      this.dragPath(null);
      const name = cellAt(event) || path[path.length - 1];
      if (path.length > 1 && this.handlers.drag) this.handlers.drag(path.slice());
      else if (name && this.handlers.cell) this.handlers.cell(name, 'click');
      path = [];
    };
    svg.addEventListener('pointerup', finish);
    svg.addEventListener('pointercancel', () => { this.dragging = false; this.dragPath(null); path = []; });
    svg.addEventListener('keydown', (event) => this.key(event));
    svg.addEventListener('focus', () => { if (!this.cursor) this.moveCursor(cellName(0, 1)); });
  }

  key(event) {
    const { width, height } = this.desc;
    const at = cellCoords(this.cursor || cellName(0, 1));
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[event.key]) {
      const [dc, dr] = moves[event.key];
      const col = Math.min(width - 1, Math.max(0, at.col + dc));
      const row = Math.min(height, Math.max(1, at.row + dr));
      this.moveCursor(cellName(col, row));
      event.preventDefault();
    } else if ((event.key === 'Enter' || event.key === ' ') && this.cursor) {
      if (this.handlers.cell) this.handlers.cell(this.cursor, 'key');
      event.preventDefault();
    } else if (event.key === 'Escape' && this.handlers.cancel) {
      this.handlers.cancel();
      event.preventDefault();
    }
  }

  moveCursor(name) {
    this.cursor = name;
    this.svg.setAttribute('aria-activedescendant', `${this.id}-${name}`);
    this.render();
  }

  dragPath(path) {
    this.overlays.drag = path;
    this.render();
  }

  /** Sets overlays: any of selected, open, refusals, preview, last, badges, arrive. */
  show(overlays) {
    Object.assign(this.overlays, overlays);
    this.render();
  }

  cellText(name) {
    const who = this.occupied[name];
    let text = `${name}: ${who === 'neutral' ? t('board.neutral') : who ? t('board.lOf', { side: side(who) }) : t('board.empty')}`;
    const o = this.overlays;
    if (o.selected.includes(name)) text += `, ${t('board.selected')}`;
    const badge = o.badges[name];
    if (badge) text += `, ${badge.label}`;
    if (o.refusals[name]) text += `. ${o.refusals[name]}`;
    return text;
  }

  render() {
    if (!this.desc) return;
    const o = this.overlays;
    const previewCells = (o.preview && o.preview.l) || [];
    const previewNeutral = (o.preview && o.preview.neutrals) || [];
    const movedFrom = new Set(previewNeutral.map((n) => n[0]));
    const movedTo = new Set(previewNeutral.map((n) => n[1]));
    const drawn = {};
    for (const name of Object.keys(this.cells)) {
      let kind = this.occupied[name];
      if (previewCells.length && kind === this.desc.turn && !previewCells.includes(name)) kind = 'ghost-old';
      if (movedFrom.has(name)) kind = 'ghost-old';
      if (previewCells.includes(name)) kind = `preview-${this.desc.turn}`;
      if (movedTo.has(name)) kind = 'preview-neutral';
      drawn[name] = kind;
    }
    for (const [name, cell] of Object.entries(this.cells)) {
      const who = this.occupied[name];
      const classes = ['cell'];
      if (o.selected.includes(name)) classes.push('selected');
      if (o.open && o.open.includes(name)) classes.push('open');
      if (o.refusals[name] && o.open) classes.push('refused');
      if (o.drag && o.drag.includes(name)) classes.push('dragged');
      if (this.cursor === name) classes.push('cursor');
      if (o.last && o.last.l.includes(name)) classes.push('last');
      if (o.targets && o.targets.includes(name)) classes.push('target');
      if (o.movable && o.movable.includes(name)) classes.push('movable');
      cell.g.setAttribute('class', classes.join(' '));
      cell.g.setAttribute('aria-label', this.cellText(name));
      cell.g.setAttribute('aria-selected', o.selected.includes(name) ? 'true' : 'false');
      cell.title.textContent = o.refusals[name] && !(o.open && o.open.includes(name)) ? o.refusals[name] : name;
      cell.piece.textContent = '';
      this.drawPiece(cell, drawn[name], o.arrive.includes(name));
      const badge = o.badges[name];
      cell.badge.textContent = badge ? badge.text : '';
      cell.badge.setAttribute('class', `badge ${badge ? badge.kind : ''}`);
    }
    this.drawBridges(drawn);
    this.drawMarks();
  }

  /** Joins the cells of each L (drawn one by one) into one piece across the gaps. */
  drawBridges(drawn) {
    this.bridges.textContent = '';
    const joinable = (kind) => kind === 'red' || kind === 'blue';
    for (const [name, kind] of Object.entries(drawn)) {
      if (!joinable(kind)) continue;
      const { col, row } = cellCoords(name);
      const { x, y } = this.cells[name];
      const arriving = this.overlays.arrive.includes(name) ? ' arrive' : '';
      const attrs = { fill: `url(#${this.id}-${kind})`, class: `bridge${arriving}` };
      if (drawn[cellName(col + 1, row)] === kind) {
        el('rect', { ...attrs, x: x + CELL - 20, y: y + 6, width: 40, height: CELL - 12 }, this.bridges);
      }
      if (drawn[cellName(col, row - 1)] === kind) {
        el('rect', { ...attrs, x: x + 6, y: y + CELL - 20, width: CELL - 12, height: 40 }, this.bridges);
      }
    }
  }

  drawPiece(cell, who, arriving) {
    if (!who) return;
    const { x, y, piece } = cell;
    const cls = arriving ? ' arrive' : '';
    if (who === 'neutral' || who === 'preview-neutral') {
      el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.3, class: `neutral ${who}${cls}` }, piece);
      el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.14, class: 'neutral-core' }, piece);
      return;
    }
    if (who === 'ghost-old') {
      el('rect', { x: x + 10, y: y + 10, width: CELL - 20, height: CELL - 20, rx: 10, class: 'ghost-old' }, piece);
      return;
    }
    const color = who.replace('preview-', '');
    const fill = `url(#${this.id}-${color})`;
    el('rect', { x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12, rx: 12, fill, class: `l l-${color}${who.startsWith('preview') ? ' preview' : ''}${cls}` }, piece);
  }

  drawMarks() {
    this.marks.textContent = '';
    const last = this.overlays.last;
    const arrows = [];
    if (last) for (const n of last.neutrals || []) arrows.push([n, 'last-arrow']);
    const preview = this.overlays.preview;
    if (preview) for (const n of preview.neutrals || []) arrows.push([n, 'preview-arrow']);
    for (const [[from, to], cls] of arrows) {
      const a = this.cells[from];
      const b = this.cells[to];
      if (!a || !b) continue;
      el('line', { x1: a.x + CELL / 2, y1: a.y + CELL / 2, x2: b.x + CELL / 2, y2: b.y + CELL / 2, class: cls, 'marker-end': `url(#${this.id}-arrow)` }, this.marks);
    }
  }
}

/** A small static picture of a position with an L placement drawn over it (no events). */
export function miniBoard(desc, l, kind, label) {
  const holder = document.createElement('div');
  holder.className = 'mini';
  const board = new Board(holder, { interactive: false, label });
  board.set(desc);
  board.show({ preview: { l, neutrals: [] } });
  board.svg.classList.add(`mini-${kind}`);
  return holder;
}
