// @ts-check
// Puzzles, drawn: the puzzle first (board, goal, status, the streak and the grade's count, the
// next puzzle once solved, moves, solution, the way to other puzzles), then, folded away, the
// rules chooser and the grades, and the progress. puzzles/ctrl.js holds them.
//
// Each panel is a function of its slice of the state (`puzzleTop`, `gradesView`, …, below),
// redrawn by dom.js's `panel` when its slice changed; `slices` cuts the state into them. The
// rules' form is the person's to fill: it is built once, its fields set when the variant
// changes. The board and the move builder are drawn by their own modules.

import { h, panel } from '../dom.js';
import { href } from '../address.js';
import { t, side, plural, has } from '../i18n.js';
import { puzzleVariants } from '../catalog.js';
import { Board } from '../ui/board.js';
import { moveBuilder } from '../ui/move/view.js';
import { variantLabel } from '../ui/choosers.js';
import { PuzzlesCtrl, movesOf } from './ctrl.js';

/** @typedef {import('./ctrl.js').Note} Note */
/** @typedef {import('./ctrl.js').LineMove} LineMove */

/**
 * A variant's name in the puzzles' chooser (a longer one than elsewhere, where there is one).
 * @param {string} rules
 */
const presetLabel = (rules) => (has(`puzzles.variant.${rules}`) ? t(`puzzles.variant.${rules}`) : variantLabel(rules));

/**
 * A message in a live region; `kind` error or win marks it.
 * @param {string} cls
 * @param {Note} note
 */
const noteView = (cls, { text, kind }) => h('p', {
  class: [cls, kind === 'error' && 'error', kind === 'win' && 'value win'].filter(Boolean).join(' '),
  role: 'status', 'aria-live': 'polite', text,
});

/** @param {LineMove[]} moves */
const moveItems = (moves) => moves.map(({ color, move }) => h('li', { text: t('puzzles.moveItem', { side: side(color), move }) }));

/**
 * The actions of the view.
 * @typedef {{ step(by: number): void, random(): void, nextUnsolved(): void, open(i: number): void, restart(): void,
 *   solution(): void, chooseGrade(i: number): void, reset(): void }} Actions
 */

/**
 * The rules' form: a preset, or any rules text. (The select may shrink: its long option
 * names must not widen a phone's page.)
 * @param {(rules: string) => void} choose
 */
function rulesForm(choose) {
  const select = h('select', { id: 'puzzles-variant', style: 'width:100%;min-width:0' },
    puzzleVariants.map((name) => h('option', { value: name, text: presetLabel(name) })),
    h('option', { value: '', text: t('puzzles.rules.other') }));
  const rulesInput = h('input', {
    id: 'puzzles-rules', class: 'mono', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'puzzles-rules-help',
  });
  select.addEventListener('change', () => {
    if (!select.value) return rulesInput.focus();
    rulesInput.value = select.value;
    choose(select.value);
  });
  const form = h('form', { class: 'form-grid' },
    h('label', { for: 'puzzles-variant', text: t('puzzles.rules.choose') }), select,
    h('label', { for: 'puzzles-rules', text: t('puzzles.rules.text') }),
    h('div', { class: 'row', style: 'margin:0' }, rulesInput, h('button', { type: 'submit', text: t('puzzles.rules.load') })),
    h('span'), h('p', { id: 'puzzles-rules-help', class: 'muted', style: 'margin:0', text: t('puzzles.rules.help') }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    choose(rulesInput.value.trim() || 'classic');
  });
  /** Sets the fields to the rules shown. @param {string} text */
  const set = (text) => {
    select.value = puzzleVariants.includes(text) ? text : '';
    rulesInput.value = text;
  };
  return { form, set };
}

/**
 * The grades to choose from, each with its count solved.
 * @param {{ grades: { moves: number, count: number, solved: number, chosen: boolean }[], capped: { shown: number, total: number } | null }} s
 * @param {Actions} act
 */
function gradesView(s, act) {
  return h('section', { 'aria-labelledby': 'puzzles-grades-heading' },
    h('h2', { id: 'puzzles-grades-heading', text: t('puzzles.grades') }),
    h('div', { class: 'choices', role: 'group', 'aria-labelledby': 'puzzles-grades-heading' }, s.grades.map((g, i) => h('button', {
      type: 'button',
      'aria-pressed': g.chosen ? 'true' : 'false',
      style: 'display:flex;flex-direction:column;align-items:flex-start;text-align:left'
        + (g.chosen ? ';border:2px solid var(--accent);background:color-mix(in srgb, var(--accent) 14%, var(--panel))' : ''),
      onclick: () => act.chooseGrade(i),
    },
    h('strong', { class: g.solved === g.count ? 'value win' : null, text: plural('puzzles.grade', g.moves) }),
    h('span', { class: 'muted', text: `${plural('puzzles.count', g.count)} · ${t('puzzles.solvedCount', { n: g.solved })}` })))),
    h('p', { class: 'muted', hidden: !s.capped, text: s.capped ? t('puzzles.capped', s.capped) : '' }));
}

