// @ts-check
// Puzzles, the state and the actions: "Red to move and win in N" positions drawn from the
// solver's tables, for any variant. Every value comes from the server: the puzzles are the
// symmetry classes won for the side to move (/api/classes), a move is right only if it wins
// as fast as the position allows (/api/analysis), and Blue answers with its longest
// resistance (the first move of a lost position's analysis). Solved puzzles and the streak
// (puzzles solved in a row without a wrong move or the solution shown) are remembered in this
// browser only. view.js draws it.

import * as api from '../api.js';
import { href, replaceAddress } from '../address.js';
import { t, plural } from '../i18n.js';
import { read, write } from '../storage.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {import('../api.js').PositionDesc} PositionDesc */
/** @typedef {import('../api.js').Analysis} Analysis */
/** @typedef {import('../ui/move/ctrl.js').MoveCtrl} MoveCtrl */

/** How long Blue "thinks" before answering, so that a person sees their own move land. */
const REPLY_DELAY = 600;

/**
 * The won positions at one distance: `plies` for the mover's win, `moves` the mover's moves,
 * `total` the positions the server has (it lists at most a thousand).
 * @typedef {{ plies: number, moves: number, total: number, positions: string[] }} Grade
 */

/** A move of a puzzle's line. @typedef {{ color: Color, move: string }} LineMove */

/**
 * The puzzle open: its start, its distance, whether the solution was shown, and the moves
 * played so far.
 * @typedef {{ start: string, plies: number, revealed: boolean, line: LineMove[] }} Puzzle
 */

/** A message: its text and how it is marked. @typedef {{ text: string, kind?: 'error' | 'win' }} Note */

/**
 * What the view does for the controller: draw a position (`last` the move that led there,
 * its pieces arriving when `arrive`), and draw the rest.
 * @typedef {{ frame: (desc: PositionDesc, last: { l: string[], neutrals: string[][] } | null, arrive: boolean) => void, redraw: () => void }} PuzzlesView
 */

/**
 * A distance in plies as the mover's moves: a win in 1, 3, 5 plies is a win in 1, 2, 3.
 * @param {number} plies
 */
export const movesOf = (plies) => Math.ceil(plies / 2);

/**
 * @param {string} variant
 * @param {string} position
 */
const puzzleId = (variant, position) => `${variant}|${position}`;

/**
 * The solved puzzles' ids, as stored; an unreadable store counts as empty.
 * @returns {Set<string>}
 */
function loadSolved() {
  const list = read('puzzles');
  return new Set(Array.isArray(list) ? list.filter((x) => typeof x === 'string') : []);
}

/** @param {Set<string>} set */
function saveSolved(set) {
  // Storage full or forbidden (private mode): progress lasts for this visit only.
  write('puzzles', [...set]);
}

/**
 * The streak (puzzles solved in a row) and the best one, as stored; unreadable counts as none.
 * @typedef {{ current: number, best: number }} Streak
 * @returns {Streak}
 */
function loadStreak() {
  const stored = read('streak');
  const { current, best } = stored && typeof stored === 'object' ? /** @type {Record<string, unknown>} */ (stored) : {};
  const count = (/** @type {unknown} */ n) => (Number.isInteger(n) && Number(n) >= 0 ? Number(n) : 0);
  return { current: count(current), best: Math.max(count(best), count(current)) };
}

export class PuzzlesCtrl {
  /** @param {PuzzlesView} view */
  constructor(view) {
    this.view = view;
    this.alive = true;
    /** @type {Set<ReturnType<typeof setTimeout>>} */
    this.timers = new Set();
    this.solved = loadSolved();
    this.streak = loadStreak();
    /** Whether this puzzle already broke the streak (a wrong move, the solution shown). */
    this.failed = false;
    /** Whether the puzzle open was just solved: the view offers the next one. */
    this.justSolved = false;
    /** The variant's canonical rules text, once loaded. */
    this.variant = '';
    /** The rules text in the chooser. */
    this.variantText = '';
    /** Whether the variant's grades are here. */
    this.loaded = false;
    /** @type {Grade[]} */
    this.grades = [];
    /** @type {Grade | null} */
    this.grade = null;
    this.index = 0;
    /** @type {Puzzle | null} */
    this.puzzle = null;
    /** @type {PositionDesc | null} */
    this.desc = null;
    /** The distance left to the win, in plies. */
    this.pliesLeft = 0;
    /** The principal line, once shown. @type {LineMove[] | null} */
    this.solution = null;
    /** position → analysis, for the current variant. @type {Map<string, Promise<Analysis>>} */
    this.analyses = new Map();
    /** Bumped whenever the puzzle changes, so that stale answers are dropped. */
    this.ticket = 0;
    /** A reply or the solution is being played. */
    this.busy = false;
    /** About the variant as a whole: loading, refused, no puzzles. @type {Note} */
    this.notice = { text: '' };
    /** About the puzzle. @type {Note} */
    this.status = { text: '' };
    /** The move builder, set by the view. @type {MoveCtrl | null} */
    this.builder = null;
  }

