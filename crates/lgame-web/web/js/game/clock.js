// @ts-check
// A game's clocks, drawn by the players' names: each side's time left as the server last told
// it, ticked down from the moment that message arrived for the side whose time runs (the
// server is the clock: every state and change carries its figures again). The mover's clock
// is highlighted; below 10 s it turns red, and this page's own side hears it once. Before
// both first moves, the time left to make one.

import { h } from '../dom.js';
import { t, side } from '../i18n.js';
import { moveSound } from './sound.js';

/** @typedef {import('../api.js').Color} Color */
/** @typedef {NonNullable<import('../api.js').GameState['clock']>} ClockState */

/** Below this a clock is low: red, and heard once. */
const LOW_MS = 10_000;
const COLORS = /** @type {Color[]} */ (['red', 'blue']);

/**
 * A time left in words: `1:02:03`, `4:05`, `7.3` (tenths under 10 s), days by correspondence.
 * @param {number} ms
 */
export function clockText(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s >= 86_400) {
    const days = Math.floor(s / 86_400);
    return t('clock.days', { days, hours: Math.floor((s % 86_400) / 3600) });
  }
  if (s < 10) return (Math.floor(s * 10) / 10).toFixed(1);
  const whole = Math.floor(s);
  const [hours, minutes, seconds] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

/** A time control in words: `3+2`, `1 day`. @param {ClockState} clock */
export function controlText(clock) {
  if ('days' in clock && clock.days) return t('clock.perMove', { days: clock.days });
  const minutes = (clock.initial_s ?? 0) / 60;
  const base = { 0.25: '¼', 0.5: '½', 0.75: '¾' }[minutes] ?? String(Math.round(minutes * 10) / 10);
  return `${base}+${clock.increment_s ?? 0}`;
}

export class Clocks {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    root.className = 'clocks';
    /** @type {ClockState | null} */
    this.clock = null;
    /** When the figures arrived (performance.now()). */
    this.at = 0;
    /** This page's sides (the low-time sound is theirs). @type {Color[]} */
    this.mine = [];
    /** Sides already warned of low time. @type {Set<Color>} */
    this.warned = new Set();
    this.timer = 0;
    /** @type {Record<Color, HTMLElement>} */
    this.faces = /** @type {any} */ ({});
    for (const c of COLORS) {
      this.faces[c] = h('span', { class: `clock ${c}`, 'data-side': c, role: 'timer' });
    }
    this.control = h('span', { class: 'clock-control muted' });
    this.firstMove = h('p', { class: 'first-move muted', role: 'status' });
    root.append(h('div', { class: 'clock-row' }, this.faces.red, this.control, this.faces.blue), this.firstMove);
    root.hidden = true;
  }

  /**
   * The server's figures, from a state or a change (the same object again: nothing new).
   * @param {ClockState | null | undefined} clock
   * @param {Color[]} mine
   */
  update(clock, mine) {
    this.mine = mine;
    if (clock !== this.clock) {
      this.clock = clock ?? null;
      this.at = performance.now();
    }
    this.root.hidden = !this.clock;
    this.draw();
    clearTimeout(this.timer);
    const c = this.clock;
    if (c && (c.running || c.first_move_ms !== null)) {
      // Ten times a second under 10 s, else at each whole second.
      const running = c.running ? this.left(c.running) : (c.first_move_ms ?? 0) - (performance.now() - this.at);
      const next = running < LOW_MS ? 100 : (running % 1000) + 5;
      this.timer = window.setTimeout(() => this.update(this.clock, this.mine), Math.max(20, next));
    }
  }

  /** A side's time left now. @param {Color} c */
  left(c) {
    const clock = this.clock;
    if (!clock) return 0;
    const told = c === 'red' ? clock.red_ms : clock.blue_ms;
    return Math.max(0, clock.running === c ? told - (performance.now() - this.at) : told);
  }

  draw() {
    const clock = this.clock;
    if (!clock) return;
    this.control.textContent = controlText(clock);
    for (const c of COLORS) {
      const ms = this.left(c);
      const face = this.faces[c];
      const low = ms < LOW_MS && clock.speed !== 'correspondence';
      face.textContent = clockText(ms);
      face.classList.toggle('running', clock.running === c);
      face.classList.toggle('low', low);
      face.dataset.ms = String(Math.round(ms));
      face.setAttribute('aria-label', t('clock.label', { side: side(c), time: clockText(ms) }));
      if (low && clock.running === c && this.mine.includes(c) && !this.warned.has(c)) {
        this.warned.add(c);
        moveSound('low');
      }
    }
    const first = clock.first_move_ms;
    const waiting = first !== null && first !== undefined;
    this.firstMove.hidden = !waiting;
    if (waiting) {
      const s = Math.ceil(Math.max(0, first - (performance.now() - this.at)) / 1000);
      this.firstMove.textContent = t('clock.firstMove', { seconds: s });
    }
  }

  /** Stops ticking (the page leaves the game). */
  stop() {
    clearTimeout(this.timer);
  }
}
