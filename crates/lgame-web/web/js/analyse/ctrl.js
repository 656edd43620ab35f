// @ts-check
// The analysis board (#/analyse?variant=V&position=START&line=M1;M2&at=N), the state and the
// actions: any position of any variant, a line of moves to step through, record export and
// import. The address always holds the position, so it can be shared. view.js draws it.

import * as api from '../api.js';
import { href, replaceAddress } from '../address.js';

/** @typedef {import('../api.js').PositionDesc} PositionDesc */

/**
 * What the view does for the controller: draw the position at the current step (with the
 * line's positions, for the chart and the value changes), and draw the rest.
 * @typedef {{ frame: (desc: PositionDesc, history: string[]) => void, redraw: () => void }} AnalyseView
 */

export class AnalyseCtrl {
  /**
   * @param {URLSearchParams} params
   * @param {AnalyseView} view
   */
  constructor(params, view) {
    this.params = params;
    this.view = view;
    this.variant = params.get('variant') || 'classic';
    this.start = params.get('position') || 'start';
    /** The line's moves. @type {string[]} */
    this.line = (params.get('line') || '').split(';').filter(Boolean);
    /** The start and the position after each move. @type {string[]} */
    this.positions = [];
    /** The step shown: 0 is the start. */
    this.at = 0;
    /** @type {PositionDesc | null} */
    this.desc = null;
    this.error = '';
  }

  /** Opens what the address names; an unreadable one falls back to the classic start. */
  async open() {
    const params = this.params;
    try {
      await this.load(this.variant, this.start, this.line, params.has('at') ? Number(params.get('at')) : this.line.length);
    } catch (e) {
      if (!this.positions.length) await this.load('classic', 'start', [], 0);
      this.say(api.messageOf(e));
    }
  }

  /**
   * Replays the line from the start on the server: its positions, or an error.
   * @param {string} variant
   * @param {string} start
   * @param {string[]} line
   * @param {number} at
   */
  async load(variant, start, line, at) {
    const answer = await api.records({ variant, start, moves: line });
    this.variant = answer.variant;
    this.start = answer.start;
    this.line = answer.moves;
    this.positions = [answer.start, ...answer.positions];
    this.at = Math.max(0, Math.min(at, this.line.length));
    await this.show();
  }

  async show() {
    this.error = '';
    const desc = await api.position(this.variant, this.positions[this.at]);
    this.desc = desc;
    replaceAddress(href('analyse', { variant: this.variant, position: this.start, line: this.line.join(';'), at: this.at }));
    this.view.frame(desc, this.positions);
    this.view.redraw();
  }

  /** @param {string} text */
  say(text) {
    this.error = text;
    this.view.redraw();
  }

  /**
   * Goes to step `n` of the line.
   * @param {number} n
   */
  go(n) {
    this.at = Math.max(0, Math.min(n, this.line.length));
    return this.show();
  }

  /**
   * A move from the board or the list: the line continues from here with it.
   * @param {string} move
   */
  play(move) {
    return this.load(this.variant, this.start, [...this.line.slice(0, this.at), move], this.at + 1);
  }

  /**
   * Another start: a variant and a position (notation or a setup's name).
   * @param {string} variant
   * @param {string} position
   */
  openStart(variant, position) {
    return this.load(variant, position || 'start', [], 0).catch((e) => this.say(api.messageOf(e)));
  }

  /** The line as a record, or null (the error said). */
  async record() {
    try {
      return (await api.records({ variant: this.variant, start: this.start, moves: this.line })).record;
    } catch (e) {
      this.say(api.messageOf(e));
      return null;
    }
  }

  /**
   * Reads a record and opens it at its end.
   * @param {string} text
   */
  async importRecord(text) {
    try {
      const answer = await api.records({ record: text });
      await this.load(answer.variant, answer.start, answer.moves, answer.moves.length);
    } catch (e) {
      this.say(api.messageOf(e));
    }
  }
}
