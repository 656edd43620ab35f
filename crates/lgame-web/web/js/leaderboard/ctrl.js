// @ts-check
// A category's leaderboard (`#/leaderboard/CATEGORY`), the state and the action: the
// category shown (blitz unless the address names another) and its best players, asked again
// when another category is picked (the address follows, so a board can be shared).

import * as api from '../api.js';
import { href, replaceAddress } from '../address.js';
import { CATEGORIES } from '../ui/rating.js';

export class LeaderboardCtrl {
  /**
   * @param {string | undefined} category the address's
   * @param {() => void} redraw
   */
  constructor(category, redraw) {
    this.redraw = redraw;
    this.category = CATEGORIES.find((c) => c === category) || 'blitz';
    /** @type {import('../api.js').Leader[] | null} */
    this.players = null;
    /** The players still provisional, not ranked yet. @type {import('../api.js').Leader[]} */
    this.provisional = [];
    this.error = '';
  }

  /** @param {string} category */
  async show(category) {
    this.category = CATEGORIES.find((c) => c === category) || this.category;
    this.error = '';
    replaceAddress(href('leaderboard', {}, [this.category]));
    try {
      const board = await api.leaderboard(this.category);
      this.players = board.players;
      this.provisional = board.provisional;
    } catch (e) {
      this.players = null;
      this.provisional = [];
      this.error = api.messageOf(e);
    }
    this.redraw();
  }
}
