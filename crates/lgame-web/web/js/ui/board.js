// @ts-check
// The board: an SVG drawing of a position (the answer of /api/position), with the layers a
// person needs while playing: cells that can take the L, the cells chosen so far, a preview
// of a move, the last move, value badges and a keyboard cursor. It knows no rule: what is
// legal is told to it, and what a person does on it is passed on to its handlers.

import { t, side } from '../i18n.js';
import { draw, svg } from '../dom.js';
import { cellCoords, cellName, cellsOf } from '../notation.js';

const CELL = 100;
const MARGIN = 34;
let serial = 0;

/** @typedef {import('../api.js').Color} Color */

/**
 * What the board draws: the answer of /api/position, or as much of it as a picture needs.
 * @typedef {{ width: number, height: number, turn: Color, pieces: import('../api.js').Pieces }} BoardDesc
 */

/** The cells of a move to draw: the L and the neutral steps (`[from, to]`). @typedef {{ l: string[], neutrals: string[][] }} Cells */

/**
 * The layers over the position.
 * @typedef {{
 *   selected: string[], open: string[] | null, refusals: Record<string, string>,
 *   preview: Cells | null, last: Cells | null, badges: Record<string, { text: string, label: string, kind: string }>,
 *   arrive: string[], drag: string[] | null, targets: string[], movable: string[]
 * }} Overlays
 */

/**
 * What a person does on the board: a cell chosen (`click` or `key`), a drag over cells,
 * Escape.
 * @typedef {{ cell?: (name: string, how: 'click' | 'key') => void, drag?: (names: string[]) => void, cancel?: () => void }} Handlers
 */

/** @typedef {{ g: SVGGElement, x: number, y: number, title: SVGTitleElement, piece: SVGGElement, badge: SVGTextElement }} CellNodes */

/** @returns {Overlays} */
const noOverlays = () => ({
  selected: [], open: null, refusals: {}, preview: null, last: null, badges: {}, arrive: [], drag: null, targets: [], movable: [],
});

/**
 * The shared patterns that tell the pieces apart without colour.
 * @param {SVGSVGElement} root
 * @param {string} id
 */
