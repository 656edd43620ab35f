// @ts-check
// A new game from the home page, the state and the action: what the address asks for first, and the game the
// server creates from a person's choices (against the computer, two people on this device,
// or a friend by link). The server checks everything.

import * as api from '../api.js';
import { href } from '../address.js';
import { catalog, setupNames } from '../catalog.js';
import { keepInvitation } from '../invitations.js';

/** @typedef {import('../api.js').Color} Color */

export const MODES = /** @type {const} */ (['computer', 'local', 'friend']);
export const COLOURS = /** @type {const} */ (['red', 'blue', 'random']);
export const DEFAULT_LEVEL = 'beginner';

/**
 * The computer's name for the server: its level, with the strength when there is one (the
 * chance in per cent of the perfect move; `perfect` has no other).
 * @param {string} level
 * @param {number} strength
 */
export function computerName(level, strength) {
  return strength > 0 && level !== 'perfect' ? `${level}:${strength}` : level;
}

/**
 * What a person chose: who plays (the mode, the computer's level and strength, their colour),
 * the variant, the setup (a name or a position), the turn limit (0: none) and the clock
 * (none: untimed).
 * @typedef {{
 *   mode: string | null, level: string, strength: number, colour: string | null,
 *   variant: string, setup: string, turnLimit: number,
 *   clock?: { initial_s: number, increment_s: number } | { days: number } | null
 * }} Choice
 */

export class PlayCtrl {
  /**
   * @param {URLSearchParams} params the address's choices: mode, level, variant, setup
   * @param {() => void} redraw
   */
  constructor(params, redraw) {
    this.redraw = redraw;
    this.levels = catalog.levels;
    this.setups = setupNames;
    this.mode = params.get('mode') || 'computer';
    // A newcomer's first game should be winnable: the level that dodges only the next move's loss.
    this.level = params.get('level') || DEFAULT_LEVEL;
    this.variant = params.get('variant') || 'classic';
    const setup = params.get('setup');
    /** A named setup, or '' for a position of one's own (`customSetup`). */
    this.setup = setup && !setupNames.includes(setup) ? '' : setup || 'standard';
    this.customSetup = setup && !setupNames.includes(setup) ? setup : '';
    /**
     * The way to play whose options the address asked for (its mode, level, variant or
     * setup), unfolded on the home page: `computer`, `friend` (by link or on this device), or
     * null when it named none.
     */
    this.asked = !['mode', 'level', 'variant', 'setup'].some((k) => params.has(k)) ? null
      : this.mode === 'computer' ? 'computer' : 'friend';
    this.error = '';
    this.busy = false;
  }

  /**
   * Creates the game and opens it at its shareable address (`#/game/ID`, no secret in it):
   * this browser holds the sides it plays (against the computer the person's, on one device
   * both, with a friend the host's), and a friend's game has an invitation for the other
   * side, kept in the browser's storage so the host can send it.
   * @param {Choice} choice
   */
  async start(choice) {
    this.error = '';
    this.busy = true;
    this.redraw();
    /** @type {Color} */
    const mine = choice.colour === 'blue' ? 'blue'
      : choice.colour === 'random' && crypto.getRandomValues(new Uint8Array(1))[0] % 2 ? 'blue' : 'red';
    /** @type {Color} */
    const theirs = mine === 'red' ? 'blue' : 'red';
    const computer = computerName(choice.level, choice.strength);
    const vsComputer = choice.mode === 'computer';
    const friend = choice.mode === 'friend';
    try {
      const created = await api.games.create({
        red: vsComputer && mine === 'blue' ? computer : 'human',
        blue: vsComputer && mine === 'red' ? computer : 'human',
        variant: choice.variant,
        setup: choice.setup || undefined,
        turn_limit: choice.turnLimit || undefined,
        clock: choice.clock || undefined,
        hold: choice.mode === 'local' ? ['red', 'blue'] : [mine],
        invite: friend ? theirs : null,
      });
      if (created.invitation) keepInvitation(created.id, created.invitation);
      location.hash = href('game', {}, [created.id]);
    } catch (e) {
      this.error = api.messageOf(e);
      this.busy = false;
      this.redraw();
    }
  }
}
