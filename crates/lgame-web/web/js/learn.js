// The Learn view: the rules for a player, the variants, strategy notes and a gallery of the
// classic game's lost positions. One long page with a table of contents.
//
// The page's texts live in i18n/<language>/learn.js. Its pictures are the server's diagrams of
// real positions; each position and marked move below was checked with /api/position (legal,
// but for the kit's refused placement, marked on purpose) and /api/analysis (its value where
// the text states one). The gallery is built from the
// solver's answer (/api/classes), so its count comes from the data, not from this file.
//
// The router owns location.hash, so links within the page do not use `href="#id"`: a contents
// entry is a real link to `#/learn?section=ID` (it can be copied and reopened), but a click
// scrolls there itself and only replaces the address, without re-rendering the view.

import { t, language } from './i18n.js';
import * as api from './api.js';
import { href, replaceAddress } from './app.js';

const VARIANT = 'classic';

// Positions shown in the rules and strategy notes (one-line form, rows from the top down).
const STANDARD = 'NRR./.RB./.RB./.BBN r';
const KIT = '..BB/R.NB/RN.B/RR.. r';
const CORNERS = 'RRRN/R.../...B/NBBB r';
const KIT_AFTER = 'RRBB/R.NB/R..B/N... b'; // after the kit's example move A2,A3,A4,B4 B2-A1
const KIT_END = 'RRN./RB../RBBB/N... r'; // after Blue's reply: Red is trapped
const TRAPPED = '..../BBBN/R.B./RRRN r';
const CORNER_TRAP = '..B./N.B./RBBN/RRR. r';
const KILLER_TRAP = '.N../NB../RBBB/RRR. r';
const MOST_MOVES = 'N.BB/...B/R..B/RRRN r'; // 221 moves, the most of any position

const CORNER_CELLS = ['A1', 'D1', 'A4', 'D4'];
const KILLER_CELLS = ['B1', 'C1', 'D2', 'D3', 'B4', 'C4', 'A2', 'A3'];

// The classic game's figures, from the facts table of docs/rules.md (pinned there by tests).
const FACTS = [
  { key: 'learn.fact.positions', value: { n: 18368 }, note: true },
  { key: 'learn.fact.classes', value: { n: 2296 }, note: true },
  {
    key: 'learn.fact.values',
    value: { won: 1006, drawn: 1261, lost: 29 },
    valueKey: 'learn.fact.values.value',
    note: { notLost: 2267 },
  },
  { key: 'learn.fact.trapped', value: { n: 15 } },
  { key: 'learn.fact.forced', value: { n: 14 }, note: true },
  { key: 'learn.fact.longest', value: { n: 9 }, valueKey: 'learn.fact.longest.value' },
  { key: 'learn.fact.most', value: { n: 221 }, note: true },
  { key: 'learn.fact.standard', value: { n: 65 }, valueKey: 'learn.fact.standard.value' },
];

// The variants: each with the rules texts its "Play" and "Analyse" links open.
const VARIANTS = [
  { id: 'misere', links: [{ variant: 'misere' }] },
  { id: 'suddenDeath', links: [{ variant: 'sudden-death' }] },
  { id: 'neutralRequired', links: [{ variant: 'neutral-required' }] },
  {
    id: 'neutrals',
    links: [
      { variant: 'neutrals=1', label: 'learn.variant.neutrals.one' },
      { variant: 'neutrals=3', label: 'learn.variant.neutrals.three' },
    ],
  },
  { id: 'symmetry', links: [{ variant: 'symmetry' }] },
  // The server solves at most 1,000,000 positions: the game to 10 points is larger.
  { id: 'scoring', links: [{ variant: 'scoring', analyse: 'scoring,target=5' }], note: true },
  {
    id: 'board',
    links: [{ variant: 'board=5x4,neutrals=4', label: 'learn.variant.board.fiveByFour' }],
  },
  {
    id: 'setups',
    links: [
      { variant: 'setup=kit', label: 'learn.variant.setups.kit' },
      { variant: 'setup=corners', label: 'learn.variant.setups.corners' },
    ],
  },
];