/**
 * The top of the puzzle's side panel: the goal, the status, the next puzzle, the score.
 * @param {{ goal: string, solvedBefore: boolean, status: Note, offer: boolean, streak: number, best: number, inGrade: number, count: number } | null} s
 *   null: no puzzle yet
 * @param {Actions} act
 */
function puzzleTop(s, act) {
  // The goal and what the last move did, in one box: the status's line is kept for it (a
  // line that appears moves nothing), without a gap of its own below the goal.
  return h('div', { class: 'part' },
    h('div', { class: 'banner puzzles-goal' },
      h('p', { class: 'goal', text: s ? s.goal : '' }),
      noteView('status', s ? s.status : { text: '' })),
    h('p', { class: 'value win', hidden: !s?.solvedBefore, text: t('puzzles.solvedBefore') }),
    h('button', { type: 'button', class: 'puzzles-continue primary', hidden: !s?.offer, text: t('puzzles.continue'), onclick: act.nextUnsolved }),
    h('p', {
      class: 'puzzles-score muted', 'data-streak': s?.streak, 'data-grade-solved': s?.inGrade,
      text: s ? `${t('puzzles.streak', { n: s.streak, best: s.best })} · ${t('puzzles.gradeSolved', { solved: s.inGrade, total: s.count })}` : '',
    }));
}

/**
 * The rest of the side panel: the ways to other puzzles, the solution, the moves.
 * @typedef {{ index: number, last: number, busy: boolean, over: boolean, analyse: string | null, line: LineMove[], solution: LineMove[] | null }} RestSlice
 * @param {RestSlice} s
 * @param {Actions} act
 */
function puzzleRest(s, act) {
  /**
   * @param {string} cls
   * @param {string} key
   * @param {boolean} enabled
   * @param {() => void} action
   * @param {string} [describedBy]
   */
  const button = (cls, key, enabled, action, describedBy) =>
    h('button', { type: 'button', class: `puzzles-${cls}`, text: t(key), disabled: !enabled, 'aria-describedby': describedBy, onclick: action });
  const started = s.line.length > 0;
  return h('div', { class: 'part' },
    h('div', { class: 'row no-print' },
      button('previous', 'puzzles.previous', s.index > 0, () => act.step(-1)),
      button('next', 'puzzles.next', s.index < s.last, () => act.step(1)),
      button('random', 'puzzles.random', s.last >= 1, act.random),
      button('unsolved', 'puzzles.nextUnsolved', true, act.nextUnsolved)),
    h('div', { class: 'row no-print' },
      button('restart', 'puzzles.restart', !s.busy && started, act.restart),
      button('solution', 'puzzles.showSolution', !s.busy && !s.over, act.solution, 'puzzles-solution-note')),
    h('p', { id: 'puzzles-solution-note', class: 'muted', style: 'margin:0', text: t('puzzles.solutionNote') }),
    h('p', { style: 'margin:0' }, h('a', { href: s.analyse, text: t('puzzles.analyse') })),
    h('section', { 'aria-labelledby': 'puzzles-moves-heading' },
      h('h3', { id: 'puzzles-moves-heading', text: t('puzzles.movesHeading') }),
      h('p', { class: 'muted', hidden: started, text: t('puzzles.noMoves') }),
      h('ol', { class: 'mono' }, moveItems(s.line))),
    h('section', { 'aria-labelledby': 'puzzles-solution-heading', hidden: !s.solution },
      h('h3', { id: 'puzzles-solution-heading', text: t('puzzles.solutionHeading') }),
      h('ol', { class: 'mono' }, moveItems(s.solution || []))));
}

/**
 * Every puzzle of the grade, with its solved mark: a way to jump to one.
 * @param {{ solved: boolean[], index: number } | null} s null: no puzzle yet
 * @param {Actions} act
 */
