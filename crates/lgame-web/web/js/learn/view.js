// @ts-check
// The Learn view, drawn: the rules for a player, the variants, strategy notes and a gallery of
// the classic game's lost positions. A table of contents, then one part at a time (the rules,
// the variants, strategy, the lost positions). Its texts live in i18n/<language>/learn.js; its
// diagrams are drawn by the page's own board (so they follow the theme and the language), each
// a link to the analysis board at its position; its data is learn/ctrl.js's.
//
// The router owns location.hash, so links within the page do not use `href="#id"`: a contents
// entry is a real link to `#/learn?section=ID` (it can be copied and reopened), but a click
// scrolls there itself and only replaces the address, without re-rendering the view.

import { h, panel } from '../dom.js';
import { href, replaceAddress } from '../address.js';
import { t, number, plural, alternatives, valueText } from '../i18n.js';
import { moveCells, sortCells } from '../notation.js';
import { Board } from '../ui/board.js';
import { variantLabel } from '../ui/choosers.js';
import {
  LearnCtrl, VARIANT, STANDARD, KIT, CORNERS, KIT_AFTER, KIT_END, TRAPPED, CORNER_TRAP, KILLER_TRAP, MOST_MOVES,
  pieces, factRows, variantSections,
} from './ctrl.js';

/** @typedef {import('../dom.js').Child} Child */

/** @param {string[]} cells */
const list = (cells) => cells.join(', ');

/**
 * A position in words, for a diagram's alt text.
 * @param {string} position
 */
function describe(position) {
  const p = pieces(position);
  let neutrals = t('learn.alt.noNeutrals');
  if (p.neutrals.length === 1) neutrals = t('learn.alt.neutral', { cells: list(p.neutrals) });
  if (p.neutrals.length > 1) neutrals = t('learn.alt.neutrals', { cells: list(p.neutrals) });
  return t('learn.alt.position', {
    red: t('learn.alt.red', { cells: list(p.red) }),
    blue: t('learn.alt.blue', { cells: list(p.blue) }),
    neutrals,
    turn: t(`learn.alt.turn.${p.turn}`),
  });
}

/**
 * A marked move in words (`A2,A3,A4,B4 B2-A1`), made by the side to move in `position`.
 * @param {string} position
 * @param {string} move
 */
function describeMove(position, move) {
  const [l, ...steps] = move.trim().split(/\s+/);
  const text = t(`learn.alt.move.${pieces(position).turn}`, { cells: list(sortCells(l.split(','))) });
  if (!steps.length) return t('learn.alt.moveOnly', { l: text });
  const said = steps.map((step) => {
    const [from, to] = step.split('-');
    return t('learn.alt.step', { from, to });
  });
  return t('learn.alt.moveThen', { l: text, steps: said.join(', ') });
}

/**
 * A diagram drawn by the page's board (a marked move drawn over it as a preview: the L's new
 * cells dashed, the neutral's step an arrow), as a link that opens its position on the
 * analysis board; `markAlt` replaces the marked move's words.
 * @param {string} position
 * @param {string} [move]
 * @param {string} [markAlt]
 */
function diagram(position, move, markAlt) {
  const words = [describe(position)];
  if (markAlt) words.push(markAlt);
  else if (move) words.push(describeMove(position, move));
  const { red, blue, neutrals, turn } = pieces(position);
  const link = h('a', {
    class: 'learn-diagram', href: href('analyse', { variant: VARIANT, position }), 'data-position': position,
    title: t('learn.diagram.open'),
  });
  const board = new Board(link, { interactive: false, label: `${words.join(' ')} ${t('learn.diagram.open')}` });
  board.set({ width: 4, height: 4, turn, pieces: { red, blue, neutrals } });
  if (move) board.show({ preview: moveCells(move) });
  if (markAlt) board.svg.classList.add('refused-mark');
  return link;
}

/** @typedef {{ position: string, move?: string, caption: string, markAlt?: string }} Figure */

/**
 * Diagrams with captions, side by side.
 * @param {...Figure} items
 */
function figures(...items) {
  return h('div', { class: 'row learn-figures' },
    items.map(({ position, move, caption, markAlt }) => h('figure', {},
      diagram(position, move, markAlt),
      h('figcaption', { class: 'muted' }, caption))));
}

/**
 * @param {string} key
 * @param {import('../i18n.js').Vars} [vars]
 */
const para = (key, vars) => h('p', {}, t(key, vars));

/**
 * Prose paragraphs and more.
 * @param {...Child} children
 */
const prose = (...children) => h('div', { class: 'prose' }, ...children);

/**
 * Shows the part (an h2 section) that holds `id`, and hides the others; the contents mark it.
 * @param {string} id
 */
