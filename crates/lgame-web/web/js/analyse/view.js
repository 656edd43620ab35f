// @ts-check
// The analysis board, drawn: the board and its move builder, the step buttons (and ←/→/Home/
// End), the line with each move's value change and mark, the analysis panel (shown or hidden),
// another start, and the record's export and import. analyse/ctrl.js holds the line.
//
// Each panel is a function of its slice of the state (`navView`, `lineView`, …, below),
// redrawn by dom.js's `panel` when its slice changed. The start's and the record's fields are
// the person's to fill: built once, the start's field set when the start changes. The board,
// the move builder, the variant chooser and the analysis panel are drawn by their own modules.

import { h, panel } from '../dom.js';
import { href } from '../address.js';
import { t, side, outcomeText } from '../i18n.js';
import { moveCells } from '../notation.js';
import { Board } from '../ui/board.js';
import { moveBuilder } from '../ui/move/view.js';
import { AnalysisPanel, toggleButton, changeBadge, marksLegend } from '../ui/analysis/view.js';
import { lineChanges } from '../ui/analysis/ctrl.js';
import { icon } from '../ui/icons.js';
import { variantChooser } from '../ui/choosers.js';
import { AnalyseCtrl } from './ctrl.js';

/** @typedef {import('../ui/analysis/ctrl.js').Change} Change */

/**
 * The step buttons and the analysis' toggle.
 * @param {{ at: number, length: number, on: boolean }} s
 * @param {{ go(ply: number): void, toggle(): void }} act
 */
function navView(s, act) {
  const step = (/** @type {'first' | 'prev' | 'next' | 'last'} */ name, /** @type {string} */ key, /** @type {number} */ ply) =>
    h('button', {
      type: 'button', class: `${name} icon-button`, 'aria-label': t(key), title: t(key),
      disabled: ply < 0 || ply > s.length, onclick: () => act.go(ply),
    }, icon(name));
  return h('div', { class: 'row nav-buttons' },
    step('first', 'analyse.first', s.at === 0 ? -1 : 0), step('prev', 'analyse.prev', s.at - 1), ' ',
    step('next', 'analyse.next', s.at + 1), step('last', 'analyse.last', s.at === s.length ? -1 : s.length), ' ',
    toggleButton(s.on, act.toggle));
}

/**
 * The line: each move (a button to its ply) with its value change once the solver has given
 * them, and the marks' legend when a move is marked.
 * @param {{ line: string[], at: number, changes: (Change | null)[], legend: boolean }} s
 * @param {(ply: number) => void} go
 */
function lineView(s, go) {
  return h('section', { class: 'panel history' },
    h('h2', { text: t('analyse.line', { count: s.line.length }) }),
    h('ol', { class: 'move-list' }, s.line.map((m, i) => h('li', { 'data-move': m },
      h('button', { type: 'button', text: m, 'aria-current': String(i + 1 === s.at), onclick: () => go(i + 1) }),
      ' ', changeBadge(s.changes[i] || null)))),
    h('details', { class: 'legend', hidden: !s.legend }, h('summary', { text: t('analysis.legend') }), marksLegend()));
}

/**
 * The status line: who is to move at which ply, or how the position ended.
 * @param {{ text: string, position: string } | null} s
 */
const statusView = (s) => h('div', { class: 'status', role: 'status', 'aria-live': 'polite', 'data-position': s?.position, text: s?.text ?? '' });

/**
 * The start's actions: open it, edit or play the position shown.
 * @param {{ edit: string, play: string } | null} s
 */
const startActions = (s) => h('div', { class: 'row' },
  h('button', { type: 'submit', text: t('analyse.open') }),
  h('a', { class: 'edit', href: s?.edit, text: t('analyse.edit') }),
  h('a', { class: 'play-from', href: s?.play, text: t('analyse.playFrom') }));

/**
 * The side's forms, built once: another start, and the record's export and import.
 * @param {{ open(position: string): void, export(): Promise<string | null>, import(text: string): void }} act
 */
