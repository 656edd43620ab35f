// @ts-check
// Building a move, the state and the steps: the L's four cells (clicked, tapped, dragged or
// chosen with the keyboard), then a neutral and its target, or no neutral move; or a typed
// move. The legal moves and the reasons a cell is refused come from the server
// (/api/position); nothing is checked here. The view (view.js) draws this state.
//
// Picking an L by pointer narrows: each cell clicked keeps the legal Ls through every cell
// clicked so far, and the L is taken only once one alone is left. A click never stands for
// another cell, so the four cells of any legal L, clicked in any order, make that L.

import * as api from '../../api.js';
import { t, refusal, refusedMove, outcomeText } from '../../i18n.js';
import { cellName } from '../../notation.js';

/** @typedef {import('../../api.js').PositionDesc} PositionDesc */
/** @typedef {import('../../api.js').MoveEntry} MoveEntry */
/** @typedef {import('../board.js').Cells} Cells */

/**
 * @param {string[]} a
 * @param {string[]} b
 */
const sameCells = (a, b) => a.length === b.length && a.every((c) => b.includes(c));

/**
 * Each refused cell's reason (an /api/position answer's) in the page's language.
 * @param {PositionDesc} desc
 * @returns {Record<string, string>}
 */
function translated(desc) {
  const reasons = desc.refusal_reasons || {};
  return Object.fromEntries(Object.entries(desc.refusals).map(([cell, text]) => [cell, refusal(reasons[cell], text)]));
}

export class MoveCtrl {
  /**
   * @param {(move: string) => Promise<void>} onMove plays a finished move; a rejection's
   *   message is shown and the move can be changed
   * @param {() => void} redraw draws the state again
   */
  constructor(onMove, redraw) {
    this.onMove = onMove;
    this.redraw = redraw;
    /** @type {PositionDesc | null} */
    this.desc = null;
    /** Whether this person may move now. */
    this.enabled = false;
    /** The cells chosen for the new L, until they make one. @type {string[]} */
    this.selected = [];
    /** Whether the cells were chosen by pointer: the L is taken as soon as one alone fits. */
    this.picking = false;
    /**
     * The cells the person clicked for the L taken (it may be taken before its fourth):
     * clicking its other cells then confirms it, clicking one of these leaves it.
     * @type {string[]}
     */
    this.clicked = [];
    /** The new L, once chosen. @type {string[] | null} */
    this.l = null;
    /** The neutral steps chosen after it. @type {string[][]} */
    this.steps = [];
    /** The neutral chosen to move next. @type {string | null} */
    this.from = null;
    /** Why each cell cannot join the selection, in the page's language. @type {Record<string, string>} */
    this.refusals = {};
    this.refusalsFor = '';
    /** A move shown over the board while the pointer is on it in a list. @type {Cells | null} */
    this.hoverPreview = null;
    /** The message line. @type {{ text: string, kind: 'info' | 'refused' }} */
    this.message = { text: '', kind: 'info' };
    /** Moves played from here so far (the typed move is cleared after each). */
    this.sent = 0;
  }

  /**
   * A new position to move in; `enabled` when it is this person's turn.
   * @param {PositionDesc} desc
   * @param {boolean} enabled
   */
  setPosition(desc, enabled) {
    // A new position clears the last one's message; the same one again keeps it (a refused
    // move's reason stays readable).
    const moved = !this.desc || this.desc.position !== desc.position;
    this.desc = desc;
    this.enabled = enabled && !desc.outcome;
    this.reset(moved);
  }

  /** @param {boolean} clearMessage */
  reset(clearMessage) {
    this.selected = [];
    this.picking = false;
    this.clicked = [];
    this.l = null;
    this.steps = [];
    this.from = null;
    this.refusals = this.desc ? translated(this.desc) : {};
    this.refusalsFor = '';
    if (clearMessage) this.message = { text: '', kind: 'info' };
    this.redraw();
  }

  /**
   * @param {string} text
   * @param {'info' | 'refused'} [kind]
   */
  say(text, kind = 'info') {
    this.message = { text, kind };
    this.redraw();
  }

