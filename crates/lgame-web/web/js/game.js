// A game on the server (#/game/ID?red=TOKEN&blue=TOKEN): against the computer, two people
// on one device, or friends by link; watched live over the game's WebSocket. The tokens in
// the address are the sides this page may move for.

import * as api from './api.js';
import { t, side, conclusion, winnerOf } from './i18n.js';
import { Board, moveCells } from './board.js';
import { MoveBuilder } from './movebuilder.js';
import { AnalysisPanel, turnOf } from './analysis.js';
import { href } from './app.js';

const ANIMATION_MS = 450;

/** Who played move `i` of a game state: the side to move in the position before it, read
 * from the positions rather than counted from the start. */
function moverOf(state, i) {
  return turnOf(i === 0 ? state.start : state.positions[i - 1]);
}

export async function render(main, params, rest) {
  const id = rest[0];
  if (!id) throw new Error(t('game.noId'));
  const tokens = { red: params.get('red'), blue: params.get('blue') };
  const friendLink = params.get('friend');
  const anyToken = tokens.red || tokens.blue;

  main.innerHTML = `
    <div class="stage">
      <div>
        <div class="status" role="status" aria-live="polite"></div>
        <div class="board-holder"></div>
        <div class="builder"></div>
      </div>
      <div class="side">
        <div class="banner" hidden role="alert"></div>
        <div class="share panel" hidden></div>
        <div class="panel game-actions">
          <div class="row">
            <button type="button" class="undo"></button>
            <button type="button" class="redo"></button>
            <button type="button" class="draw"></button>
            <button type="button" class="resign"></button>
          </div>
          <div class="row">
            <button type="button" class="toggle-analysis" aria-pressed="false"></button>
            <a class="open-analysis"></a>
            <a class="export" download="lgame-game.txt"></a>
            <a class="new-game" href="#/play"></a>
          </div>
          <p class="action-message" role="alert"></p>
        </div>
        <section class="panel history"><h2></h2><ol class="move-list"></ol></section>
        <div class="analysis-holder"></div>
      </div>
    </div>`;
  const $ = (s) => main.querySelector(s);
  const board = new Board($('.board-holder'), { label: t('board.label') });
  let state = null;
  let desc = null;
  let analysisOn = false;
  const redo = [];
  const panel = new AnalysisPanel($('.analysis-holder'), {
    preview: (move) => builder.preview(move),
    play: (move) => builder.submit(move),
  });
  panel.root.hidden = true;

  const humanSides = () => ['red', 'blue'].filter((s) => tokens[s]);
  const myTurn = () => state && !state.over && tokens[state.turn] && state.seats[state.turn] === 'human';
  const vsComputer = () => state && ['red', 'blue'].some((s) => state.seats[s] !== 'human');
  const say = (text) => { $('.action-message').textContent = text; };

  const builder = new MoveBuilder(board, $('.builder'), async (move) => {
    const mover = state.turn;
    const next = await api.games.move(id, tokens[mover], state.plies + 1, move);
    redo.length = 0;
    await show(next, mover);
  });

  /** Draws a state; when the last move was not `mover`'s own, it arrives with an animation. */
  async function show(next, mover = null) {
    const previous = state;
    state = next;
    const grew = previous && next.plies > previous.plies;
    // The computer's reply came in the same answer: first the person's own move, then it.
    if (grew && mover && next.plies - previous.plies === 2) {
      await drawPosition(next.positions[next.plies - 2], next.moves[next.plies - 2], false);
      await new Promise((r) => setTimeout(r, ANIMATION_MS));
      if (state !== next) return;
    }
    const othersMove = grew && (mover === null || next.plies - previous.plies === 2);
    await drawPosition(next.position, next.moves[next.plies - 1], othersMove);
    if (state !== next) return;
    // The status first, then the board takes a move: what the page says is never behind.
    describeState();
    builder.setPosition(desc, myTurn());
  }

  async function drawPosition(position, lastMove, animate) {
    desc = await api.position(state.variant, position);
    board.set(desc);
    builder.setPosition(desc, false);
    if (lastMove) {
      const last = moveCells(lastMove);
      board.show({ last, arrive: animate ? [...last.l, ...last.neutrals.map((n) => n[1])] : [] });
    }
    if (analysisOn && position === state.position) {
      panel.update(desc, [state.start, ...state.positions]);
    }
  }

  function describeState() {
    const status = $('.status');
    status.textContent = '';
    const dot = document.createElement('span');
    dot.className = `turn-dot ${state.turn}`;
    status.appendChild(dot);
    const text = document.createElement('span');
    const ended = state.over ? conclusion(winnerOf(state.result), state.ending, state.turn) : '';
    if (state.over) text.textContent = ended;
    else if (myTurn()) text.textContent = humanSides().length === 2 ? t('game.turnOf', { side: side(state.turn) }) : t('game.yourTurn', { side: side(state.turn) });
    else if (state.seats[state.turn] !== 'human') text.textContent = t('game.computerThinking', { side: side(state.turn) });
    else text.textContent = t('game.waitingFor', { side: side(state.turn) });
    status.appendChild(text);
    status.dataset.turn = state.turn;
    status.dataset.plies = state.plies;
    status.dataset.position = state.position;
    status.dataset.over = String(state.over);

    const banner = $('.banner');
    banner.hidden = !state.over;
    if (state.over) {
      banner.textContent = `${ended} (${state.result})`;
      banner.dataset.result = state.result;
      banner.dataset.ending = state.ending;
    }

    const list = $('.move-list');
    list.textContent = '';
    state.moves.forEach((m, i) => {
      const item = document.createElement('li');
      item.className = 'mono';
      item.textContent = `${side(moverOf(state, i))}: ${m}`;
      list.appendChild(item);
    });
    $('.history h2').textContent = t('game.moves', { count: state.plies });

    const computer = vsComputer();
    $('.undo').disabled = !computer || state.plies === 0 || humanSides().length === 0;
    $('.redo').disabled = !computer || redo.length === 0 || !myTurn();
    const offer = state.draw_offer;
    const mine = humanSides();
    $('.draw').textContent = offer && !mine.includes(offer) ? t('game.acceptDraw') : t('game.offerDraw');
    $('.draw').disabled = state.over || mine.length === 0 || (offer && mine.length === 1 && mine.includes(offer));
    $('.resign').disabled = state.over || mine.length === 0;
    $('.open-analysis').href = href('analyse', { variant: state.variant, position: state.start, line: state.moves.join(';'), at: state.plies });
    describeShare();
  }


  function describeShare() {
    const share = $('.share');
    if (!friendLink) return;
    share.hidden = false;
    const friend = tokens.red ? 'blue' : 'red';
    const here = state.present && state.present[friend];
    share.querySelector('.presence').textContent = here ? t('game.friendHere') : t('game.waitingFriend');
    share.querySelector('.presence').className = `presence ${here ? '' : 'waiting'}`;
    share.dataset.friendPresent = here ? 'true' : 'false';
  }

  if (friendLink) {
    const link = `${location.origin}/#/game/${id}?${new URLSearchParams({ [tokens.red ? 'blue' : 'red']: friendLink })}`;
    const share = $('.share');
    share.innerHTML = `<h2></h2><p class="presence" aria-live="polite"></p>
      <label><span></span><input class="friend-link" readonly></label>
      <div class="row"><button type="button" class="copy"></button></div>
      <img class="qr" alt="">`;
    share.querySelector('h2').textContent = t('game.inviteTitle');
    share.querySelector('label span').textContent = t('game.inviteLabel', { side: side(tokens.red ? 'blue' : 'red') });
    share.querySelector('.friend-link').value = link;
    share.querySelector('.copy').textContent = t('game.copy');
    share.querySelector('.copy').addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(link);
        say(t('game.copied'));
      } catch {
        share.querySelector('.friend-link').select();
        say(t('game.copyByHand'));
      }
    });
    share.querySelector('.qr').src = api.qrUrl(link);
    share.querySelector('.qr').alt = t('game.qrAlt');
  }

  const act = async (what) => {
    say('');
    try {
      await what();
    } catch (e) {
      say(e.message);
      if (e.body && e.body.state) await show(e.body.state);
    }
  };
  const tokenNow = () => tokens[state.turn] || tokens.red || tokens.blue;
  $('.undo').textContent = t('game.undo');
  $('.redo').textContent = t('game.redo');
  $('.resign').textContent = t('game.resign');
  $('.toggle-analysis').textContent = t('game.analysis');
  $('.open-analysis').textContent = t('game.openAnalysis');
  $('.export').textContent = t('game.export');
  $('.export').href = api.games.recordUrl(id);
  $('.new-game').textContent = t('game.newGame');
  $('.undo').addEventListener('click', () => act(async () => {
    const mine = humanSides()[0];
    const before = state;
    const next = await api.games.undo(id, tokens[mine]);
    // The person's own moves that were taken back can be played again.
    const undone = before.moves.filter((_, i) => i >= next.plies && moverOf(before, i) === mine);
    redo.push(...undone.reverse());
    state = null;
    await show(next);
  }));
  $('.redo').addEventListener('click', () => act(async () => {
    const move = redo.pop();
    const mover = state.turn;
    const next = await api.games.move(id, tokens[mover], state.plies + 1, move);
    await show(next, mover);
  }));
  $('.draw').addEventListener('click', () => act(async () => show(await api.games.draw(id, tokenNow()))));
  $('.resign').addEventListener('click', () => act(async () => {
    if (!confirm(t('game.confirmResign'))) return;
    await show(await api.games.resign(id, tokenNow()));
  }));
  $('.toggle-analysis').addEventListener('click', () => {
    analysisOn = !analysisOn;
    $('.toggle-analysis').setAttribute('aria-pressed', String(analysisOn));
    panel.root.hidden = !analysisOn;
    if (analysisOn && desc) panel.update(desc, [state.start, ...state.positions]);
  });

  await show(await api.games.get(id, anyToken));
  // Live: every change by anyone (the friend, the computer, another tab) arrives here.
  const stop = api.watch(id, anyToken, (next) => {
    if (!state || next.plies !== state.plies || next.over !== state.over || next.draw_offer !== state.draw_offer) {
      show(next);
    } else {
      state = next;
      describeState();
    }
  });
  return stop;
}
