// Puzzles: "Red to move and win in N" positions drawn from the solver's tables, for any
// variant. Every value comes from the server: the puzzles are the symmetry classes won for
// the side to move (/api/classes), a move is right only if it wins as fast as the position
// allows (/api/analysis), and Blue answers with its longest resistance (the first move of a
// lost position's analysis). Solved puzzles are remembered in this browser only.

import * as api from './api.js';
import { t, side, language } from './i18n.js';
import { Board } from './board.js';
import { MoveBuilder } from './movebuilder.js';
import { href, replaceAddress } from './app.js';

/** The variants offered in the chooser; any other rules text can be typed. */
const PRESETS = ['classic', 'misere', 'symmetry', 'sudden-death', 'neutral-required', 'neutrals=1'];
const STORAGE_KEY = 'lgame.puzzles';
/** How long Blue "thinks" before answering, so that a person sees their own move land. */
const REPLY_DELAY = 600;

/** Creates an element with attributes (`text` sets textContent) and children. */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') node.textContent = v;
    else if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** A text with a number in it, in the language's plural form (`key.one`, `key.few`, …). */
function plural(key, n, vars = {}) {
  const form = new Intl.PluralRules(language()).select(n);
  return t(`${key}.${form}`, { n, ...vars });
}

/** A distance in plies as the mover's moves: a win in 1, 3, 5 plies is a win in 1, 2, 3. */
const movesOf = (plies) => Math.ceil(plies / 2);

const puzzleId = (variant, position) => `${variant}|${position}`;

