// @ts-check
// The analysis board, drawn: the board and its move builder, the step buttons (and ←/→/Home/
// End), the line with each move's value change and mark, the analysis panel (shown or hidden),
// another start, and the record's export and import. analyse/ctrl.js holds the line.

import { h } from '../dom.js';
import { href } from '../address.js';
import { t, side, outcomeText } from '../i18n.js';
import { moveCells } from '../notation.js';
import { Board } from '../ui/board.js';
import { moveBuilder } from '../ui/move/view.js';
import { AnalysisPanel, analysisToggle, changeBadge, marksLegend } from '../ui/analysis/view.js';
import { lineChanges } from '../ui/analysis/ctrl.js';
import { icon } from '../ui/icons.js';
import { variantChooser } from '../ui/choosers.js';
import { AnalyseCtrl } from './ctrl.js';

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export async function render(main, params) {
  const stepButton = (/** @type {'first' | 'prev' | 'next' | 'last'} */ name, /** @type {string} */ key) =>
    h('button', { type: 'button', class: `${name} icon-button`, 'aria-label': t(key), title: t(key) }, icon(name));
  const first = stepButton('first', 'analyse.first');
  const prev = stepButton('prev', 'analyse.prev');
  const next = stepButton('next', 'analyse.next');
  const last = stepButton('last', 'analyse.last');
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const boardHolder = h('div', { class: 'board-holder' });
  const builderHolder = h('div', { class: 'builder' });
  const historyTitle = h('h2');
  const moveList = h('ol', { class: 'move-list' });
  const legend = h('details', { class: 'legend', hidden: true }, h('summary', { text: t('analysis.legend') }), marksLegend());
  const toggle = analysisToggle((on) => {
    analysisHolder.hidden = !on;
    if (on && ctrl.desc) panel.update(ctrl.desc, ctrl.positions, ctrl.at);
    else builder.showPreview(null);
  }, true);
  const analysisHolder = h('div', { class: 'analysis-holder' });
  const variantHolder = h('div', { class: 'variant-holder' });
  const position = h('input', { name: 'position', class: 'mono' });
  const edit = h('a', { class: 'edit', text: t('analyse.edit') });
  const playFrom = h('a', { class: 'play-from', text: t('analyse.playFrom') });
  const startForm = h('form', { class: 'start-form' },
    variantHolder,
    h('label', {}, h('span', { class: 'position-label', text: t('analyse.position') }), position),
    h('div', { class: 'row' }, h('button', { type: 'submit', text: t('analyse.open') }), edit, playFrom));
  const exportButton = h('button', { type: 'button', class: 'export', text: t('analyse.export') });
  const recordText = h('textarea', { name: 'record', class: 'record-text' });
  const importButton = h('button', { type: 'button', class: 'import', text: t('analyse.import') });
  const recordFile = h('input', { type: 'file', class: 'record-file', accept: '.txt,.lgr,text/plain' });
  const error = h('p', { class: 'error', role: 'alert' });
  main.append(
    h('h1', { text: t('title.analyse') }),
    h('div', { class: 'stage' },
      h('div', {}, status, boardHolder, builderHolder,
        h('div', { class: 'row nav-buttons' }, first, prev, ' ', next, last, ' ', toggle.button)),
      h('div', { class: 'side' },
        // The folded panels first: the analysis below them grows as the solver answers
        // and moves nothing above it.
        h('details', { class: 'panel setup-panel' }, h('summary', { text: t('analyse.setup') }), startForm),
        h('details', { class: 'panel record-panel' }, h('summary', { text: t('analyse.record') }),
          h('div', { class: 'row' }, exportButton),
          h('label', {}, h('span', { class: 'import-label', text: t('analyse.importLabel') }), recordText),
          h('div', { class: 'row' }, importButton, ' ',
            h('label', { class: 'file-label' }, h('span', { text: t('analyse.importFile') }), ' ', recordFile))),
        h('section', { class: 'panel history' }, historyTitle, moveList, legend),
        analysisHolder,
        error)));

  const board = new Board(boardHolder, { label: t('board.label') });
  const ctrl = new AnalyseCtrl(params, {
    frame(desc, history) {
      board.set(desc);
      builder.setPosition(desc, !desc.outcome);
      if (ctrl.at > 0) board.show({ last: moveCells(ctrl.line[ctrl.at - 1]) });
      if (toggle.on) panel.update(desc, history, ctrl.at);
      drawChanges();
    },
    redraw,
  });
  const panel = new AnalysisPanel(analysisHolder, {
    preview: (move) => builder.showPreview(move),
    play: (move) => ctrl.play(move),
    go: (ply) => ctrl.go(ply),
  });
  const builder = moveBuilder(board, builderHolder, (move) => ctrl.play(move));
  const chooser = variantChooser(variantHolder, ctrl.variant);

  /** The value changes' places in the move list, kept while the line is the same. @type {HTMLElement[]} */
  let badges = [];
  let badgesLine = '';
  let changesTicket = 0;
  /** Each move's value change and mark, once the solver has valued the line's positions. */
  async function drawChanges() {
    const ticket = ++changesTicket;
    const { variant, positions } = ctrl;
    let changes;
    try {
      changes = await lineChanges(variant, positions);
    } catch {
      return; // A variant the solver does not solve: the moves stand without values.
    }
    if (ticket !== changesTicket) return;
    changes.forEach((change, i) => { if (badges[i]) badges[i].replaceWith(badges[i] = changeBadge(change)); });
    legend.hidden = !changes.some((c) => c && c.mark);
  }

  function redraw() {
    error.textContent = ctrl.error;
    const desc = ctrl.desc;
    if (!desc) return;
    const { at, line, variant } = ctrl;
    status.textContent = desc.outcome ? outcomeText(desc.outcome, desc.turn) : t('analyse.toMove', { side: side(desc.turn), ply: at });
    status.dataset.position = desc.position;
    first.disabled = prev.disabled = at === 0;
    next.disabled = last.disabled = at === line.length;
    const key = [variant, ctrl.start, ...line].join('|');
    const old = key === badgesLine ? badges : [];
    badgesLine = key;
    badges = line.map((_, i) => old[i] || h('span', { class: 'change' }));
    moveList.replaceChildren(...line.map((m, i) => h('li', { 'data-move': m },
      h('button', { type: 'button', text: m, 'aria-current': String(i + 1 === at), onclick: () => ctrl.go(i + 1) }),
      ' ', badges[i])));
    historyTitle.textContent = t('analyse.line', { count: line.length });
    position.value = ctrl.start;
    edit.href = href('editor', { variant, position: ctrl.positions[at] });
    playFrom.href = href('play', { variant, setup: ctrl.positions[at] });
  }

  first.addEventListener('click', () => ctrl.go(0));
  prev.addEventListener('click', () => ctrl.go(ctrl.at - 1));
  next.addEventListener('click', () => ctrl.go(ctrl.at + 1));
  last.addEventListener('click', () => ctrl.go(ctrl.line.length));
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

  startForm.addEventListener('submit', (event) => {
    event.preventDefault();
    ctrl.openStart(chooser.value(), position.value.trim());
  });
  exportButton.addEventListener('click', async () => {
    const record = await ctrl.record();
    if (record === null) return;
    const url = URL.createObjectURL(new Blob([record], { type: 'text/plain' }));
    h('a', { href: url, download: 'lgame-analysis.txt' }).click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    recordText.value = record;
  });
  importButton.addEventListener('click', () => ctrl.importRecord(recordText.value));
  recordFile.addEventListener('change', async () => {
    const file = recordFile.files && recordFile.files[0];
    if (file) ctrl.importRecord(await file.text());
  });

  await ctrl.open();
  return () => document.removeEventListener('keydown', keys);
}
