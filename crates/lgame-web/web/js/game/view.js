// @ts-check
// A game, drawn: the status line, the board with its move builder, the end's banner, the
// invitation of a friend, the actions (undo, redo, draw, resign, analysis, record), the moves
// and the analysis panel. game/ctrl.js holds the game and acts on it.

import * as api from '../api.js';
import { h } from '../dom.js';
import { href } from '../address.js';
import { t, side, conclusion, winnerOf } from '../i18n.js';
import { moveCells } from '../notation.js';
import { Board } from '../ui/board.js';
import { moveBuilder } from '../ui/move/view.js';
import { AnalysisPanel } from '../ui/analysis/view.js';
import { GameCtrl } from './ctrl.js';

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 * @param {string[]} rest the game's id
 */
export async function render(main, params, rest) {
  const id = rest[0];
  if (!id) throw new Error(t('game.noId'));

  const button = (/** @type {string} */ cls, /** @type {string} */ text) => h('button', { type: 'button', class: cls, text });
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const boardHolder = h('div', { class: 'board-holder' });
  const builderHolder = h('div', { class: 'builder' });
  const banner = h('div', { class: 'banner', hidden: true, role: 'alert' });
  const share = h('div', { class: 'share panel', hidden: true });
  const undo = button('undo', t('game.undo'));
  const redo = button('redo', t('game.redo'));
  const draw = button('draw', '');
  const resign = button('resign', t('game.resign'));
  const toggle = h('button', { type: 'button', class: 'toggle-analysis', 'aria-pressed': 'false', text: t('game.analysis') });
  const openAnalysis = h('a', { class: 'open-analysis', text: t('game.openAnalysis') });
  const message = h('p', { class: 'action-message', role: 'alert' });
  const historyTitle = h('h2');
  const moveList = h('ol', { class: 'move-list' });
  const analysisHolder = h('div', { class: 'analysis-holder' });
  main.append(h('div', { class: 'stage' },
    h('div', {}, status, boardHolder, builderHolder),
    h('div', { class: 'side' },
      banner,
      share,
      h('div', { class: 'panel game-actions' },
        h('div', { class: 'row' }, undo, ' ', redo, ' ', draw, ' ', resign),
        h('div', { class: 'row' }, toggle, ' ', openAnalysis, ' ',
          h('a', { class: 'export', download: 'lgame-game.txt', href: api.games.recordUrl(id), text: t('game.export') }), ' ',
          h('a', { class: 'new-game', href: '#/play', text: t('game.newGame') })),
        message),
      h('section', { class: 'panel history' }, historyTitle, moveList),
      analysisHolder)));

  const board = new Board(boardHolder, { label: t('board.label') });
  const ctrl = new GameCtrl(id, params, {
    frame(desc, last, animate, current) {
      board.set(desc);
      builder.setPosition(desc, false);
      if (last) {
        const cells = moveCells(last);
        board.show({ last: cells, arrive: animate ? [...cells.l, ...cells.neutrals.map((n) => n[1])] : [] });
      }
      if (ctrl.analysisOn && current) panel.update(desc, ctrl.history());
    },
    ready: (desc, mine) => builder.setPosition(desc, mine),
    redraw,
  });
  const panel = new AnalysisPanel(analysisHolder, {
    preview: (move) => builder.showPreview(move),
    play: (move) => builder.submit(move),
  });
  panel.root.hidden = true;
  const builder = moveBuilder(board, builderHolder, (move) => ctrl.move(move));

  /** The invitation panel, when this page invites a friend. */
  const invitation = ctrl.invitation();
  const presence = h('p', { class: 'presence', 'aria-live': 'polite' });
  if (invitation) {
    const link = h('input', { class: 'friend-link', readonly: true });
    link.value = invitation.link;
    const copy = button('copy', t('game.copy'));
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(invitation.link);
        ctrl.say(t('game.copied'));
      } catch {
        link.select();
        ctrl.say(t('game.copyByHand'));
      }
    });
    share.append(
      h('h2', { text: t('game.inviteTitle') }),
      presence,
      h('label', {}, h('span', { text: t('game.inviteLabel', { side: side(invitation.friend) }) }), link),
      h('div', { class: 'row' }, copy),
      h('img', { class: 'qr', src: api.qrUrl(invitation.link), alt: t('game.qrAlt') }));
  }

  function redraw() {
    message.textContent = ctrl.message;
    const state = ctrl.state;
    if (!state) return;
    const ended = state.over ? conclusion(winnerOf(state.result), state.ending, state.turn) : '';
    let text = ended;
    if (!state.over) {
      if (ctrl.myTurn()) text = t(ctrl.humanSides().length === 2 ? 'game.turnOf' : 'game.yourTurn', { side: side(state.turn) });
      else if (state.seats[state.turn] !== 'human') text = t('game.computerThinking', { side: side(state.turn) });
      else text = t('game.waitingFor', { side: side(state.turn) });
    }
    status.replaceChildren(h('span', { class: `turn-dot ${state.turn}` }), h('span', { text }));
    Object.assign(status.dataset, { turn: state.turn, plies: String(state.plies), position: state.position, over: String(state.over) });

    banner.hidden = !state.over;
    if (state.over) {
      banner.textContent = `${ended} (${state.result})`;
      Object.assign(banner.dataset, { result: state.result, ending: state.ending || '' });
    }

    moveList.replaceChildren(...ctrl.moveList().map(({ color, move }) => h('li', { class: 'mono', text: `${side(color)}: ${move}` })));
    historyTitle.textContent = t('game.moves', { count: state.plies });

    undo.disabled = !ctrl.canUndo();
    redo.disabled = !ctrl.canRedo();
    draw.textContent = ctrl.drawOffered() ? t('game.acceptDraw') : t('game.offerDraw');
    draw.disabled = !ctrl.canDraw();
    resign.disabled = !ctrl.canResign();
    openAnalysis.href = href('analyse', { variant: state.variant, position: state.start, line: state.moves.join(';'), at: state.plies });

    const invited = ctrl.invitation();
    if (invited) {
      share.hidden = false;
      presence.textContent = invited.present ? t('game.friendHere') : t('game.waitingFriend');
      presence.className = `presence ${invited.present ? '' : 'waiting'}`;
      share.dataset.friendPresent = invited.present ? 'true' : 'false';
    }
  }

  undo.addEventListener('click', () => ctrl.undo());
  redo.addEventListener('click', () => ctrl.redo());
  draw.addEventListener('click', () => ctrl.draw());
  resign.addEventListener('click', () => {
    if (confirm(t('game.confirmResign'))) ctrl.resign();
  });
  toggle.addEventListener('click', () => {
    ctrl.toggleAnalysis();
    toggle.setAttribute('aria-pressed', String(ctrl.analysisOn));
    panel.root.hidden = !ctrl.analysisOn;
    if (ctrl.analysisOn && ctrl.desc) panel.update(ctrl.desc, ctrl.history());
  });

  return ctrl.start();
}
