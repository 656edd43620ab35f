// @ts-check
// A game on the server (#/game/ID), the state and the actions: against the computer, two
// people on one device, or friends by link; watched live over the game's WebSocket. The
// sides this page moves for are the seats this browser holds (the state's `your_sides`, by
// its session or anonymous identity): the address holds no secret. An old address with
// tokens (`?red=T&blue=T`) seats the browser once and is rewritten; a friend's invitation
// (`?invite=CODE`) offers its seat, taken by a button. view.js draws what this holds.

import * as api from '../api.js';
import { href, replaceAddress } from '../address.js';
import { turnOf } from '../notation.js';
import { invitationOf, keepInvitation, forgetInvitation } from '../invitations.js';
import { t, side as sideName } from '../i18n.js';
import { moveSound } from './sound.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {import('../api.js').GameState} GameState */
/** @typedef {import('../api.js').PositionDesc} PositionDesc */

/** @type {Color[]} */
const SIDES = ['red', 'blue'];

/** How long the person's own move stays alone before the computer's reply comes in, ms. */
const PAUSE_MS = 400;

/** Seconds an arena's finished game waits before its player goes back to the arena. */
export const BACK_S = 5;

/**
 * What the view does for the controller: draw a position on the board (`last` the move that
 * led there, `animate` when it is someone else's, `current` when it is the game's position,
 * not a step on the way), draw the person's move at once before the server has it
 * (`optimistic`: the position it leaves and the move), let the person move in it (`mine`), and
 * draw the rest of the state.
 * @typedef {{
 *   frame: (desc: PositionDesc, last: string | undefined, animate: boolean, current: boolean) => void,
 *   optimistic: (desc: PositionDesc, move: import('../api.js').MoveEntry) => void,
 *   ready: (desc: PositionDesc, mine: boolean) => void,
 *   redraw: () => void
 * }} GameView
 */

/**
 * The pieces after a move, drawn before the server answers: the mover's L on its new cells,
 * each neutral step's piece moved. Only where the pieces go; the move is one of the legal
 * moves the server listed.
 * @param {PositionDesc} desc
 * @param {import('../api.js').MoveEntry} entry
 * @returns {PositionDesc}
 */
export function afterMove(desc, entry) {
  const neutrals = desc.pieces.neutrals.map((n) => {
    const step = entry.neutrals.find((s) => s[0] === n);
    return step ? step[1] : n;
  });
  /** @type {Color} */
  const other = desc.turn === 'red' ? 'blue' : 'red';
  return { ...desc, position: entry.position, turn: other, pieces: { ...desc.pieces, [desc.turn]: entry.l.slice(), neutrals }, moves: null, l_moves: [] };
}

/**
 * Who played move `i` of a game state: the side to move in the position before it, read
 * from the positions rather than counted from the start.
 * @param {GameState} state
 * @param {number} i
 */
function moverOf(state, i) {
  return turnOf(i === 0 ? state.start : state.positions[i - 1]);
}

export class GameCtrl {
  /**
   * @param {string} id
   * @param {URLSearchParams} params `red`, `blue`: an old address's tokens (the seats are
   *   taken once, then the address is rewritten); `invite`: a friend's invitation code
   * @param {GameView} view
   */
  constructor(id, params, view) {
    this.id = id;
    this.view = view;
    /** An old address's tokens. @type {string[]} */
    this.oldTokens = /** @type {string[]} */ ([params.get('red'), params.get('blue')].filter(Boolean));
    this.rewrite = this.oldTokens.length > 0 || params.has('friend');
    /** An old host's address names the friend's token: a friend's game from before invitations. */
    this.oldFriend = params.has('friend');
    /** The friend's invitation code this page was opened with, until it is used. */
    this.invite = params.get('invite');
    /** The invitation this page's host made (its link), if this browser kept it. */
    this.hostInvitation = invitationOf(id);
    /** Whether the friend's seat was seen open (so its taking is news: "Your friend joined"). */
    this.sawOpen = false;
    /**
     * The seats this browser holds, as the server's answers to it say (`your_sides`; the
     * WebSocket's messages, the same for every watcher, do not).
     * @type {Color[]}
     */
    this.yours = [];
    /** @type {GameState | null} */
    this.state = null;
    /** The position on the board. @type {PositionDesc | null} */
    this.desc = null;
    this.analysisOn = false;
    /** The person's own moves taken back, the next to play again last. @type {string[]} */
    this.redoMoves = [];
    /** The message of the last action (an error, a copied link). */
    this.message = '';
    /** When this page's move, drawn at once, is on its way to the server: when it was drawn. @type {number | null} */
    this.sending = null;
    /** A state the WebSocket brought while a move was on its way (the answer brings it too). @type {GameState | null} */
    this.held = null;
    this.busy = false;
    /** When this page's turn was shown (performance.now()), for a move's thinking time. @type {number | null} */
    this.shownAt = null;
    /** The text key of the other side's last answer to this page's offer or request ('' none). */
    this.news = '';
    /** In a rematch: whether the opponent was seen away (so their coming is news). */
    this.sawAway = false;
    /**
     * An arena's game that ended while this page watched: the seconds left before the page
     * goes back to the arena (null: it stays, by the player's choice or because none runs).
     * @type {number | null}
     */
    this.backIn = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.backTimer = null;
    /** The name of the arena that paired the game, once asked ('' until then). */
    this.arenaTitle = '';
  }

