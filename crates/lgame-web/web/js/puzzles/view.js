// @ts-check
// Puzzles, drawn: the puzzle first (board, goal, status, the streak and the grade's count, the
// next puzzle once solved, moves, solution, the way to other puzzles), then, folded away, the
// rules chooser and the grades, and the progress. puzzles/ctrl.js holds them.

import { h } from '../dom.js';
import { href } from '../address.js';
import { t, side, plural, has } from '../i18n.js';
import { puzzleVariants } from '../catalog.js';
import { Board } from '../ui/board.js';
import { moveBuilder } from '../ui/move/view.js';
import { variantLabel } from '../ui/choosers.js';
import { PuzzlesCtrl, movesOf } from './ctrl.js';

/**
 * A variant's name in the puzzles' chooser (a longer one than elsewhere, where there is one).
 * @param {string} rules
 */
const presetLabel = (rules) => (has(`puzzles.variant.${rules}`) ? t(`puzzles.variant.${rules}`) : variantLabel(rules));

/**
 * Writes a message into a live region; `kind` error or win marks it.
 * @param {HTMLElement} node
 * @param {import('./ctrl.js').Note} note
 */
function showNote(node, { text, kind }) {
  node.textContent = text;
  node.classList.toggle('error', kind === 'error');
  node.classList.toggle('value', kind === 'win');
  node.classList.toggle('win', kind === 'win');
}

/**
 * Calls `draw` only when `key` differs from the last call's (lists of buttons are built
 * anew only when what they show changed, so that the focus stays where it is).
 * @param {(...args: any[]) => void} draw
 */
