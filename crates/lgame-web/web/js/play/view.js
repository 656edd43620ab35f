// @ts-check
// A new game, drawn: the form (mode, the computer's level and strength, colour, variant,
// setup, turn limit) and its message. play/ctrl.js creates the game.

import { h, panel } from '../dom.js';
import { t } from '../i18n.js';
import { radioChoices, variantChooser } from '../ui/choosers.js';
import { PlayCtrl, MODES, COLOURS } from './ctrl.js';

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export function render(main, params) {
  const ctrl = new PlayCtrl(params, () => redraw());

  const modes = h('div', { class: 'choices modes' });
  const level = h('select', { name: 'level', 'aria-label': t('play.level') });
  const strength = h('input', { type: 'range', name: 'strength', min: 0, max: 100, step: 5, value: 0 });
  const strengthValue = h('output', { name: 'strength-value', text: '0' });
  const levelAbout = h('p', { class: 'computer-only level-about hint' });
  const strengthHint = h('p', { class: 'computer-only strength-hint hint', text: t('play.strengthHint') });
  const strengthLabel = h('label', { class: 'strength-field' }, h('span', { class: 'strength-label', text: t('play.strength') }), ' ', strength, ' ', strengthValue);
  const colours = h('div', { class: 'not-local choices colours' });
  const variantHolder = h('div', { class: 'variant-holder' });
  const setup = h('select', { id: 'setup', name: 'setup' });
  const setupText = h('input', { name: 'setup-text', class: 'mono', hidden: true, 'aria-label': t('play.setupText') });
  const turnLimit = h('input', { id: 'turn-limit', name: 'turn-limit', type: 'number', min: 0, max: 10000, value: 0 });
  // The form's end, a function of the controller's state: its refusal, and the start button
  // (off while the game is being created).
  const end = h('div', { class: 'part' });
  const drawEnd = panel(end, (/** @type {{ error: string, busy: boolean }} */ s) => h('div', { class: 'part' },
    h('p', { class: 'error', role: 'alert', text: s.error }),
    h('div', { class: 'row' }, h('button', { class: 'primary start', type: 'submit', disabled: s.busy, text: t('play.start') }))));
  drawEnd({ error: '', busy: false });
  const computerOnly = [
    h('span', { class: 'computer-only level-label', text: t('play.level') }),
    h('div', { class: 'computer-only level-field' },
      h('div', { class: 'row' }, level, ' ', strengthLabel), levelAbout, strengthHint),
  ];
  const notLocal = [h('span', { class: 'not-local colour-label', text: t('play.colour') }), colours];
  const form = h('form', { class: 'panel new-game prose' },
    h('fieldset', {}, h('legend', { class: 'mode-legend', text: t('play.mode') }), modes),
    h('div', { class: 'form-grid' },
      computerOnly,
      notLocal,
      h('span', { class: 'variant-label', text: t('play.variant') }), variantHolder,
      h('label', { for: 'setup', class: 'setup-label', text: t('play.setup') }),
      h('div', { class: 'row' }, setup, ' ', setupText),
      h('label', { for: 'turn-limit', class: 'limit-label', text: t('play.turnLimit') }),
      turnLimit),
    end);
  main.append(h('h1', { text: t('play.title') }), form);

  const mode = radioChoices(modes, 'mode', MODES, (m) => t(`play.mode.${m}`));
  mode.set(/** @type {typeof MODES[number]} */ (ctrl.mode));
  for (const name of ctrl.levels) level.add(new Option(t(`level.${name}`), name));
  level.value = ctrl.level;
  level.setAttribute('aria-label', t('play.level'));
  const showLevel = () => {
    levelAbout.textContent = t(`play.levelAbout.${level.value}`);
    // The perfect player has no weaker self to mix in.
    strengthLabel.hidden = level.value === 'perfect';
    strengthHint.hidden = level.value === 'perfect';
  };
  level.addEventListener('change', showLevel);
  showLevel();
  strength.addEventListener('input', () => { strengthValue.value = strength.value; });
  const colour = radioChoices(colours, 'colour', COLOURS, (c) => t(`play.colour.${c}`));
  colour.set('red');
  const variant = variantChooser(variantHolder, ctrl.variant);
  for (const name of ctrl.setups) setup.add(new Option(t(`setup.${name}`), name));
  setup.add(new Option(t('setup.custom'), ''));
  setup.value = ctrl.setup;
  setupText.value = ctrl.customSetup;
  setupText.hidden = ctrl.setup !== '';
  setup.addEventListener('change', () => { setupText.hidden = setup.value !== ''; });
  const showMode = () => {
    for (const e of computerOnly) e.hidden = mode.value() !== 'computer';
    if (mode.value() === 'computer') showLevel();
    for (const e of notLocal) e.hidden = mode.value() === 'local';
  };
  form.addEventListener('change', showMode);
  showMode();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ctrl.start({
      mode: mode.value(),
      level: level.value,
      strength: Number(strength.value),
      colour: colour.value(),
      variant: variant.value(),
      setup: setup.value || setupText.value.trim(),
      turnLimit: Number(turnLimit.value),
    });
  });

  function redraw() {
    drawEnd({ error: ctrl.error, busy: ctrl.busy });
  }
}