  destroy() {
    this.alive = false;
    this.ticket++;
    this.clearTimers();
  }

  clearTimers() {
    for (const id of this.timers) clearTimeout(id);
    this.timers.clear();
  }

  /** @param {number} ms */
  delay(ms) {
    return new Promise((resolve) => this.timers.add(setTimeout(resolve, ms)));
  }

  /**
   * Whether answers asked for under `ticket` still count.
   * @param {number} ticket
   */
  current(ticket) {
    return ticket === this.ticket && this.alive;
  }

  /**
   * @param {'notice' | 'status'} where
   * @param {string} text
   * @param {'error' | 'win'} [kind]
   */
  say(where, text, kind) {
    this[where] = { text, kind };
    this.view.redraw();
  }

  /**
   * Opens what the address names: variant, grade (in moves) and puzzle number.
   * @param {URLSearchParams} params
   */
  async open(params) {
    const text = (params.get('variant') || 'classic').trim() || 'classic';
    if (!(await this.loadVariant(text))) return;
    const wanted = parseInt(params.get('grade') || '', 10);
    const grade = this.grades.find((g) => g.moves === wanted) || this.grades[0];
    const n = parseInt(params.get('n') || '', 10);
    this.chooseGrade(grade, Number.isInteger(n) ? n - 1 : null);
  }

  /** @param {string} text */
  async chooseVariant(text) {
    if (await this.loadVariant(text)) this.chooseGrade(this.grades[0], null);
  }

  /**
   * Reads the variant's won classes, grade by grade; false when there is nothing to show.
   * @param {string} text
   */
  async loadVariant(text) {
    const ticket = ++this.ticket;
    this.grade = null;
    this.loaded = false;
    this.variantText = text;
    this.say('notice', t('puzzles.loading'));
    let all;
    let lists;
    try {
      all = await api.classes(text, 'win');
      // A win at distance 0 (misère: the player to move is already trapped, and so has won)
      // has no move to find.
      const distances = all.distances.filter((d) => d > 0);
      const variant = all.variant;
      lists = await Promise.all(distances.map((d) => api.classes(variant, 'win', d)));
    } catch (e) {
      if (!this.current(ticket)) return false;
      const refused = e instanceof api.ApiError && e.status >= 400 && e.status < 500;
      this.say('notice', t(refused ? 'puzzles.refused' : 'puzzles.failed', { message: api.messageOf(e) }), 'error');
      return false;
    }
    if (!this.current(ticket)) return false;
    this.variant = all.variant;
    this.variantText = all.variant;
    this.analyses.clear();
    this.grades = lists
      .map((c) => ({ plies: c.plies || 0, moves: movesOf(c.plies || 0), total: c.total, positions: c.positions.map((p) => p.position) }))
      .filter((g) => g.positions.length > 0);
    if (!this.grades.length) {
      this.say('notice', t('puzzles.none', { variant: this.variant }));
      return false;
    }
    this.loaded = true;
    this.say('notice', '');
    return true;
  }

  /** @param {string} position */
  isSolved(position) {
    return this.solved.has(puzzleId(this.variant, position));
  }

  /** @param {Grade} grade */
  solvedIn(grade) {
    return grade.positions.filter((p) => this.isSolved(p)).length;
  }

  /** Puzzles solved and shown, over all grades. */
  progress() {
    return {
      solved: this.grades.reduce((n, g) => n + this.solvedIn(g), 0),
      total: this.grades.reduce((n, g) => n + g.positions.length, 0),
    };
  }