  /** Cells that can join the selection: some legal L covers them all. */
  open() {
    if (!this.desc) return [];
    const { width, height, l_moves: ls } = this.desc;
    const open = [];
    for (let r = height; r >= 1; r--) {
      for (let c = 0; c < width; c++) {
        const cell = cellName(c, r);
        const wanted = [...this.selected, cell];
        if (!this.selected.includes(cell) && ls.some((l) => wanted.every((w) => l.includes(w)))) open.push(cell);
      }
    }
    return open;
  }

  /** The legal Ls through every chosen cell (none before a cell is chosen). */
  candidates() {
    if (!this.desc || this.l || !this.selected.length) return [];
    return this.desc.l_moves.filter((l) => this.selected.every((c) => l.includes(c)));
  }

  /** The moves that begin with the chosen L and neutral steps. */
  options() {
    const l = this.l;
    if (!this.desc || !this.desc.moves || !l) return [];
    return this.desc.moves.filter((m) => sameCells(m.l, l) && this.steps.every((s, i) => m.neutrals[i] && m.neutrals[i][0] === s[0] && m.neutrals[i][1] === s[1]));
  }

  /** The neutrals that may move next. */
  movable() {
    const k = this.steps.length;
    return [...new Set(this.options().filter((m) => m.neutrals[k]).map((m) => m.neutrals[k][0]))];
  }

  /** Where the chosen neutral may go. */
  targets() {
    const k = this.steps.length;
    return this.options().filter((m) => m.neutrals[k] && m.neutrals[k][0] === this.from).map((m) => m.neutrals[k][1]);
  }

  /** Whether the move can end here, without (more) neutral moves. */
  canFinish() {
    const k = this.steps.length;
    return this.enabled && this.l !== null && this.options().some((m) => m.neutrals.length === k);
  }

  /** What the board shows over the position: the move so far, or the previewed one. */
  preview() {
    if (this.hoverPreview) return this.hoverPreview;
    return this.l ? { l: this.l, neutrals: this.steps } : null;
  }

  async refusalsNow() {
    const desc = this.desc;
    const key = this.selected.slice().sort().join(',');
    if (desc && this.refusalsFor !== key) {
      const answer = await api.position(desc.variant, desc.position, this.selected);
      this.refusals = translated(answer);
      this.refusalsFor = key;
      this.redraw();
    }
    return this.refusals;
  }

  /**
   * A cell chosen on the board: by pointer (`click`) the L is taken once the cells clicked
   * leave one legal L; by keyboard once its four cells are chosen.
   * @param {string} name
   * @param {'click' | 'key'} [how]
   */
  async cell(name, how = 'key') {
    if (!this.enabled) {
      this.say(this.desc && this.desc.outcome ? outcomeText(this.desc.outcome, this.desc.turn) : t('move.notYourTurn'));
      return;
    }
    if (this.l) return this.neutralCell(name);
    if (this.selected.includes(name)) {
      this.selected = this.selected.filter((c) => c !== name);
      if (!this.selected.length) this.picking = false;
      this.say('');
      this.refusalsNow();
      return;
    }
    if (!this.selected.length) this.picking = how === 'click';
    if (!this.open().includes(name)) {
      const refusals = await this.refusalsNow();
      this.say(refusals[name] || t('move.cannot', { cell: name }), 'refused');
      return;
    }
    this.selected.push(name);
    this.message = { text: '', kind: 'info' };
    this.afterSelection();
  }