  /**
   * Asks the arena that paired the game for its name (its variant and clock, as the arenas'
   * list names it), once.
   * @param {(arena: import('../api.js').Arena) => string} name
   */
  async nameArena(name) {
    const id = this.state && this.state.arena;
    if (!id || this.arenaTitle) return;
    try {
      this.arenaTitle = name(await api.arenas.get(id));
      this.view.redraw();
    } catch {
      // Unnamed: the way back still shows.
    }
  }

  /** The arena's page this game belongs to, for its player (null: no arena, or a spectator). */
  arenaPage() {
    const state = this.state;
    return state && state.arena && this.humanSides().length === 1 ? href('arena', {}, [state.arena]) : null;
  }

  /** Whether the game was aborted: called off before both sides moved, with no result. */
  aborted() {
    return Boolean(this.state && this.state.ending === 'aborted');
  }

  /**
   * Counts down to the arena's page, a second at a time (`BACK_S` in all), unless the
   * player stays.
   */
  countBack() {
    const page = this.arenaPage();
    if (!page || this.backTimer) return;
    this.backIn = BACK_S;
    this.backTimer = setInterval(() => {
      if (this.backIn === null) return this.stay();
      this.backIn -= 1;
      if (this.backIn <= 0) {
        this.stay();
        location.hash = page;
        return;
      }
      this.view.redraw();
    }, 1000);
    this.view.redraw();
  }

  /** Stops the countdown to the arena: the page stays on the game. */
  stay() {
    if (this.backTimer) clearInterval(this.backTimer);
    this.backTimer = null;
    this.backIn = null;
    this.view.redraw();
  }

  /** The one side this page plays against another person (null: both, none, or the computer's game). */
  me() {
    const mine = this.humanSides();
    return mine.length === 1 && this.betweenPeople() ? mine[0] : null;
  }

  /**
   * What stands between the two people, for game/offers.js: the draw offer and the request to
   * take back (the other side's, or this page's own, waiting), the last answer, and in a
   * rematch whether the opponent came. Null when this page plays no one.
   * @returns {import('./offers.js').OffersSlice | null}
   */
  offers() {
    const state = this.state;
    const me = this.me();
    if (!state || !me) return null;
    /** @type {Color} */
    const other = me === 'red' ? 'blue' : 'red';
    const whose = (/** @type {Color | null | undefined} */ side) => (state.over || !side ? null : side === me ? 'mine' : 'theirs');
    const player = state.players && state.players[other];
    // A rematch this page is in before its first move: is the opponent's page open on it?
    const present = Boolean(state.present && state.present[other]);
    const rematch = state.rematch_of && state.plies === 0 && !state.over && (!present || this.sawAway)
      ? { name: player && player.kind === 'user' && player.name ? player.name : null, joined: present } : null;
    return { draw: whose(state.draw_offer), undo: whose(state.undo_request), other, news: this.news, rematch };
  }