/** The solved puzzles' ids, as stored; an unreadable store counts as empty. */
function loadSolved() {
  try {
    const list = JSON.parse(localStorage.getItem(STORAGE_KEY) || '[]');
    return new Set(Array.isArray(list) ? list.filter((x) => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

function saveSolved(set) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify([...set]));
  } catch {
    // Storage full or forbidden (private mode): progress lasts for this visit only.
  }
}

const delay = (ms, timers) => new Promise((resolve) => timers.add(setTimeout(resolve, ms)));

class PuzzlesView {
  constructor(main) {
    this.main = main;
    this.alive = true;
    this.timers = new Set();
    this.solved = loadSolved();
    this.variant = null; // the server's canonical rules text
    this.grades = []; // [{plies, moves, total, positions: [position]}]
    this.grade = null;
    this.index = 0;
    this.analyses = new Map(); // position → analysis, for the current variant
    this.ticket = 0; // bumped whenever the puzzle changes, so stale answers are dropped
    this.busy = false; // a reply or the solution is being played
    this.build();
  }

  destroy() {
    this.alive = false;
    this.ticket++;
    for (const id of this.timers) clearTimeout(id);
  }

  // ---- Layout -------------------------------------------------------------------------

  build() {
    const main = this.main;
    main.append(
      h('h1', { text: t('puzzles.heading') }),
      h('p', { class: 'prose muted', text: t('puzzles.intro') }),
    );

    // The rules: a preset, or any rules text. (The select may shrink: its long option names
    // must not widen a phone's page.)
    this.select = h('select', { id: 'puzzles-variant', style: 'width:100%;min-width:0' });
    for (const name of PRESETS) this.select.append(h('option', { value: name, text: t(`puzzles.variant.${name}`) }));
    this.select.append(h('option', { value: '', text: t('puzzles.rules.other') }));
    this.select.addEventListener('change', () => {
      if (!this.select.value) return this.rulesInput.focus();
      this.rulesInput.value = this.select.value;
      this.chooseVariant(this.select.value);
    });
    this.rulesInput = h('input', {
      id: 'puzzles-rules', class: 'mono', autocomplete: 'off', spellcheck: 'false',
      'aria-describedby': 'puzzles-rules-help',
    });
    const form = h('form', { class: 'form-grid' },
      h('label', { for: 'puzzles-variant', text: t('puzzles.rules.choose') }), this.select,
      h('label', { for: 'puzzles-rules', text: t('puzzles.rules.text') }),
      h('div', { class: 'row', style: 'margin:0' }, this.rulesInput,
        h('button', { type: 'submit', text: t('puzzles.rules.load') })),
      h('span'), h('p', { id: 'puzzles-rules-help', class: 'muted', style: 'margin:0', text: t('puzzles.rules.help') }),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.chooseVariant(this.rulesInput.value.trim() || 'classic');
    });
    main.append(h('section', { class: 'panel no-print', 'aria-labelledby': 'puzzles-rules-heading' },
      h('h2', { id: 'puzzles-rules-heading', style: 'margin-top:0', text: t('puzzles.rules.heading') }), form));

    // Loading, refusals and "no puzzles" for the variant as a whole.
    this.notice = h('p', { role: 'status', 'aria-live': 'polite' });
    main.append(this.notice);

    // Grades.
    this.gradeButtons = h('div', { class: 'choices', role: 'group', 'aria-labelledby': 'puzzles-grades-heading' });
    this.cappedNote = h('p', { class: 'muted' });
    this.gradesSection = h('section', { 'aria-labelledby': 'puzzles-grades-heading', hidden: true },
      h('h2', { id: 'puzzles-grades-heading', text: t('puzzles.grades') }), this.gradeButtons, this.cappedNote);
    main.append(this.gradesSection);

    // The puzzle: board and side panel.
    this.puzzleHeading = h('h2', { id: 'puzzles-puzzle-heading' });
    const boardHolder = h('div');
    this.board = new Board(boardHolder, { label: t('puzzles.boardLabel'), interactive: true });
    this.goal = h('p', { class: 'banner' });
    this.solvedBefore = h('p', { class: 'value win', hidden: true });
    const controls = h('div');
    this.builder = new MoveBuilder(this.board, controls, (move) => this.onMove(move));
    this.status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.buttons = {
      previous: h('button', { type: 'button', class: 'puzzles-previous', text: t('puzzles.previous'), onclick: () => this.step(-1) }),
      next: h('button', { type: 'button', class: 'puzzles-next', text: t('puzzles.next'), onclick: () => this.step(1) }),
      random: h('button', { type: 'button', class: 'puzzles-random', text: t('puzzles.random'), onclick: () => this.random() }),
      unsolved: h('button', { type: 'button', class: 'puzzles-unsolved', text: t('puzzles.nextUnsolved'), onclick: () => this.nextUnsolved() }),
      restart: h('button', { type: 'button', class: 'puzzles-restart', text: t('puzzles.restart'), onclick: () => this.openPuzzle(this.index) }),
      solution: h('button', { type: 'button', class: 'puzzles-solution', text: t('puzzles.showSolution'), 'aria-describedby': 'puzzles-solution-note', onclick: () => this.showSolution() }),
    };
    this.analyseLink = h('a', { text: t('puzzles.analyse') });
    this.movesList = h('ol', { class: 'mono' });
    this.noMoves = h('p', { class: 'muted', text: t('puzzles.noMoves') });
    this.solutionList = h('ol', { class: 'mono' });
    this.solutionSection = h('section', { 'aria-labelledby': 'puzzles-solution-heading', hidden: true },
      h('h3', { id: 'puzzles-solution-heading', text: t('puzzles.solutionHeading') }), this.solutionList);
    const panel = h('div', { class: 'side' },
      this.goal, this.solvedBefore, this.status, controls,
      h('div', { class: 'row no-print' }, this.buttons.previous, this.buttons.next, this.buttons.random, this.buttons.unsolved),
      h('div', { class: 'row no-print' }, this.buttons.restart, this.buttons.solution),
      h('p', { id: 'puzzles-solution-note', class: 'muted', style: 'margin:0', text: t('puzzles.solutionNote') }),
      h('p', { style: 'margin:0' }, this.analyseLink),
      h('section', { 'aria-labelledby': 'puzzles-moves-heading' },
        h('h3', { id: 'puzzles-moves-heading', text: t('puzzles.movesHeading') }), this.noMoves, this.movesList),
      this.solutionSection,
    );
    // Every puzzle of the grade, with its solved mark: a way to jump to one.
    this.listSummary = h('summary');
    this.listButtons = h('div', { class: 'choices' });
    this.puzzleSection = h('section', { 'aria-labelledby': 'puzzles-puzzle-heading', hidden: true },
      this.puzzleHeading,
      h('div', { class: 'stage' }, boardHolder, panel),
      h('details', { class: 'no-print', style: 'margin-top:1rem' }, this.listSummary, this.listButtons),
    );
    main.append(this.puzzleSection);

    // Progress for the variant.
    this.progressText = h('p');
    this.progressSection = h('section', { class: 'no-print', 'aria-labelledby': 'puzzles-progress-heading', hidden: true },
      h('h2', { id: 'puzzles-progress-heading', text: t('puzzles.progress') }),
      this.progressText,
      h('p', { class: 'muted', text: t('puzzles.progressNote') }),
      h('button', { type: 'button', text: t('puzzles.reset'), onclick: () => this.resetProgress() }),
    );
    main.append(this.progressSection);
  }

  // ---- Variant and grades ----------------------------------------------------------------

  /** Shows the variant in the chooser: its preset, or "other" with the text. */
  showVariantChoice(text) {
    this.select.value = PRESETS.includes(text) ? text : '';
    this.rulesInput.value = text;
  }

  async chooseVariant(text) {
    if (await this.loadVariant(text)) this.chooseGrade(this.grades[0], null);
  }

  /** Reads the variant's won classes, grade by grade; false when there is nothing to show. */
  async loadVariant(text) {
    const ticket = ++this.ticket;
    this.grade = null;
    this.showVariantChoice(text);
    this.gradesSection.hidden = true;
    this.puzzleSection.hidden = true;
    this.progressSection.hidden = true;
    this.say(this.notice, t('puzzles.loading'));
    let all;
    let lists;
    try {
      all = await api.classes(text, 'win');
      // A win at distance 0 (misère: the player to move is already trapped, and so has won)
      // has no move to find.
      const distances = all.distances.filter((d) => d > 0);
      lists = await Promise.all(distances.map((d) => api.classes(all.variant, 'win', d)));
    } catch (e) {
      if (ticket !== this.ticket || !this.alive) return false;
      const key = e instanceof api.ApiError && e.status >= 400 && e.status < 500 ? 'puzzles.refused' : 'puzzles.failed';
      this.say(this.notice, t(key, { message: e.message }), 'error');
      return false;
    }
    if (ticket !== this.ticket || !this.alive) return false;
    this.variant = all.variant;
    this.showVariantChoice(this.variant);
    this.analyses.clear();
    this.grades = lists
      .map((c) => ({ plies: c.plies, moves: movesOf(c.plies), total: c.total, positions: c.positions.map((p) => p.position) }))
      .filter((g) => g.positions.length > 0);
    if (!this.grades.length) {
      this.say(this.notice, t('puzzles.none', { variant: this.variant }));
      return false;
    }
    this.say(this.notice, '');
    this.gradesSection.hidden = false;
    this.progressSection.hidden = false;
    this.renderGrades();
    return true;
  }

  isSolved(position) {
    return this.solved.has(puzzleId(this.variant, position));
  }

  solvedIn(grade) {
    return grade.positions.filter((p) => this.isSolved(p)).length;
  }

  renderGrades() {
    this.gradeButtons.textContent = '';
    for (const grade of this.grades) {
      const solved = this.solvedIn(grade);
      const button = h('button', {
        type: 'button',
        'aria-pressed': grade === this.grade ? 'true' : 'false',
        style: 'display:flex;flex-direction:column;align-items:flex-start;text-align:left'
          + (grade === this.grade ? ';border:2px solid var(--accent);background:color-mix(in srgb, var(--accent) 14%, var(--panel))' : ''),
        onclick: () => this.chooseGrade(grade, null),
      },
      h('strong', { text: plural('puzzles.grade', grade.moves) }),
      h('span', { class: 'muted', text: `${plural('puzzles.count', grade.positions.length)} · ${t('puzzles.solvedCount', { n: solved })}` }),
      );
      if (solved === grade.positions.length) button.querySelector('strong').classList.add('value', 'win');
      this.gradeButtons.append(button);
    }
    const capped = this.grade && this.grade.total > this.grade.positions.length;
    this.cappedNote.hidden = !capped;
    this.cappedNote.textContent = capped ? t('puzzles.capped', { shown: this.grade.positions.length, total: this.grade.total }) : '';
    const total = this.grades.reduce((n, g) => n + g.positions.length, 0);
    const solved = this.grades.reduce((n, g) => n + this.solvedIn(g), 0);
    this.progressText.textContent = t('puzzles.progressSummary', { solved, total });
  }

  /** Opens a grade at `index`, or at its first unsolved puzzle. */
  chooseGrade(grade, index) {
    this.grade = grade;
    if (index === null || !(index >= 0 && index < grade.positions.length)) {
      const unsolved = grade.positions.findIndex((p) => !this.isSolved(p));
      index = unsolved >= 0 ? unsolved : 0;
    }
    this.renderGrades();
    this.renderList();
    this.puzzleSection.hidden = false;
    this.openPuzzle(index);
  }

  /** The numbered puzzles of the grade, each marked when solved. */
  renderList() {
    const grade = this.grade;
    this.listSummary.textContent = `${t('puzzles.list')} (${plural('puzzles.count', grade.positions.length)})`;
    this.listButtons.textContent = '';
    grade.positions.forEach((position, i) => {
      const solved = this.isSolved(position);
      this.listButtons.append(h('button', {
        type: 'button',
        class: solved ? 'value win' : null,
        'aria-label': t(solved ? 'puzzles.listItemSolved' : 'puzzles.listItem', { n: i + 1 }),
        'aria-current': i === this.index ? 'true' : null,
        style: `min-width:3.2rem${i === this.index ? ';border:2px solid var(--accent)' : ''}`,
        text: String(i + 1),
        onclick: () => this.openPuzzle(i),
      }));
    });
  }

  // ---- One puzzle ---------------------------------------------------------------------

  async openPuzzle(index) {
    const ticket = ++this.ticket;
    for (const id of this.timers) clearTimeout(id);
    this.timers.clear();
    const grade = this.grade;
    this.index = index;
    this.busy = false;
    const start = grade.positions[index];
    this.puzzle = { start, plies: grade.plies, revealed: false, line: [] };
    replaceAddress(href('puzzles', { variant: this.variant, grade: grade.moves, n: index + 1 }));
    this.puzzleHeading.textContent = `${t('puzzles.puzzleHeading', { n: index + 1, total: grade.positions.length })} · ${plural('puzzles.grade', grade.moves)}`;
    this.solvedBefore.hidden = !this.isSolved(start);
    this.solvedBefore.textContent = t('puzzles.solvedBefore');
    this.solutionSection.hidden = true;
    this.say(this.status, '');
    this.builder.say('');
    this.renderList();
    let desc;
    try {
      desc = await api.position(this.variant, start);
    } catch (e) {
      if (ticket === this.ticket) this.say(this.status, t('puzzles.failed', { message: e.message }), 'error');
      return;
    }
    if (ticket !== this.ticket || !this.alive) return;
    this.desc = desc;
    this.board.set(desc);
    this.builder.setPosition(desc, true);
    this.renderMoves();
    this.renderGoal(grade.plies);
    this.updateButtons();
  }

  renderGoal(pliesLeft) {
    const started = this.puzzle.line.length > 0;
    if (this.desc.outcome) this.goal.textContent = t('puzzles.goalDone');
    else this.goal.textContent = plural(started ? 'puzzles.remaining' : 'puzzles.goal', movesOf(pliesLeft));
  }

  renderMoves() {
    this.movesList.textContent = '';
    for (const { color, move } of this.puzzle.line) {
      this.movesList.append(h('li', { text: t('puzzles.moveItem', { side: side(color), move }) }));
    }
    this.noMoves.hidden = this.puzzle.line.length > 0;
    this.analyseLink.href = href('analyse', { variant: this.variant, position: this.desc.position });
  }

  updateButtons() {
    const last = this.grade.positions.length - 1;
    const b = this.buttons;
    b.previous.disabled = this.index <= 0;
    b.next.disabled = this.index >= last;
    b.random.disabled = last < 1;
    b.solution.disabled = this.busy || !!this.desc.outcome;
    b.restart.disabled = this.busy || this.puzzle.line.length === 0;
  }

  step(delta) {
    const i = this.index + delta;
    if (i >= 0 && i < this.grade.positions.length) this.openPuzzle(i);
  }

  random() {
    const n = this.grade.positions.length;
    if (n < 2) return;
    // Any puzzle but this one.
    const i = (this.index + 1 + Math.floor(Math.random() * (n - 1))) % n;
    this.openPuzzle(i);
  }

  nextUnsolved() {
    const n = this.grade.positions.length;
    for (let k = 1; k <= n; k++) {
      const i = (this.index + k) % n;
      if (!this.isSolved(this.grade.positions[i])) return this.openPuzzle(i);
    }
    this.say(this.status, t('puzzles.allSolved'));
  }

  async analysisOf(position) {
    if (!this.analyses.has(position)) {
      const answer = api.analysis(this.variant, position);
      this.analyses.set(position, answer);
      answer.catch(() => this.analyses.delete(position));
    }
    return this.analyses.get(position);
  }

  /**
   * The person's move. It is right when it wins as fast as the position allows; a legal
   * move that is not keeps the position as it was, with the reason.
   */
  async onMove(text) {
    const ticket = this.ticket;
    const before = this.desc;
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
    if (ticket !== this.ticket || !this.alive) return;
    if (move.value !== 'win' || move.plies !== analysis.plies) {
      const reason = move.value === 'win'
        ? plural('puzzles.tooSlow', movesOf(move.plies), { move: move.move })
        : t(`puzzles.notWinning.${move.value}`, { move: move.move });
      this.builder.setPosition(before, true);
      this.builder.say(reason, 'refused');
      return;
    }
    this.builder.say('');
    this.busy = true;
    this.updateButtons();
    const desc = await this.advance(move.move, move.position, false);
    if (!desc) return;
    if (desc.outcome) return this.finish();
    this.say(this.status, t('puzzles.correct', { move: move.move }));
    await delay(REPLY_DELAY, this.timers);
    if (ticket !== this.ticket || !this.alive) return;
    try {
      const defence = await this.analysisOf(desc.position);
      const reply = defence.moves[0]; // a lost position's first move resists longest
      const after = await this.advance(reply.move, reply.position, true);
      if (!after) return;
      if (after.outcome) return this.finish();
      this.busy = false;
      this.builder.setPosition(after, true);
      this.renderGoal(defence.plies - 1);
      this.updateButtons();
      this.say(this.status, t('puzzles.answered', { move: reply.move }));
    } catch (e) {
      if (ticket === this.ticket) this.say(this.status, t('puzzles.failed', { message: e.message }), 'error');
    }
  }

  /**
   * Plays a move on the board: the position after it, the move marked as the last one (and
   * its pieces arriving, for Blue's answer), the list of moves. Null if the puzzle changed.
   */
  async advance(moveText, position, arriving) {
    const ticket = this.ticket;
    const before = this.desc;
    const detail = before.moves && before.moves.find((m) => m.move === moveText);
    const desc = await api.position(this.variant, position);
    if (ticket !== this.ticket || !this.alive) return null;
    this.desc = desc;
    this.puzzle.line.push({ color: before.turn, move: moveText });
    this.board.set(desc);
    this.builder.setPosition(desc, false);
    if (detail) {
      const last = { l: detail.l, neutrals: detail.neutrals };
      const arrive = arriving ? [...detail.l, ...detail.neutrals.map((n) => n[1])] : [];
      this.board.show({ last, arrive });
    }
    this.renderMoves();
    this.updateButtons();
    return desc;
  }

  /** The game is over: solved, unless the solution was shown. */
  finish() {
    this.busy = false;
    this.renderGoal(0);
    this.updateButtons();
    if (this.puzzle.revealed) {
      this.say(this.status, t('puzzles.solutionShown'));
      return;
    }
    if (this.desc.outcome.winner !== 'red') return;
    this.solved.add(puzzleId(this.variant, this.puzzle.start));
    saveSolved(this.solved);
    this.solvedBefore.hidden = false;
    this.renderGrades();
    this.renderList();
    const all = this.solvedIn(this.grade) === this.grade.positions.length;
    this.say(this.status, t(all ? 'puzzles.solvedAll' : 'puzzles.solved'), 'win');
  }

  /**
   * The principal line from the current position (the quickest win, the longest defence),
   * listed and played out. The puzzle then counts as not solved.
   */
  async showSolution() {
    if (this.busy || this.desc.outcome) return;
    const ticket = this.ticket;
    this.busy = true;
    this.puzzle.revealed = true;
    this.solved.delete(puzzleId(this.variant, this.puzzle.start));
    saveSolved(this.solved);
    this.solvedBefore.hidden = true;
    this.renderGrades();
    this.renderList();
    this.builder.setPosition(this.desc, false);
    this.builder.say('');
    this.updateButtons();
    this.say(this.status, t('puzzles.solutionPlaying'));
    try {
      const line = [];
      let position = this.desc.position;
      let color = this.desc.turn;
      // Bounded by the distance, in case a table ever disagreed with itself.
      for (let k = 0; k <= this.puzzle.plies; k++) {
        const a = await this.analysisOf(position);
        if (a.plies === 0 || !a.moves.length) break;
        const m = a.moves[0];
        line.push({ color, move: m.move, position: m.position });
        position = m.position;
        color = color === 'red' ? 'blue' : 'red';
      }
      if (ticket !== this.ticket || !this.alive) return;
      this.solutionList.textContent = '';
      for (const { color: c, move } of line) {
        this.solutionList.append(h('li', { text: t('puzzles.moveItem', { side: side(c), move }) }));
      }
      this.solutionSection.hidden = false;
      for (const m of line) {
        await delay(REPLY_DELAY, this.timers);
        if (ticket !== this.ticket || !this.alive) return;
        if (!(await this.advance(m.move, m.position, true))) return;
      }
      this.finish();
    } catch (e) {
      if (ticket === this.ticket) this.say(this.status, t('puzzles.failed', { message: e.message }), 'error');
    }
  }

  resetProgress() {
    if (!confirm(t('puzzles.resetConfirm', { variant: this.variant }))) return;
    const prefix = `${this.variant}|`;
    for (const id of [...this.solved]) if (id.startsWith(prefix)) this.solved.delete(id);
    saveSolved(this.solved);
    this.solvedBefore.hidden = true;
    this.renderGrades();
    this.renderList();
    this.say(this.status, t('puzzles.resetDone'));
  }

  /** Writes a message into a live region; `kind` error or win marks it. */
  say(node, text, kind) {
    node.textContent = text;
    node.classList.toggle('error', kind === 'error');
    node.classList.toggle('value', kind === 'win');
    node.classList.toggle('win', kind === 'win');
  }

  /** Opens what the address names: variant, grade (in moves) and puzzle number. */
  async start(params) {
    const text = (params.get('variant') || 'classic').trim() || 'classic';
    if (!(await this.loadVariant(text))) return;
    const wanted = parseInt(params.get('grade'), 10);
    const grade = this.grades.find((g) => g.moves === wanted) || this.grades[0];
    const n = parseInt(params.get('n'), 10);
    this.chooseGrade(grade, Number.isInteger(n) ? n - 1 : null);
  }
}

export async function render(main, params) {
  const view = new PuzzlesView(main);
  view.start(params);
  return () => view.destroy();
}