/** An element with attributes (`class`, `on…` handlers, others as attributes) and children. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

function number(n) {
  return new Intl.NumberFormat(language()).format(n);
}

/** The text `base.<plural category of n>`, e.g. `learn.lost.caption.plies.few` for 2 in Russian. */
function plural(base, n, vars = {}) {
  const category = new Intl.PluralRules(language()).select(n);
  return t(`${base}.${category}`, { n: number(n), ...vars });
}

function sortCells(cells) {
  return [...cells].sort((a, b) => a[0].localeCompare(b[0]) || Number(a.slice(1)) - Number(b.slice(1)));
}

/**
 * The pieces of a position in its one-line form: rows from the top down, `R`, `B`, `N`, `.`,
 * then the side to move. Only to describe the picture in words; the server checked it.
 */
function piecesOf(position) {
  const [rows, side] = position.trim().split(/\s+/);
  const lines = rows.split('/');
  const cells = { R: [], B: [], N: [] };
  lines.forEach((line, i) => {
    [...line].forEach((ch, column) => {
      if (cells[ch]) cells[ch].push(`${String.fromCharCode(65 + column)}${lines.length - i}`);
    });
  });
  return {
    red: sortCells(cells.R),
    blue: sortCells(cells.B),
    neutrals: sortCells(cells.N),
    turn: side && side.toLowerCase() === 'b' ? 'blue' : 'red',
  };
}

const list = (cells) => cells.join(', ');

