// @ts-check
// The arenas (`#/arena` and `#/arena/ID`), the state and the actions: the list and a new
// arena (accounts only), and one arena followed live (asked again every two seconds while
// it is not finished): its standings, this page's account among them and its current game
// (opened by itself when the arena pairs it: follow.js), joining and leaving. arena/view.js
// draws them.

import * as api from '../api.js';
import { href } from '../address.js';
import * as session from '../session.js';
import { arrived, remember } from './follow.js';

/** How often an arena is asked again while it runs. */
export const POLL_MS = 2000;

/**
 * Runs a request, its refusal kept in `holder.error`, redrawing before and after.
 * @param {{ error: string, busy: boolean, redraw: () => void }} holder
 * @param {() => Promise<void>} request
 */
async function act(holder, request) {
  holder.error = '';
  holder.busy = true;
  holder.redraw();
  try {
    await request();
  } catch (e) {
    holder.error = api.messageOf(e);
  }
  holder.busy = false;
  holder.redraw();
}

export class ArenaListCtrl {
  /** @param {() => void} redraw */
  constructor(redraw) {
    this.redraw = redraw;
    /** @type {import('../api.js').ArenaSummary[] | null} */
    this.arenas = null;
    this.error = '';
    this.busy = false;
  }

  /** Whether this page may create an arena: an account is logged in. */
  canCreate() {
    return Boolean(session.account());
  }

  load() {
    return act(this, async () => {
      await session.load();
      this.arenas = (await api.arenas.list()).arenas;
    });
  }

  /**
   * Creates the arena and opens it.
   * @param {import('../api.js').ArenaRequest} body
   */
  create(body) {
    return act(this, async () => {
      const arena = await api.arenas.create(body);
      location.hash = href('arena', {}, [arena.id]);
    });
  }
}

export class ArenaCtrl {
  /**
   * @param {string} id
   * @param {() => void} redraw
   */
  constructor(id, redraw) {
    this.id = id;
    this.redraw = redraw;
    /** @type {import('../api.js').Arena | null} */
    this.arena = null;
    this.error = '';
    this.busy = false;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.poll = null;
  }

  /** The arena, then again every two seconds until it is finished. */
  async start() {
    await session.load();
    await this.load();
    this.poll = setInterval(() => this.load(), POLL_MS);
  }

  async load() {
    try {
      this.arena = await api.arenas.get(this.id);
      this.error = '';
      if (this.arena.state === 'finished') this.stop();
      // Paired: the game opens by itself.
      arrived(this.arena);
    } catch (e) {
      this.error = api.messageOf(e);
    }
    this.redraw();
  }

  /** This page's account's standing in the arena, if it joined. */
  mine() {
    const me = session.account();
    const name = me ? me.username.toLowerCase() : null;
    return (this.arena && name && this.arena.standings.find((s) => s.username.toLowerCase() === name)) || null;
  }

  /** Whether this page's account may join (or join again after leaving). */
  canJoin() {
    const mine = this.mine();
    return Boolean(session.account() && this.arena && this.arena.state !== 'finished' && (!mine || mine.withdrawn));
  }

  canLeave() {
    const mine = this.mine();
    return Boolean(mine && !mine.withdrawn && this.arena && this.arena.state !== 'finished');
  }

  join() {
    return act(this, async () => {
      await api.arenas.join(this.id);
      remember(this.id, true);
      await this.load();
    });
  }

  leave() {
    return act(this, async () => {
      await api.arenas.leave(this.id);
      remember(this.id, false);
      await this.load();
    });
  }

  stop() {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
  }
}
