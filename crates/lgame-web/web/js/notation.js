// @ts-check
// The little notation the page reads and writes itself (docs/notation.md): cell names, a
// move's cells (to mark it on the board), and the one-line form of a position (the editor
// writes what a person put on the board, and reads an address that may not be legal yet).
// No rule is checked here: the server says what is legal.

/** @typedef {import('./api.js').Color} Color */
/** @typedef {'red' | 'blue' | 'neutral'} PieceKind */

/**
 * Column (0 for A) and row (1 at the bottom) of a cell name (`B3`).
 * @param {string} name
 */
export function cellCoords(name) {
  return { col: name.charCodeAt(0) - 65, row: parseInt(name.slice(1), 10) };
}

/**
 * The name of the cell in column `col` (0 for A) and row `row` (1 at the bottom).
 * @param {number} col
 * @param {number} row
 */
export function cellName(col, row) {
  return String.fromCharCode(65 + col) + row;
}

/**
 * Cells in notation order: by column, then by row.
 * @param {Iterable<string>} cells
 */
export function sortCells(cells) {
  return [...cells].sort((a, b) => a[0].localeCompare(b[0]) || Number(a.slice(1)) - Number(b.slice(1)));
}

/**
 * The cells of a move in notation (`A1,A2,A3,B3 D1-D2`): its L and neutral steps.
 * @param {string} text
 * @returns {{ l: string[], neutrals: string[][] }}
 */
export function moveCells(text) {
  const [l, ...steps] = text.trim().split(/\s+/);
  return { l: l.split(','), neutrals: steps.map((s) => s.split('-')) };
}

/**
 * The side to move in a one-line position (its last letter).
 * @param {string} position
 * @returns {Color}
 */
export function turnOf(position) {
  return position.trim().endsWith('b') ? 'blue' : 'red';
}

/** @type {Record<string, PieceKind>} */
const PIECE = { R: 'red', B: 'blue', N: 'neutral' };
/** @type {Record<PieceKind, string>} */
const LETTER = { red: 'R', blue: 'B', neutral: 'N' };

/**
 * A board as the one-line form writes it: its size, what stands on each cell, who moves.
 * @typedef {{ width: number, height: number, cells: Record<string, PieceKind>, turn: Color }} Layout
 */

/**
 * Reads the one-line form (`NRR./.RB./.RB./.BBN r`: rows from the top, `R`, `B`, `N`, `.`,
 * then the side to move) without judging it; null when it is not that form.
 * @param {string} position
 * @returns {Layout | null}
 */
export function readPosition(position) {
  const [rows = '', sideChar = ''] = position.trim().split(/\s+/);
  const lines = rows.split('/');
  if (lines.length < 4 || lines.some((l) => l.length !== lines[0].length)) return null;
  const height = lines.length;
  /** @type {Record<string, PieceKind>} */
  const cells = {};
  lines.forEach((line, i) => [...line].forEach((ch, c) => {
    if (PIECE[ch]) cells[cellName(c, height - i)] = PIECE[ch];
  }));
  return { width: lines[0].length, height, cells, turn: sideChar.toLowerCase() === 'b' ? 'blue' : 'red' };
}

/**
 * Writes the one-line form of a layout.
 * @param {Layout} layout
 */
export function writePosition({ width, height, cells, turn }) {
  const rows = [];
  for (let r = height; r >= 1; r--) {
    let row = '';
    for (let c = 0; c < width; c++) {
      const piece = cells[cellName(c, r)];
      row += piece ? LETTER[piece] : '.';
    }
    rows.push(row);
  }
  return `${rows.join('/')} ${turn === 'red' ? 'r' : 'b'}`;
}

/**
 * What stands on each cell, from the pieces' cells (the inverse of {@link piecesOf}).
 * @param {import('./api.js').Pieces} pieces
 * @returns {Record<string, PieceKind>}
 */
export function cellsOf(pieces) {
  /** @type {Record<string, PieceKind>} */
  const cells = {};
  for (const c of pieces.red) cells[c] = 'red';
  for (const c of pieces.blue) cells[c] = 'blue';
  for (const c of pieces.neutrals) cells[c] = 'neutral';
  return cells;
}

/**
 * The pieces of a layout, each piece's cells in notation order.
 * @param {Layout} layout
 * @returns {import('./api.js').Pieces}
 */
export function piecesOf({ cells }) {
  /** @param {PieceKind} kind */
  const of = (kind) => sortCells(Object.keys(cells).filter((c) => cells[c] === kind));
  return { red: of('red'), blue: of('blue'), neutrals: of('neutral') };
}
