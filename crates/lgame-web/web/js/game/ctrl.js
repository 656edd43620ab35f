// @ts-check
// A game on the server (#/game/ID?red=TOKEN&blue=TOKEN), the state and the actions: against
// the computer, two people on one device, or friends by link; watched live over the game's
// WebSocket. The tokens in the address are the sides this page may move for. view.js draws
// what this holds.

import * as api from '../api.js';
import { turnOf } from '../notation.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {import('../api.js').GameState} GameState */
/** @typedef {import('../api.js').PositionDesc} PositionDesc */

/** @type {Color[]} */
const SIDES = ['red', 'blue'];

/** How long the person's own move stays alone before the computer's reply comes in, ms. */
const ANIMATION_MS = 450;

/**
 * What the view does for the controller: draw a position on the board (`last` the move that
 * led there, `animate` when it is someone else's, `current` when it is the game's position,
 * not a step on the way), let the person move in it (`mine`), and draw the rest of the state.
 * @typedef {{
 *   frame: (desc: PositionDesc, last: string | undefined, animate: boolean, current: boolean) => void,
 *   ready: (desc: PositionDesc, mine: boolean) => void,
 *   redraw: () => void
 * }} GameView
 */

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
   * @param {URLSearchParams} params `red`, `blue`: the tokens of the sides this page moves
   *   for; `friend`: the friend's token, to invite them
   * @param {GameView} view
   */
  constructor(id, params, view) {
    this.id = id;
    this.view = view;
    /** @type {Record<Color, string | null>} */
    this.tokens = { red: params.get('red'), blue: params.get('blue') };
    this.friendToken = params.get('friend');
    /** @type {GameState | null} */
    this.state = null;
    /** The position on the board. @type {PositionDesc | null} */
    this.desc = null;
    this.analysisOn = false;
    /** The person's own moves taken back, the next to play again last. @type {string[]} */
    this.redoMoves = [];
    /** The message of the last action (an error, a copied link). */
    this.message = '';
  }

  /** The token to watch with: any side this page moves for. */
  get anyToken() {
    return this.tokens.red || this.tokens.blue;
  }

  /** The sides this page moves for. */
  humanSides() {
    return SIDES.filter((s) => this.tokens[s]);
  }

  /** Whether the page moves now: its side's turn, a person's seat, the game on. */
  myTurn() {
    const state = this.state;
    return Boolean(state && !state.over && this.tokens[state.turn] && state.seats[state.turn] === 'human');
  }

  /** Whether the computer plays a side. */
  vsComputer() {
    const state = this.state;
    return Boolean(state && SIDES.some((s) => state.seats[s] !== 'human'));
  }

  /** The token for a draw or a resignation: the side to move's if it is this page's. */
  tokenNow() {
    const state = this.state;
    return (state && this.tokens[state.turn]) || this.anyToken || '';
  }

  /** The friend's side, and the link that invites them (null when this page invites nobody). */
  invitation() {
    if (!this.friendToken) return null;
    /** @type {Color} */
    const friend = this.tokens.red ? 'blue' : 'red';
    const link = `${location.origin}/#/game/${this.id}?${new URLSearchParams({ [friend]: this.friendToken })}`;
    const present = Boolean(this.state && this.state.present && this.state.present[friend]);
    return { friend, link, present };
  }

  canUndo() {
    const state = this.state;
    return Boolean(state && this.vsComputer() && state.plies > 0 && this.humanSides().length > 0);
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

  /** Loads the game and watches it; returns a function that stops watching. */
  async start() {
    await this.show(await api.games.get(this.id, this.anyToken));
    // Live: every change by anyone (the friend, the computer, another tab) arrives here.
    return api.watch(this.id, this.anyToken, (next) => {
      const state = this.state;
      if (!state || next.plies !== state.plies || next.over !== state.over || next.draw_offer !== state.draw_offer) {
        this.show(next);
      } else {
        this.state = next;
        this.view.redraw();
      }
    });
  }

  /**
   * Takes a new state; when the last move was not `mover`'s own, it arrives with an animation.
   * @param {GameState} next
   * @param {Color | null} [mover] the side whose move this page just sent
   */
  async show(next, mover = null) {
    const previous = this.state;
    this.state = next;
    const added = previous ? next.plies - previous.plies : 0;
    // The computer's reply came in the same answer: first the person's own move, then it.
    if (added === 2 && mover) {
      await this.frame(next.positions[next.plies - 2], next.moves[next.plies - 2], false);
      await new Promise((r) => setTimeout(r, ANIMATION_MS));
      if (this.state !== next) return;
    }
    const othersMove = added > 0 && (mover === null || added === 2);
    await this.frame(next.position, next.moves[next.plies - 1], othersMove);
    if (this.state !== next || !this.desc) return;
    // The status first, then the board takes a move: what the page says is never behind.
    this.view.redraw();
    this.view.ready(this.desc, this.myTurn());
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
    if (!state) return;
    const mover = state.turn;
    const next = await api.games.move(this.id, this.tokens[mover] || '', state.plies + 1, move);
    this.redoMoves.length = 0;
    await this.show(next, mover);
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
      const next = await api.games.undo(this.id, this.tokens[mine] || '');
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
      const next = await api.games.move(this.id, this.tokens[mover] || '', state.plies + 1, move);
      await this.show(next, mover);
    });
  }

  /** Offers a draw, or accepts the other side's offer. */
  draw() {
    return this.act(async () => this.show(await api.games.draw(this.id, this.tokenNow())));
  }

  resign() {
    return this.act(async () => this.show(await api.games.resign(this.id, this.tokenNow())));
  }

  toggleAnalysis() {
    this.analysisOn = !this.analysisOn;
  }

  /** The game's moves, each with the side that played it. */
  moveList() {
    const state = this.state;
    if (!state) return [];
    return state.moves.map((move, i) => ({ color: moverOf(state, i), move }));
  }
}
