// @ts-check
// The board editor (#/editor?variant=V&position=P), the state and the actions: pieces put
// anywhere (a tool paints cells, a drag moves a piece whole), the side to move, the variant;
// the server says whether it is a position of the variant, and the solver what it is worth.
// The address follows every change.
// view.js draws it.

import * as api from '../api.js';
import { analyse } from '../ui/analysis/ctrl.js';
import { href, replaceAddress } from '../address.js';
import { cellCoords, cellName, cellsOf, readPosition, writePosition } from '../notation.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {import('../notation.js').PieceKind} PieceKind */
/** @typedef {import('../notation.js').Layout} Layout */
/** @typedef {PieceKind | 'erase'} Tool */

export const TOOLS = /** @type {const} */ (['red', 'blue', 'neutral', 'erase']);

/**
 * The server's word on the position: a position of the variant (its answer), or why not.
 * @typedef {{ desc: import('../api.js').PositionDesc, error: null } | { desc: null, error: string }} Verdict
 */

export class EditorCtrl {
  /**
   * @param {URLSearchParams} params
   * @param {() => void} redraw
   */
  constructor(params, redraw) {
    this.params = params;
    this.redraw = redraw;
    this.variant = params.get('variant') || 'classic';
    /** @type {Layout} */
    this.layout = { width: 4, height: 4, cells: {}, turn: 'red' };
    /** @type {Tool} */
    this.tool = 'red';
    /** @type {Verdict | null} */
    this.verdict = null;
    this.checking = 0;
    /**
     * The solver's value of a legal position (`analysis`), or none: `unsolved` when the
     * solver refuses the variant or the position, `pending` while it is asked.
     * @type {{ analysis: import('../api.js').Analysis } | { unsolved: true } | { pending: true } | null}
     */
    this.value = null;
  }

  /** The position in the one-line form. */
  get position() {
    return writePosition(this.layout);
  }

  /** Opens what the address names: a position as written (legal or not yet), or a setup. */
  async open() {
    const position = this.params.get('position');
    const written = position ? readPosition(position) : null;
    try {
      if (written) {
        this.layout = written;
        await this.loadSize();
      } else {
        await this.loadPosition(position || 'standard');
      }
    } catch {
      await this.loadPosition('standard');
    }
    await this.check();
  }

  /** The board's size under the variant, from the server; pieces off the board go. */
  async loadSize() {
    const layout = this.layout;
    try {
      const desc = await api.position(this.variant, 'standard');
      layout.width = desc.width;
      layout.height = desc.height;
    } catch (e) {
      this.verdict = { desc: null, error: api.messageOf(e) };
    }
    for (const name of Object.keys(layout.cells)) {
      const { col, row } = cellCoords(name);
      if (col >= layout.width || row > layout.height) delete layout.cells[name];
    }
  }

  /**
   * A position (or a setup's name) as the server reads it.
   * @param {string} position
   */
  async loadPosition(position) {
    const desc = await api.position(this.variant, position);
    this.layout = { width: desc.width, height: desc.height, cells: cellsOf(desc.pieces), turn: desc.turn };
  }

  /** Puts the position in the address and asks the server about it. */
  async check() {
    const position = this.position;
    replaceAddress(href('editor', { variant: this.variant, position }));
    this.redraw();
    const ticket = ++this.checking;
    let desc = null;
    try {
      desc = await api.position(this.variant, position);
      if (ticket === this.checking) this.verdict = { desc, error: null };
    } catch (e) {
      if (ticket === this.checking) this.verdict = { desc: null, error: api.messageOf(e) };
    }
    if (ticket !== this.checking) return;
    this.value = desc ? { pending: true } : null;
    this.redraw();
    if (!desc) return;
    try {
      this.value = { analysis: await analyse(this.variant, desc.position) };
    } catch {
      // Too large for the solver, or a variant it does not solve: the position has no value.
      this.value = { unsolved: true };
    }
    if (ticket === this.checking) this.redraw();
  }

  /** @param {Tool} tool */
  setTool(tool) {
    this.tool = tool;
    this.redraw();
  }

  /** @param {Color} turn */
  setTurn(turn) {
    this.layout.turn = turn;
    this.check();
  }

  /** @param {string} variant */
  async setVariant(variant) {
    this.variant = variant;
    await this.loadSize();
    await this.check();
  }

  clear() {
    this.layout.cells = {};
    this.check();
  }

  async standard() {
    await this.loadPosition('standard');
    await this.check();
  }

  /**
   * A tap or Enter paints the cell with the tool (again: clears it).
   * @param {string} name
   */
  paint(name) {
    const cells = this.layout.cells;
    if (this.tool === 'erase' || cells[name] === this.tool) delete cells[name];
    else cells[name] = this.tool;
  }

  /** @param {string} name */
  cell(name) {
    this.paint(name);
    this.check();
  }

  /**
   * A drag: from a piece, moves it whole; from an empty cell, paints every cell on the way.
   * @param {string[]} path
   */
  drag(path) {
    if (this.layout.cells[path[0]]) this.movePiece(path[0], path[path.length - 1]);
    else for (const c of path) if (this.layout.cells[c] !== this.tool) this.paint(c);
    this.check();
  }

  /**
   * Moves the piece on `from` (a whole L, or a neutral) by the step to `to`, if it stays on
   * the board.
   * @param {string} from
   * @param {string} to
   */
  movePiece(from, to) {
    const { cells, width, height } = this.layout;
    const who = cells[from];
    const a = cellCoords(from);
    const b = cellCoords(to);
    const group = who === 'neutral' ? [from] : Object.keys(cells).filter((c) => cells[c] === who);
    const moved = group.map((c) => {
      const p = cellCoords(c);
      return { col: p.col + b.col - a.col, row: p.row + b.row - a.row };
    });
    if (!moved.every((p) => p.col >= 0 && p.col < width && p.row >= 1 && p.row <= height)) return;
    for (const c of group) delete cells[c];
    for (const p of moved) cells[cellName(p.col, p.row)] = who;
  }
}