  /**
   * Notes the other side's answer to this page's offer or request, between two states of the
   * game: withdrawn with no move played and the game going on, it was declined; a request to
   * take back gone with fewer plies, it was accepted. Anything else new forgets the last answer.
   * @param {GameState | null} before
   * @param {GameState} next
   */
  answered(before, next) {
    const me = this.me();
    if (!before || before.id !== next.id || !me) return;
    const changed = before.plies !== next.plies || before.over !== next.over
      || before.draw_offer !== next.draw_offer || before.undo_request !== next.undo_request;
    if (!changed) return;
    const same = before.plies === next.plies && !next.over;
    if (before.draw_offer === me && !next.draw_offer && same) this.news = 'offers.drawDeclined';
    else if (before.undo_request === me && !next.undo_request && same) this.news = 'offers.undoDeclined';
    else if (before.undo_request === me && !next.undo_request && next.plies < before.plies) this.news = 'offers.undoAccepted';
    else this.news = '';
  }

  /** In a timed game, how long this page's move took the person (none: untimed). */
  thinkMs() {
    if (!this.state || !this.state.clock || this.shownAt === null) return undefined;
    return Math.round(performance.now() - this.shownAt);
  }

  /** Whether the page only watches: it moves for no side. */
  watching() {
    return this.humanSides().length === 0;
  }

  /** Whether people play both sides (no computer). */
  betweenPeople() {
    const state = this.state;
    return Boolean(state && SIDES.every((s) => state.seats[s] === 'human'));
  }

  /**
   * Whether the solver may be consulted: not in a live game between people, a rated one
   * above all (analysis and the moves' values open when it ends), so that nobody plays
   * with the solver's help.
   */
  analysisAllowed() {
    const state = this.state;
    return Boolean(state && (state.over || !(this.betweenPeople() || state.rated)));
  }

  /** Whether the board is turned round at first: for Blue's player, Blue's side nearest. */
  blueView() {
    const mine = this.humanSides();
    return mine.length === 1 && mine[0] === 'blue';
  }

  /**
   * The end for this page's player: `won`, `lost` or `draw` (null when the page plays both
   * sides or none, or the game goes on).
   * @returns {'won' | 'lost' | 'draw' | null}
   */
  verdict() {
    const state = this.state;
    const mine = this.humanSides();
    if (!state || !state.over || mine.length !== 1 || this.aborted()) return null;
    const winner = state.result === '1-0' ? 'red' : state.result === '0-1' ? 'blue' : null;
    return winner === null ? 'draw' : winner === mine[0] ? 'won' : 'lost';
  }

  /** Whether this page has made a move in the game yet. */
  movedYet() {
    const mine = this.humanSides();
    return this.moveList().some(({ color }) => mine.includes(color));
  }

  canRematch() {
    return Boolean(this.state && this.state.over && !this.busy && this.humanSides().length > 0);
  }

  /** Whether a rematch is offered at all: not in an arena's game (the arena pairs again). */
  offersRematch() {
    return Boolean(this.state && !this.state.arena && this.humanSides().length > 0);
  }

  /** The sides this page moves for: the seats this browser holds. */
  humanSides() {
    return SIDES.filter((s) => this.yours.includes(s));
  }

  /** Whether the page moves now: its side's turn, a person's seat, the game on. */
  myTurn() {
    const state = this.state;
    return Boolean(state && !state.over && this.humanSides().includes(state.turn) && state.seats[state.turn] === 'human');
  }

  /** Whether the computer plays a side. */
  vsComputer() {
    const state = this.state;
    return Boolean(state && SIDES.some((s) => state.seats[s] !== 'human'));
  }

  /** The side a draw or a resignation is for: the side to move's if it is this page's. */
  sideNow() {
    const state = this.state;
    const mine = this.humanSides();
    return state && mine.includes(state.turn) ? state.turn : mine[0];
  }

  /**
   * For the host of a game with a friend: the friend's side; whether their seat is still
   * open (then the link that invites them, when this browser kept it), whether they joined
   * while this page watched, and whether they are here. Null when this page hosts no friend.
   */
  invitation() {
    const state = this.state;
    const mine = this.humanSides();
    if (!state || mine.length !== 1) return null;
    /** @type {Color} */
    const friend = mine[0] === 'red' ? 'blue' : 'red';
    // Only a game with a friend invited by link: a pairing's opponent is nobody's friend.
    const friendly = state.invited === friend || state.invitation === friend || this.oldFriend;
    if (state.seats[friend] !== 'human' || !friendly) return null;
    const open = Boolean(state.players ? state.players[friend].kind === 'open' : state.invitation === friend);
    const kept = this.hostInvitation && this.hostInvitation.side === friend ? this.hostInvitation : null;
    const link = open && kept ? new URL(kept.url, location.origin).href : null;
    const present = Boolean(state.present && state.present[friend]);
    return { friend, open, link, joined: !open && this.sawOpen, present };
  }

