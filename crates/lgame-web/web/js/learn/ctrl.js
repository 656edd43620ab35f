// @ts-check
// The Learn view, its data: the positions its pictures show, the variants it explains, the
// solved game's figures, and the classic game's lost positions with what the strategy notes
// count in them. The setups, the variants and the figures are the catalog's (the libraries');
// the other positions below illustrate the article's text, each checked with /api/position
// (legal, but for the kit's refused placement, marked on purpose) and /api/analysis (its value
// where the text states one). The gallery is the solver's answer (/api/classes). view.js
// draws the page.

import * as api from '../api.js';
import { catalog, setup } from '../catalog.js';
import { readPosition, piecesOf } from '../notation.js';

/** @typedef {import('../api.js').Classes} Classes */

/** The variant the article is about. */
export const VARIANT = 'classic';

/** The named setups' positions (one-line form, rows from the top down). */
export const STANDARD = setup('standard').position;
export const KIT = setup('kit').position;
export const CORNERS = setup('corners').position;
/** The position with the most moves. */
export const MOST_MOVES = catalog.facts.most_moves.position;

// The article's own examples.
/** After the kit's example move A2,A3,A4,B4 B2-A1. */
export const KIT_AFTER = 'RRBB/R.NB/R..B/N... b';
/** After Blue's reply: Red is trapped. */
export const KIT_END = 'RRN./RB../RBBB/N... r';
export const TRAPPED = '..../BBBN/R.B./RRRN r';
export const CORNER_TRAP = '..B./N.B./RBBN/RRR. r';
export const KILLER_TRAP = '.N../NB../RBBB/RRR. r';

/** The corners, where a trapped L always is. */
const CORNER_CELLS = ['A1', 'D1', 'A4', 'D4'];
/** The killer spaces: the edge cells that are not corners. */
const KILLER_CELLS = ['B1', 'C1', 'D2', 'D3', 'B4', 'C4', 'A2', 'A3'];

/**
 * A position's pieces (the article's positions are all in the one-line form).
 * @param {string} position
 */
export function pieces(position) {
  const layout = readPosition(position);
  if (!layout) throw new Error(`not a position: ${position}`);
  return { ...piecesOf(layout), turn: layout.turn };
}

/**
 * A row of the figures: the fact's text key, its value's words (`valueKey`, or the number
 * `n`; `outcome`, a value for the side to move, as `{value}`), and its note's key
 * (`<key>.note`) with the note's figures, when it has one.
 * @typedef {{
 *   key: string, value: Record<string, number>, valueKey?: string, note?: Record<string, number | number[]>,
 *   outcome?: { value: import('../api.js').ValueName, plies: number | null }
 * }} FactRow
 */

/**
 * The solved classic game's figures, row by row.
 * @returns {FactRow[]}
 */
export function factRows() {
  const f = catalog.facts;
  return [
    { key: 'learn.fact.positions', value: { n: f.positions }, note: {} },
    { key: 'learn.fact.classes', value: { n: f.classes }, note: {} },
    {
      key: 'learn.fact.values',
      value: { won: f.won_classes, drawn: f.drawn_classes, lost: f.lost_classes },
      valueKey: 'learn.fact.values.value',
      note: { notLost: f.won_classes + f.drawn_classes },
    },
    { key: 'learn.fact.trapped', value: { n: f.trapped_classes } },
    { key: 'learn.fact.forced', value: { n: f.forced_loss_classes }, note: { distances: f.forced_loss_plies } },
    { key: 'learn.fact.longest', value: { n: f.longest_win_plies ?? 0 }, valueKey: 'learn.fact.longest.value' },
    { key: 'learn.fact.most', value: { n: f.most_moves.moves }, note: { l: f.most_moves.l_placements, choices: f.most_moves.neutral_choices } },
    { key: 'learn.fact.standard', value: { n: f.standard.moves }, valueKey: 'learn.fact.standard.value', outcome: f.standard },
  ];
}

/**
 * A link of a variant's section: the rules text to play, the one to analyse when that is too
 * large for the server, and a label (a variant's rules text, or a text key) when the section
 * has several.
 * @typedef {{ variant: string, analyse?: string, label?: { rules: string } | { key: string } }} VariantLink
 */

