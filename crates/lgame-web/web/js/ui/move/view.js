// @ts-check
// Building a move, drawn: the board's layers (cells that can take the L, the chosen ones, the
// neutrals that may move and their targets, the move so far) and the controls under the board
// (the message line, "No neutral move", "Start the move again", the typed move). The controls
// are a function of their slice of the state (`controlsView`), redrawn by dom.js's `panel`
// when it changed; the board draws its layers itself.

import { h, panel } from '../../dom.js';
import { t } from '../../i18n.js';
import { MoveCtrl } from './ctrl.js';

/**
 * The controls: the message, the buttons that finish or restart a move, the typed move.
 * Before the first position every control waits, off.
 * @param {{ text: string, kind: string, finish: boolean, more: boolean, clear: boolean, enabled: boolean }} s
 * @param {{ finish(): void, clear(): void, submit(text: string): void }} act
 */
function controlsView(s, act) {
  return h('div', { class: 'part' },
    h('p', { class: 'move-message', role: 'alert', 'aria-live': 'assertive', 'data-kind': s.kind, text: s.text }),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'no-neutral', disabled: !s.finish, text: t(s.more ? 'move.noMoreNeutral' : 'move.noNeutral'), onclick: act.finish }), ' ',
      h('button', { type: 'button', class: 'clear-move', disabled: !s.clear, text: t('move.clear'), onclick: act.clear })),
    h('form', {
      class: 'notation-form row',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const input = /** @type {HTMLFormElement} */ (event.currentTarget).querySelector('input');
        if (input) act.submit(input.value.trim());
      },
    },
    h('label', {}, h('span', { class: 'notation-label', text: t('move.typeLabel') }), ' ',
      h('input', { class: 'notation-input', autocomplete: 'off', spellcheck: 'false', placeholder: t('move.typePlaceholder'), disabled: !s.enabled })), ' ',
    h('button', { type: 'submit', class: 'notation-play', disabled: !s.enabled, text: t('move.play') })));
}

/**
 * A move builder on `board`, its controls in `controls`: the controller, drawn whenever it
 * changes.
 * @param {import('../board.js').Board} board
 * @param {HTMLElement} controls
 * @param {(move: string) => Promise<void>} onMove plays a finished move (see MoveCtrl)
 * @returns {MoveCtrl}
 */
export function moveBuilder(board, controls, onMove) {
  controls.classList.add('move-controls');
  // The controls are drawn in a group of their own: the holder (its class, its `hidden`)
  // is its view's.
  const group = controls.appendChild(h('div', { class: 'part' }));
  const act = {
    finish: () => ctrl.finishWithoutNeutral(),
    clear: () => ctrl.reset(true),
    submit: (/** @type {string} */ text) => { if (text && ctrl.enabled) ctrl.submit(text); },
  };
  const drawControls = panel(group, (/** @type {Parameters<typeof controlsView>[0]} */ s) => controlsView(s, act));

  let cleared = 0;
  const ctrl = new MoveCtrl(onMove, () => redraw());

  function redraw() {
    const { text, kind } = ctrl.message;
    if (!ctrl.desc) {
      drawControls({ text, kind, finish: false, more: false, clear: false, enabled: false });
      return;
    }
    drawControls({
      text, kind, finish: ctrl.canFinish(), more: ctrl.steps.length > 0,
      clear: ctrl.enabled && (Boolean(ctrl.l) || ctrl.selected.length > 0), enabled: ctrl.enabled,
    });
    // A move sent empties the typed one.
    if (ctrl.sent !== cleared) {
      cleared = ctrl.sent;
      const input = group.querySelector('input');
      if (input) input.value = '';
    }
    const building = ctrl.enabled && !ctrl.l;
    board.show({
      selected: ctrl.l ? [] : ctrl.selected,
      open: building ? ctrl.open() : null,
      refusals: building ? ctrl.refusals : {},
      preview: ctrl.preview(),
      targets: ctrl.l && ctrl.from ? ctrl.targets() : [],
      movable: ctrl.from ? [ctrl.from] : ctrl.l ? ctrl.movable() : [],
    });
  }

  board.on({
    cell: (name, how) => ctrl.cell(name, how),
    drag: (path) => ctrl.drag(path),
    cancel: () => ctrl.reset(true),
  });
  redraw();
  return ctrl;
}