function showPart(id) {
  const element = document.getElementById(id);
  const part = element && element.closest('.learn-part');
  if (!part) return;
  for (const other of document.querySelectorAll('.learn-part')) {
    if (other instanceof HTMLElement) other.hidden = other !== part;
  }
  for (const a of document.querySelectorAll('#learn-toc a[data-part]')) {
    if (a instanceof HTMLElement) a.setAttribute('aria-current', String(a.dataset.part === part.id));
  }
}

/**
 * Shows a section's part, scrolls to it, moves the focus to its heading and puts it in the
 * address.
 * @param {string} id
 * @param {{ focus?: boolean, smooth?: boolean }} [how]
 */
function goTo(id, { focus = true, smooth = true } = {}) {
  const section = document.getElementById(id);
  if (!section) return;
  showPart(id);
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  section.scrollIntoView({ behavior: smooth && !still ? 'smooth' : 'auto', block: 'start' });
  const heading = section.querySelector('h1, h2, h3');
  if (focus && heading instanceof HTMLElement) heading.focus({ preventScroll: true });
  replaceAddress(id === 'learn-toc' ? href('learn') : href('learn', { section: id }));
}

/**
 * A section with its heading: the page's own h2s open its parts, set apart from the h3s
 * beneath them.
 * @param {string} id
 * @param {2 | 3} level
 * @param {string} titleKey
 * @param {...Child} children
 */
function section(id, level, titleKey, ...children) {
  const style = level === 2
    ? 'margin-top: 2.5rem; padding-top: 1rem; border-top: 1px solid var(--line); font-size: 1.45rem;'
    : 'margin-top: 1.6rem;';
  const heading = h(level === 2 ? 'h2' : 'h3', { id: `${id}-title`, tabindex: '-1', style }, t(titleKey));
  return h('section', { id, 'aria-labelledby': heading.id }, heading, ...children);
}

/**
 * A link to a section: a real address, but a click only scrolls (see the top of the file).
 * @param {string} id
 * @param {string} text
 */
function link(id, text) {
  return h('a', {
    href: href('learn', { section: id }),
    /** @param {MouseEvent} event */
    onclick: (event) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      goTo(id);
    },
  }, text);
}

/**
 * The contents of `sections`: their h2 sections, each with its h3 sections beneath. Read from
 * the built sections in document order, so it always matches the page.
 * @param {HTMLElement[]} sections
 */
function contents(sections) {
  const heading = h('h2', { id: 'learn-toc-title', tabindex: '-1', style: 'margin-top: 0;' }, t('learn.toc'));
  const top = h('ol', { style: 'columns: 15rem; column-gap: 2rem; margin: 0;' });
  for (const part of sections) {
    const sub = [...part.querySelectorAll('section[id] > h3')]
      .map((hd) => h('li', {}, link(/** @type {HTMLElement} */ (hd.parentElement).id, hd.textContent || '')));
    const title = part.querySelector('h2');
    const partLink = link(part.id, (title && title.textContent) || '');
    partLink.dataset.part = part.id;
    partLink.classList.add('learn-part-link');
    top.append(h('li', { style: 'break-inside: avoid; margin-bottom: 0.5rem;' },
      partLink, sub.length ? h('ol', {}, sub) : null));
  }
  return h('nav', { id: 'learn-toc', class: 'panel', 'aria-labelledby': heading.id }, heading, top);
}

function backToContents() {
  return h('p', { class: 'no-print' }, link('learn-toc', `↑ ${t('learn.toContents')}`));
}