function defs(root, id) {
  const d = draw(root, 'defs');
  const stripes = draw(d, 'pattern', { id: `${id}-red`, width: 14, height: 14, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  draw(stripes, 'rect', { width: 14, height: 14, class: 'fill-red' });
  draw(stripes, 'rect', { width: 5, height: 14, class: 'pattern-red' });
  const dots = draw(d, 'pattern', { id: `${id}-blue`, width: 16, height: 16, patternUnits: 'userSpaceOnUse' });
  draw(dots, 'rect', { width: 16, height: 16, class: 'fill-blue' });
  draw(dots, 'circle', { cx: 8, cy: 8, r: 3, class: 'pattern-blue' });
  const arrow = draw(d, 'marker', { id: `${id}-arrow`, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' });
  draw(arrow, 'path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' });
}

export class Board {
  /**
   * @param {HTMLElement} container where the board goes
   * @param {{ label?: string, interactive?: boolean }} [options] `label` (accessible name),
   *   `interactive` (cells take clicks)
   */
  constructor(container, { label = '', interactive = true } = {}) {
    this.id = `board${++serial}`;
    this.interactive = interactive;
    /** @type {BoardDesc | null} */
    this.desc = null;
    /** @type {Handlers} */
    this.handlers = {};
    /** @type {string | null} */
    this.cursor = null;
    this.dragging = false;
    /** @type {Record<string, 'red' | 'blue' | 'neutral'>} */
    this.occupied = {};
    /** @type {Overlays} */
    this.overlays = noOverlays();
    /** @type {Record<string, CellNodes>} */
    this.cells = {};
    this.svg = svg('svg');
    this.bridges = svg('g');
    this.marks = svg('g');
    this.root = document.createElement('div');
    this.root.className = 'board';
    container.appendChild(this.root);
    this.label = label;
  }

  /**
   * Sets the handlers of what a person does on the board.
   * @param {Handlers} handlers
   */
  on(handlers) {
    Object.assign(this.handlers, handlers);
  }

  /**
   * Draws a position. Overlays are cleared.
   * @param {BoardDesc} desc
   */
  set(desc) {
    const sizeChanged = !this.desc || this.desc.width !== desc.width || this.desc.height !== desc.height;
    this.desc = desc;
    this.occupied = cellsOf(desc.pieces);
    if (sizeChanged) this.build(desc);
    this.overlays = noOverlays();
    this.render();
  }

  /** @param {BoardDesc} desc */
  build({ width, height }) {
    this.root.textContent = '';
    const w = width * CELL + 2 * MARGIN;
    const h = height * CELL + 2 * MARGIN;
    const root = svg('svg', {
      viewBox: `0 0 ${w} ${h}`, class: 'board-svg', role: 'grid', 'aria-label': this.label || t('board.label'),
      tabindex: this.interactive ? '0' : null,
    });
    this.svg = root;
    defs(root, this.id);
    // Cell names on the edges.
    for (let c = 0; c < width; c++) {
      for (const y of [MARGIN / 2, h - MARGIN / 2]) {
        draw(root, 'text', { x: MARGIN + c * CELL + CELL / 2, y, class: 'edge-label', 'aria-hidden': 'true', text: String.fromCharCode(65 + c) });
      }
    }
    for (let r = 1; r <= height; r++) {
      for (const x of [MARGIN / 2, w - MARGIN / 2]) {
        draw(root, 'text', { x, y: MARGIN + (height - r) * CELL + CELL / 2, class: 'edge-label', 'aria-hidden': 'true', text: r });
      }
    }
    this.cells = {};
    for (let r = height; r >= 1; r--) {
      const row = draw(root, 'g', { role: 'row' });
      for (let c = 0; c < width; c++) {
        const name = cellName(c, r);
        const g = draw(row, 'g', { role: 'gridcell', id: `${this.id}-${name}`, 'data-cell': name, class: 'cell' });
        const x = MARGIN + c * CELL;
        const y = MARGIN + (height - r) * CELL;
        draw(g, 'rect', { x, y, width: CELL, height: CELL, class: `square ${(c + r) % 2 ? 'light' : 'dark'}` });
        const title = draw(g, 'title');
        const piece = draw(g, 'g', { class: 'piece' });
        const badge = draw(g, 'text', { x: x + CELL - 8, y: y + 22, class: 'badge' });
        this.cells[name] = { g, x, y, title, piece, badge };
      }
    }
    this.bridges = draw(root, 'g', { class: 'bridges', 'aria-hidden': 'true' });
    this.marks = draw(root, 'g', { class: 'marks', 'aria-hidden': 'true' });
    this.root.appendChild(root);
    if (this.interactive) this.listen(root);
  }

  /** @param {SVGSVGElement} root */
  listen(root) {
    /** @param {PointerEvent} event */
    const cellAt = (event) => {
      const target = document.elementFromPoint(event.clientX, event.clientY);
      const g = target && target.closest('[data-cell]');
      return g instanceof SVGElement && root.contains(g) ? g.dataset.cell || null : null;
    };
    /** @type {string[]} */
    let path = [];
    root.addEventListener('pointerdown', (event) => {
      const name = cellAt(event);
      if (!name) return;
      path = [name];
      this.dragging = true;
      root.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    root.addEventListener('pointermove', (event) => {
      if (!this.dragging) return;
      const name = cellAt(event);
      if (name && !path.includes(name)) {
        path.push(name);
        this.dragPath(path);
      }
    });
    /** @param {PointerEvent} event */
    const finish = (event) => {
      if (!this.dragging) return;
      this.dragging = false;
      this.dragPath(null);
      const name = cellAt(event) || path[path.length - 1];
      if (path.length > 1 && this.handlers.drag) this.handlers.drag(path.slice());
      else if (name && this.handlers.cell) this.handlers.cell(name, 'click');
      path = [];
    };
    root.addEventListener('pointerup', finish);
    root.addEventListener('pointercancel', () => { this.dragging = false; this.dragPath(null); path = []; });
    root.addEventListener('keydown', (event) => this.key(event));
    root.addEventListener('focus', () => { if (!this.cursor) this.moveCursor(cellName(0, 1)); });
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    if (!this.desc) return;
    const { width, height } = this.desc;
    const at = cellCoords(this.cursor || cellName(0, 1));
    /** @type {Record<string, [number, number]>} */
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

  /** @param {string} name */
  moveCursor(name) {
    this.cursor = name;
    this.svg.setAttribute('aria-activedescendant', `${this.id}-${name}`);
    this.render();
  }

  /** @param {string[] | null} path */
  dragPath(path) {
    this.overlays.drag = path;
    this.render();
  }

  /**
   * Sets some of the overlays.
   * @param {Partial<Overlays>} overlays
   */
  show(overlays) {
    Object.assign(this.overlays, overlays);
    this.render();
  }

  /**
   * A cell's accessible name: what stands there and what the move being built says of it.
   * @param {string} name
   */
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
    const turn = this.desc.turn;
    const o = this.overlays;
    const previewCells = (o.preview && o.preview.l) || [];
    const previewNeutral = (o.preview && o.preview.neutrals) || [];
    const movedFrom = new Set(previewNeutral.map((n) => n[0]));
    const movedTo = new Set(previewNeutral.map((n) => n[1]));
    /** @type {Record<string, string | undefined>} */
    const drawn = {};
    for (const name of Object.keys(this.cells)) {
      /** @type {string | undefined} */
      let kind = this.occupied[name];
      if (previewCells.length && kind === turn && !previewCells.includes(name)) kind = 'ghost-old';
      if (movedFrom.has(name)) kind = 'ghost-old';
      if (previewCells.includes(name)) kind = `preview-${turn}`;
      if (movedTo.has(name)) kind = 'preview-neutral';
      drawn[name] = kind;
    }
    for (const [name, cell] of Object.entries(this.cells)) {
      const classes = ['cell'];
      if (o.selected.includes(name)) classes.push('selected');
      if (o.open && o.open.includes(name)) classes.push('open');
      if (o.refusals[name] && o.open) classes.push('refused');
      if (o.drag && o.drag.includes(name)) classes.push('dragged');
      if (this.cursor === name) classes.push('cursor');
      if (o.last && o.last.l.includes(name)) classes.push('last');
      if (o.targets.includes(name)) classes.push('target');
      if (o.movable.includes(name)) classes.push('movable');
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

  /**
   * Joins the cells of each L (drawn one by one) into one piece across the gaps.
   * @param {Record<string, string | undefined>} drawn
   */
  drawBridges(drawn) {
    this.bridges.textContent = '';
    for (const [name, kind] of Object.entries(drawn)) {
      if (kind !== 'red' && kind !== 'blue') continue;
      const { col, row } = cellCoords(name);
      const { x, y } = this.cells[name];
      const arriving = this.overlays.arrive.includes(name) ? ' arrive' : '';
      const attrs = { fill: `url(#${this.id}-${kind})`, class: `bridge${arriving}` };
      if (drawn[cellName(col + 1, row)] === kind) {
        draw(this.bridges, 'rect', { ...attrs, x: x + CELL - 20, y: y + 6, width: 40, height: CELL - 12 });
      }
      if (drawn[cellName(col, row - 1)] === kind) {
        draw(this.bridges, 'rect', { ...attrs, x: x + 6, y: y + CELL - 20, width: CELL - 12, height: 40 });
      }
    }
  }

  /**
   * @param {CellNodes} cell
   * @param {string | undefined} who
   * @param {boolean} arriving
   */
  drawPiece(cell, who, arriving) {
    if (!who) return;
    const { x, y, piece } = cell;
    const cls = arriving ? ' arrive' : '';
    if (who === 'neutral' || who === 'preview-neutral') {
      draw(piece, 'circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.3, class: `neutral ${who}${cls}` });
      draw(piece, 'circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.14, class: 'neutral-core' });
      return;
    }
    if (who === 'ghost-old') {
      draw(piece, 'rect', { x: x + 10, y: y + 10, width: CELL - 20, height: CELL - 20, rx: 10, class: 'ghost-old' });
      return;
    }
    const color = who.replace('preview-', '');
    const fill = `url(#${this.id}-${color})`;
    draw(piece, 'rect', { x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12, rx: 12, fill, class: `l l-${color}${who.startsWith('preview') ? ' preview' : ''}${cls}` });
  }

  drawMarks() {
    this.marks.textContent = '';
    /** @type {[string[], string][]} */
    const arrows = [];
    const { last, preview } = this.overlays;
    if (last) for (const n of last.neutrals) arrows.push([n, 'last-arrow']);
    if (preview) for (const n of preview.neutrals) arrows.push([n, 'preview-arrow']);
    for (const [[from, to], cls] of arrows) {
      const a = this.cells[from];
      const b = this.cells[to];
      if (!a || !b) continue;
      draw(this.marks, 'line', { x1: a.x + CELL / 2, y1: a.y + CELL / 2, x2: b.x + CELL / 2, y2: b.y + CELL / 2, class: cls, 'marker-end': `url(#${this.id}-arrow)` });
    }
  }
}

/**
 * A small static picture of a position with an L placement drawn over it (no events).
 * @param {BoardDesc} desc
 * @param {string[]} l
 * @param {string} kind the value class (`win`, `draw`, `loss`)
 * @param {string} label
 */
export function miniBoard(desc, l, kind, label) {
  const holder = document.createElement('div');
  holder.className = 'mini';
  const board = new Board(holder, { interactive: false, label });
  board.set(desc);
  board.show({ preview: { l, neutrals: [] } });
  board.svg.classList.add(`mini-${kind}`);
  return holder;
}