function forms(act) {
  const variantHolder = h('div', { class: 'variant-holder' });
  const position = h('input', { name: 'position', class: 'mono' });
  const actions = startActions(null);
  const startForm = h('form', { class: 'start-form' },
    variantHolder,
    h('label', {}, h('span', { class: 'position-label', text: t('analyse.position') }), position),
    actions);
  startForm.addEventListener('submit', (event) => {
    event.preventDefault();
    act.open(position.value.trim());
  });
  const recordText = h('textarea', { name: 'record', class: 'record-text' });
  const recordFile = h('input', { type: 'file', class: 'record-file', accept: '.txt,.lgr,text/plain' });
  recordFile.addEventListener('change', async () => {
    const file = recordFile.files && recordFile.files[0];
    if (file) act.import(await file.text());
  });
  const exportRecord = async () => {
    const record = await act.export();
    if (record === null) return;
    const url = URL.createObjectURL(new Blob([record], { type: 'text/plain' }));
    h('a', { href: url, download: 'lgame-analysis.txt' }).click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    recordText.value = record;
  };
  const record = h('details', { class: 'panel record-panel' }, h('summary', { text: t('analyse.record') }),
    h('div', { class: 'row' }, h('button', { type: 'button', class: 'export', text: t('analyse.export'), onclick: exportRecord })),
    h('label', {}, h('span', { class: 'import-label', text: t('analyse.importLabel') }), recordText),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'import', text: t('analyse.import'), onclick: () => act.import(recordText.value) }), ' ',
      h('label', { class: 'file-label' }, h('span', { text: t('analyse.importFile') }), ' ', recordFile)));
  const setup = h('details', { class: 'panel setup-panel' }, h('summary', { text: t('analyse.setup') }), startForm);
  return { setup, record, variantHolder, position, actions };
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export async function render(main, params) {
  const local = { on: true, changes: /** @type {(Change | null)[]} */ ([]), changesOf: '', legend: false };
  const sidePanels = forms({
    open: (position) => ctrl.openStart(chooser.value(), position),
    export: () => ctrl.record(),
    import: (text) => ctrl.importRecord(text),
  });
  const [status, nav, history, error] = ['div', 'div', 'section', 'p'].map((tag) => document.createElement(tag));
  error.className = 'error';
  error.setAttribute('role', 'alert');
  const boardHolder = h('div', { class: 'board-holder' });
  const builderHolder = h('div', { class: 'builder' });
  const analysisHolder = h('div', { class: 'analysis-holder' });
  main.append(
    h('h1', { text: t('title.analyse') }),
    h('div', { class: 'stage' },
      h('div', {}, status, boardHolder, builderHolder, nav),
      // The folded panels first: the analysis below them grows as the solver answers and
      // moves nothing above it.
      h('div', { class: 'side' }, sidePanels.setup, sidePanels.record, history, analysisHolder, error)));

  const board = new Board(boardHolder, { label: t('board.label') });
  const ctrl = new AnalyseCtrl(params, {
    frame(desc, positions) {
      board.set(desc);
      builder.setPosition(desc, !desc.outcome);
      if (ctrl.at > 0) board.show({ last: moveCells(ctrl.line[ctrl.at - 1]) });
      if (local.on) analysis.update(desc, positions, ctrl.at);
      drawChanges();
    },
    redraw,
  });
  const analysis = new AnalysisPanel(analysisHolder, {
    preview: (move) => builder.showPreview(move),
    play: (move) => ctrl.play(move),
    go: (ply) => ctrl.go(ply),
  });
  const builder = moveBuilder(board, builderHolder, (move) => ctrl.play(move));
  const chooser = variantChooser(sidePanels.variantHolder, ctrl.variant);
  const act = {
    go: (/** @type {number} */ ply) => ctrl.go(ply),
    toggle: () => {
      local.on = !local.on;
      analysisHolder.hidden = !local.on;
      if (local.on && ctrl.desc) analysis.update(ctrl.desc, ctrl.positions, ctrl.at);
      else builder.showPreview(null);
      redraw();
    },
  };
  const draw = {
    status: panel(status, statusView),
    nav: panel(nav, (/** @type {Parameters<typeof navView>[0]} */ s) => navView(s, act)),
    line: panel(history, (/** @type {Parameters<typeof lineView>[0]} */ s) => lineView(s, act.go)),
    actions: panel(sidePanels.actions, startActions),
    error: panel(error, (/** @type {string} */ text) => h('p', { class: 'error', role: 'alert', text })),
  };
  // Before the first position: the panels' places, as they will stand.
  draw.status(null);
  draw.line({ line: [], at: 0, changes: [], legend: false });
  const lineKey = () => [ctrl.variant, ctrl.start, ...ctrl.line].join('|');

  let changesTicket = 0;
  /** Each move's value change and mark, once the solver has valued the line's positions. */
  async function drawChanges() {
    const ticket = ++changesTicket;
    const key = lineKey();
    let changes;
    try {
      changes = await lineChanges(ctrl.variant, ctrl.positions);
    } catch {
      return; // A variant the solver does not solve: the moves stand without values.
    }
    if (ticket !== changesTicket) return;
    Object.assign(local, { changes, changesOf: key, legend: changes.some((c) => c && c.mark) });
    redraw();
  }

  /** @type {string | null} */
  let startShown = null;
  function redraw() {
    draw.error(ctrl.error);
    draw.nav({ at: ctrl.at, length: ctrl.line.length, on: local.on });
    const desc = ctrl.desc;
    if (!desc) return;
    const { at, line, variant } = ctrl;
    draw.status({ text: desc.outcome ? outcomeText(desc.outcome, desc.turn) : t('analyse.toMove', { side: side(desc.turn), ply: at }), position: desc.position });
    // The changes drawn are the line's only: another line's wait for the solver. The legend
    // stays as it was until then.
    draw.line({ line, at, changes: local.changesOf === lineKey() ? local.changes : [], legend: local.legend });
    // The start's field follows the start when it changes, not what is being typed.
    if (ctrl.start !== startShown) sidePanels.position.value = startShown = ctrl.start;
    draw.actions({ edit: href('editor', { variant, position: ctrl.positions[at] }), play: href('play', { variant, setup: ctrl.positions[at] }) });
  }
  redraw();

  /** @param {KeyboardEvent} event */
  const keys = (event) => {
    const inField = event.target instanceof Element && event.target.closest('input, textarea, select, .board-svg');
    if (inField || event.altKey || event.ctrlKey || event.metaKey) return;
    /** @type {Record<string, number>} */
    const steps = { ArrowLeft: ctrl.at - 1, ArrowRight: ctrl.at + 1, Home: 0, End: ctrl.line.length };
    if (event.key in steps) {
      event.preventDefault();
      ctrl.go(steps[event.key]);
    }
  };
  document.addEventListener('keydown', keys);

  await ctrl.open();
  return () => document.removeEventListener('keydown', keys);
}