function rulesSection() {
  return section(
    'learn-rules', 2, 'learn.rules.title',
    section('learn-board', 3, 'learn.board.title',
      prose(para('learn.board.text')),
      figures({ position: STANDARD, caption: t('learn.board.caption') })),
    section('learn-cells', 3, 'learn.cells.title',
      prose(para('learn.cells.text'), para('learn.cells.moves'))),
    section('learn-turn', 3, 'learn.turn.title',
      prose(
        para('learn.turn.intro'),
        h('ol', {}, h('li', {}, t('learn.turn.l')), h('li', {}, t('learn.turn.neutral'))),
        para('learn.turn.only')),
      figures({ position: STANDARD, move: 'A2,B2,B3,B4 D1-C4', caption: t('learn.turn.caption') })),
    section('learn-win', 3, 'learn.win.title',
      prose(para('learn.win.text')),
      figures({ position: TRAPPED, caption: t('learn.win.caption') })),
    section('learn-example', 3, 'learn.example.title',
      prose(para('learn.example.text')),
      figures(
        // The server marks a move without judging it, so the refused placement can be shown.
        { position: KIT, move: 'B1,B2,B3,C1', markAlt: t('learn.alt.illegal'), caption: t('learn.example.illegal') },
        { position: KIT, move: 'A2,A3,A4,B4 B2-A1', caption: t('learn.example.legal') },
        { position: KIT_AFTER, move: 'B2,B3,C2,D2 C3-C4', caption: t('learn.example.reply') },
        { position: KIT_END, caption: t('learn.example.end') })),
    section('learn-draws', 3, 'learn.draws.title',
      prose(
        para('learn.draws.text'),
        h('ul', {},
          h('li', {}, t('learn.draws.repetition')),
          h('li', {}, t('learn.draws.limit')),
          h('li', {}, t('learn.draws.agreement'))))),
    section('learn-setups', 3, 'learn.setups.title',
      prose(
        para('learn.setups.text'),
        h('p', {}, h('a', { href: href('editor') }, t('learn.setups.editor')))),
      figures(
        { position: STANDARD, caption: t('learn.setups.standard') },
        { position: KIT, caption: t('learn.setups.kit') },
        { position: CORNERS, caption: t('learn.setups.corners') })),
    backToContents(),
  );
}

/**
 * "Play this variant" and "Analyse" for one rules text, named after the variant for screen
 * readers.
 * @param {string} name the section's title
 * @param {import('./ctrl.js').VariantLink} variantLink
 */
function variantLinks(name, { variant, analyse, label }) {
  const text = label ? ('rules' in label ? variantLabel(label.rules) : t(label.key)) : null;
  const full = text ? `${name}: ${text}` : name;
  return h('p', { class: 'row' },
    text ? h('span', { style: 'min-width: 12rem;' }, text) : null,
    h('a', { href: href('play', { variant }), 'aria-label': t('learn.variants.playNamed', { name: full }) },
      t('learn.variants.play')),
    h('span', { 'aria-hidden': 'true', class: 'muted' }, '·'),
    h('a', {
      href: href('analyse', { variant: analyse || variant, position: 'start' }),
      'aria-label': t('learn.variants.analyseNamed', { name: full }),
    }, t('learn.variants.analyse')));
}

function variantsSection() {
  return section(
    'learn-variants', 2, 'learn.variants.title',
    prose(para('learn.variants.intro')),
    variantSections().map(({ id, links, note }) => {
      const base = `learn.variant.${id}`;
      return section(`learn-variant-${id}`, 3, `${base}.title`,
        prose(
          para(`${base}.text`),
          note ? para(`${base}.note`) : null,
          links.map((l) => variantLinks(t(`${base}.title`), l))));
    }),
    backToContents(),
  );
}

/**
 * Figures in the page's language: numbers written its way, lists as alternatives.
 * @param {Record<string, number | number[] | string>} vars
 */
function written(vars) {
  return Object.fromEntries(Object.entries(vars).map(([k, v]) =>
    [k, Array.isArray(v) ? alternatives(v) : typeof v === 'number' ? number(v) : v]));
}

function factsTable() {
  const rows = factRows().map(({ key, value, valueKey, note, outcome }) => {
    const vars = written(outcome ? { ...value, value: valueText(outcome.value, outcome.plies) } : value);
    return h('tr', {},
      h('th', { scope: 'row', style: 'font-weight: normal;' }, t(key)),
      h('td', { class: 'figure' }, valueKey ? t(valueKey, vars) : vars.n),
      h('td', { class: 'muted' }, note ? t(`${key}.note`, written(note)) : ''));
  });
  return h('table', { class: 'moves-table learn-facts' },
    h('caption', { class: 'visually-hidden' }, t('learn.solved.caption')),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('learn.solved.fact')),
      h('th', { scope: 'col' }, t('learn.solved.value')),
      h('th', { scope: 'col' }, t('learn.solved.note')))),
    h('tbody', {}, rows));
}

/** @param {{ corners: HTMLElement, killer: HTMLElement }} slots */
function strategySection(slots) {
  return section(
    'learn-strategy', 2, 'learn.strategy.title',
    prose(para('learn.strategy.intro')),
    section('learn-corners', 3, 'learn.corners.title',
      prose(para('learn.corners.text'), slots.corners),
      figures({ position: CORNER_TRAP, caption: t('learn.corners.caption') })),
    section('learn-killer', 3, 'learn.killer.title',
      prose(para('learn.killer.text'), slots.killer),
      figures({ position: KILLER_TRAP, caption: t('learn.killer.caption') })),
    section('learn-mobility', 3, 'learn.mobility.title',
      prose(para('learn.mobility.text')),
      figures({ position: MOST_MOVES, caption: t('learn.mobility.caption') })),
    section('learn-neutrals', 3, 'learn.neutrals.title',
      prose(para('learn.neutrals.text'))),
    section('learn-lookahead', 3, 'learn.lookahead.title',
      prose(
        para('learn.lookahead.text'),
        h('p', { class: 'no-print' }, link('learn-lost', t('learn.lookahead.show'))))),
    section('learn-solved', 3, 'learn.solved.title',
      prose(para('learn.solved.text'), factsTable())),
    backToContents(),
  );
}