function listView(s, act) {
  return h('details', { class: 'no-print', style: 'margin-top:1rem' },
    h('summary', { text: s ? `${t('puzzles.list')} (${plural('puzzles.count', s.solved.length)})` : '' }),
    h('div', { class: 'choices' }, (s ? s.solved : []).map((solved, i) => h('button', {
      type: 'button',
      class: solved ? 'value win' : null,
      'aria-label': t(solved ? 'puzzles.listItemSolved' : 'puzzles.listItem', { n: i + 1 }),
      'aria-current': i === s?.index ? 'true' : null,
      style: `min-width:3.2rem${i === s?.index ? ';border:2px solid var(--accent)' : ''}`,
      text: String(i + 1),
      onclick: () => act.open(i),
    }))));
}

/**
 * The progress for the variant.
 * @param {{ solved: number, total: number }} s
 * @param {Actions} act
 */
function progressView(s, act) {
  return h('section', { class: 'no-print', 'aria-labelledby': 'puzzles-progress-heading' },
    h('h2', { id: 'puzzles-progress-heading', text: t('puzzles.progress') }),
    h('p', { text: t('puzzles.progressSummary', s) }),
    h('p', { class: 'muted', text: t('puzzles.progressNote') }),
    h('button', { type: 'button', text: t('puzzles.reset'), onclick: act.reset }));
}

/**
 * The state cut into the panels' slices; a panel whose part of the state is not there has
 * none, and keeps what it showed (as while the next puzzle loads). While the position is
 * asked, the goal and the puzzle's actions are those of `kept`, the last ones drawn.
 * @param {PuzzlesCtrl} ctrl
 * @param {{ goal: string, rest: RestSlice | null }} kept
 */
function slices(ctrl, kept) {
  const { grade, puzzle, desc } = ctrl;
  const loaded = ctrl.loaded;
  const count = grade ? grade.positions.length : 0;
  const started = Boolean(puzzle && puzzle.line.length > 0);
  const inGrade = grade ? ctrl.solvedIn(grade) : 0;
  return {
    summary: loaded && grade
      ? t('puzzles.options', { variant: presetLabel(ctrl.variant), grade: plural('puzzles.grade', grade.moves) })
      : t('puzzles.optionsNone'),
    grades: loaded ? {
      grades: ctrl.grades.map((g) => ({ moves: g.moves, count: g.positions.length, solved: ctrl.solvedIn(g), chosen: g === grade })),
      capped: grade && grade.total > count ? { shown: count, total: grade.total } : null,
    } : null,
    progress: loaded ? ctrl.progress() : null,
    heading: loaded && grade && puzzle ? `${t('puzzles.puzzleHeading', { n: ctrl.index + 1, total: count })} · ${plural('puzzles.grade', grade.moves)}` : null,
    list: loaded && grade && puzzle ? { solved: grade.positions.map((p) => ctrl.isSolved(p)), index: ctrl.index } : null,
    top: loaded && grade && puzzle ? {
      goal: desc ? (desc.outcome ? t('puzzles.goalDone') : plural(started ? 'puzzles.remaining' : 'puzzles.goal', movesOf(ctrl.pliesLeft))) : kept.goal,
      solvedBefore: ctrl.isSolved(puzzle.start) && !ctrl.justSolved, status: ctrl.status, offer: ctrl.justSolved,
      streak: ctrl.streak.current, best: ctrl.streak.best, inGrade, count,
    } : null,
    rest: loaded && grade && puzzle ? (desc ? {
      index: ctrl.index, last: count - 1, busy: ctrl.busy, over: Boolean(desc.outcome),
      analyse: href('analyse', { variant: ctrl.variant, position: desc.position }),
      line: puzzle.line, solution: ctrl.solution,
    } : kept.rest && { ...kept.rest, solution: ctrl.solution }) : null,
  };
}

/**
 * Calls `draw` with a slice only when there is one: a panel keeps what it showed last while
 * its part of the state is not there (as while the next puzzle loads).
 * @template S
 * @param {(slice: S) => void} draw
 * @returns {(slice: S | null) => void}
 */
