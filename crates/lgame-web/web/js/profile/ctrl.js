// @ts-check
// A player's profile (`/@/NAME?result=…&variant=…&opponent=…&page=N`), the state and the
// actions: their counts, ratings and current games, and their games filtered by result, variant and
// opponent, a page at a time, newest first. The filters are in the address (rewritten as
// they change), so a filtered list can be shared. profile/view.js draws it.

import * as api from '../api.js';
import { query, replaceAddress } from '../address.js';
import * as session from '../session.js';
import { t } from '../i18n.js';

/** @typedef {{ result: string, variant: string, opponent: string }} Filters */

export const RESULTS = /** @type {const} */ (['win', 'draw', 'loss', 'ongoing']);

export class ProfileCtrl {
  /**
   * @param {string} name
   * @param {URLSearchParams} params the filters and the page
   * @param {() => void} redraw
   */
  constructor(name, params, redraw) {
    this.name = name;
    this.redraw = redraw;
    /** @type {Filters} */
    this.filters = {
      result: RESULTS.find((r) => r === params.get('result')) || '',
      variant: params.get('variant') || '',
      opponent: params.get('opponent') || '',
    };
    this.page = Math.max(1, Number(params.get('page')) || 1);
    /** @type {import('../api.js').Profile | null} */
    this.profile = null;
    /** @type {import('../api.js').GamesPage | null} */
    this.games = null;
    /** The ratings in each category played rated (none asked yet: null). @type {import('../api.js').Rating[] | null} */
    this.ratings = null;
    /** Whether there is no such player. */
    this.missing = false;
    /** Whether a challenge to this bot waits for its answer. */
    this.challenging = false;
    this.error = '';
  }

  /** The profile, then its ratings and games. */
  async start() {
    await session.load();
    try {
      this.profile = await api.users.profile(this.name);
      this.name = this.profile.username;
    } catch (e) {
      if (e instanceof api.ApiError && e.status === 404) this.missing = true;
      else this.error = api.messageOf(e);
      this.redraw();
      return;
    }
    await Promise.all([this.loadRatings(), this.load(this.page)]);
  }

  /** The ratings: a failure leaves them out (the games still show). */
  async loadRatings() {
    try {
      this.ratings = (await api.users.ratings(this.name)).ratings;
    } catch (e) {
      console.error(e);
      this.ratings = [];
    }
    this.redraw();
  }

  /**
   * Challenges the bot this profile is of to a 5+0 game, colours drawn: a game from the
   * server's levels at once (the page goes to it), a program's bot's answer waited for.
   */
  async challenge() {
    this.error = '';
    this.challenging = true;
    this.redraw();
    try {
      let challenge = await api.bots.challenge(this.name, { clock: { initial_s: 300, increment_s: 0 }, color: 'random' });
      for (let polls = 0; challenge.status === 'pending' && polls < 120; polls++) {
        await new Promise((done) => setTimeout(done, 1000));
        challenge = await api.bots.status(challenge.id);
      }
      if (challenge.status === 'accepted' && challenge.game) {
        location.assign(`/#/game/${encodeURIComponent(challenge.game)}`);
        return;
      }
      this.error = challenge.status === 'declined'
        ? t('bots.declined', { name: this.name, reason: challenge.reason ?? '' })
        : t('bots.canceled', { name: this.name });
    } catch (e) {
      this.error = api.messageOf(e);
    }
    this.challenging = false;
    this.redraw();
  }

  /** Whether the profile is the asker's own (its unfinished games are theirs to resume). */
  own() {
    const me = session.account();
    return Boolean(me && me.username.toLowerCase() === this.name.toLowerCase());
  }

  /**
   * New filters: the list from its first page.
   * @param {Filters} filters
   */
  filter(filters) {
    this.filters = filters;
    return this.load(1);
  }

  /** @param {number} page */
  async load(page) {
    this.error = '';
    const asked = { ...this.filters, page: page > 1 ? page : undefined };
    try {
      this.games = await api.users.games(this.name, asked);
      this.page = this.games.page || page;
      const q = query({ ...this.filters, page: this.page > 1 ? this.page : null });
      replaceAddress(`${location.pathname}${q ? '?' + q : ''}`);
    } catch (e) {
      this.error = api.messageOf(e);
    }
    this.redraw();
  }
}
