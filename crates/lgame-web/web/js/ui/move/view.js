// @ts-check
// Building a move, drawn: the board's layers (cells that can take the L, the chosen ones, the
// neutrals that may move and their targets, the move so far) and the controls under the board
// (the message line, "No neutral move", "Start the move again", the typed move).

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { MoveCtrl } from './ctrl.js';

/**
 * A move builder on `board`, its controls in `controls`: the controller, drawn whenever it
 * changes.
 * @param {import('../board.js').Board} board
 * @param {HTMLElement} controls
 * @param {(move: string) => Promise<void>} onMove plays a finished move (see MoveCtrl)
 * @returns {MoveCtrl}
 */
export function moveBuilder(board, controls, onMove) {
  const message = h('p', { class: 'move-message', role: 'alert', 'aria-live': 'assertive' });
  const noNeutral = h('button', { type: 'button', class: 'no-neutral', text: t('move.noNeutral') });
  const clear = h('button', { type: 'button', class: 'clear-move', text: t('move.clear') });
  const input = h('input', { class: 'notation-input', autocomplete: 'off', spellcheck: 'false', placeholder: t('move.typePlaceholder') });
  const play = h('button', { type: 'submit', class: 'notation-play', text: t('move.play') });
  const form = h('form', { class: 'notation-form row' },
    h('label', {}, h('span', { class: 'notation-label', text: t('move.typeLabel') }), ' ', input), ' ', play);
  controls.classList.add('move-controls');
  controls.replaceChildren(message, h('div', { class: 'row' }, noNeutral, ' ', clear), form);

  let cleared = 0;
  const ctrl = new MoveCtrl(onMove, () => redraw());

  function redraw() {
    message.textContent = ctrl.message.text;
    message.dataset.kind = ctrl.message.kind;
    if (!ctrl.desc) {
      // Nothing to move in yet: every control waits for the first position.
      for (const control of [noNeutral, clear, input, play]) control.disabled = true;
      return;
    }
    if (ctrl.sent !== cleared) {
      cleared = ctrl.sent;
      input.value = '';
    }
    const building = ctrl.enabled && !ctrl.l;
    board.show({
      selected: ctrl.l ? [] : ctrl.selected,
      open: building ? ctrl.open() : null,
      refusals: building ? ctrl.refusals : {},
      preview: ctrl.preview(),
      targets: ctrl.l && ctrl.from ? ctrl.targets() : [],
      movable: ctrl.from ? [ctrl.from] : ctrl.l ? ctrl.movable() : [],
      ...ctrl.pickable(),
    });
    noNeutral.disabled = !ctrl.canFinish();
    noNeutral.textContent = ctrl.steps.length > 0 ? t('move.noMoreNeutral') : t('move.noNeutral');
    clear.disabled = !ctrl.enabled || (!ctrl.l && ctrl.selected.length === 0);
    input.disabled = !ctrl.enabled;
    play.disabled = !ctrl.enabled;
  }

  noNeutral.addEventListener('click', () => ctrl.finishWithoutNeutral());
  clear.addEventListener('click', () => ctrl.reset(true));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && ctrl.enabled) ctrl.submit(text);
  });
  board.on({
    cell: (name, how) => ctrl.cell(name, how),
    drag: (path) => ctrl.drag(path),
    cancel: () => ctrl.reset(true),
  });
  redraw();
  return ctrl;
}