const whenThere = (draw) => (slice) => { if (slice !== null) draw(slice); };

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export function render(main, params) {
  const ctrl = new PuzzlesCtrl({
    frame(desc, last, arrive) {
      board.set(desc);
      if (last) board.show({ last, arrive: arrive ? [...last.l, ...last.neutrals.map((n) => n[1])] : [] });
    },
    redraw,
  });
  /** @type {Actions} */
  const act = {
    step: (by) => ctrl.step(by),
    random: () => ctrl.random(),
    nextUnsolved: () => ctrl.nextUnsolved(),
    open: (i) => ctrl.openPuzzle(i),
    restart: () => ctrl.openPuzzle(ctrl.index),
    solution: () => ctrl.showSolution(),
    chooseGrade: (i) => ctrl.chooseGrade(ctrl.grades[i], null),
    reset: () => { if (confirm(t('puzzles.resetConfirm', { variant: ctrl.variant }))) ctrl.resetProgress(); },
  };
  const rules = rulesForm((text) => ctrl.chooseVariant(text));
  const [notice, heading, top, rest, list, gradesSection, progressSection, optionsSummary] =
    ['p', 'h2', 'div', 'div', 'details', 'section', 'section', 'summary'].map((tag) => document.createElement(tag));
  Object.assign(heading, { id: 'puzzles-puzzle-heading', className: 'puzzles-heading' });
  optionsSummary.className = 'puzzles-options-summary';
  gradesSection.hidden = progressSection.hidden = true;
  const boardHolder = h('div');
  const board = new Board(boardHolder, { label: t('puzzles.boardLabel'), interactive: true });
  const controls = h('div');
  ctrl.builder = moveBuilder(board, controls, (move) => ctrl.onMove(move));
  const puzzleSection = h('section', { 'aria-labelledby': 'puzzles-puzzle-heading', hidden: true },
    heading, h('div', { class: 'stage' }, boardHolder, h('div', { class: 'side' }, top, controls, rest)), list);
  // The choice of rules and grade, folded away under the puzzle: its summary says the choice.
  const options = h('details', { class: 'panel no-print puzzles-options' }, optionsSummary,
    h('p', { class: 'prose muted', text: t('puzzles.intro') }),
    h('section', { 'aria-labelledby': 'puzzles-rules-heading' },
      h('h2', { id: 'puzzles-rules-heading', text: t('puzzles.rules.heading') }), rules.form),
    gradesSection);
  main.append(h('h1', { text: t('puzzles.heading') }), notice, puzzleSection, options, progressSection);

  const drawList = panel(list, (/** @type {Parameters<typeof listView>[0]} */ s) => listView(s, act));
  const drawTop = panel(top, (/** @type {Parameters<typeof puzzleTop>[0]} */ s) => puzzleTop(s, act));
  const drawRest = panel(rest, (/** @type {RestSlice} */ s) => puzzleRest(s, act));
  // Before the first puzzle: the panels' places, as they will stand.
  drawList(null);
  drawTop(null);
  drawRest({ index: 0, last: 0, busy: true, over: false, analyse: null, line: [], solution: null });
  const draw = {
    notice: panel(notice, (/** @type {Note} */ note) => noteView('puzzles-notice', note)),
    summary: panel(optionsSummary, (/** @type {string} */ text) => h('summary', { class: 'puzzles-options-summary', text })),
    grades: whenThere(panel(gradesSection, (/** @type {Parameters<typeof gradesView>[0]} */ s) => gradesView(s, act))),
    progress: whenThere(panel(progressSection, (/** @type {Parameters<typeof progressView>[0]} */ s) => progressView(s, act))),
    heading: whenThere(panel(heading, (/** @type {string} */ text) => h('h2', { id: 'puzzles-puzzle-heading', class: 'puzzles-heading', text }))),
    list: whenThere(drawList),
    top: whenThere(drawTop),
    rest: whenThere(drawRest),
  };
  // The live region is there before its first words, so that they are read out.
  draw.notice({ text: '' });
  let offered = false;
  /** @type {{ goal: string, rest: RestSlice | null }} */
  const kept = { goal: '', rest: null };
  /** @type {string | null} */
  let rulesShown = null;

  function redraw() {
    const s = slices(ctrl, kept);
    // The rules' fields follow the variant when it changes, not what is being typed.
    if (ctrl.variantText !== rulesShown) rules.set((rulesShown = ctrl.variantText));
    draw.notice(ctrl.notice);
    // Nothing to solve: the choice is what the person needs.
    if (!ctrl.loaded && ctrl.notice.kind === 'error') options.open = true;
    draw.summary(s.summary);
    // While the puzzles load, their section keeps the board's place (nothing moves after).
    puzzleSection.hidden = ctrl.loaded ? !ctrl.grade : ctrl.notice.kind === 'error';
    gradesSection.hidden = progressSection.hidden = !ctrl.loaded;
    draw.grades(s.grades);
    draw.progress(s.progress);
    draw.heading(s.heading);
    draw.list(s.list);
    draw.top(s.top);
    draw.rest(s.rest);
    if (s.top) kept.goal = s.top.goal;
    if (s.rest) kept.rest = s.rest;
    // The next puzzle, once offered, has the focus.
    const offer = Boolean(s.top && s.top.offer);
    if (offer && !offered) /** @type {HTMLElement | null} */ (top.querySelector('.puzzles-continue'))?.focus();
    offered = offer;
  }

  ctrl.open(params);
  return () => ctrl.destroy();
}