/** @typedef {{ id: string, links: VariantLink[], note: boolean }} VariantSection */

/**
 * The article's additions to a variant's section: the game to 10 points is larger than the
 * server solves, so its "Analyse" opens the game to 5 points, which the note explains.
 * @type {Record<string, { analyse: string }>}
 */
const ANALYSE_INSTEAD = { scoring: { analyse: 'scoring,target=5' } };

/**
 * The option a rules text sets (`neutrals` of `neutrals=3`), as a section's name
 * (`suddenDeath`).
 * @param {string} rules
 */
function sectionOf(rules) {
  return rules.split('=')[0].replace(/-(\w)/g, (_, c) => c.toUpperCase());
}

/**
 * The variants explained, one section each: every variant of the specification but the
 * classic game, with the catalog's other variants of the same option (`neutrals=3` beside
 * `neutrals=1`); then other board sizes (the article's example: 5×4 with four neutrals, where
 * Red wins) and the other setups (the catalog's).
 * @returns {VariantSection[]}
 */
export function variantSections() {
  /** @type {VariantSection[]} */
  const sections = [];
  for (const variant of catalog.variants) {
    if (!variant.specification || variant.rules === VARIANT) continue;
    const id = sectionOf(variant.rules);
    const family = catalog.variants.filter((v) => sectionOf(v.rules) === id);
    const more = ANALYSE_INSTEAD[variant.rules];
    sections.push({
      id,
      links: family.map((v) => ({
        variant: v.rules,
        analyse: more && more.analyse,
        label: family.length > 1 ? { rules: v.rules } : undefined,
      })),
      note: Boolean(more),
    });
  }
  sections.push(
    { id: 'board', links: [{ variant: 'board=5x4,neutrals=4', label: { key: 'learn.variant.board.fiveByFour' } }], note: false },
    {
      id: 'setups',
      links: catalog.setups.filter((s) => s.name !== 'standard')
        .map((s) => ({ variant: `setup=${s.name}`, label: { key: `learn.variant.setups.${s.name}` } })),
      note: false,
    },
  );
  return sections;
}

/**
 * The lost positions by distance, and what the strategy notes count in them.
 * @typedef {{
 *   total: number, trapped: number, later: number[],
 *   groups: { plies: number, positions: string[] }[],
 *   cornered: number, killer: number
 * }} Lost
 */

/**
 * @param {Classes} data
 * @returns {Lost}
 */
function lostOf(data) {
  const positions = data.positions.flatMap((p) => (p.plies === null ? [] : [{ ...p, plies: p.plies }]));
  /** @type {Map<number, string[]>} */
  const byDistance = new Map();
  for (const p of positions) {
    const group = byDistance.get(p.plies) || [];
    group.push(p.position);
    byDistance.set(p.plies, group);
  }
  const distances = [...byDistance.keys()].sort((a, b) => a - b);
  /**
   * @param {string[]} cells
   * @param {string[]} set
   */
  const covers = (cells, set) => cells.some((c) => set.includes(c));
  // Red is to move, and lost, in every one of them.
  const all = positions.map((p) => pieces(p.position));
  return {
    total: positions.length,
    trapped: (byDistance.get(0) || []).length,
    later: distances.filter((d) => d > 0),
    groups: distances.map((plies) => ({ plies, positions: byDistance.get(plies) || [] })),
    cornered: all.filter((p) => covers(p.red, CORNER_CELLS)).length,
    killer: all.filter((p) => covers(p.neutrals, KILLER_CELLS)).length,
  };
}

export class LearnCtrl {
  /** @param {() => void} redraw */
  constructor(redraw) {
    this.redraw = redraw;
    this.alive = true;
    /** @type {Lost | null} */
    this.lost = null;
    /** Why the lost positions could not be read. @type {string | null} */
    this.error = null;
  }

  /** Asks the solver for the lost positions. */
  async load() {
    try {
      const data = await api.classes(VARIANT, 'loss');
      if (!this.alive) return;
      this.lost = lostOf(data);
    } catch (e) {
      if (!this.alive) return;
      console.error(e);
      this.error = api.messageOf(e);
    }
    this.redraw();
  }

  destroy() {
    this.alive = false;
  }
}