/** A position in words, for a diagram's alt text. */
function describe(position) {
  const p = piecesOf(position);
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

/** A marked move in words (`A2,A3,A4,B4 B2-A1`), made by the side to move in `position`. */
function describeMove(position, move) {
  const [l, ...steps] = move.trim().split(/\s+/);
  const text = t(`learn.alt.move.${piecesOf(position).turn}`, { cells: list(sortCells(l.split(','))) });
  if (!steps.length) return t('learn.alt.moveOnly', { l: text });
  const said = steps.map((step) => {
    const [from, to] = step.split('-');
    return t('learn.alt.step', { from, to });
  });
  return t('learn.alt.moveThen', { l: text, steps: said.join(', ') });
}

/** A server-drawn diagram with its description; `markAlt` replaces the marked move's words. */
function diagramImage(position, move, markAlt, lazy = false) {
  const words = [describe(position)];
  if (markAlt) words.push(markAlt);
  else if (move) words.push(describeMove(position, move));
  return el('img', {
    class: 'diagram',
    src: api.diagramUrl(VARIANT, position, move),
    alt: words.join(' '),
    // The server's pictures are 308×323: the size keeps the page from jumping as they load.
    width: 308,
    height: 323,
    loading: lazy ? 'lazy' : undefined,
  });
}

/** A figure: a diagram with a caption. */
function figure({ position, move, caption, markAlt }) {
  return el(
    'figure',
    { style: 'margin: 0; flex: 0 1 260px;' },
    diagramImage(position, move, markAlt),
    el('figcaption', { class: 'muted' }, caption),
  );
}

function figures(...items) {
  return el('div', { class: 'row', style: 'align-items: flex-start; gap: 1rem; margin: 0.8rem 0;' }, items.map(figure));
}

const para = (key, vars) => el('p', {}, t(key, vars));

/**
 * Builds the page's sections and links to them. The table of contents is read from the built
 * sections in document order, so it always matches the page.
 */
class Outline {
  section(id, level, titleKey, ...children) {
    // The page's own h2s open its parts: set apart from the h3s beneath them.
    const style = level === 2
      ? 'margin-top: 2.5rem; padding-top: 1rem; border-top: 1px solid var(--line); font-size: 1.45rem;'
      : 'margin-top: 1.6rem;';
    const heading = el(`h${level}`, { id: `${id}-title`, tabindex: '-1', style }, t(titleKey));
    return el('section', { id, 'aria-labelledby': heading.id }, heading, ...children);
  }

  /** A link to a section: a real address, but a click only scrolls (see the top of the file). */
  link(id, text) {
    return el('a', {
      href: href('learn', { section: id }),
      onclick: (event) => {
        if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        goTo(id);
      },
    }, text);
  }

  /** The contents of `sections`: their h2 sections, each with its h3 sections beneath. */
  contents(sections) {
    const heading = el('h2', { id: 'learn-toc-title', tabindex: '-1', style: 'margin-top: 0;' }, t('learn.toc'));
    const top = el('ol', { style: 'columns: 15rem; column-gap: 2rem; margin: 0;' });
    for (const section of sections) {
      const sub = [...section.querySelectorAll('section[id] > h3')]
        .map((h) => el('li', {}, this.link(h.parentElement.id, h.textContent)));
      const title = section.querySelector('h2').textContent;
      top.append(el('li', { style: 'break-inside: avoid; margin-bottom: 0.5rem;' },
        this.link(section.id, title), sub.length ? el('ol', {}, sub) : null));
    }
    return el('nav', { id: 'learn-toc', class: 'panel', 'aria-labelledby': heading.id }, heading, top);
  }
}

/** Scrolls to a section, moves the focus to its heading and puts it in the address. */
function goTo(id, { focus = true, smooth = true } = {}) {
  const section = document.getElementById(id);
  if (!section) return;
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  section.scrollIntoView({ behavior: smooth && !still ? 'smooth' : 'auto', block: 'start' });
  const heading = section.querySelector('h1, h2, h3');
  if (focus && heading) heading.focus({ preventScroll: true });
  replaceAddress(id === 'learn-toc' ? href('learn') : href('learn', { section: id }));
}

function backToContents(outline) {
  return el('p', { class: 'no-print' }, outline.link('learn-toc', `↑ ${t('learn.toContents')}`));
}

function rulesSection(o) {
  return o.section(
    'learn-rules', 2, 'learn.rules.title',
    o.section(
      'learn-board', 3, 'learn.board.title',
      el('div', { class: 'prose' }, para('learn.board.text')),
      figures({ position: STANDARD, caption: t('learn.board.caption') }),
    ),
    o.section(
      'learn-cells', 3, 'learn.cells.title',
      el('div', { class: 'prose' }, para('learn.cells.text'), para('learn.cells.moves')),
    ),
    o.section(
      'learn-turn', 3, 'learn.turn.title',
      el(
        'div', { class: 'prose' },
        para('learn.turn.intro'),
        el('ol', {}, el('li', {}, t('learn.turn.l')), el('li', {}, t('learn.turn.neutral'))),
        para('learn.turn.only'),
      ),
      figures({ position: STANDARD, move: 'A2,B2,B3,B4 D1-C4', caption: t('learn.turn.caption') }),
    ),
    o.section(
      'learn-win', 3, 'learn.win.title',
      el('div', { class: 'prose' }, para('learn.win.text')),
      figures({ position: TRAPPED, caption: t('learn.win.caption') }),
    ),
    o.section(
      'learn-example', 3, 'learn.example.title',
      el('div', { class: 'prose' }, para('learn.example.text')),
      figures(
        // The server marks a move without judging it, so the refused placement can be shown.
        { position: KIT, move: 'B1,B2,B3,C1', markAlt: t('learn.alt.illegal'), caption: t('learn.example.illegal') },
        { position: KIT, move: 'A2,A3,A4,B4 B2-A1', caption: t('learn.example.legal') },
        { position: KIT_AFTER, move: 'B2,B3,C2,D2 C3-C4', caption: t('learn.example.reply') },
        { position: KIT_END, caption: t('learn.example.end') },
      ),
    ),
    o.section(
      'learn-draws', 3, 'learn.draws.title',
      el(
        'div', { class: 'prose' },
        para('learn.draws.text'),
        el(
          'ul', {},
          el('li', {}, t('learn.draws.repetition')),
          el('li', {}, t('learn.draws.limit')),
          el('li', {}, t('learn.draws.agreement')),
        ),
      ),
    ),
    o.section(
      'learn-setups', 3, 'learn.setups.title',
      el(
        'div', { class: 'prose' },
        para('learn.setups.text'),
        el('p', {}, el('a', { href: href('editor') }, t('learn.setups.editor'))),
      ),
      figures(
        { position: STANDARD, caption: t('learn.setups.standard') },
        { position: KIT, caption: t('learn.setups.kit') },
        { position: CORNERS, caption: t('learn.setups.corners') },
      ),
    ),
    backToContents(o),
  );
}

/** "Play this variant" and "Analyse" for one rules text, named after the variant for screen readers. */
function variantLinks(name, { variant, analyse, label }) {
  const full = label ? `${name}: ${t(label)}` : name;
  return el(
    'p', { class: 'row' },
    label ? el('span', { style: 'min-width: 12rem;' }, t(label)) : null,
    el('a', { href: href('play', { variant }), 'aria-label': t('learn.variants.playNamed', { name: full }) },
      t('learn.variants.play')),
    el('span', { 'aria-hidden': 'true', class: 'muted' }, '·'),
    el('a', {
      href: href('analyse', { variant: analyse || variant, position: 'start' }),
      'aria-label': t('learn.variants.analyseNamed', { name: full }),
    }, t('learn.variants.analyse')),
  );
}

function variantsSection(o) {
  return o.section(
    'learn-variants', 2, 'learn.variants.title',
    el('div', { class: 'prose' }, para('learn.variants.intro')),
    VARIANTS.map(({ id, links, note }) => {
      const base = `learn.variant.${id}`;
      return o.section(
        `learn-variant-${id}`, 3, `${base}.title`,
        el(
          'div', { class: 'prose' },
          para(`${base}.text`),
          note ? para(`${base}.note`) : null,
          links.map((link) => variantLinks(t(`${base}.title`), link)),
        ),
      );
    }),
    backToContents(o),
  );
}

function factsTable() {
  const row = ({ key, value, valueKey, note }) => {
    const vars = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, number(v)]));
    const noteVars = typeof note === 'object'
      ? Object.fromEntries(Object.entries(note).map(([k, v]) => [k, number(v)]))
      : {};
    return el(
      'tr', {},
      el('th', { scope: 'row', style: 'font-weight: normal;' }, t(key)),
      el('td', { style: 'white-space: nowrap; font-weight: 600;' }, valueKey ? t(valueKey, vars) : vars.n),
      el('td', { class: 'muted' }, note ? t(`${key}.note`, noteVars) : ''),
    );
  };
  return el(
    'table', { class: 'moves-table' },
    el('caption', { class: 'visually-hidden' }, t('learn.solved.caption')),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, t('learn.solved.fact')),
      el('th', { scope: 'col' }, t('learn.solved.value')),
      el('th', { scope: 'col' }, t('learn.solved.note')))),
    el('tbody', {}, FACTS.map(row)),
  );
}