  /**
   * Opens a grade at `index`, or at its first unsolved puzzle.
   * @param {Grade} grade
   * @param {number | null} index
   */
  chooseGrade(grade, index) {
    this.grade = grade;
    if (index === null || !(index >= 0 && index < grade.positions.length)) {
      const unsolved = grade.positions.findIndex((p) => !this.isSolved(p));
      index = unsolved >= 0 ? unsolved : 0;
    }
    this.openPuzzle(index);
  }

  /** @param {number} index */
  async openPuzzle(index) {
    const grade = this.grade;
    if (!grade) return;
    const ticket = ++this.ticket;
    this.clearTimers();
    this.index = index;
    this.busy = false;
    const start = grade.positions[index];
    this.puzzle = { start, plies: grade.plies, revealed: false, line: [] };
    this.failed = false;
    this.justSolved = false;
    this.solution = null;
    this.pliesLeft = grade.plies;
    replaceAddress(href('puzzles', { variant: this.variant, grade: grade.moves, n: index + 1 }));
    this.status = { text: '' };
    if (this.builder) this.builder.say('');
    this.view.redraw();
    let desc;
    try {
      desc = await api.position(this.variant, start);
    } catch (e) {
      if (ticket === this.ticket) this.say('status', t('puzzles.failed', { message: api.messageOf(e) }), 'error');
      return;
    }
    if (!this.current(ticket)) return;
    this.desc = desc;
    this.view.frame(desc, null, false);
    if (this.builder) this.builder.setPosition(desc, true);
    this.view.redraw();
  }

  /** @param {number} delta */
  step(delta) {
    const i = this.index + delta;
    if (this.grade && i >= 0 && i < this.grade.positions.length) this.openPuzzle(i);
  }

  random() {
    const n = this.grade ? this.grade.positions.length : 0;
    if (n < 2) return;
    // Any puzzle but this one.
    this.openPuzzle((this.index + 1 + Math.floor(Math.random() * (n - 1))) % n);
  }

  nextUnsolved() {
    const grade = this.grade;
    if (!grade) return;
    const n = grade.positions.length;
    for (let k = 1; k <= n; k++) {
      const i = (this.index + k) % n;
      if (!this.isSolved(grade.positions[i])) {
        this.openPuzzle(i);
        return;
      }
    }
    this.say('status', t('puzzles.allSolved'));
  }

  /** @param {string} position */
  analysisOf(position) {
    let answer = this.analyses.get(position);
    if (!answer) {
      answer = api.analysis(this.variant, position);
      this.analyses.set(position, answer);
      answer.catch(() => this.analyses.delete(position));
    }
    return answer;
  }

  /**
   * The person's move. It is right when it wins as fast as the position allows; a legal
   * move that is not keeps the position as it was, with the reason.
   * @param {string} text
   */
  async onMove(text) {
    const ticket = this.ticket;
    const before = this.desc;
    const builder = this.builder;
    if (!before || !builder) return;
    const analysis = await this.analysisOf(before.position);
    // The board sends the server's own notation, which the analysis uses too; a typed move
    // may be written differently, and a move is named by its result, so the server reads it
    // (refusing an illegal one with the rules' reason) and the result finds it.
    let move = analysis.moves.find((m) => m.move === text);
    if (!move) {
      const line = await api.records({ variant: this.variant, start: before.position, moves: [text] });
      move = analysis.moves.find((m) => m.position === line.positions[0]);
      if (!move) throw new Error(t('puzzles.unknownMove', { move: text }));
    }
    if (!this.current(ticket)) return;
    if (move.value !== 'win' || move.plies !== analysis.plies) {
      const reason = move.value === 'win'
        ? plural('puzzles.tooSlow', movesOf(move.plies || 0), { move: move.move })
        : t(`puzzles.notWinning.${move.value}`, { move: move.move });
      builder.setPosition(before, true);
      builder.say(reason, 'refused');
      this.breakStreak();
      return;
    }
    builder.say('');
    this.busy = true;
    this.view.redraw();
    const desc = await this.advance(move.move, move.position, false);
    if (!desc) return;
    if (desc.outcome) return this.finish();
    this.say('status', t('puzzles.correct', { move: move.move }));
    await this.delay(REPLY_DELAY);
    if (!this.current(ticket)) return;
    try {
      const defence = await this.analysisOf(desc.position);
      const reply = defence.moves[0]; // a lost position's first move resists longest
      const after = await this.advance(reply.move, reply.position, true);
      if (!after) return;
      if (after.outcome) return this.finish();
      this.busy = false;
      builder.setPosition(after, true);
      this.pliesLeft = (defence.plies || 0) - 1;
      this.say('status', t('puzzles.answered', { move: reply.move }));
    } catch (e) {
      if (ticket === this.ticket) this.say('status', t('puzzles.failed', { message: api.messageOf(e) }), 'error');
    }
  }

