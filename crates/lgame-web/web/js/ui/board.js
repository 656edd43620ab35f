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
 * The layers over the position. `arrive`: the cells the last move's pieces arrived on (they
 * slide there from where they stood).
 * @typedef {{
 *   selected: string[], open: string[] | null, refusals: Record<string, string>,
 *   preview: Cells | null, last: Cells | null, badges: Record<string, { text: string, label: string, kind: string }>,
 *   arrive: string[], drag: string[] | null, targets: string[], movable: string[]
 * }} Overlays
 */

/** How long a piece takes to slide into place, ms. */
export const SLIDE_MS = 250;

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

/** Whether the person asked for less motion. */
const stillWanted = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

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
    /** Turned round (180°): row 1 at the top, A on the right. */
    this.flipped = false;
    /** @type {Record<string, 'red' | 'blue' | 'neutral'>} */
    this.occupied = {};
    /** What stood where before the position now drawn (null: nothing drawn, or another size). @type {Record<string, 'red' | 'blue' | 'neutral'> | null} */
    this.before = null;
    /** @type {Overlays} */
    this.overlays = noOverlays();
    /** @type {Record<string, CellNodes>} */
    this.cells = {};
    this.svg = svg('svg');
    /** @type {Record<string, SVGGElement>} */
    this.bridges = {};
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
    this.before = sizeChanged ? null : this.occupied;
    this.desc = desc;
    this.occupied = cellsOf(desc.pieces);
    if (sizeChanged) this.build(desc);
    this.overlays = noOverlays();
    this.render();
  }

  /**
   * Turns the board round (or back): the other player's side nearest the person.
   * @param {boolean} flipped
   */
  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    if (this.desc) {
      this.build(this.desc);
      this.render();
    }
  }

  /**
   * Where a cell's square is drawn: its top-left corner.
   * @param {number} col
   * @param {number} row
   */
  at(col, row) {
    const { width, height } = this.desc || { width: 0, height: 0 };
    return {
      x: MARGIN + (this.flipped ? width - 1 - col : col) * CELL,
      y: MARGIN + (this.flipped ? row - 1 : height - row) * CELL,
    };
  }

  /** @param {BoardDesc} desc */
  build({ width, height }) {
    this.root.textContent = '';
    const w = width * CELL + 2 * MARGIN;
    const h = height * CELL + 2 * MARGIN;
    const root = svg('svg', {
      viewBox: `0 0 ${w} ${h}`, class: 'board-svg', role: 'grid', 'aria-label': this.label || t('board.label'),
      tabindex: this.interactive ? '0' : null, 'data-flipped': String(this.flipped),
    });
    this.svg = root;
    defs(root, this.id);
    // Cell names on the edges.
    for (let c = 0; c < width; c++) {
      for (const y of [MARGIN / 2, h - MARGIN / 2]) {
        draw(root, 'text', { x: this.at(c, 1).x + CELL / 2, y, class: 'edge-label', 'aria-hidden': 'true', text: String.fromCharCode(65 + c) });
      }
    }
    for (let r = 1; r <= height; r++) {
      for (const x of [MARGIN / 2, w - MARGIN / 2]) {
        draw(root, 'text', { x, y: this.at(0, r).y + CELL / 2, class: 'edge-label', 'aria-hidden': 'true', text: r });
      }
    }
    this.cells = {};
    for (let r = height; r >= 1; r--) {
      const row = draw(root, 'g', { role: 'row' });
      for (let c = 0; c < width; c++) {
        const name = cellName(c, r);
        const g = draw(row, 'g', { role: 'gridcell', id: `${this.id}-${name}`, 'data-cell': name, class: 'cell' });
        const { x, y } = this.at(c, r);
        draw(g, 'rect', { x, y, width: CELL, height: CELL, class: `square ${(c + r) % 2 ? 'light' : 'dark'}` });
        const title = draw(g, 'title');
        const piece = draw(g, 'g', { class: 'piece' });
        const badge = draw(g, 'text', { x: x + CELL - 8, y: y + 22, class: 'badge' });
        this.cells[name] = { g, x, y, title, piece, badge };
      }
    }
    const bridges = draw(root, 'g', { class: 'bridges', 'aria-hidden': 'true' });
    this.bridges = { red: draw(bridges, 'g'), blue: draw(bridges, 'g') };
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
      // A pointer already gone (lifted before this ran) cannot be captured; the cell still counts.
      try { root.setPointerCapture(event.pointerId); } catch { /* nothing to capture */ }
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
      // The arrows go the way they point on the screen, the board turned round or not.
      const [dc, dr] = moves[event.key].map((d) => (this.flipped ? -d : d));
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
    if (overlays.arrive && overlays.arrive.length) this.slide(overlays.arrive);
  }

  /**
   * The pieces that arrived on `cells` slide there from where they stood before (the L as a
   * whole from its old place, each neutral from the cell it left), in SLIDE_MS; nothing moves
   * when the person prefers reduced motion.
   * @param {string[]} cells
   */
  slide(cells) {
    const before = this.before;
    if (!before || stillWanted()) return;
    /** @param {string[]} names */
    const centre = (names) => {
      const points = names.map((n) => this.cells[n]);
      return { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
    };
    /**
     * @param {Element} element
     * @param {{ x: number, y: number }} from
     * @param {{ x: number, y: number }} to
     */
    const move = (element, from, to) => element.animate(
      [{ transform: `translate(${from.x - to.x}px, ${from.y - to.y}px)` }, { transform: 'translate(0px, 0px)' }],
      { duration: SLIDE_MS, easing: 'ease-out' });
    for (const color of /** @type {Color[]} */ (['red', 'blue'])) {
      const now = cells.filter((c) => this.occupied[c] === color);
      const then = Object.keys(before).filter((c) => before[c] === color);
      if (!now.length || !then.length) continue;
      const from = centre(then);
      const to = centre(now);
      for (const c of now) move(this.cells[c].piece, from, to);
      move(this.bridges[color], from, to);
    }
    const left = Object.keys(before).filter((c) => before[c] === 'neutral' && this.occupied[c] !== 'neutral');
    const came = cells.filter((c) => this.occupied[c] === 'neutral' && before[c] !== 'neutral');
    came.forEach((c, i) => {
      if (left[i]) move(this.cells[c].piece, this.cells[left[i]], this.cells[c]);
    });
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
      this.drawPiece(cell, drawn[name]);
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
    for (const g of Object.values(this.bridges)) g.textContent = '';
    for (const [name, kind] of Object.entries(drawn)) {
      if (kind !== 'red' && kind !== 'blue') continue;
      const { col, row } = cellCoords(name);
      const attrs = { fill: `url(#${this.id}-${kind})`, class: 'bridge' };
      // A bridge spans the gap between this cell and its neighbour, wherever the board puts it.
      for (const other of [cellName(col + 1, row), cellName(col, row - 1)]) {
        if (drawn[other] !== kind) continue;
        const a = this.cells[name];
        const b = this.cells[other];
        const x = Math.min(a.x, b.x);
        const y = Math.min(a.y, b.y);
        if (a.y === b.y) draw(this.bridges[kind], 'rect', { ...attrs, x: x + CELL - 20, y: y + 6, width: 40, height: CELL - 12 });
        else draw(this.bridges[kind], 'rect', { ...attrs, x: x + 6, y: y + CELL - 20, width: CELL - 12, height: 40 });
      }
    }
  }

  /**
   * @param {CellNodes} cell
   * @param {string | undefined} who
   */
  drawPiece(cell, who) {
    if (!who) return;
    const { x, y, piece } = cell;
    if (who === 'neutral' || who === 'preview-neutral') {
      draw(piece, 'circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.3, class: `neutral ${who}` });
      draw(piece, 'circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.14, class: 'neutral-core' });
      return;
    }
    if (who === 'ghost-old') {
      draw(piece, 'rect', { x: x + 10, y: y + 10, width: CELL - 20, height: CELL - 20, rx: 10, class: 'ghost-old' });
      return;
    }
    const color = who.replace('preview-', '');
    const fill = `url(#${this.id}-${color})`;
    draw(piece, 'rect', { x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12, rx: 12, fill, class: `l l-${color}${who.startsWith('preview') ? ' preview' : ''}` });
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
