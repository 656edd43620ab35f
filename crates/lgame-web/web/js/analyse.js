// The analysis board (#/analyse?variant=V&position=START&line=M1;M2&at=N): any position of
// any variant, a line of moves to step through (buttons, ←/→/Home/End), every move's value,
// record export and import. The address always holds the position, so it can be shared.

import * as api from './api.js';
import { t, outcomeText } from './i18n.js';
import { Board, moveCells } from './board.js';
import { MoveBuilder } from './movebuilder.js';
import { AnalysisPanel } from './analysis.js';
import { href, replaceAddress } from './app.js';
import { variantChooser } from './play.js';

export async function render(main, params) {
  let variant = params.get('variant') || 'classic';
  let start = params.get('position') || 'start';
  let line = (params.get('line') || '').split(';').filter(Boolean);
  let positions = [];
  let at = 0;

  main.innerHTML = `
    <h1></h1>
    <div class="stage">
      <div>
        <div class="status" role="status" aria-live="polite"></div>
        <div class="board-holder"></div>
        <div class="builder"></div>
        <div class="row nav-buttons">
          <button type="button" class="first"></button><button type="button" class="prev"></button>
          <button type="button" class="next"></button><button type="button" class="last"></button>
        </div>
      </div>
      <div class="side">
        <section class="panel history"><h2></h2><ol class="move-list"></ol></section>
        <div class="analysis-holder"></div>
        <details class="panel setup-panel"><summary></summary>
          <form class="start-form">
            <div class="variant-holder"></div>
            <label><span class="position-label"></span><input name="position" class="mono"></label>
            <div class="row"><button type="submit"></button><a class="edit"></a><a class="play-from"></a></div>
          </form>
        </details>
        <details class="panel record-panel"><summary></summary>
          <div class="row"><button type="button" class="export"></button></div>
          <label><span class="import-label"></span><textarea name="record" class="record-text"></textarea></label>
          <div class="row"><button type="button" class="import"></button>
            <label class="file-label"><span></span> <input type="file" class="record-file" accept=".txt,.lgr,text/plain"></label></div>
        </details>
        <p class="error" role="alert"></p>
      </div>
    </div>`;
  const $ = (s) => main.querySelector(s);
  $('h1').textContent = t('title.analyse');
  const board = new Board($('.board-holder'), { label: t('board.label') });
  const panel = new AnalysisPanel($('.analysis-holder'), {
    preview: (move) => builder.preview(move),
    play: (move) => play(move),
  });
  const builder = new MoveBuilder(board, $('.builder'), (move) => play(move));
  const error = (text) => { $('.error').textContent = text; };

  /** Replays the line from the start on the server: its positions, or an error. */
  async function load(newVariant, newStart, newLine, newAt) {
    const answer = await api.records({ variant: newVariant, start: newStart, moves: newLine });
    variant = answer.variant;
    start = answer.start;
    line = answer.moves;
    positions = [answer.start, ...answer.positions];
    at = Math.max(0, Math.min(newAt ?? line.length, line.length));
    await draw();
  }

  async function draw() {
    error('');
    const desc = await api.position(variant, positions[at]);
    board.set(desc);
    builder.setPosition(desc, !desc.outcome);
    if (at > 0) board.show({ last: moveCells(line[at - 1]) });
    const status = $('.status');
    status.textContent = desc.outcome ? outcomeText(desc.outcome, desc.turn) : t('analyse.toMove', { side: t(`side.${desc.turn}`), ply: at });
    status.dataset.position = desc.position;
    $('.first').disabled = $('.prev').disabled = at === 0;
    $('.next').disabled = $('.last').disabled = at === line.length;
    const list = $('.move-list');
    list.textContent = '';
    line.forEach((m, i) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = m;
      button.setAttribute('aria-current', String(i + 1 === at));
      button.addEventListener('click', () => go(i + 1));
      item.appendChild(button);
      list.appendChild(item);
    });
    $('.history h2').textContent = t('analyse.line', { count: line.length });
    $('.start-form').position.value = start;
    $('.edit').href = href('editor', { variant, position: positions[at] });
    $('.play-from').href = href('play', { variant, setup: positions[at] });
    replaceAddress(href('analyse', { variant, position: start, line: line.join(';'), at }));
    panel.update(desc, positions.slice(0, at + 1));
  }

  async function go(n) {
    at = Math.max(0, Math.min(n, line.length));
    await draw();
  }

  /** A move from the board or the list: the line continues from here with it. */
  async function play(move) {
    await load(variant, start, [...line.slice(0, at), move], at + 1);
  }

  $('.first').textContent = '⏮';
  $('.prev').textContent = '◀';
  $('.next').textContent = '▶';
  $('.last').textContent = '⏭';
  for (const [cls, key] of [['first', 'analyse.first'], ['prev', 'analyse.prev'], ['next', 'analyse.next'], ['last', 'analyse.last']]) {
    $(`.${cls}`).setAttribute('aria-label', t(key));
    $(`.${cls}`).title = t(key);
  }
  $('.first').addEventListener('click', () => go(0));
  $('.prev').addEventListener('click', () => go(at - 1));
  $('.next').addEventListener('click', () => go(at + 1));
  $('.last').addEventListener('click', () => go(line.length));
  const keys = (event) => {
    const inField = event.target.closest('input, textarea, select, .board-svg');
    if (inField || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: line.length };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  };
  document.addEventListener('keydown', keys);

  $('.setup-panel summary').textContent = t('analyse.setup');
  const chooser = variantChooser($('.variant-holder'), variant);
  $('.position-label').textContent = t('analyse.position');
  $('.start-form button').textContent = t('analyse.open');
  $('.edit').textContent = t('analyse.edit');
  $('.play-from').textContent = t('analyse.playFrom');
  $('.start-form').addEventListener('submit', (event) => {
    event.preventDefault();
    load(chooser.value(), event.target.position.value.trim() || 'start', [], 0).catch((e) => error(e.message));
  });

  $('.record-panel summary').textContent = t('analyse.record');
  $('.export').textContent = t('analyse.export');
  $('.import-label').textContent = t('analyse.importLabel');
  $('.import').textContent = t('analyse.import');
  $('.file-label span').textContent = t('analyse.importFile');
  $('.export').addEventListener('click', async () => {
    try {
      const answer = await api.records({ variant, start, moves: line });
      const url = URL.createObjectURL(new Blob([answer.record], { type: 'text/plain' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'lgame-analysis.txt';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      $('.record-text').value = answer.record;
    } catch (e) {
      error(e.message);
    }
  });
  const importText = async (text) => {
    try {
      const answer = await api.records({ record: text });
      await load(answer.variant, answer.start, answer.moves, answer.moves.length);
    } catch (e) {
      error(e.message);
    }
  };
  $('.import').addEventListener('click', () => importText($('.record-text').value));
  $('.record-file').addEventListener('change', async (event) => {
    const file = event.target.files[0];
    if (file) importText(await file.text());
  });

  try {
    await load(variant, start, line, params.has('at') ? Number(params.get('at')) : line.length);
  } catch (e) {
    if (!positions.length) await load('classic', 'start', [], 0);
    error(e.message);
  }
  return () => document.removeEventListener('keydown', keys);
}