  /** A new invitation for the friend's open seat (the old link stops working). */
  newInvitation() {
    return this.act(async () => {
      const invited = this.invitation();
      if (!invited) return;
      const made = await api.games.invitation(this.id, invited.friend);
      keepInvitation(this.id, made);
      this.hostInvitation = made;
      this.view.redraw();
    });
  }

  /**
   * The seat a friend's invitation offers this page (its side), or null: none asked, or
   * this browser sits there already.
   * @returns {Color | null}
   */
  offeredSeat() {
    const state = this.state;
    if (!this.invite || !state) return null;
    const side = state.invitation || SIDES.find((s) => state.players && state.players[s].kind === 'open') || null;
    return side && !this.humanSides().includes(side) ? side : null;
  }

  /**
   * Takes the invitation's seat (a POST: a link's preview never takes it). Then the page
   * opens the game at its shareable address as a player; when somebody was first, it says
   * so and watches.
   */
  async takeSeat() {
    const code = this.invite;
    if (!code) return;
    this.say('');
    try {
      await api.games.seat(this.id, { invite: code });
      this.invite = null;
      // The game again, as a player now (the router draws it anew).
      location.replace(href('game', {}, [this.id]));
    } catch (e) {
      const kind = e instanceof api.ApiError && e.body ? e.body.kind : undefined;
      this.invite = null;
      replaceAddress(href('game', {}, [this.id]));
      this.say(kind === 'seat_taken' ? t('game.seatTaken') : kind === 'not_a_side' ? t('game.inviteUsed') : api.messageOf(e));
    }
  }

  /** What the page says of an invitation it was opened with, before its button is pressed. */
  inviteText() {
    const side = this.offeredSeat();
    return side ? t('game.invited', { side: sideName(side) }) : '';
  }

  canUndo() {
    const state = this.state;
    if (!state || state.over || this.sending !== null || state.plies === 0) return false;
    if (this.vsComputer()) return this.humanSides().length > 0;
    // Between two people: a request to the other, once this page has moved and none stands.
    return Boolean(this.me() && this.movedYet() && !state.undo_request);
  }

  canRedo() {
    return this.vsComputer() && this.redoMoves.length > 0 && this.myTurn();
  }

  /** Whether the other side offers a draw this page can accept. */
  drawOffered() {
    const offer = this.state && this.state.draw_offer;
    return Boolean(offer && !this.humanSides().includes(offer));
  }

  canDraw() {
    const state = this.state;
    if (!state) return false;
    const mine = this.humanSides();
    const offer = state.draw_offer;
    return !state.over && mine.length > 0 && !(offer && mine.length === 1 && mine.includes(offer));
  }

  canResign() {
    return Boolean(this.state && !this.state.over && this.humanSides().length > 0);
  }

  /**
   * Seats this browser by an old address's tokens (then the address is the shareable one),
   * and loads the game: its first state. An invitation whose seat is gone is said so.
   * @returns {Promise<GameState>}
   */
  async prepare() {
    for (const token of this.oldTokens) {
      try {
        await api.games.seat(this.id, { token });
      } catch (e) {
        this.message = api.messageOf(e);
      }
    }
    if (this.rewrite) replaceAddress(href('game', { invite: this.invite }, [this.id]));
    const first = await api.games.get(this.id);
    this.yours = first.your_sides || [];
    this.state = first;
    if (this.invite && !this.offeredSeat()) {
      if (!this.humanSides().length) this.message = t('game.seatTaken');
      this.invite = null;
      replaceAddress(href('game', {}, [this.id]));
    }
    this.state = null;
    return first;
  }

