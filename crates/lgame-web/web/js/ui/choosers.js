// @ts-check
// Form parts several views share: a row of radio buttons, and the variant chooser (the
// catalog's variants by name, or any rules text).

import { h } from '../dom.js';
import { t, has } from '../i18n.js';
import { catalog, variantNames } from '../catalog.js';

/**
 * Radio buttons named `name` in `container`, one per value, labelled by `label(value)`;
 * returns the group's reader and setter.
 * @template {string} V
 * @param {HTMLElement} container
 * @param {string} name
 * @param {readonly V[]} values
 * @param {(value: V) => string} label
 */
export function radioChoices(container, name, values, label) {
  const inputs = values.map((value) => h('input', { type: 'radio', name, value }));
  inputs.forEach((input, i) => container.appendChild(h('label', {}, input, ' ', h('span', { text: label(values[i]) }))));
  return {
    /** The chosen value, or null. */
    value: () => {
      const i = inputs.findIndex((input) => input.checked);
      return i < 0 ? null : values[i];
    },
    /** @param {V} value */
    set: (value) => inputs.forEach((input, i) => { input.checked = values[i] === value; }),
  };
}

/**
 * A variant's name in the page's language (the catalog's English name for one without).
 * @param {string} rules
 */
export function variantLabel(rules) {
  const key = `variant.${rules}`;
  if (has(key)) return t(key);
  const known = catalog.variants.find((v) => v.rules === rules);
  return known ? known.name : rules;
}

/**
 * A select of the named variants plus "other…" with a text field; returns a reader.
 * @param {HTMLElement} container
 * @param {string} [initial]
 */
export function variantChooser(container, initial = 'classic') {
  const select = h('select', { name: 'variant', 'aria-label': t('play.variant') });
  for (const v of variantNames) select.add(new Option(variantLabel(v), v));
  select.add(new Option(t('variant.other'), ''));
  const text = h('input', { name: 'variant-text', placeholder: 'board=6x4,neutrals=3', 'aria-label': t('play.variantText') });
  const known = variantNames.includes(initial);
  select.value = known ? initial : '';
  text.value = known ? '' : initial;
  text.hidden = known;
  select.addEventListener('change', () => { text.hidden = select.value !== ''; if (!text.hidden) text.focus(); });
  container.appendChild(h('div', { class: 'row' }, select, text));
  return {
    value: () => (select.value || text.value.trim() || 'classic'),
    /** @param {() => void} f */
    onChange: (f) => { select.addEventListener('change', f); text.addEventListener('change', f); },
  };
}

/**
 * The usual time controls a new game may have (the quick pairing's too): real time as
 * minutes+seconds, correspondence as days a move.
 */
export const CONTROLS = /** @type {const} */ (['1+0', '2+1', '3+0', '3+2', '5+0', '5+3', '10+0', '10+5', '15+10', '1d', '3d']);

/**
 * A time control's name read as the API's `clock`: `3+2` → `{initial_s: 180, increment_s: 2}`,
 * `3d` → `{days: 3}`; `''` (no clock) → null.
 * @param {string} name
 * @returns {{ initial_s: number, increment_s: number } | { days: number } | null}
 */
export function clockOf(name) {
  if (!name) return null;
  if (name.endsWith('d')) return { days: Number(name.slice(0, -1)) };
  const [minutes, seconds] = name.split('+').map(Number);
  return { initial_s: Math.round(minutes * 60), increment_s: seconds };
}

/**
 * A select of the time controls, "no clock" first (the default): its reader.
 * @param {HTMLSelectElement} select
 */
export function clockChooser(select) {
  select.add(new Option(t('clock.none'), ''));
  for (const name of CONTROLS) {
    const days = name.endsWith('d') ? Number(name.slice(0, -1)) : 0;
    select.add(new Option(days ? t('clock.perMove', { days }) : name, name));
  }
  return { value: () => clockOf(select.value) };
}
