// @ts-check
// The board editor, drawn: the board, the tools, the side to move, the variant, and the
// server's verdict, the solver's value of the position, and links to analyse or play it.
// editor/ctrl.js holds it.
//
// The tools and the verdict's panel are functions of their slice of the state, redrawn by
// dom.js's `panel` when it changed. The board, the side to move (radio buttons) and the
// variant chooser are drawn by their own modules.

import { h, panel } from '../dom.js';
import { href } from '../address.js';
import { t, side, outcomeText, valueText } from '../i18n.js';
import { piecesOf } from '../notation.js';
import { Board } from '../ui/board.js';
import { radioChoices, variantChooser } from '../ui/choosers.js';
import { EditorCtrl, TOOLS } from './ctrl.js';

/**
 * The tools, the chosen one pressed.
 * @param {string} tool
 * @param {(name: typeof TOOLS[number]) => void} choose
 */
const toolsView = (tool, choose) => h('div', { class: 'row tools', role: 'toolbar' }, TOOLS.map((name) => h('button', {
  type: 'button', 'data-tool': name, 'aria-pressed': String(name === tool), text: t(`editor.tool.${name}`), onclick: () => choose(name),
})));

/**
 * The server's verdict on the position built, the solver's value, the position's text and
 * the links to analyse or play it (off while the position is not one).
 * @typedef {{ valid: boolean, text: string, analyse: string | null, play: string | null }} Verdict
 * @typedef {{ turn: import('../api.js').Color, value: import('../api.js').Analysis['value'], plies: number | null | undefined } | { words: string } | null} Value
 * @param {{ position: string, verdict: Verdict | null, value: Value }} s
 */
function verdictView({ position, verdict, value }) {
  return h('div', { class: 'panel' },
    h('p', { class: 'verdict', role: 'status', 'aria-live': 'polite', 'data-valid': verdict && String(verdict.valid), text: verdict?.text ?? '' }),
    h('p', {
      class: 'editor-value', role: 'status', 'aria-live': 'polite', hidden: !value,
      'data-value': value && 'value' in value ? value.value : null, 'data-plies': value && 'value' in value ? String(value.plies ?? '') : null,
    }, value && ('value' in value
      ? [`${t('editor.value', { side: side(value.turn) })} `, h('span', { class: `value ${value.value}`, text: valueText(value.value, value.plies ?? null) })]
      : value.words)),
    h('p', { class: 'mono position-text', text: position }),
    h('div', { class: 'row' },
      h('a', { class: 'analyse', href: verdict?.analyse, 'aria-disabled': verdict && !verdict.valid ? 'true' : null, text: t('editor.analyse') }),
      h('a', { class: 'play-from', href: verdict?.play, hidden: Boolean(verdict && !verdict.play), text: t('editor.playFrom') })));
}

/**
 * The state cut into the verdict panel's slice.
 * @param {EditorCtrl} ctrl
 */
function verdictSlice(ctrl) {
  const v = ctrl.verdict;
  const desc = v && v.desc;
  /** @type {Value} */
  let value = null;
  const known = ctrl.value;
  if (known && desc) {
    value = 'analysis' in known
      ? { turn: desc.turn, value: known.analysis.value, plies: known.analysis.plies }
      : { words: t('unsolved' in known ? 'editor.unsolved' : 'analysis.loading') };
  }
  return {
    position: ctrl.position,
    verdict: v && (desc ? {
      valid: true,
      text: desc.outcome
        ? t('editor.finished', { conclusion: outcomeText(desc.outcome, desc.turn) })
        : t('editor.valid', { side: side(desc.turn), count: desc.legal_moves }),
      analyse: href('analyse', { variant: ctrl.variant, position: desc.position }),
      play: desc.outcome ? null : href('play', { variant: ctrl.variant, setup: desc.position }),
    } : { valid: false, text: v.error || '', analyse: null, play: null }),
    value,
  };
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export async function render(main, params) {
  const ctrl = new EditorCtrl(params, () => redraw());
  const boardHolder = h('div', { class: 'board-holder' });
  const tools = h('div');
  const turns = h('div', { class: 'choices turns' });
  const variantHolder = h('div', { class: 'variant-holder' });
  const verdict = h('div');
  main.append(
    h('h1', { text: t('title.editor') }),
    h('div', { class: 'stage' },
      h('div', {}, boardHolder),
      h('div', { class: 'side' },
        h('div', { class: 'panel' },
          tools,
          h('fieldset', {}, h('legend', { class: 'turn-legend', text: t('editor.toMove') }), turns),
          variantHolder,
          h('div', { class: 'row' },
            h('button', { type: 'button', class: 'clear', text: t('editor.clear'), onclick: () => ctrl.clear() }),
            h('button', { type: 'button', class: 'standard', text: t('editor.standard'), onclick: () => ctrl.standard() })),
          h('p', { class: 'hint muted', text: t('editor.hint') })),
        verdict)));

  const board = new Board(boardHolder, { label: t('editor.boardLabel') });
  board.on({ cell: (name) => ctrl.cell(name), drag: (path) => ctrl.drag(path) });
  const turn = radioChoices(turns, 'turn', /** @type {const} */ (['red', 'blue']), side);
  turns.addEventListener('change', () => {
    const chosen = turn.value();
    if (chosen) ctrl.setTurn(chosen);
  });
  const chooser = variantChooser(variantHolder, ctrl.variant);
  chooser.onChange(() => ctrl.setVariant(chooser.value()));
  const draw = {
    tools: panel(tools, (/** @type {string} */ tool) => toolsView(tool, (name) => ctrl.setTool(name))),
    verdict: panel(verdict, verdictView),
  };
  // Before the first verdict: the panels' places, as they will stand.
  draw.tools('');
  draw.verdict({ position: '', verdict: null, value: null });

  function redraw() {
    draw.tools(ctrl.tool);
    const layout = ctrl.layout;
    turn.set(layout.turn);
    board.set({ width: layout.width, height: layout.height, pieces: piecesOf(layout), turn: layout.turn });
    draw.verdict(verdictSlice(ctrl));
  }

  await ctrl.open();
}
