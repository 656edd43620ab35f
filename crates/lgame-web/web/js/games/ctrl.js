// @ts-check
// This browser's games (`#/games?page=N`), the state and the action: a page of them, newest
// first, unfinished ones too, asked as the session's account or, without one, as the
// browser's anonymous identity. games/view.js draws it.

import * as api from '../api.js';
import * as session from '../session.js';
import { href, replaceAddress } from '../address.js';

export class GamesCtrl {
  /**
   * @param {URLSearchParams} params `page`
   * @param {() => void} redraw
   */
  constructor(params, redraw) {
    this.redraw = redraw;
    this.page = Math.max(1, Number(params.get('page')) || 1);
    /** @type {import('../api.js').GamesPage | null} */
    this.data = null;
    this.error = '';
    /** @type {import('../api.js').Account | null} */
    this.account = null;
  }

  /** Who asks, then the first page. */
  async start() {
    this.account = await session.load();
    await this.load(this.page);
  }

  /** @param {number} page */
  async load(page) {
    this.error = '';
    try {
      this.data = await api.account.games(page);
      this.page = this.data.page || page;
      replaceAddress(href('games', { page: this.page > 1 ? this.page : null }));
    } catch (e) {
      this.error = api.messageOf(e);
    }
    this.redraw();
  }
}
