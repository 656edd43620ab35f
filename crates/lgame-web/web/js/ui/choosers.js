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
