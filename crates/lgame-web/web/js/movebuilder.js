// Building a move on the board: choose the L's four cells (click, tap, drag or keyboard),
// then a neutral and its target, or no neutral move; or type the move. The legal moves and
// the reasons a cell is refused come from the server (/api/position); nothing is checked here.

import * as api from './api.js';
import { t, refusal, refusedMove, outcomeText } from './i18n.js';

const sameCells = (a, b) => a.length === b.length && a.every((c) => b.includes(c));
const covers = (l, cells) => cells.every((c) => l.includes(c));

/** Each refused cell's reason (an /api/position answer's) in the page's language. */
function translated(desc) {
  const reasons = desc.refusal_reasons || {};
  return Object.fromEntries(Object.entries(desc.refusals).map(([cell, text]) => [cell, refusal(reasons[cell], text)]));
}

export class MoveBuilder {
  /**
   * @param {Board} board the board to build on
   * @param {HTMLElement} controls where the builder's buttons, input and messages go
   * @param {(move: string) => Promise<void>} onMove plays a finished move; a rejection's
   *   message is shown and the move can be changed
   */
  constructor(board, controls, onMove) {
    this.board = board;
    this.onMove = onMove;
    this.enabled = false;
    this.desc = null;
    this.hoverPreview = null;
    controls.classList.add('move-controls');
    controls.innerHTML = `
      <p class="move-message" role="alert" aria-live="assertive"></p>
      <div class="row">
        <button type="button" class="no-neutral"></button>
        <button type="button" class="clear-move"></button>
      </div>
      <form class="notation-form row">
        <label><span class="notation-label"></span>
          <input class="notation-input" autocomplete="off" spellcheck="false"></label>
        <button type="submit" class="notation-play"></button>
      </form>`;
    this.message = controls.querySelector('.move-message');
    this.noNeutral = controls.querySelector('.no-neutral');
    this.clear = controls.querySelector('.clear-move');
    this.form = controls.querySelector('.notation-form');
    this.input = controls.querySelector('.notation-input');
    this.noNeutral.addEventListener('click', () => this.finishWithoutNeutral());
    this.clear.addEventListener('click', () => this.reset(true));
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text && this.enabled) this.submit(text);
    });
    board.on({
      cell: (name) => this.cell(name),
      drag: (path) => this.drag(path),
      cancel: () => this.reset(true),
    });
    this.texts();
    this.update();
  }

  texts() {
    this.noNeutral.textContent = t('move.noNeutral');
    this.clear.textContent = t('move.clear');
    this.form.querySelector('.notation-label').textContent = t('move.typeLabel');
    this.input.placeholder = t('move.typePlaceholder');
    this.form.querySelector('.notation-play').textContent = t('move.play');
  }

  /** A new position to move in; `enabled` when it is this person's turn. */
  setPosition(desc, enabled) {
    // A new position clears the last one's message; the same one again keeps it (a refused
    // move's reason stays readable).
    const moved = !this.desc || this.desc.position !== desc.position;
    this.desc = desc;
    this.enabled = enabled && !desc.outcome;
    this.reset(moved);
  }

  reset(clearMessage) {
    this.selected = [];
    this.l = null;
    this.steps = [];
    this.from = null;
    this.refusals = this.desc ? translated(this.desc) : {};
    this.refusalsFor = '';
    if (clearMessage) this.say('');
    this.update();
  }

  say(text, kind = 'info') {
    this.message.textContent = text;
    this.message.dataset.kind = kind;
  }

  /** Cells that can join the selection: some legal L covers them all. */
  open() {
    const ls = this.desc.l_moves;
    const cells = Object.keys(this.board.cells);
    return cells.filter((c) => !this.selected.includes(c) && ls.some((l) => covers(l, [...this.selected, c])));
  }

  /** The moves that begin with the chosen L and neutral steps. */
  options() {
    if (!this.desc.moves || !this.l) return [];
    return this.desc.moves.filter((m) => sameCells(m.l, this.l) && this.steps.every((s, i) => m.neutrals[i] && m.neutrals[i][0] === s[0] && m.neutrals[i][1] === s[1]));
  }

  async refusalsNow() {
    const key = this.selected.slice().sort().join(',');
    if (this.refusalsFor !== key) {
      const answer = await api.position(this.desc.variant, this.desc.position, this.selected);
      this.refusals = translated(answer);
      this.refusalsFor = key;
      this.update();
    }
    return this.refusals;
  }

  async cell(name) {
    if (!this.enabled) {
      this.say(this.desc && this.desc.outcome ? outcomeText(this.desc.outcome, this.desc.turn) : t('move.notYourTurn'));
      return;
    }
    if (this.l) return this.neutralCell(name);
    if (this.selected.includes(name)) {
      this.selected = this.selected.filter((c) => c !== name);
      this.say('');
      this.update();
      this.refusalsNow();
      return;
    }
    if (!this.open().includes(name)) {
      const refusals = await this.refusalsNow();
      this.say(refusals[name] || t('move.cannot', { cell: name }), 'refused');
      return;
    }
    this.selected.push(name);
    this.say('');
    this.afterSelection();
  }

  afterSelection() {
    if (this.selected.length === 4 && this.desc.l_moves.some((l) => sameCells(l, this.selected))) {
      this.l = this.selected.slice();
      if (!this.desc.moves) {
        this.say(t('move.typeBigVariant'));
      } else if (!this.options().some((m) => m.neutrals.length > 0)) {
        return this.submitOption();
      } else {
        this.say(t('move.chooseNeutral'));
      }
    }
    this.update();
    this.refusalsNow();
  }

  drag(path) {
    if (!this.enabled || this.l) return path.forEach((c) => this.cell(c));
    const legal = path.length === 4 && this.desc.l_moves.some((l) => sameCells(l, path));
    if (legal) {
      this.selected = path.slice();
      this.afterSelection();
    } else {
      this.selected = [];
      (async () => {
        for (const c of path.slice(0, 4)) await this.cell(c);
      })();
    }
  }

  neutralCell(name) {
    const options = this.options();
    const k = this.steps.length;
    const movable = [...new Set(options.filter((m) => m.neutrals[k]).map((m) => m.neutrals[k][0]))];
    if (this.from) {
      const targets = options.filter((m) => m.neutrals[k] && m.neutrals[k][0] === this.from).map((m) => m.neutrals[k][1]);
      if (targets.includes(name)) {
        this.steps.push([this.from, name]);
        this.from = null;
        if (!this.options().some((m) => m.neutrals.length > this.steps.length)) return this.submitOption();
        this.say(t('move.chooseNeutral'));
        return this.update();
      }
      if (name === this.from) {
        this.from = null;
        return this.update();
      }
    }
    if (movable.includes(name)) {
      this.from = name;
      this.say(t('move.chooseTarget', { cell: name }));
      return this.update();
    }
    if (this.l.includes(name) && this.steps.length === 0) {
      // Back to the L: this cell leaves it.
      this.selected = this.l.filter((c) => c !== name);
      this.l = null;
      this.from = null;
      this.say('');
      this.update();
      this.refusalsNow();
      return;
    }
    this.say(this.from ? t('move.notTarget', { cell: name }) : t('move.notNeutral', { cell: name }), 'refused');
  }

  finishWithoutNeutral() {
    if (!this.enabled || !this.l) return;
    this.submitOption();
  }

  /** Plays the move made of the chosen L and neutral steps, if it is one. */
  submitOption() {
    const done = this.options().find((m) => m.neutrals.length === this.steps.length);
    if (!done) {
      this.say(t('move.neutralRequired'), 'refused');
      return this.update();
    }
    return this.submit(done.move);
  }

  async submit(text) {
    this.enabled = false;
    this.update();
    try {
      await this.onMove(text);
      this.input.value = '';
    } catch (e) {
      this.enabled = true;
      this.say(refusedMove(e, text), 'refused');
      this.update();
    }
  }

  /** Shows a move over the board while the pointer is on it in a list (null: stop). */
  preview(move) {
    this.hoverPreview = move;
    this.update();
  }

  update() {
    if (!this.desc) {
      // Nothing to move in yet: every control waits for the first position.
      for (const control of [this.noNeutral, this.clear, this.input, this.form.querySelector('.notation-play')]) {
        control.disabled = true;
      }
      return;
    }
    const k = this.steps.length;
    const options = this.options();
    let targets = [];
    let movable = [];
    if (this.l && this.from) targets = options.filter((m) => m.neutrals[k] && m.neutrals[k][0] === this.from).map((m) => m.neutrals[k][1]);
    else if (this.l) movable = [...new Set(options.filter((m) => m.neutrals[k]).map((m) => m.neutrals[k][0]))];
    let preview = this.l ? { l: this.l, neutrals: this.steps } : null;
    if (this.hoverPreview) preview = this.hoverPreview;
    this.board.show({
      selected: this.l ? [] : this.selected,
      open: this.enabled && !this.l ? this.open() : null,
      refusals: this.enabled && !this.l ? this.refusals : {},
      preview,
      targets,
      movable: this.from ? [this.from] : movable,
    });
    const canFinish = this.enabled && this.l && options.some((m) => m.neutrals.length === k);
    this.noNeutral.disabled = !canFinish;
    this.noNeutral.textContent = k > 0 ? t('move.noMoreNeutral') : t('move.noNeutral');
    this.clear.disabled = !this.enabled || (!this.l && this.selected.length === 0);
    this.input.disabled = !this.enabled;
    this.form.querySelector('.notation-play').disabled = !this.enabled;
  }
}