/**
 * One lost position: a link to the analysis board around its diagram, with its caption.
 * @param {string} position
 * @param {number} plies
 */
function lostFigure(position, plies) {
  return h('figure', { style: 'margin: 0;' },
    diagram(position),
    h('figcaption', { style: 'text-align: center;' },
      plies === 0 ? t('learn.lost.caption.trapped') : plural('learn.lost.caption.plies', plies)));
}

/**
 * The gallery of lost positions, by distance.
 * @param {import('./ctrl.js').Lost} lost
 */
function gallery(lost) {
  const intro = [para('learn.lost.intro', { total: number(lost.total) })];
  if (lost.later.length) {
    intro.push(para('learn.lost.split', {
      trapped: number(lost.trapped),
      more: number(lost.total - lost.trapped),
      distances: alternatives(lost.later),
    }));
  }
  intro.push(h('p', { class: 'muted' }, t('learn.lost.open')));
  const groups = lost.groups.map(({ plies, positions }) => {
    const heading = plies === 0
      ? t('learn.lost.group.trapped', { count: number(positions.length) })
      : plural('learn.lost.group.plies', plies, { count: number(positions.length) });
    const id = `learn-lost-${plies}`;
    return h('section', { 'aria-labelledby': id },
      h('h3', { id }, heading),
      h('div', { class: 'gallery' }, positions.map((p) => lostFigure(p, plies))));
  });
  return [prose(intro), ...groups];
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export function render(main, params) {
  const ctrl = new LearnCtrl(() => redraw());
  // Filled in once the lost positions arrive.
  const slots = { corners: h('p'), killer: h('p') };
  const lostHolder = h('div', { 'aria-busy': 'true' }, h('p', { class: 'muted' }, t('learn.lost.loading')));
  const draw = {
    corners: panel(slots.corners, (/** @type {string} */ text) => h('p', { text })),
    killer: panel(slots.killer, (/** @type {string} */ text) => h('p', { text })),
    lost: panel(lostHolder, (/** @type {{ error: string | null, lost: typeof ctrl.lost }} */ s) => h('div', {},
      s.lost ? gallery(s.lost)
        : s.error !== null ? h('p', { class: 'error', role: 'alert' }, t('learn.lost.error', { message: s.error }))
          : h('p', { class: 'muted' }, t('learn.lost.loading')))),
  };

  const sections = [
    rulesSection(),
    variantsSection(),
    strategySection(slots),
    section('learn-lost', 2, 'learn.lost.title', lostHolder, backToContents()),
  ];
  // One part at a time, each ending with the way to the next.
  sections.forEach((part, i) => {
    part.classList.add('learn-part');
    const next = sections[i + 1];
    const title = next && next.querySelector('h2');
    if (title) part.append(h('p', { class: 'no-print learn-next' }, link(next.id, `${t('learn.nextPart')}: ${title.textContent} →`)));
  });
  main.append(
    h('h1', {}, t('learn.title')),
    prose(para('learn.intro')),
    contents(sections),
    ...sections,
  );
  // Until the address names a section, the first part (showPart works once the view is in the
  // document, as it is for clicks).
  sections.forEach((part, i) => { part.hidden = i > 0; });
  for (const a of main.querySelectorAll('#learn-toc a[data-part]')) {
    if (a instanceof HTMLElement) a.setAttribute('aria-current', String(a.dataset.part === sections[0].id));
  }

  function redraw() {
    const lost = ctrl.lost;
    draw.lost({ error: ctrl.error, lost });
    if (!lost) return;
    // The strategy notes, checked against the same data.
    const total = number(lost.total);
    draw.corners(lost.cornered === lost.total
      ? t('learn.corners.all', { total })
      : t('learn.corners.some', { count: number(lost.cornered), total }));
    draw.killer(t('learn.killer.data', { count: number(lost.killer), total }));
  }

  ctrl.load();

  // An address like #/learn?section=learn-variants opens the page at that section.
  const start = params.get('section');
  if (start && document.getElementById(start)) {
    requestAnimationFrame(() => ctrl.alive && goTo(start, { focus: false, smooth: false }));
  }
  return () => ctrl.destroy();
}
