// The board editor (#/editor?variant=V&position=P): put the pieces anywhere (paint cells
// with a tool, or drag a piece to move it whole), choose who moves, and the server says
// whether it is a position of the variant. The address follows every change.

import * as api from './api.js';
import { t, side, outcomeText } from './i18n.js';
import { Board, cellCoords, cellName } from './board.js';
import { href, replaceAddress } from './app.js';
import { radioChoices, variantChooser } from './play.js';

const TOOLS = ['red', 'blue', 'neutral', 'erase'];
const LETTER = { red: 'R', blue: 'B', neutral: 'N' };
const PIECE = { R: 'red', B: 'blue', N: 'neutral' };

export async function render(main, params) {
  let variant = params.get('variant') || 'classic';
  let cells = {};
  let size = { width: 4, height: 4 };
  let turn = 'red';
  let tool = 'red';

  main.innerHTML = `
    <h1></h1>
    <div class="stage">
      <div><div class="board-holder"></div></div>
      <div class="side">
        <div class="panel">
          <div class="row tools" role="toolbar"></div>
          <fieldset><legend class="turn-legend"></legend><div class="choices turns"></div></fieldset>
          <div class="variant-holder"></div>
          <div class="row"><button type="button" class="clear"></button><button type="button" class="standard"></button></div>
          <p class="hint muted"></p>
        </div>
        <div class="panel">
          <p class="verdict" role="status" aria-live="polite"></p>
          <p class="mono position-text"></p>
          <div class="row"><a class="analyse"></a><a class="play-from"></a></div>
        </div>
      </div>
    </div>`;
  const $ = (s) => main.querySelector(s);
  $('h1').textContent = t('title.editor');
  $('.hint').textContent = t('editor.hint');
  const board = new Board($('.board-holder'), { label: t('editor.boardLabel') });

  for (const name of TOOLS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.tool = name;
    button.textContent = t(`editor.tool.${name}`);
    button.addEventListener('click', () => { tool = name; showTools(); });
    $('.tools').appendChild(button);
  }
  const showTools = () => main.querySelectorAll('[data-tool]').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.tool === tool)));
  showTools();
  $('.turn-legend').textContent = t('editor.toMove');
  radioChoices($('.turns'), 'turn', ['red', 'blue'], side);
  $('.turns').addEventListener('change', (event) => { turn = event.target.value; update(); });
  const chooser = variantChooser($('.variant-holder'), variant);
  chooser.onChange(async () => {
    variant = chooser.value();
    await loadSize();
    update();
  });
  $('.clear').textContent = t('editor.clear');
  $('.standard').textContent = t('editor.standard');
  $('.analyse').textContent = t('editor.analyse');
  $('.play-from').textContent = t('editor.playFrom');
  $('.clear').addEventListener('click', () => { cells = {}; update(); });
  $('.standard').addEventListener('click', async () => { await loadPosition('standard'); update(); });

  /** The position in the one-line notation: rows from the top, then the side to move. */
  function text() {
    const rows = [];
    for (let r = size.height; r >= 1; r--) {
      let row = '';
      for (let c = 0; c < size.width; c++) row += LETTER[cells[cellName(c, r)]] || '.';
      rows.push(row);
    }
    return `${rows.join('/')} ${turn === 'red' ? 'r' : 'b'}`;
  }

  /** The board's size under the variant, from the server. */
  async function loadSize() {
    try {
      const desc = await api.position(variant, 'standard');
      size = { width: desc.width, height: desc.height };
    } catch (e) {
      $('.verdict').textContent = e.message;
    }
    for (const name of Object.keys(cells)) {
      const { col, row } = cellCoords(name);
      if (col >= size.width || row > size.height) delete cells[name];
    }
  }

  async function loadPosition(position) {
    const desc = await api.position(variant, position);
    size = { width: desc.width, height: desc.height };
    cells = {};
    for (const [who, list] of Object.entries(desc.pieces)) {
      for (const c of list) cells[c] = who === 'neutrals' ? 'neutral' : who;
    }
    turn = desc.turn;
  }

  /** Reads the one-line form of the address without the server, so that a position that is
   * not (yet) legal can still be edited. */
  function readRows(position) {
    const [rows, sideChar] = position.trim().split(/\s+/);
    const lines = rows.split('/');
    if (lines.length < 4 || lines.some((l) => l.length !== lines[0].length)) return false;
    size = { width: lines[0].length, height: lines.length };
    cells = {};
    lines.forEach((line, i) => [...line].forEach((ch, c) => {
      if (PIECE[ch]) cells[cellName(c, size.height - i)] = PIECE[ch];
    }));
    turn = sideChar === 'b' ? 'blue' : 'red';
    return true;
  }

  let checking = 0;
  async function update() {
    main.querySelectorAll('input[name=turn]').forEach((i) => { i.checked = i.value === turn; });
    const pieces = { red: [], blue: [], neutrals: [] };
    for (const [c, who] of Object.entries(cells)) pieces[who === 'neutral' ? 'neutrals' : who].push(c);
    board.set({ width: size.width, height: size.height, pieces, turn });
    const position = text();
    $('.position-text').textContent = position;
    replaceAddress(href('editor', { variant, position }));
    const ticket = ++checking;
    const verdict = $('.verdict');
    try {
      const desc = await api.position(variant, position);
      if (ticket !== checking) return;
      verdict.dataset.valid = 'true';
      verdict.textContent = desc.outcome
        ? t('editor.finished', { conclusion: outcomeText(desc.outcome, desc.turn) })
        : t('editor.valid', { side: side(desc.turn), count: desc.legal_moves });
      $('.analyse').href = href('analyse', { variant, position: desc.position });
      $('.play-from').href = href('play', { variant, setup: desc.position });
      $('.analyse').removeAttribute('aria-disabled');
      $('.play-from').hidden = Boolean(desc.outcome);
    } catch (e) {
      if (ticket !== checking) return;
      verdict.dataset.valid = 'false';
      verdict.textContent = e.message;
      $('.analyse').removeAttribute('href');
      $('.analyse').setAttribute('aria-disabled', 'true');
      $('.play-from').hidden = true;
    }
  }

  /** A tap or Enter paints the cell with the tool (again: clears it). */
  function paint(name) {
    if (tool === 'erase' || cells[name] === tool) delete cells[name];
    else cells[name] = tool;
  }

  /** Moves the piece on `from` (a whole L, or a neutral) by the step to `to`. */
  function movePiece(from, to) {
    const who = cells[from];
    const a = cellCoords(from);
    const b = cellCoords(to);
    const [dc, dr] = [b.col - a.col, b.row - a.row];
    const group = who === 'neutral' ? [from] : Object.keys(cells).filter((c) => cells[c] === who);
    const moved = group.map((c) => {
      const p = cellCoords(c);
      return cellName(p.col + dc, p.row + dr);
    });
    const inside = moved.every((c) => {
      const p = cellCoords(c);
      return p.col >= 0 && p.col < size.width && p.row >= 1 && p.row <= size.height;
    });
    if (!inside) return;
    for (const c of group) delete cells[c];
    for (const c of moved) cells[c] = who;
  }

  board.on({
    cell: (name) => { paint(name); update(); },
    drag: (path) => {
      if (cells[path[0]]) movePiece(path[0], path[path.length - 1]);
      else for (const c of path) if (cells[c] !== tool) paint(c);
      update();
    },
  });

  const position = params.get('position');
  try {
    if (!position || !readRows(position)) await loadPosition(position || 'standard');
    else await loadSize();
  } catch (e) {
    await loadPosition('standard');
  }
  await update();
}