  afterSelection() {
    const desc = this.desc;
    // By pointer, the L is taken as soon as one alone goes through the cells clicked.
    const only = this.picking ? this.candidates() : [];
    this.clicked = this.selected.slice();
    if (only.length === 1) this.selected = only[0].slice();
    if (desc && this.selected.length === 4 && desc.l_moves.some((l) => sameCells(l, this.selected))) {
      this.l = this.selected.slice();
      this.message = { text: '', kind: 'info' };
      if (!desc.moves) {
        this.message = { text: t('move.typeBigVariant'), kind: 'info' };
      } else if (!this.options().some((m) => m.neutrals.length > 0)) {
        // Played at once only when all four cells were chosen: a person still clicking the
        // rest of an L taken early must not have those clicks land on the next position.
        if (this.clicked.length === 4) return this.submitOption();
        this.message = { text: t('move.confirmL'), kind: 'info' };
      } else {
        this.message = { text: t('move.chooseNeutral'), kind: 'info' };
      }
    } else if (only.length > 1) {
      this.message = { text: t('move.pickL', { count: only.length }), kind: 'info' };
    }
    this.redraw();
    this.refusalsNow();
  }

  /**
   * A drag across cells: the L's four cells at once, or each cell in turn.
   * @param {string[]} path
   */
  drag(path) {
    const desc = this.desc;
    if (!desc || !this.enabled || this.l) {
      // A neutral dragged: where it starts and where it is let go.
      if (this.l && path.length > 1) {
        this.cell(path[0]);
        this.cell(path[path.length - 1]);
      } else path.forEach((c) => this.cell(c));
      return;
    }
    if (path.length === 4 && desc.l_moves.some((l) => sameCells(l, path))) {
      this.selected = path.slice();
      this.afterSelection();
    } else {
      this.selected = [];
      (async () => {
        for (const c of path.slice(0, 4)) await this.cell(c);
      })();
    }
  }

  /**
   * A cell chosen once the L is: a neutral to move, its target, or a cell of the L to leave.
   * @param {string} name
   */
  neutralCell(name) {
    /** @type {string[]} */
    const l = this.l || [];
    if (this.from) {
      if (this.targets().includes(name)) {
        this.steps.push([this.from, name]);
        this.from = null;
        if (!this.options().some((m) => m.neutrals.length > this.steps.length)) return this.submitOption();
        return this.say(t('move.chooseNeutral'));
      }
      if (name === this.from) {
        this.from = null;
        return this.redraw();
      }
    }
    if (this.movable().includes(name)) {
      this.from = name;
      return this.say(t('move.chooseTarget', { cell: name }));
    }
    if (l.includes(name) && !this.clicked.includes(name) && this.steps.length === 0) {
      // A cell of the L taken before all four were clicked: it confirms the L.
      this.clicked.push(name);
      if (this.clicked.length === 4 && !this.options().some((m) => m.neutrals.length > 0)) return this.submitOption();
      return this.redraw();
    }
    if (l.includes(name) && this.steps.length === 0) {
      // Back to the L: this cell leaves it (with the cells clicked for it, less this one).
      this.selected = this.clicked.filter((c) => c !== name);
      this.clicked = [];
      this.picking = this.picking && this.selected.length > 0;
      this.l = null;
      this.from = null;
      this.say('');
      this.refusalsNow();
      return;
    }
    this.say(this.from ? t('move.notTarget', { cell: name }) : t('move.notNeutral', { cell: name }), 'refused');
  }

  finishWithoutNeutral() {
    if (!this.enabled || !this.l) return;
    this.submitOption();
  }

  /** Plays the move made of the chosen L and neutral steps, if it is one. */
  submitOption() {
    const done = this.options().find((m) => m.neutrals.length === this.steps.length);
    if (!done) return this.say(t('move.neutralRequired'), 'refused');
    return this.submit(done.move);
  }

  /**
   * Plays a move: the board's, a typed one, or one from a list.
   * @param {string} text
   */
  async submit(text) {
    this.enabled = false;
    // What the message said of the move being built is no longer true once it is sent.
    this.message = { text: '', kind: 'info' };
    this.redraw();
    try {
      await this.onMove(text);
      this.sent++;
      this.redraw();
    } catch (e) {
      this.enabled = true;
      this.say(refusedMove(e, text), 'refused');
    }
  }

  /**
   * Shows a move over the board while the pointer is on it in a list (null: stop).
   * @param {Cells | null} move
   */
  showPreview(move) {
    this.hoverPreview = move;
    this.redraw();
  }
}
