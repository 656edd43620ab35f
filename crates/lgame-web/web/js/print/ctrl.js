// @ts-check
// The print kit (#/print), its model: what goes on paper and where, in millimetres, so that a
// cell of the board and a cell of an L are the same size. Page 1 is the board with cell names
// and the pieces to cut out, page 2 a rules card (with the standard setup, the catalog's) and
// a score sheet. view.js draws it.
//
// The printable area is designed for both A4 (210 × 297 mm) and Letter (216 × 279 mm) with the
// 12 mm margins print.css asks for: at most 186 × 255 mm per page. A 40 mm cell does not leave
// room on Letter for the board (4 cells) and the interlocked Ls (2 cells) on one page, so the
// cell is 34 mm.

import { setup } from '../catalog.js';
import { cellCoords } from '../notation.js';

/** Board and piece cell, mm. */
export const CELL = 34;
/** Room for the cell names around the board, mm. */
export const EDGE = 6;
/** Space between the pieces to cut out, mm. */
export const GAP = 5;
/** Margin inside the pieces' picture, so the dashed cut lines are not clipped, mm. */
export const PAD = 2;
/** The board's side, in cells. */
export const SIDE = 4;

/** A cell on paper: column from the left, row from the top. @typedef {[number, number]} PaperCell */

/**
 * The two Ls to cut out, interlocked into a 4 × 2 rectangle (with a gap), which is what makes
 * them fit under the board.
 * @type {{ red: PaperCell[], blue: PaperCell[] }}
 */
export const CUT_OUT = {
  red: [[0, 0], [1, 0], [2, 0], [0, 1]],
  blue: [[3, 0], [1, 1], [2, 1], [3, 1]],
};

/**
 * A cell name as a cell on paper (rows on paper count downwards from the top row).
 * @param {string} name
 * @returns {PaperCell}
 */
export function onPaper(name) {
  const { col, row } = cellCoords(name);
  return [col, SIDE - row];
}

/** The standard setup, what the rules card shows: its pieces by cell name. */
export const STANDARD = setup('standard');

/** Rows of the score sheet: the kit's short session is drawn after 40 turns. */
export const TURNS = 40;

/** The score sheet's two tables, side by side: their first and last turns. */
export const SCORE_TABLES = [[1, TURNS / 2], [TURNS / 2 + 1, TURNS]];

/** Prints the page (the browser's dialog). */
export function print() {
  window.print();
}
