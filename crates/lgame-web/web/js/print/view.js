// @ts-check
// The print kit, drawn: the L game on paper. Everything is drawn here in millimetres from
// print/ctrl.js's model.
//
// render() builds the whole kit synchronously, without asking the server anything (no diagram
// images to wait for; the setup is the catalog's, loaded with the page), so the page is
// complete, ready to print, the moment it returns.

import { h, svg, draw } from '../dom.js';
import { t } from '../i18n.js';
import { CELL, EDGE, GAP, PAD, SIDE, CUT_OUT, STANDARD, SCORE_TABLES, onPaper, print } from './ctrl.js';

/** @typedef {import('./ctrl.js').PaperCell} PaperCell */

/**
 * An SVG picture sized in millimetres, its user unit one millimetre. Named pictures are
 * images; an unnamed one is described by the text beside it.
 * @param {number} width
 * @param {number} height
 * @param {string | null} name
 */
function mmSvg(width, height, name) {
  return svg('svg', {
    viewBox: `0 0 ${width} ${height}`, width: `${width}mm`, height: `${height}mm`,
    role: name ? 'img' : null, 'aria-label': name, 'aria-hidden': name ? null : 'true',
  });
}

let clipSerial = 0;

/**
 * A piece made of cells at (x, y): the cells filled with the side's texture, faint lines
 * between its own cells, and its outline (`outline` class: solid or a cut line). Stripes for
 * Red and dots for Blue tell the pieces apart without colour (black-and-white printers,
 * colour-blind players). They are drawn as plain shapes clipped to the piece, not as SVG
 * patterns, which Chromium writes into a PDF tile by tile (megabytes). `scale` shrinks the
 * texture for the small diagram.
 * @param {Element} parent
 * @param {PaperCell[]} cells
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {'red' | 'blue'} color
 * @param {string} outline
 * @param {number} [scale]
 */