  /**
   * Shows the game's first state and watches it; returns a function that stops watching.
   * @param {GameState} first
   */
  async start(first) {
    this.notice(first);
    await this.show(first);
    // Live: every change by anyone (the friend, the computer, another tab) arrives here.
    return api.watch(this.id, (next) => {
      this.notice(next);
      // This page's move is on its way: its answer shows it, and the reply after a pause.
      if (this.sending !== null) {
        this.held = next;
        return;
      }
      const state = this.state;
      if (!state || next.plies !== state.plies || next.over !== state.over || next.draw_offer !== state.draw_offer) {
        this.show(next);
      } else {
        this.answered(state, next);
        this.state = next;
        this.view.redraw();
      }
    });
  }

  /**
   * Notes what a state tells of the friend's seat: seen open, the friend is awaited; seen
   * taken after that, they joined (and the kept invitation is spent).
   * @param {GameState} state
   */
  notice(state) {
    const before = this.state;
    this.state = state;
    const invited = this.invitation();
    const me = this.me();
    this.state = before;
    if (me && state.rematch_of && !(state.present && state.present[me === 'red' ? 'blue' : 'red'])) this.sawAway = true;
    if (!invited) return;
    if (invited.open) this.sawOpen = true;
    else forgetInvitation(this.id);
  }

  /**
   * Takes a new state; when the last move was not `mover`'s own, it arrives with an animation.
   * @param {GameState} next
   * @param {Color | null} [mover] the side whose move this page just sent
   */
  async show(next, mover = null) {
    if (next.your_sides) this.yours = next.your_sides;
    const previous = this.state;
    if (previous && !previous.over && next.over) this.ended(next);
    this.answered(previous, next);
    this.state = next;
    const added = previous ? next.plies - previous.plies : 0;
    // The computer's reply came in the same answer: first the person's own move (drawn
    // already when it was sent), a short pause, then the reply slides in.
    if (added === 2 && mover) {
      const final = api.position(next.variant, next.position);
      if (this.sending === null) await this.frame(next.positions[next.plies - 2], next.moves[next.plies - 2], false);
      const shown = this.sending === null ? Date.now() : this.sending;
      await new Promise((r) => setTimeout(r, Math.max(0, shown + PAUSE_MS - Date.now())));
      if (this.state !== next) return;
      this.desc = await final;
      if (this.state !== next) return;
      this.view.frame(this.desc, next.moves[next.plies - 1], true, true);
    } else {
      const othersMove = added > 0 && (mover === null || added === 2);
      await this.frame(next.position, next.moves[next.plies - 1], othersMove);
    }
    if (this.state !== next || !this.desc) return;
    // This page's move is answered: the status says whose turn it is again.
    if (mover) this.sending = null;
    // The status first, then the board takes a move: what the page says is never behind.
    this.view.redraw();
    this.view.ready(this.desc, this.myTurn());
    // The move's thinking time, by this page's clock, runs from here (the server forgives
    // the rest as lag).
    if (this.myTurn()) this.shownAt = performance.now();
  }

  /**
   * @param {string} position
   * @param {string | undefined} last
   * @param {boolean} animate
   */
  async frame(position, last, animate) {
    const state = this.state;
    if (!state) return;
    this.desc = await api.position(state.variant, position);
    this.view.frame(this.desc, last, animate, position === this.state?.position);
  }

  /** The positions of the game so far, for the analysis chart. */
  history() {
    return this.state ? [this.state.start, ...this.state.positions] : [];
  }

  /**
   * Plays this page's move (the move builder's, or one from the analysis).
   * @param {string} move
   */
  async move(move) {
    const state = this.state;
    const desc = this.desc;
    if (!state || !desc) return;
    const mover = state.turn;
    // Drawn at once when it is one of the listed moves; the server's answer confirms it.
    const entry = desc.moves && desc.moves.find((m) => m.move === move);
    this.sending = Date.now();
    this.held = null;
    if (entry) this.view.optimistic(desc, entry);
    this.view.redraw();
    let next;
    try {
      next = await api.games.move(this.id, mover, state.plies + 1, move, this.thinkMs());
    } catch (e) {
      // Refused: back to the position as it was; the move builder says why.
      this.sending = null;
      this.view.frame(desc, state.moves[state.plies - 1], false, true);
      this.view.redraw();
      const known = e instanceof api.ApiError && e.body && e.body.state;
      if (known && known.plies !== state.plies) await this.show(known);
      throw e;
    }
    this.redoMoves.length = 0;
    try {
      await this.show(next, mover);
    } finally {
      this.sending = null;
      // Set by the WebSocket while the move was on its way (TypeScript cannot see that).
      const held = /** @type {GameState | null} */ (this.held);
      this.held = null;
      if (held && this.state && held.plies > this.state.plies) await this.show(held);
      else this.view.redraw();
    }
  }

