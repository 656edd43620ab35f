// @ts-check
// The catalog (`GET /api/catalog`): the variants the page offers by name, the named setups
// with their pieces, the computer's levels and the solved classic game's figures, all from
// the libraries. It is part of the page's module graph (a JSON module), so it is here before
// any view renders and the printed kit is complete at the load event.

// @ts-ignore: the server's answer, not a file (typed below)
import data from '/api/catalog' with { type: 'json' };

/**
 * A variant offered by name: its rules text, English name and summary, whether it is one of
 * the specification's, its table's size, and whether this server solves that table.
 * @typedef {{ rules: string, name: string, summary: string, specification: boolean, positions: number, solvable: boolean }} Variant
 */

/**
 * A named setup: its position and pieces (cells in notation order).
 * @typedef {{ name: string, position: string, red: string[], blue: string[], neutrals: string[] }} Setup
 */

/**
 * The solved classic game's figures.
 * @typedef {{
 *   variant: string, positions: number, classes: number,
 *   won_classes: number, drawn_classes: number, lost_classes: number,
 *   trapped_classes: number, forced_loss_classes: number, forced_loss_plies: number[],
 *   longest_win_plies: number | null,
 *   most_moves: { position: string, moves: number, l_placements: number, neutral_choices: number },
 *   standard: { position: string, value: import('./api.js').ValueName, plies: number | null, moves: number }
 * }} Facts
 */

/** @typedef {{ variants: Variant[], setups: Setup[], levels: string[], facts: Facts }} Catalog */

/** @type {Catalog} */
export const catalog = data;

/**
 * The named setup called `name`.
 * @param {string} name
 * @returns {Setup}
 */
export function setup(name) {
  const found = catalog.setups.find((s) => s.name === name);
  if (!found) throw new Error(`no setup '${name}' in the catalog`);
  return found;
}

/** The rules texts of the variants offered by name. */
export const variantNames = catalog.variants.map((v) => v.rules);

/** The specification's variants whose tables this server solves: the ones puzzles offer. */
export const puzzleVariants = catalog.variants
  .filter((v) => v.specification && v.solvable)
  .map((v) => v.rules);

/** The setups' names, `standard` first. */
export const setupNames = catalog.setups.map((s) => s.name);
