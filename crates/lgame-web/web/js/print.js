// The print kit (#/print): the L game on paper. Page 1 is the board with cell names and the
// pieces to cut out, page 2 a rules card and a score sheet. Everything is drawn here in
// millimetres, so that a cell of the board and a cell of an L are the same size on paper.
//
// render() builds the whole kit synchronously, without asking the server anything (no diagram
// images to wait for), so the page is complete, ready to print, the moment it returns.
//
// The printable area is designed for both A4 (210 × 297 mm) and Letter (216 × 279 mm) with the
// 12 mm margins print.css asks for: at most 186 × 255 mm per page. A 40 mm cell does not leave
// room on Letter for the board (4 cells) and the interlocked Ls (2 cells) on one page, so the
// cell is 34 mm.

import { t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Board and piece cell, mm. */
const CELL = 34;
/** Room for the cell names around the board, mm. */
const EDGE = 6;
/** Space between the pieces to cut out, mm. */
const GAP = 5;
/** Margin inside the pieces' picture, so the dashed cut lines are not clipped, mm. */
const PAD = 2;
/** Rows of the score sheet: the kit's short session is drawn after 40 turns. */
const TURNS = 40;

/** The standard setup (rules.md, "Starting setups"): what the rules card shows. */
const STANDARD = {
  red: ['B2', 'B3', 'B4', 'C4'],
  blue: ['B1', 'C1', 'C2', 'C3'],
  neutrals: ['A4', 'D1'],
};

function svgEl(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** An HTML element with a class and text (text always as textContent). */
function h(tag, className = '', text = null, parent = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** An SVG picture sized in millimetres, its user unit one millimetre. */
function mmSvg(width, height, name, parent) {
  const attrs = { viewBox: `0 0 ${width} ${height}`, width: `${width}mm`, height: `${height}mm` };
  // Named pictures are images; an unnamed one is described by the text beside it.
  Object.assign(attrs, name ? { role: 'img', 'aria-label': name } : { 'aria-hidden': 'true' });
  return svgEl('svg', attrs, parent);
}

let clipSerial = 0;

/**
 * A piece made of cells (`[col, row]`, rows counted downwards) at (x, y): the cells filled with
 * the side's texture, faint lines between its own cells, and its outline (`outline` class: solid
 * or a cut line). Stripes for Red and dots for Blue tell the pieces apart without colour
 * (black-and-white printers, colour-blind players). They are drawn as plain shapes clipped to
 * the piece, not as SVG patterns, which Chromium writes into a PDF tile by tile (megabytes).
 * `scale` shrinks the texture for the small diagram.
 */
function drawCells(parent, cells, x, y, size, color, outline, scale = 1) {
  const g = svgEl('g', {}, parent);
  const has = (c, r) => cells.some(([cc, rr]) => cc === c && rr === r);
  const clip = svgEl('clipPath', { id: `kit-clip-${++clipSerial}` }, g);
  let inner = '';
  let outer = '';
  for (const [c, r] of cells) {
    const x0 = x + c * size;
    const y0 = y + r * size;
    svgEl('rect', { x: x0, y: y0, width: size, height: size }, clip);
    // Each side of the cell: inside the piece if the neighbour is one of its cells.
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
  const texture = svgEl('g', { 'clip-path': `url(#${clip.id})` }, g);
  svgEl('rect', { x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0, class: `kit-${color}-ground` }, texture);
  const pitch = 3.6 * scale; // distance between stripes or dots, mm
  const round = (v) => Math.round(v * 100) / 100;
  let d = '';
  if (color === 'red') {
    // Diagonal stripes "/", `pitch` apart measured across them.
    const step = pitch * Math.SQRT2;
    const height = box.y1 - box.y0;
    for (let u = box.x0 - height; u < box.x1; u += step) {
      d += `M${round(u)} ${box.y1}L${round(u + height)} ${box.y0}`;
    }
    svgEl('path', { d, class: 'kit-red-mark', 'stroke-width': round(pitch * 0.42) }, texture);
  } else {
    const r = round(pitch * 0.26);
    for (let cy = box.y0 + pitch / 2; cy < box.y1; cy += pitch) {
      for (let cx = box.x0 + pitch / 2; cx < box.x1; cx += pitch) {
        d += `M${round(cx - r)} ${round(cy)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
      }
    }
    svgEl('path', { d, class: 'kit-blue-mark' }, texture);
  }
  svgEl('path', { d: inner, class: 'kit-cell-line' }, g);
  svgEl('path', { d: outer, class: outline }, g);
  return g;
}

/** A label with a white halo, readable over stripes and dots. */
function label(parent, x, y, text, size, className = 'kit-label') {
  const node = svgEl('text', { x, y, 'font-size': size, class: className }, parent);
  node.textContent = text;
  return node;
}

/** A neutral piece: a grey disc with a light core (as on the screen's board). */
function disc(parent, cx, cy, r, cutLine, text = null) {
  svgEl('circle', { cx, cy, r, class: 'kit-neutral' }, parent);
  svgEl('circle', { cx, cy, r: r * 0.66, class: 'kit-neutral-core' }, parent);
  if (cutLine) svgEl('circle', { cx, cy, r, class: 'kit-cut' }, parent);
  if (text) {
    // Fit the word into the core: about 0.58 em per character in a sans-serif font.
    const size = Math.min(3.4, (r * 1.25) / (0.58 * text.length));
    label(parent, cx, cy, text, size.toFixed(2));
  }
}

/** Column letter and row number of a cell name. */
function coords(name) {
  return { col: name.charCodeAt(0) - 65, row: parseInt(name.slice(1), 10) };
}

/** A board of `size` mm cells with the names on all four edges (players sit on both sides). */
function drawBoard(svg, size, edge, { cellNames }) {
  const n = 4;
  const inner = n * size;
  const total = inner + 2 * edge;
  const labelSize = Math.min(edge * 0.8, 5);
  for (let i = 0; i < n; i++) {
    const letter = String.fromCharCode(65 + i);
    const middle = edge + i * size + size / 2;
    for (const y of [edge / 2, total - edge / 2]) label(svg, middle, y, letter, labelSize, 'kit-edge');
    const number = String(n - i);
    for (const x of [edge / 2, total - edge / 2]) label(svg, x, middle, number, labelSize, 'kit-edge');
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const x = edge + c * size;
      const y = edge + r * size;
      svgEl('rect', { x, y, width: size, height: size, class: 'kit-square' }, svg);
      // A faint name in each corner helps to write the moves down.
      if (cellNames) {
        const name = String.fromCharCode(65 + c) + (n - r);
        const text = svgEl('text', { x: x + 1.5, y: y + size - 1.8, 'font-size': 2.8, class: 'kit-cell-name' }, svg);
        text.textContent = name;
      }
    }
  }
  svgEl('rect', { x: edge, y: edge, width: inner, height: inner, class: 'kit-frame' }, svg);
}

/** Page 1, header: title and a 5 cm scale bar to check that the print is at 100 %. */
function scaleBar(parent) {
  const box = h('div', 'kit-scale', null, parent);
  h('span', '', t('print.scale'), box);
  const svg = mmSvg(52, 5, t('print.scaleBar'), box);
  for (let i = 0; i < 5; i++) {
    svgEl('rect', { x: 1 + i * 10, y: 1, width: 10, height: 3, class: i % 2 ? 'kit-scale-light' : 'kit-scale-dark' }, svg);
  }
}

/** A small scissors icon for the cut hint. */
function scissors(parent) {
  const svg = svgEl('svg', { viewBox: '0 0 24 24', width: '6mm', height: '6mm', class: 'kit-scissors', 'aria-hidden': 'true' }, parent);
  svgEl('circle', { cx: 6, cy: 6, r: 3 }, svg);
  svgEl('circle', { cx: 6, cy: 18, r: 3 }, svg);
  svgEl('path', { d: 'M8.5 7.5L21 17M8.5 16.5L21 7' }, svg);
  return svg;
}

function boardPage() {
  const page = h('section', 'kit-sheet kit-page1');
  page.setAttribute('aria-labelledby', 'kit-page1-title');
  h('p', 'kit-page-number no-print', t('print.page', { n: 1 }), page);
  const head = h('header', 'kit-head', null, page);
  h('h2', '', t('print.kit.title'), head).id = 'kit-page1-title';
  scaleBar(head);

  const size = 4 * CELL + 2 * EDGE;
  const boardBox = h('div', 'kit-board', null, page);
  const board = mmSvg(size, size, t('print.board.label', { size: CELL }), boardBox);
  drawBoard(board, CELL, EDGE, { cellNames: true });

  const cut = h('p', 'kit-cut-hint', null, page);
  scissors(cut);
  h('span', '', t('print.cut'), cut);

  // The two Ls interlock into a 4 × 2 rectangle (with a gap), which is what makes them fit
  // under the board; the discs go beside them.
  const r = CELL * 0.42;
  const width = 2 * PAD + GAP + 4 * CELL + 8 + 2 * r;
  const height = 2 * PAD + GAP + 2 * CELL;
  const piecesBox = h('div', 'kit-pieces', null, page);
  const pieces = mmSvg(width, height, t('print.pieces.label'), piecesBox);
  drawCells(pieces, [[0, 0], [1, 0], [2, 0], [0, 1]], PAD, PAD, CELL, 'red', 'kit-cut');
  drawCells(pieces, [[3, 0], [1, 1], [2, 1], [3, 1]], PAD + GAP, PAD + GAP, CELL, 'blue', 'kit-cut');
  label(pieces, PAD + 1.5 * CELL, PAD + 0.5 * CELL, t('print.piece.red'), 4.5);
  label(pieces, PAD + GAP + 2.5 * CELL, PAD + GAP + 1.5 * CELL, t('print.piece.blue'), 4.5);
  const cx = PAD + GAP + 4 * CELL + 8 + r;
  disc(pieces, cx, PAD + CELL / 2, r, true, t('print.piece.neutral'));
  disc(pieces, cx, PAD + GAP + 1.5 * CELL, r, true, t('print.piece.neutral'));
  return page;
}

/** The standard setup as a small diagram, drawn the same way as the pieces. */
function setupDiagram(parent) {
  const size = 10;
  const edge = 4.5;
  const total = 4 * size + 2 * edge;
  const figure = h('figure', 'kit-setup', null, parent);
  const list = (cells) => cells.join(', ');
  const caption = t('print.setup.caption', {
    red: list(STANDARD.red), blue: list(STANDARD.blue), neutrals: list(STANDARD.neutrals),
  });
  const svg = mmSvg(total, total, null, figure); // the caption says what it shows
  drawBoard(svg, size, edge, { cellNames: false });
  // Rows on paper count downwards from the top (row 4).
  const place = (cells) => cells.map((name) => {
    const { col, row } = coords(name);
    return [col, 4 - row];
  });
  drawCells(svg, place(STANDARD.red), edge, edge, size, 'red', 'kit-outline', 0.6);
  drawCells(svg, place(STANDARD.blue), edge, edge, size, 'blue', 'kit-outline', 0.6);
  for (const name of STANDARD.neutrals) {
    const { col, row } = coords(name);
    disc(svg, edge + col * size + size / 2, edge + (4 - row) * size + size / 2, size * 0.36, false);
  }
  h('figcaption', '', caption, figure);
}

function rulesCard(parent) {
  const card = h('article', 'kit-card', null, parent);
  card.setAttribute('aria-labelledby', 'kit-rules-title');
  const head = h('header', 'kit-card-head', null, card);
  h('h2', '', t('print.rules.title'), head).id = 'kit-rules-title';
  h('p', 'kit-byline', t('print.rules.byline'), head);
  const body = h('div', 'kit-card-body', null, card);
  const rules = h('ul', 'kit-rules', null, body);
  h('li', '', t('print.rules.pieces'), rules);
  h('li', '', t('print.rules.setup'), rules);
  const turn = h('li', '', null, rules);
  h('span', 'kit-strong', t('print.rules.turn'), turn);
  const steps = h('ol', '', null, turn);
  h('li', '', t('print.rules.turnL'), steps);
  h('li', '', t('print.rules.turnNeutral'), steps);
  h('li', '', t('print.rules.only'), rules);
  h('li', 'kit-strong', t('print.rules.win'), rules);
  h('li', '', t('print.rules.draw'), rules);
  setupDiagram(body);
}

/** A blank to write on, after its label. */
function field(parent, text, className = '') {
  const item = h('span', `kit-field ${className}`, null, parent);
  h('span', 'kit-field-label', text, item);
  h('span', 'kit-blank', null, item);
  return item;
}

/** A box to tick, before its label. */
function tick(parent, text) {
  const item = h('span', 'kit-tick', null, parent);
  h('span', 'kit-box', null, item).setAttribute('aria-hidden', 'true');
  h('span', '', text, item);
  return item;
}

function scoreTable(parent, first, last) {
  const table = h('table', 'kit-table', null, parent);
  h('caption', 'visually-hidden', t('print.score.turns', { from: first, to: last }), table);
  const colgroup = h('colgroup', '', null, table);
  for (const name of ['turn', 'player', 'cells', 'neutral']) h('col', `kit-col-${name}`, null, colgroup);
  const headRow = h('tr', '', null, h('thead', '', null, table));
  for (const key of ['print.score.turn', 'print.score.player', 'print.score.cells', 'print.score.neutral']) {
    h('th', '', t(key), headRow).scope = 'col';
  }
  const body = h('tbody', '', null, table);
  for (let n = first; n <= last; n++) {
    const row = h('tr', '', null, body);
    h('th', '', String(n), row).scope = 'row';
    for (let i = 0; i < 3; i++) h('td', '', null, row);
  }
}

function scoreSheet(parent) {
  const sheet = h('section', 'kit-score', null, parent);
  sheet.setAttribute('aria-labelledby', 'kit-score-title');
  const head = h('header', 'kit-score-head', null, sheet);
  h('h2', '', t('print.score.title'), head).id = 'kit-score-title';
  h('p', '', t('print.score.hint'), head);
  const fields = h('div', 'kit-fields', null, sheet);
  const players = h('div', 'kit-fields-row', null, fields);
  field(players, t('print.field.red'), 'kit-wide');
  field(players, t('print.field.blue'), 'kit-wide');
  field(players, t('print.field.date'));
  const setup = h('div', 'kit-fields-row', null, fields);
  h('span', 'kit-field-label', t('print.field.setup'), setup);
  tick(setup, t('print.field.standard'));
  h('span', 'kit-blank', null, tick(setup, t('print.field.other')));
  const result = h('div', 'kit-fields-row', null, fields);
  h('span', 'kit-field-label', t('print.field.result'), result);
  tick(result, t('print.result.red'));
  tick(result, t('print.result.blue'));
  tick(result, t('print.result.draw'));
  field(result, t('print.result.after'));
  // Two tables side by side: rows tall enough to write in by hand.
  const tables = h('div', 'kit-tables', null, sheet);
  scoreTable(tables, 1, TURNS / 2);
  scoreTable(tables, TURNS / 2 + 1, TURNS);
}

function rulesPage() {
  const page = h('section', 'kit-sheet kit-page2');
  page.setAttribute('aria-label', t('print.page', { n: 2 }));
  h('p', 'kit-page-number no-print', t('print.page', { n: 2 }), page);
  rulesCard(page);
  scoreSheet(page);
  return page;
}

export function render(main) {
  const intro = h('section', 'kit-intro no-print prose', null, main);
  h('h1', '', t('print.title'), intro);
  h('p', '', t('print.intro'), intro);
  h('p', '', t('print.contents'), intro);
  const tips = h('ul', '', null, intro);
  for (const key of ['print.tip.scale', 'print.tip.headers', 'print.tip.paper']) h('li', '', t(key), tips);
  const actions = h('div', 'row', null, intro);
  const button = h('button', 'primary', t('print.button'), actions);
  button.type = 'button';
  button.addEventListener('click', () => window.print());

  const preview = h('div', 'kit-preview', null, main);
  preview.setAttribute('role', 'region');
  preview.setAttribute('aria-label', t('print.preview'));
  preview.tabIndex = 0; // it scrolls sideways on narrow screens: keyboard users can scroll it
  preview.append(boardPage(), rulesPage());
}