  /**
   * A rematch, colours swapped, same level and variant (the server's): asked with each side
   * this page plays, then opened.
   */
  rematch() {
    return this.act(async () => {
      this.busy = true;
      this.view.redraw();
      try {
        let id = '';
        for (const side of this.humanSides()) {
          try {
            id = (await api.games.rematch(this.id, side)).id;
          } catch (e) {
            // Both seats here: the first side's rematch may have given the second's too.
            if (!id) throw e;
          }
        }
        // The new game's seats are this browser's as the old ones were: its address is all.
        if (id) location.hash = href('game', {}, [id]);
      } finally {
        this.busy = false;
      }
    });
  }

  /**
   * Runs an action; its failure is said, and a refused action's state taken.
   * @param {() => Promise<void>} what
   */
  async act(what) {
    this.say('');
    try {
      await what();
    } catch (e) {
      this.say(api.messageOf(e));
      const state = e instanceof api.ApiError && e.body && e.body.state;
      if (state) await this.show(state);
    }
  }

  /**
   * The game ended while this page was open: its sound, and in an arena the way back.
   * @param {GameState} next
   */
  ended(next) {
    if (next.ending === 'aborted') moveSound('abort');
    else if (next.ending && !['trapped', 'symmetry', 'score target'].includes(next.ending)) moveSound('end');
    this.state = next;
    this.countBack();
  }

  /** @param {string} text */
  say(text) {
    this.message = text;
    this.view.redraw();
  }

  /** Back to this page's previous turn; the person's own moves taken back can be redone. */
  undo() {
    return this.act(async () => {
      const before = this.state;
      const mine = this.humanSides()[0];
      if (!before || !mine) return;
      // Between two people it is a request: the other answers it.
      const me = this.me();
      if (me) {
        await this.show(await api.games.undo(this.id, me));
        return;
      }
      const next = await api.games.undo(this.id, mine);
      const undone = before.moves.filter((_, i) => i >= next.plies && moverOf(before, i) === mine);
      this.redoMoves.push(...undone.reverse());
      this.state = null;
      await this.show(next);
    });
  }

  /** The person's last undone move, played again (the computer may answer differently). */
  redo() {
    return this.act(async () => {
      const state = this.state;
      const move = this.redoMoves.pop();
      if (!state || !move) return;
      const mover = state.turn;
      const next = await api.games.move(this.id, mover, state.plies + 1, move, this.thinkMs());
      await this.show(next, mover);
    });
  }

  /** Offers a draw, or accepts the other side's offer. */
  draw() {
    return this.act(async () => {
      const side = this.sideNow();
      if (side) await this.show(await api.games.draw(this.id, side));
    });
  }

  /**
   * Answers the other side's draw offer or request to take back.
   * @param {'draw' | 'undo'} what
   * @param {boolean} yes
   */
  answer(what, yes) {
    return this.act(async () => {
      const me = this.me();
      if (!me) return;
      const { games } = api;
      const call = what === 'draw' ? (yes ? games.draw : games.declineDraw) : yes ? games.acceptUndo : games.declineUndo;
      await this.show(await call(this.id, me));
    });
  }

  resign() {
    return this.act(async () => {
      const side = this.sideNow();
      if (side) await this.show(await api.games.resign(this.id, side));
    });
  }

  /** Gives the other side 15 s (a day by correspondence). */
  giveTime() {
    return this.act(async () => {
      const side = this.sideNow();
      if (side) await this.show(await api.games.giveTime(this.id, side));
    });
  }

  /**
   * Claims the game of an opponent who left: a win or a draw.
   * @param {'win' | 'draw'} result
   */
  claim(result) {
    return this.act(async () => {
      const side = this.sideNow();
      if (side) await this.show(await api.games.claim(this.id, side, result));
    });
  }

  toggleAnalysis() {
    this.analysisOn = !this.analysisOn && this.analysisAllowed();
  }

  /** The game's moves, each with the side that played it. */
  moveList() {
    const state = this.state;
    if (!state) return [];
    return state.moves.map((move, i) => ({ color: moverOf(state, i), move }));
  }
}