function strategySection(o, slots) {
  return o.section(
    'learn-strategy', 2, 'learn.strategy.title',
    el('div', { class: 'prose' }, para('learn.strategy.intro')),
    o.section(
      'learn-corners', 3, 'learn.corners.title',
      el('div', { class: 'prose' }, para('learn.corners.text'), slots.corners),
      figures({ position: CORNER_TRAP, caption: t('learn.corners.caption') }),
    ),
    o.section(
      'learn-killer', 3, 'learn.killer.title',
      el('div', { class: 'prose' }, para('learn.killer.text'), slots.killer),
      figures({ position: KILLER_TRAP, caption: t('learn.killer.caption') }),
    ),
    o.section(
      'learn-mobility', 3, 'learn.mobility.title',
      el('div', { class: 'prose' }, para('learn.mobility.text')),
      figures({ position: MOST_MOVES, caption: t('learn.mobility.caption') }),
    ),
    o.section(
      'learn-neutrals', 3, 'learn.neutrals.title',
      el('div', { class: 'prose' }, para('learn.neutrals.text')),
    ),
    o.section(
      'learn-lookahead', 3, 'learn.lookahead.title',
      el(
        'div', { class: 'prose' },
        para('learn.lookahead.text'),
        el('p', { class: 'no-print' }, o.link('learn-lost', t('learn.lookahead.show'))),
      ),
    ),
    o.section(
      'learn-solved', 3, 'learn.solved.title',
      el('div', { class: 'prose' }, para('learn.solved.text'), factsTable()),
    ),
    backToContents(o),
  );
}

