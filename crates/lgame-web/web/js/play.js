// A new game: against the computer (level, strength, colour), two people on this device, or
// a friend by link; any variant and setup. The server checks everything and creates it.

import * as api from './api.js';
import { t } from './i18n.js';
import { href } from './app.js';

/** The variants offered by name (any other rules text can be typed). */
export const VARIANTS = ['classic', 'misere', 'symmetry', 'sudden-death', 'neutral-required', 'neutrals=1', 'neutrals=3', 'scoring', 'board=5x4', 'board=5x5'];
export const LEVELS = ['random', 'beginner', 'intermediate', 'perfect'];
const SETUPS = ['standard', 'kit', 'corners'];

/** Radio buttons named `name` in `container`, one per value, labelled by `label(value)`. */
export function radioChoices(container, name, values, label) {
  for (const value of values) {
    const item = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = name;
    input.value = value;
    const text = document.createElement('span');
    text.textContent = label(value);
    item.append(input, ' ', text);
    container.appendChild(item);
  }
}

/** A select of the named variants plus "other…" with a text field; returns a reader. */
export function variantChooser(container, initial = 'classic') {
  const wrap = document.createElement('div');
  wrap.className = 'row';
  const select = document.createElement('select');
  select.name = 'variant';
  select.setAttribute('aria-label', t('play.variant'));
  for (const v of VARIANTS) select.add(new Option(t(`variant.${v}`), v));
  select.add(new Option(t('variant.other'), ''));
  const text = document.createElement('input');
  text.name = 'variant-text';
  text.placeholder = 'board=6x4,neutrals=3';
  text.setAttribute('aria-label', t('play.variantText'));
  const known = VARIANTS.includes(initial);
  select.value = known ? initial : '';
  text.value = known ? '' : initial;
  text.hidden = known;
  select.addEventListener('change', () => { text.hidden = select.value !== ''; if (!text.hidden) text.focus(); });
  wrap.append(select, text);
  container.appendChild(wrap);
  return {
    value: () => (select.value || text.value.trim() || 'classic'),
    onChange: (f) => { select.addEventListener('change', f); text.addEventListener('change', f); },
  };
}

export async function render(main, params) {
  main.innerHTML = `
    <h1></h1>
    <form class="panel new-game prose">
      <fieldset><legend class="mode-legend"></legend><div class="choices modes"></div></fieldset>
      <div class="form-grid">
        <span class="computer-only level-label"></span>
        <div class="computer-only row"><select name="level"></select>
          <label><span class="strength-label"></span> <input type="range" name="strength" min="0" max="100" step="5" value="100">
          <output name="strength-value">100</output></label></div>
        <span class="not-local colour-label"></span>
        <div class="not-local choices colours"></div>
        <span class="variant-label"></span><div class="variant-holder"></div>
        <label for="setup" class="setup-label"></label>
        <div class="row"><select id="setup" name="setup"></select>
          <input name="setup-text" class="mono" hidden></div>
        <label for="turn-limit" class="limit-label"></label>
        <input id="turn-limit" name="turn-limit" type="number" min="0" max="10000" value="0">
      </div>
      <p class="error" role="alert"></p>
      <div class="row"><button class="primary start" type="submit"></button></div>
    </form>`;
  const $ = (s) => main.querySelector(s);
  const form = $('form');
  $('h1').textContent = t('play.title');
  $('.mode-legend').textContent = t('play.mode');
  radioChoices($('.modes'), 'mode', ['computer', 'local', 'friend'], (m) => t(`play.mode.${m}`));
  form.mode.value = params.get('mode') || 'computer';
  $('.level-label').textContent = t('play.level');
  for (const level of LEVELS) form.level.add(new Option(t(`level.${level}`), level));
  form.level.value = params.get('level') || 'perfect';
  $('.strength-label').textContent = t('play.strength');
  form.strength.addEventListener('input', () => { form['strength-value'].value = form.strength.value; });
  $('.colour-label').textContent = t('play.colour');
  radioChoices($('.colours'), 'colour', ['red', 'blue', 'random'], (c) => t(`play.colour.${c}`));
  form.colour.value = 'red';
  $('.variant-label').textContent = t('play.variant');
  const variant = variantChooser($('.variant-holder'), params.get('variant') || 'classic');
  $('.setup-label').textContent = t('play.setup');
  for (const s of SETUPS) form.setup.add(new Option(t(`setup.${s}`), s));
  form.setup.add(new Option(t('setup.custom'), ''));
  const customSetup = params.get('setup');
  if (customSetup && !SETUPS.includes(customSetup)) {
    form.setup.value = '';
    form['setup-text'].hidden = false;
    form['setup-text'].value = customSetup;
  } else {
    form.setup.value = customSetup || 'standard';
  }
  form['setup-text'].setAttribute('aria-label', t('play.setupText'));
  form.setup.addEventListener('change', () => { form['setup-text'].hidden = form.setup.value !== ''; });
  $('.limit-label').textContent = t('play.turnLimit');
  $('.start').textContent = t('play.start');
  const showMode = () => {
    main.querySelectorAll('.computer-only').forEach((e) => { e.hidden = form.mode.value !== 'computer'; });
    main.querySelectorAll('.not-local').forEach((e) => { e.hidden = form.mode.value === 'local'; });
  };
  form.addEventListener('change', showMode);
  showMode();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = $('.error');
    error.textContent = '';
    const mode = form.mode.value;
    let mine = form.colour.value;
    if (mine === 'random') mine = crypto.getRandomValues(new Uint8Array(1))[0] % 2 ? 'red' : 'blue';
    const strength = Number(form.strength.value);
    const computer = strength === 100 ? form.level.value : `${form.level.value}:${strength}`;
    const body = {
      red: mode === 'computer' && mine === 'blue' ? computer : 'human',
      blue: mode === 'computer' && mine === 'red' ? computer : 'human',
      variant: variant.value(),
      setup: form.setup.value || form['setup-text'].value.trim() || undefined,
      turn_limit: Number(form['turn-limit'].value) || undefined,
    };
    $('.start').disabled = true;
    try {
      const created = await api.games.create(body);
      const tokens = {};
      for (const [s, p] of Object.entries(created.players)) tokens[s] = p.token;
      let address;
      if (mode === 'friend') {
        const theirs = mine === 'red' ? 'blue' : 'red';
        address = href('game', { [mine]: tokens[mine], friend: tokens[theirs] }, [created.id]);
      }
      else address = href('game', tokens, [created.id]);
      location.hash = address;
    } catch (e) {
      error.textContent = e.message;
      $('.start').disabled = false;
    }
  });
}