  /**
   * Plays a move on the board: the position after it, the move marked as the last one (and
   * its pieces arriving, for Blue's answer), the list of moves. Null if the puzzle changed.
   * @param {string} moveText
   * @param {string} position
   * @param {boolean} arriving
   */
  async advance(moveText, position, arriving) {
    const ticket = this.ticket;
    const before = this.desc;
    const puzzle = this.puzzle;
    if (!before || !puzzle) return null;
    const detail = before.moves && before.moves.find((m) => m.move === moveText);
    const desc = await api.position(this.variant, position);
    if (!this.current(ticket)) return null;
    this.desc = desc;
    puzzle.line.push({ color: before.turn, move: moveText });
    this.view.frame(desc, detail ? { l: detail.l, neutrals: detail.neutrals } : null, arriving);
    if (this.builder) this.builder.setPosition(desc, false);
    this.view.redraw();
    return desc;
  }

  /** The game is over: solved, unless the solution was shown. */
  finish() {
    const puzzle = this.puzzle;
    const grade = this.grade;
    if (!puzzle || !grade || !this.desc) return;
    this.busy = false;
    this.pliesLeft = 0;
    if (puzzle.revealed) return this.say('status', t('puzzles.solutionShown'));
    if (!this.desc.outcome || this.desc.outcome.winner !== 'red') return this.view.redraw();
    this.solved.add(puzzleId(this.variant, puzzle.start));
    saveSolved(this.solved);
    if (!this.failed) {
      this.streak.current += 1;
      this.streak.best = Math.max(this.streak.best, this.streak.current);
      write('streak', this.streak);
    }
    this.justSolved = true;
    const all = this.solvedIn(grade) === grade.positions.length;
    this.say('status', t(all ? 'puzzles.solvedAll' : 'puzzles.solved'), 'win');
  }

  /**
   * The principal line from the current position (the quickest win, the longest defence),
   * listed and played out. The puzzle then counts as not solved.
   */
  async showSolution() {
    const puzzle = this.puzzle;
    const from = this.desc;
    if (this.busy || !puzzle || !from || from.outcome) return;
    const ticket = this.ticket;
    this.busy = true;
    puzzle.revealed = true;
    this.breakStreak();
    this.solved.delete(puzzleId(this.variant, puzzle.start));
    saveSolved(this.solved);
    if (this.builder) {
      this.builder.setPosition(from, false);
      this.builder.say('');
    }
    this.say('status', t('puzzles.solutionPlaying'));
    try {
      /** @type {(LineMove & { position: string })[]} */
      const line = [];
      let position = from.position;
      let color = from.turn;
      // Bounded by the distance, in case a table ever disagreed with itself.
      for (let k = 0; k <= puzzle.plies; k++) {
        const a = await this.analysisOf(position);
        if (a.plies === 0 || !a.moves.length) break;
        const m = a.moves[0];
        line.push({ color, move: m.move, position: m.position });
        position = m.position;
        color = color === 'red' ? 'blue' : 'red';
      }
      if (!this.current(ticket)) return;
      this.solution = line;
      this.view.redraw();
      for (const m of line) {
        await this.delay(REPLY_DELAY);
        if (!this.current(ticket)) return;
        if (!(await this.advance(m.move, m.position, true))) return;
      }
      this.finish();
    } catch (e) {
      if (ticket === this.ticket) this.say('status', t('puzzles.failed', { message: api.messageOf(e) }), 'error');
    }
  }

  /** A wrong move or the solution shown: the streak starts again. */
  breakStreak() {
    this.failed = true;
    this.streak.current = 0;
    write('streak', this.streak);
    this.view.redraw();
  }

  /** Forgets the variant's solved puzzles (the view asks first). */
  resetProgress() {
    const prefix = `${this.variant}|`;
    for (const id of [...this.solved]) if (id.startsWith(prefix)) this.solved.delete(id);
    saveSolved(this.solved);
    this.say('status', t('puzzles.resetDone'));
  }
}