/** The caption of a lost position `plies` away from the end. */
function lostCaption(plies) {
  return plies === 0 ? t('learn.lost.caption.trapped') : plural('learn.lost.caption.plies', plies);
}

/** One lost position: a link to the analysis board around its diagram, with its caption. */
function lostFigure({ position, plies }) {
  return el(
    'figure', { style: 'margin: 0;' },
    el('a', { href: href('analyse', { variant: VARIANT, position }) }, diagramImage(position, undefined, undefined, true)),
    el('figcaption', { style: 'text-align: center;' }, lostCaption(plies)),
  );
}

/** Fills the gallery (and the strategy notes' counts) from the solver's lost positions. */
function showLost(data, gallery, slots) {
  const positions = data.positions;
  const total = positions.length;
  const byDistance = new Map();
  for (const p of positions) {
    if (!byDistance.has(p.plies)) byDistance.set(p.plies, []);
    byDistance.get(p.plies).push(p);
  }
  const distances = [...byDistance.keys()].sort((a, b) => a - b);
  const trapped = (byDistance.get(0) || []).length;
  const later = distances.filter((d) => d > 0);
  const or = new Intl.ListFormat(language(), { type: 'disjunction' });

  const intro = [para('learn.lost.intro', { total: number(total) })];
  if (later.length) {
    intro.push(para('learn.lost.split', {
      trapped: number(trapped),
      more: number(total - trapped),
      distances: or.format(later.map(number)),
    }));
  }
  intro.push(el('p', { class: 'muted' }, t('learn.lost.open')));

  const groups = distances.map((d) => {
    const items = byDistance.get(d);
    const heading = d === 0
      ? t('learn.lost.group.trapped', { count: number(items.length) })
      : plural('learn.lost.group.plies', d, { count: number(items.length) });
    const id = `learn-lost-${d}`;
    return el(
      'section', { 'aria-labelledby': id },
      el('h3', { id }, heading),
      el('div', { class: 'gallery' }, items.map(lostFigure)),
    );
  });
  gallery.replaceChildren(el('div', { class: 'prose' }, intro), ...groups);

  // The strategy notes, checked against the same data. Red is to move in every one of them.
  const covers = (cells, set) => cells.some((c) => set.includes(c));
  const cornered = positions.filter((p) => covers(piecesOf(p.position).red, CORNER_CELLS)).length;
  const killer = positions.filter((p) => covers(piecesOf(p.position).neutrals, KILLER_CELLS)).length;
  slots.corners.textContent = cornered === total
    ? t('learn.corners.all', { total: number(total) })
    : t('learn.corners.some', { count: number(cornered), total: number(total) });
  slots.killer.textContent = t('learn.killer.data', { count: number(killer), total: number(total) });
}

export function render(main, params) {
  let alive = true;
  const outline = new Outline();
  // Filled in once the lost positions arrive.
  const slots = { corners: el('p'), killer: el('p') };
  const gallery = el('div', { 'aria-busy': 'true' },
    el('p', { class: 'muted' }, t('learn.lost.loading')));

  const sections = [
    rulesSection(outline),
    variantsSection(outline),
    strategySection(outline, slots),
    outline.section('learn-lost', 2, 'learn.lost.title', gallery, backToContents(outline)),
  ];
  main.append(
    el('h1', {}, t('learn.title')),
    el('div', { class: 'prose' }, para('learn.intro')),
    outline.contents(sections),
    ...sections,
  );

  api.classes(VARIANT, 'loss')
    .then((data) => {
      if (!alive) return;
      showLost(data, gallery, slots);
    })
    .catch((e) => {
      if (!alive) return;
      console.error(e);
      gallery.replaceChildren(el('p', { class: 'error', role: 'alert' }, t('learn.lost.error', { message: e.message })));
    })
    .finally(() => gallery.removeAttribute('aria-busy'));

  // An address like #/learn?section=learn-variants opens the page at that section.
  const start = params && params.get('section');
  if (start && document.getElementById(start)) {
    requestAnimationFrame(() => alive && goTo(start, { focus: false, smooth: false }));
  }

  return () => {
    alive = false;
  };
}