function drawCells(parent, cells, x, y, size, color, outline, scale = 1) {
  const g = draw(parent, 'g');
  /**
   * @param {number} c
   * @param {number} r
   */
  const has = (c, r) => cells.some(([cc, rr]) => cc === c && rr === r);
  const clip = draw(g, 'clipPath', { id: `kit-clip-${++clipSerial}` });
  let inner = '';
  let outer = '';
  for (const [c, r] of cells) {
    const x0 = x + c * size;
    const y0 = y + r * size;
    draw(clip, 'rect', { x: x0, y: y0, width: size, height: size });
    // Each side of the cell: inside the piece if the neighbour is one of its cells.
    /** @type {[number, number, string][]} */
    const sides = [
      [c, r - 1, `M${x0} ${y0}H${x0 + size}`],
      [c + 1, r, `M${x0 + size} ${y0}V${y0 + size}`],
      [c, r + 1, `M${x0} ${y0 + size}H${x0 + size}`],
      [c - 1, r, `M${x0} ${y0}V${y0 + size}`],
    ];
    for (const [nc, nr, d] of sides) {
      if (!has(nc, nr)) outer += d;
      else if (nc > c || nr > r) inner += d; // each shared side once
    }
  }
  const cols = cells.map(([c]) => c);
  const rows = cells.map(([, r]) => r);
  const box = {
    x0: x + Math.min(...cols) * size,
    y0: y + Math.min(...rows) * size,
    x1: x + (Math.max(...cols) + 1) * size,
    y1: y + (Math.max(...rows) + 1) * size,
  };
  const texture = draw(g, 'g', { 'clip-path': `url(#${clip.id})` });
  draw(texture, 'rect', { x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0, class: `kit-${color}-ground` });
  const pitch = 3.6 * scale; // distance between stripes or dots, mm
  /** @param {number} v */
  const round = (v) => Math.round(v * 100) / 100;
  let d = '';
  if (color === 'red') {
    // Diagonal stripes "/", `pitch` apart measured across them.
    const step = pitch * Math.SQRT2;
    const height = box.y1 - box.y0;
    for (let u = box.x0 - height; u < box.x1; u += step) {
      d += `M${round(u)} ${box.y1}L${round(u + height)} ${box.y0}`;
    }
    draw(texture, 'path', { d, class: 'kit-red-mark', 'stroke-width': round(pitch * 0.42) });
  } else {
    const r = round(pitch * 0.26);
    for (let cy = box.y0 + pitch / 2; cy < box.y1; cy += pitch) {
      for (let cx = box.x0 + pitch / 2; cx < box.x1; cx += pitch) {
        d += `M${round(cx - r)} ${round(cy)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
      }
    }
    draw(texture, 'path', { d, class: 'kit-blue-mark' });
  }
  draw(g, 'path', { d: inner, class: 'kit-cell-line' });
  draw(g, 'path', { d: outer, class: outline });
  return g;
}

/**
 * A label with a white halo, readable over stripes and dots.
 * @param {Element} parent
 * @param {number} x
 * @param {number} y
 * @param {string} text
 * @param {number | string} size
 * @param {string} [className]
 */
function label(parent, x, y, text, size, className = 'kit-label') {
  return draw(parent, 'text', { x, y, 'font-size': size, class: className, text });
}

/**
 * A neutral piece: a grey disc with a light core (as on the screen's board).
 * @param {Element} parent
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @param {boolean} cutLine
 * @param {string | null} [text]
 */
function disc(parent, cx, cy, r, cutLine, text = null) {
  draw(parent, 'circle', { cx, cy, r, class: 'kit-neutral' });
  draw(parent, 'circle', { cx, cy, r: r * 0.66, class: 'kit-neutral-core' });
  if (cutLine) draw(parent, 'circle', { cx, cy, r, class: 'kit-cut' });
  if (text) {
    // Fit the word into the core: about 0.58 em per character in a sans-serif font.
    const size = Math.min(3.4, (r * 1.25) / (0.58 * text.length));
    label(parent, cx, cy, text, size.toFixed(2));
  }
}

/**
 * A board of `size` mm cells with the names on all four edges (players sit on both sides).
 * @param {SVGSVGElement} root
 * @param {number} size
 * @param {number} edge
 * @param {{ cellNames: boolean }} options
 */
function drawBoard(root, size, edge, { cellNames }) {
  const inner = SIDE * size;
  const total = inner + 2 * edge;
  const labelSize = Math.min(edge * 0.8, 5);
  for (let i = 0; i < SIDE; i++) {
    const letter = String.fromCharCode(65 + i);
    const middle = edge + i * size + size / 2;
    for (const y of [edge / 2, total - edge / 2]) label(root, middle, y, letter, labelSize, 'kit-edge');
    const number = String(SIDE - i);
    for (const x of [edge / 2, total - edge / 2]) label(root, x, middle, number, labelSize, 'kit-edge');
  }
  for (let r = 0; r < SIDE; r++) {
    for (let c = 0; c < SIDE; c++) {
      const x = edge + c * size;
      const y = edge + r * size;
      draw(root, 'rect', { x, y, width: size, height: size, class: 'kit-square' });
      // A faint name in each corner helps to write the moves down.
      if (cellNames) {
        draw(root, 'text', { x: x + 1.5, y: y + size - 1.8, 'font-size': 2.8, class: 'kit-cell-name', text: String.fromCharCode(65 + c) + (SIDE - r) });
      }
    }
  }
  draw(root, 'rect', { x: edge, y: edge, width: inner, height: inner, class: 'kit-frame' });
}

/** Page 1, header: a 5 cm scale bar to check that the print is at 100 %. */
function scaleBar() {
  const bar = mmSvg(52, 5, t('print.scaleBar'));
  for (let i = 0; i < 5; i++) {
    draw(bar, 'rect', { x: 1 + i * 10, y: 1, width: 10, height: 3, class: i % 2 ? 'kit-scale-light' : 'kit-scale-dark' });
  }
  return h('div', { class: 'kit-scale' }, h('span', { text: t('print.scale') }), bar);
}

/** A small scissors icon for the cut hint. */
function scissors() {
  const icon = svg('svg', { viewBox: '0 0 24 24', width: '6mm', height: '6mm', class: 'kit-scissors', 'aria-hidden': 'true' });
  draw(icon, 'circle', { cx: 6, cy: 6, r: 3 });
  draw(icon, 'circle', { cx: 6, cy: 18, r: 3 });
  draw(icon, 'path', { d: 'M8.5 7.5L21 17M8.5 16.5L21 7' });
  return icon;
}

function boardPage() {
  const size = SIDE * CELL + 2 * EDGE;
  const board = mmSvg(size, size, t('print.board.label', { size: CELL }));
  drawBoard(board, CELL, EDGE, { cellNames: true });

  // The two Ls interlocked, the discs beside them.
  const r = CELL * 0.42;
  const width = 2 * PAD + GAP + 4 * CELL + 8 + 2 * r;
  const height = 2 * PAD + GAP + 2 * CELL;
  const pieces = mmSvg(width, height, t('print.pieces.label'));
  drawCells(pieces, CUT_OUT.red, PAD, PAD, CELL, 'red', 'kit-cut');
  drawCells(pieces, CUT_OUT.blue, PAD + GAP, PAD + GAP, CELL, 'blue', 'kit-cut');
  label(pieces, PAD + 1.5 * CELL, PAD + 0.5 * CELL, t('print.piece.red'), 4.5);
  label(pieces, PAD + GAP + 2.5 * CELL, PAD + GAP + 1.5 * CELL, t('print.piece.blue'), 4.5);
  const cx = PAD + GAP + 4 * CELL + 8 + r;
  disc(pieces, cx, PAD + CELL / 2, r, true, t('print.piece.neutral'));
  disc(pieces, cx, PAD + GAP + 1.5 * CELL, r, true, t('print.piece.neutral'));

  return h('section', { class: 'kit-sheet kit-page1', 'aria-labelledby': 'kit-page1-title' },
    h('p', { class: 'kit-page-number no-print', text: t('print.page', { n: 1 }) }),
    h('header', { class: 'kit-head' }, h('h2', { id: 'kit-page1-title', text: t('print.kit.title') }), scaleBar()),
    h('div', { class: 'kit-board' }, board),
    h('p', { class: 'kit-cut-hint' }, scissors(), h('span', { text: t('print.cut') })),
    h('div', { class: 'kit-pieces' }, pieces));
}

/** The standard setup as a small diagram, drawn the same way as the pieces. */
function setupDiagram() {
  const size = 10;
  const edge = 4.5;
  const total = SIDE * size + 2 * edge;
  const diagram = mmSvg(total, total, null); // the caption says what it shows
  drawBoard(diagram, size, edge, { cellNames: false });
  drawCells(diagram, STANDARD.red.map(onPaper), edge, edge, size, 'red', 'kit-outline', 0.6);
  drawCells(diagram, STANDARD.blue.map(onPaper), edge, edge, size, 'blue', 'kit-outline', 0.6);
  for (const [col, row] of STANDARD.neutrals.map(onPaper)) {
    disc(diagram, edge + col * size + size / 2, edge + row * size + size / 2, size * 0.36, false);
  }
  /** @param {string[]} cells */
  const list = (cells) => cells.join(', ');
  const caption = t('print.setup.caption', { red: list(STANDARD.red), blue: list(STANDARD.blue), neutrals: list(STANDARD.neutrals) });
  return h('figure', { class: 'kit-setup' }, diagram, h('figcaption', { text: caption }));
}

function rulesCard() {
  /** @param {string} key */
  const item = (key) => h('li', { text: t(key) });
  return h('article', { class: 'kit-card', 'aria-labelledby': 'kit-rules-title' },
    h('header', { class: 'kit-card-head' },
      h('h2', { id: 'kit-rules-title', text: t('print.rules.title') }),
      h('p', { class: 'kit-byline', text: t('print.rules.byline') })),
    h('div', { class: 'kit-card-body' },
      h('ul', { class: 'kit-rules' },
        item('print.rules.pieces'),
        item('print.rules.setup'),
        h('li', {}, h('span', { class: 'kit-strong', text: t('print.rules.turn') }),
          h('ol', {}, item('print.rules.turnL'), item('print.rules.turnNeutral'))),
        item('print.rules.only'),
        h('li', { class: 'kit-strong', text: t('print.rules.win') }),
        item('print.rules.draw')),
      setupDiagram()));
}

/**
 * A blank to write on, after its label.
 * @param {string} text
 * @param {string} [className]
 */
function field(text, className = '') {
  return h('span', { class: `kit-field ${className}` }, h('span', { class: 'kit-field-label', text }), h('span', { class: 'kit-blank' }));
}

/**
 * A box to tick, before its label.
 * @param {string} text
 * @param {...import('../dom.js').Child} more
 */
function tick(text, ...more) {
  return h('span', { class: 'kit-tick' }, h('span', { class: 'kit-box', 'aria-hidden': 'true' }), h('span', { text }), ...more);
}

/**
 * @param {number} first
 * @param {number} last
 */
function scoreTable(first, last) {
  const columns = ['turn', 'player', 'cells', 'neutral'];
  const rows = [];
  for (let n = first; n <= last; n++) {
    rows.push(h('tr', {}, h('th', { scope: 'row', text: String(n) }), h('td'), h('td'), h('td')));
  }
  return h('table', { class: 'kit-table' },
    h('caption', { class: 'visually-hidden', text: t('print.score.turns', { from: first, to: last }) }),
    h('colgroup', {}, columns.map((name) => h('col', { class: `kit-col-${name}` }))),
    h('thead', {}, h('tr', {}, columns.map((name) => h('th', { scope: 'col', text: t(`print.score.${name}`) })))),
    h('tbody', {}, rows));
}

function scoreSheet() {
  return h('section', { class: 'kit-score', 'aria-labelledby': 'kit-score-title' },
    h('header', { class: 'kit-score-head' },
      h('h2', { id: 'kit-score-title', text: t('print.score.title') }),
      h('p', { text: t('print.score.hint') })),
    h('div', { class: 'kit-fields' },
      h('div', { class: 'kit-fields-row' },
        field(t('print.field.red'), 'kit-wide'), field(t('print.field.blue'), 'kit-wide'), field(t('print.field.date'))),
      h('div', { class: 'kit-fields-row' },
        h('span', { class: 'kit-field-label', text: t('print.field.setup') }),
        tick(t('print.field.standard')),
        tick(t('print.field.other'), h('span', { class: 'kit-blank' }))),
      h('div', { class: 'kit-fields-row' },
        h('span', { class: 'kit-field-label', text: t('print.field.result') }),
        tick(t('print.result.red')), tick(t('print.result.blue')), tick(t('print.result.draw')),
        field(t('print.result.after')))),
    // Two tables side by side: rows tall enough to write in by hand.
    h('div', { class: 'kit-tables' }, SCORE_TABLES.map(([first, last]) => scoreTable(first, last))));
}

function rulesPage() {
  return h('section', { class: 'kit-sheet kit-page2', 'aria-label': t('print.page', { n: 2 }) },
    h('p', { class: 'kit-page-number no-print', text: t('print.page', { n: 2 }) }),
    rulesCard(),
    scoreSheet());
}

/** @param {HTMLElement} main */
export function render(main) {
  main.append(
    h('section', { class: 'kit-intro no-print prose' },
      h('h1', { text: t('print.title') }),
      h('p', { text: t('print.intro') }),
      h('p', { text: t('print.contents') }),
      h('ul', {}, ['print.tip.scale', 'print.tip.headers', 'print.tip.paper'].map((key) => h('li', { text: t(key) }))),
      h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', text: t('print.button'), onclick: print }))),
    // It scrolls sideways on narrow screens: keyboard users can scroll it.
    h('div', { class: 'kit-preview', role: 'region', 'aria-label': t('print.preview'), tabindex: 0 }, boardPage(), rulesPage()));
}