function whenChanged(draw) {
  let last = '';
  /** @param {string} key */
  return (key) => {
    if (key !== last) draw();
    last = key;
  };
}

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

  // The rules: a preset, or any rules text. (The select may shrink: its long option names
  // must not widen a phone's page.)
  const select = h('select', { id: 'puzzles-variant', style: 'width:100%;min-width:0' },
    puzzleVariants.map((name) => h('option', { value: name, text: presetLabel(name) })),
    h('option', { value: '', text: t('puzzles.rules.other') }));
  const rulesInput = h('input', {
    id: 'puzzles-rules', class: 'mono', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'puzzles-rules-help',
  });
  select.addEventListener('change', () => {
    if (!select.value) return rulesInput.focus();
    rulesInput.value = select.value;
    ctrl.chooseVariant(select.value);
  });
  const form = h('form', { class: 'form-grid' },
    h('label', { for: 'puzzles-variant', text: t('puzzles.rules.choose') }), select,
    h('label', { for: 'puzzles-rules', text: t('puzzles.rules.text') }),
    h('div', { class: 'row', style: 'margin:0' }, rulesInput, h('button', { type: 'submit', text: t('puzzles.rules.load') })),
    h('span'), h('p', { id: 'puzzles-rules-help', class: 'muted', style: 'margin:0', text: t('puzzles.rules.help') }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ctrl.chooseVariant(rulesInput.value.trim() || 'classic');
  });

  // Loading, refusals and "no puzzles" for the variant as a whole.
  const notice = h('p', { class: 'puzzles-notice', role: 'status', 'aria-live': 'polite' });

  const gradeButtons = h('div', { class: 'choices', role: 'group', 'aria-labelledby': 'puzzles-grades-heading' });
  const cappedNote = h('p', { class: 'muted' });
  const gradesSection = h('section', { 'aria-labelledby': 'puzzles-grades-heading', hidden: true },
    h('h2', { id: 'puzzles-grades-heading', text: t('puzzles.grades') }), gradeButtons, cappedNote);

  // The puzzle: board and side panel.
  const puzzleHeading = h('h2', { id: 'puzzles-puzzle-heading', class: 'puzzles-heading' });
  const boardHolder = h('div');
  const board = new Board(boardHolder, { label: t('puzzles.boardLabel'), interactive: true });
  const goal = h('p', { class: 'banner' });
  const solvedBefore = h('p', { class: 'value win', hidden: true, text: t('puzzles.solvedBefore') });
  const controls = h('div');
  const builder = moveBuilder(board, controls, (move) => ctrl.onMove(move));
  ctrl.builder = builder;
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const score = h('p', { class: 'puzzles-score muted' });
  const continueButton = h('button', {
    type: 'button', class: 'puzzles-continue primary', hidden: true, text: t('puzzles.continue'),
    onclick: () => ctrl.nextUnsolved(),
  });
  /**
   * @param {string} cls
   * @param {string} key
   * @param {() => void} action
   * @param {string} [describedBy]
   */
  const button = (cls, key, action, describedBy) =>
    h('button', { type: 'button', class: `puzzles-${cls}`, text: t(key), 'aria-describedby': describedBy, onclick: action });
  const buttons = {
    previous: button('previous', 'puzzles.previous', () => ctrl.step(-1)),
    next: button('next', 'puzzles.next', () => ctrl.step(1)),
    random: button('random', 'puzzles.random', () => ctrl.random()),
    unsolved: button('unsolved', 'puzzles.nextUnsolved', () => ctrl.nextUnsolved()),
    restart: button('restart', 'puzzles.restart', () => ctrl.openPuzzle(ctrl.index)),
    solution: button('solution', 'puzzles.showSolution', () => ctrl.showSolution(), 'puzzles-solution-note'),
  };
  const analyseLink = h('a', { text: t('puzzles.analyse') });
  const movesList = h('ol', { class: 'mono' });
  const noMoves = h('p', { class: 'muted', text: t('puzzles.noMoves') });
  const solutionList = h('ol', { class: 'mono' });
  const solutionSection = h('section', { 'aria-labelledby': 'puzzles-solution-heading', hidden: true },
    h('h3', { id: 'puzzles-solution-heading', text: t('puzzles.solutionHeading') }), solutionList);
  const panel = h('div', { class: 'side' },
    goal, solvedBefore, status, continueButton, score, controls,
    h('div', { class: 'row no-print' }, buttons.previous, buttons.next, buttons.random, buttons.unsolved),
    h('div', { class: 'row no-print' }, buttons.restart, buttons.solution),
    h('p', { id: 'puzzles-solution-note', class: 'muted', style: 'margin:0', text: t('puzzles.solutionNote') }),
    h('p', { style: 'margin:0' }, analyseLink),
    h('section', { 'aria-labelledby': 'puzzles-moves-heading' },
      h('h3', { id: 'puzzles-moves-heading', text: t('puzzles.movesHeading') }), noMoves, movesList),
    solutionSection);
  // Every puzzle of the grade, with its solved mark: a way to jump to one.
  const listSummary = h('summary');
  const listButtons = h('div', { class: 'choices' });
  const puzzleSection = h('section', { 'aria-labelledby': 'puzzles-puzzle-heading', hidden: true },
    puzzleHeading,
    h('div', { class: 'stage' }, boardHolder, panel),
    h('details', { class: 'no-print', style: 'margin-top:1rem' }, listSummary, listButtons));

  // Progress for the variant.
  const progressText = h('p');
  const progressSection = h('section', { class: 'no-print', 'aria-labelledby': 'puzzles-progress-heading', hidden: true },
    h('h2', { id: 'puzzles-progress-heading', text: t('puzzles.progress') }),
    progressText,
    h('p', { class: 'muted', text: t('puzzles.progressNote') }),
    h('button', {
      type: 'button', text: t('puzzles.reset'),
      onclick: () => { if (confirm(t('puzzles.resetConfirm', { variant: ctrl.variant }))) ctrl.resetProgress(); },
    }));

  // The choice of rules and grade, folded away under the puzzle: its summary says the choice.
  const optionsSummary = h('summary', { class: 'puzzles-options-summary' });
  const options = h('details', { class: 'panel no-print puzzles-options' }, optionsSummary,
    h('p', { class: 'prose muted', text: t('puzzles.intro') }),
    h('section', { 'aria-labelledby': 'puzzles-rules-heading' },
      h('h2', { id: 'puzzles-rules-heading', text: t('puzzles.rules.heading') }), form),
    gradesSection);
  main.append(
    h('h1', { text: t('puzzles.heading') }),
    notice,
    puzzleSection,
    options,
    progressSection);

  const drawGrades = whenChanged(() => {
    gradeButtons.replaceChildren(...ctrl.grades.map((grade) => {
      const solved = ctrl.solvedIn(grade);
      const chosen = grade === ctrl.grade;
      return h('button', {
        type: 'button',
        'aria-pressed': chosen ? 'true' : 'false',
        style: 'display:flex;flex-direction:column;align-items:flex-start;text-align:left'
          + (chosen ? ';border:2px solid var(--accent);background:color-mix(in srgb, var(--accent) 14%, var(--panel))' : ''),
        onclick: () => ctrl.chooseGrade(grade, null),
      },
      h('strong', { class: solved === grade.positions.length ? 'value win' : null, text: plural('puzzles.grade', grade.moves) }),
      h('span', { class: 'muted', text: `${plural('puzzles.count', grade.positions.length)} · ${t('puzzles.solvedCount', { n: solved })}` }));
    }));
  });

  const drawList = whenChanged(() => {
    const grade = ctrl.grade;
    if (!grade) return;
    listSummary.textContent = `${t('puzzles.list')} (${plural('puzzles.count', grade.positions.length)})`;
    listButtons.replaceChildren(...grade.positions.map((position, i) => {
      const solved = ctrl.isSolved(position);
      return h('button', {
        type: 'button',
        class: solved ? 'value win' : null,
        'aria-label': t(solved ? 'puzzles.listItemSolved' : 'puzzles.listItem', { n: i + 1 }),
        'aria-current': i === ctrl.index ? 'true' : null,
        style: `min-width:3.2rem${i === ctrl.index ? ';border:2px solid var(--accent)' : ''}`,
        text: String(i + 1),
        onclick: () => ctrl.openPuzzle(i),
      });
    }));
  });

  function redraw() {
    select.value = puzzleVariants.includes(ctrl.variantText) ? ctrl.variantText : '';
    rulesInput.value = ctrl.variantText;
    showNote(notice, ctrl.notice);
    gradesSection.hidden = progressSection.hidden = !ctrl.loaded;
    // Nothing to solve: the choice is what the person needs.
    if (!ctrl.loaded && ctrl.notice.kind === 'error') options.open = true;
    optionsSummary.textContent = ctrl.loaded && ctrl.grade
      ? t('puzzles.options', { variant: presetLabel(ctrl.variant), grade: plural('puzzles.grade', ctrl.grade.moves) })
      : t('puzzles.optionsNone');
    // While the puzzles load, their section keeps the board's place (nothing moves after).
    puzzleSection.hidden = ctrl.loaded ? !ctrl.grade : ctrl.notice.kind === 'error';
    if (!ctrl.loaded) return;
    const grade = ctrl.grade;
    const gradesKey = ctrl.grades.map((g) => `${g.moves}:${g.positions.length}:${ctrl.solvedIn(g)}:${g === grade}`);
    drawGrades(`${ctrl.variant}|${gradesKey.join(',')}`);
    const capped = grade !== null && grade.total > grade.positions.length;
    cappedNote.hidden = !capped;
    cappedNote.textContent = capped ? t('puzzles.capped', { shown: grade.positions.length, total: grade.total }) : '';
    const { solved, total } = ctrl.progress();
    progressText.textContent = t('puzzles.progressSummary', { solved, total });

    const puzzle = ctrl.puzzle;
    if (!grade || !puzzle) return;
    drawList(`${ctrl.variant}|${grade.moves}|${ctrl.index}|${grade.positions.map((p) => (ctrl.isSolved(p) ? 1 : 0)).join('')}`);
    puzzleHeading.textContent = `${t('puzzles.puzzleHeading', { n: ctrl.index + 1, total: grade.positions.length })} · ${plural('puzzles.grade', grade.moves)}`;
    solvedBefore.hidden = !ctrl.isSolved(puzzle.start) || ctrl.justSolved;
    const inGrade = ctrl.solvedIn(grade);
    score.dataset.streak = String(ctrl.streak.current);
    score.dataset.gradeSolved = String(inGrade);
    score.textContent = `${t('puzzles.streak', { n: ctrl.streak.current, best: ctrl.streak.best })} · ${t('puzzles.gradeSolved', { solved: inGrade, total: grade.positions.length })}`;
    const offer = ctrl.justSolved && continueButton.hidden;
    continueButton.hidden = !ctrl.justSolved;
    if (offer) continueButton.focus();
    showNote(status, ctrl.status);
    solutionSection.hidden = !ctrl.solution;
    solutionList.replaceChildren(...(ctrl.solution || []).map(({ color, move }) => h('li', { text: t('puzzles.moveItem', { side: side(color), move }) })));

    const desc = ctrl.desc;
    if (!desc) return;
    const started = puzzle.line.length > 0;
    goal.textContent = desc.outcome ? t('puzzles.goalDone') : plural(started ? 'puzzles.remaining' : 'puzzles.goal', movesOf(ctrl.pliesLeft));
    movesList.replaceChildren(...puzzle.line.map(({ color, move }) => h('li', { text: t('puzzles.moveItem', { side: side(color), move }) })));
    noMoves.hidden = started;
    analyseLink.href = href('analyse', { variant: ctrl.variant, position: desc.position });
    const lastIndex = grade.positions.length - 1;
    buttons.previous.disabled = ctrl.index <= 0;
    buttons.next.disabled = ctrl.index >= lastIndex;
    buttons.random.disabled = lastIndex < 1;
    buttons.solution.disabled = ctrl.busy || Boolean(desc.outcome);
    buttons.restart.disabled = ctrl.busy || !started;
  }

  ctrl.open(params);
  return () => ctrl.destroy();
}
