// @ts-check
// The board editor, drawn: the board, the tools, the side to move, the variant, and the
// server's verdict, the solver's value of the position, and links to analyse or play it.
// editor/ctrl.js holds it.

import { h } from '../dom.js';
import { href } from '../address.js';
import { t, side, outcomeText, valueText } from '../i18n.js';
import { piecesOf } from '../notation.js';
import { Board } from '../ui/board.js';
import { radioChoices, variantChooser } from '../ui/choosers.js';
import { EditorCtrl, TOOLS } from './ctrl.js';

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export async function render(main, params) {
  const ctrl = new EditorCtrl(params, () => redraw());
  const boardHolder = h('div', { class: 'board-holder' });
  const tools = TOOLS.map((name) => h('button', {
    type: 'button', 'data-tool': name, text: t(`editor.tool.${name}`), onclick: () => ctrl.setTool(name),
  }));
  const turns = h('div', { class: 'choices turns' });
  const variantHolder = h('div', { class: 'variant-holder' });
  const verdict = h('p', { class: 'verdict', role: 'status', 'aria-live': 'polite' });
  const positionText = h('p', { class: 'mono position-text' });
  const value = h('p', { class: 'editor-value', role: 'status', 'aria-live': 'polite', hidden: true });
  const analyse = h('a', { class: 'analyse', text: t('editor.analyse') });
  const playFrom = h('a', { class: 'play-from', text: t('editor.playFrom') });
  main.append(
    h('h1', { text: t('title.editor') }),
    h('div', { class: 'stage' },
      h('div', {}, boardHolder),
      h('div', { class: 'side' },
        h('div', { class: 'panel' },
          h('div', { class: 'row tools', role: 'toolbar' }, tools),
          h('fieldset', {}, h('legend', { class: 'turn-legend', text: t('editor.toMove') }), turns),
          variantHolder,
          h('div', { class: 'row' },
            h('button', { type: 'button', class: 'clear', text: t('editor.clear'), onclick: () => ctrl.clear() }),
            h('button', { type: 'button', class: 'standard', text: t('editor.standard'), onclick: () => ctrl.standard() })),
          h('p', { class: 'hint muted', text: t('editor.hint') })),
        h('div', { class: 'panel' },
          verdict,
          value,
          positionText,
          h('div', { class: 'row' }, analyse, playFrom)))));

  const board = new Board(boardHolder, { label: t('editor.boardLabel') });
  board.on({ cell: (name) => ctrl.cell(name), drag: (path) => ctrl.drag(path) });
  const turn = radioChoices(turns, 'turn', /** @type {const} */ (['red', 'blue']), side);
  turns.addEventListener('change', () => {
    const chosen = turn.value();
    if (chosen) ctrl.setTurn(chosen);
  });
  const chooser = variantChooser(variantHolder, ctrl.variant);
  chooser.onChange(() => ctrl.setVariant(chooser.value()));

  function redraw() {
    for (const button of tools) button.setAttribute('aria-pressed', String(button.dataset.tool === ctrl.tool));
    const layout = ctrl.layout;
    turn.set(layout.turn);
    board.set({ width: layout.width, height: layout.height, pieces: piecesOf(layout), turn: layout.turn });
    positionText.textContent = ctrl.position;
    const v = ctrl.verdict;
    if (!v) return;
    verdict.dataset.valid = String(v.desc !== null);
    drawValue();
    if (v.desc) {
      const desc = v.desc;
      verdict.textContent = desc.outcome
        ? t('editor.finished', { conclusion: outcomeText(desc.outcome, desc.turn) })
        : t('editor.valid', { side: side(desc.turn), count: desc.legal_moves });
      analyse.href = href('analyse', { variant: ctrl.variant, position: desc.position });
      playFrom.href = href('play', { variant: ctrl.variant, setup: desc.position });
      analyse.removeAttribute('aria-disabled');
      playFrom.hidden = Boolean(desc.outcome);
    } else {
      verdict.textContent = v.error;
      analyse.removeAttribute('href');
      analyse.setAttribute('aria-disabled', 'true');
      playFrom.hidden = true;
    }
  }

  /** The solver's value of the position built, for the side to move. */
  function drawValue() {
    const v = ctrl.value;
    value.hidden = v === null;
    if (!v || !ctrl.verdict || !ctrl.verdict.desc) return;
    const turn = ctrl.verdict.desc.turn;
    if ('analysis' in v) {
      const a = v.analysis;
      value.dataset.value = a.value;
      value.dataset.plies = String(a.plies ?? '');
      value.replaceChildren(`${t('editor.value', { side: side(turn) })} `,
        h('span', { class: `value ${a.value}`, text: valueText(a.value, a.plies) }));
    } else {
      delete value.dataset.value;
      delete value.dataset.plies;
      value.replaceChildren(t('unsolved' in v ? 'editor.unsolved' : 'analysis.loading'));
    }
  }

  await ctrl.open();
}
