// @ts-check
// A game, drawn: the status line, the board (turned round for Blue's player, or on request)
// with its move builder and a first-move hint, the end's banner with the rematch, the
// invitation of a friend (and the link for spectators), the actions (undo, redo, draw,
// resign, flip, sound, analysis, record), the moves and the analysis panel. game/ctrl.js
// holds the game and acts on it.

import * as api from '../api.js';
import { h } from '../dom.js';
import { href } from '../address.js';
import { t, side, conclusion, winnerOf } from '../i18n.js';
import { moveCells } from '../notation.js';
import { Board } from '../ui/board.js';
import { icon } from '../ui/icons.js';
import { moveBuilder } from '../ui/move/view.js';
import { AnalysisPanel, analysisToggle } from '../ui/analysis/view.js';
import { GameCtrl, afterMove } from './ctrl.js';
import { soundOn, setSound, moveSound } from './sound.js';

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 * @param {string[]} rest the game's id
 */
export async function render(main, params, rest) {
  const id = rest[0];
  if (!id) throw new Error(t('game.noId'));

  const button = (/** @type {string} */ cls, /** @type {string} */ text) => h('button', { type: 'button', class: cls, text });
  /** A button that shows an icon, named for screen readers by `label`. */
  const iconButton = (/** @type {string} */ cls, /** @type {import('../ui/icons.js').IconName} */ name, /** @type {string} */ label) => {
    const b = h('button', { type: 'button', class: `${cls} icon-button`, 'aria-label': label, title: label });
    b.append(icon(name));
    return b;
  };
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const boardHolder = h('div', { class: 'board-holder' });
  const hint = h('p', { class: 'move-hint', hidden: true, text: t('game.hint') });
  const builderHolder = h('div', { class: 'builder' });
  const headline = h('p', { class: 'end-headline' });
  const how = h('p', { class: 'end-how' });
  const rematchButton = h('button', { type: 'button', class: 'rematch primary' });
  const rematchText = h('span', { text: t('game.rematch') });
  rematchButton.append(icon('rematch'), rematchText);
  const banner = h('div', { class: 'banner', hidden: true, role: 'alert' }, headline, how, h('div', { class: 'row' }, rematchButton));
  const share = h('div', { class: 'share panel', hidden: true });
  const undo = button('undo', t('game.undo'));
  const redo = button('redo', t('game.redo'));
  const draw = button('draw', '');
  const resign = button('resign', t('game.resign'));
  const flip = iconButton('flip', 'flip', t('game.flip'));
  const sound = iconButton('sound', soundOn() ? 'soundOn' : 'soundOff', t('game.sound'));
  // "Show analysis" / "Hide analysis": the words follow the controller's state.
  const analysis = analysisToggle(() => {
    ctrl.toggleAnalysis();
    redraw();
    if (ctrl.analysisOn && ctrl.desc) panel.update(ctrl.desc, ctrl.history());
  });
  const toggle = analysis.button;
  const openAnalysis = h('a', { class: 'open-analysis', text: t('game.openAnalysis') });
  const analysisLater = h('p', { class: 'analysis-later muted', hidden: true, text: t('game.analysisAfter') });
  const message = h('p', { class: 'action-message', role: 'alert' });
  const historyTitle = h('h2');
  const moveList = h('ol', { class: 'move-list' });
  const analysisHolder = h('div', { class: 'analysis-holder' });
  main.append(h('div', { class: 'stage' },
    h('div', {}, status, boardHolder, builderHolder, hint),
    h('div', { class: 'side' },
      banner,
      share,
      h('div', { class: 'panel game-actions' },
        h('div', { class: 'row' }, undo, ' ', redo, ' ', draw, ' ', resign),
        h('div', { class: 'row' }, flip, ' ', sound, ' ', toggle, ' ', openAnalysis, ' ',
          h('a', { class: 'export', download: 'lgame-game.txt', href: api.games.recordUrl(id), text: t('game.export') }), ' ',
          h('a', { class: 'new-game', href: '#/play', text: t('game.newGame') })),
        analysisLater,
        message),
      h('section', { class: 'panel history' }, historyTitle, moveList),
      analysisHolder)));

  // A page that moves for no side watches: its board takes no move.
  const watching = !params.get('red') && !params.get('blue');
  const board = new Board(boardHolder, { label: t('board.label'), interactive: !watching });
  builderHolder.hidden = watching;
  let flipped = false;
  let flipChosen = false;
  const setFlipped = (/** @type {boolean} */ on) => {
    flipped = on;
    board.setFlipped(on);
    flip.setAttribute('aria-pressed', String(on));
  };
  const ctrl = new GameCtrl(id, params, {
    frame(desc, last, animate, current) {
      if (!flipChosen && ctrl.state) {
        flipChosen = true;
        setFlipped(ctrl.blueView());
      }
      board.set(desc);
      builder.setPosition(desc, false);
      if (last) {
        const cells = moveCells(last);
        board.show({ last: cells, arrive: animate ? [...cells.l, ...cells.neutrals.map((n) => n[1])] : [] });
        if (animate) moveSound(ctrl.state && ctrl.state.over && current ? 'end' : 'theirs');
      }
      if (ctrl.analysisOn && current) panel.update(desc, ctrl.history());
    },
    optimistic(desc, entry) {
      board.set(afterMove(desc, entry));
      board.show({ last: { l: entry.l, neutrals: entry.neutrals } });
      moveSound('mine');
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

  /** The invitation panel, when this page invites a friend: their link, and the spectators'. */
  const invitation = ctrl.invitation();
  const presence = h('p', { class: 'presence', 'aria-live': 'polite' });
  /**
   * A link to copy, with its button.
   * @param {string} cls
   * @param {string} label
   * @param {string} url
   * @param {string} copyText the copy button's words
   */
  const linkField = (cls, label, url, copyText) => {
    const link = h('input', { class: cls, readonly: true });
    link.value = url;
    const copy = button(`copy copy-${cls}`, copyText);
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(url);
        ctrl.say(t('game.copied'));
      } catch {
        link.select();
        ctrl.say(t('game.copyByHand'));
      }
    });
    return h('div', { class: 'link-field' }, h('label', {}, h('span', { text: label }), link), h('div', { class: 'row' }, copy));
  };
  if (invitation) {
    share.append(
      h('h2', { text: t('game.inviteTitle') }),
      presence,
      linkField('friend-link', t('game.inviteLabel', { side: side(invitation.friend) }), invitation.link, t('game.copy')),
      h('img', { class: 'qr', src: api.qrUrl(invitation.link), alt: t('game.qrAlt') }),
      linkField('watch-link', t('game.watchLabel'), `${location.origin}/${href('game', {}, [id])}`, t('game.copyWatch')));
  }

  function redraw() {
    message.textContent = ctrl.message;
    const state = ctrl.state;
    if (!state) return;
    const ended = state.over ? conclusion(winnerOf(state.result), state.ending, state.turn) : '';
    let text = ended;
    if (!state.over) {
      if (ctrl.sending !== null && ctrl.vsComputer()) text = t('game.computerThinking', { side: side(state.turn === 'red' ? 'blue' : 'red') });
      else if (ctrl.watching()) text = t('game.watching', { side: side(state.turn) });
      else if (ctrl.myTurn()) text = t(ctrl.humanSides().length === 2 ? 'game.turnOf' : 'game.yourTurn', { side: side(state.turn) });
      else if (state.seats[state.turn] !== 'human') text = t('game.computerThinking', { side: side(state.turn) });
      else text = t('game.waitingFor', { side: side(state.turn) });
    }
    status.replaceChildren(h('span', { class: `turn-dot ${state.turn}` }), h('span', { text }));
    Object.assign(status.dataset, { turn: state.turn, plies: String(state.plies), position: state.position, over: String(state.over), watching: String(ctrl.watching()) });
    hint.hidden = !(ctrl.myTurn() && !ctrl.movedYet());
    // Nothing left to move once the game is over.
    builderHolder.hidden = watching || state.over;

    banner.hidden = !state.over;
    if (state.over) {
      const verdict = ctrl.verdict();
      headline.textContent = verdict ? t(`game.${verdict}`) : ended.split(':')[0];
      how.textContent = `${ended} (${state.result})`;
      Object.assign(banner.dataset, { result: state.result, ending: state.ending || '', verdict: verdict || '' });
      rematchButton.hidden = ctrl.humanSides().length === 0;
      rematchButton.disabled = !ctrl.canRematch();
      // Still here with a rematch made: the other player asked for it.
      rematchText.textContent = t(state.rematch ? 'game.joinRematch' : 'game.rematch');
    }

    moveList.replaceChildren(...ctrl.moveList().map(({ color, move }) => h('li', { class: 'mono', text: `${side(color)}: ${move}` })));
    historyTitle.textContent = t('game.moves', { count: state.plies });

    undo.disabled = !ctrl.canUndo();
    redo.disabled = !ctrl.canRedo();
    draw.textContent = ctrl.drawOffered() ? t('game.acceptDraw') : t('game.offerDraw');
    draw.disabled = !ctrl.canDraw();
    resign.disabled = !ctrl.canResign();
    for (const control of [undo, redo, draw, resign]) control.hidden = ctrl.watching();
    // Fair play: in a live game between people the solver is neither shown nor asked.
    const allowed = ctrl.analysisAllowed();
    toggle.hidden = !allowed;
    openAnalysis.hidden = !allowed;
    analysisLater.hidden = allowed;
    if (!allowed && ctrl.analysisOn) ctrl.toggleAnalysis();
    analysis.set(ctrl.analysisOn);
    panel.root.hidden = !ctrl.analysisOn;
    if (allowed) openAnalysis.href = href('analyse', { variant: state.variant, position: state.start, line: state.moves.join(';'), at: state.plies });
    else openAnalysis.removeAttribute('href');

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
  rematchButton.addEventListener('click', () => ctrl.rematch());
  flip.addEventListener('click', () => setFlipped(!flipped));
  sound.setAttribute('aria-pressed', String(soundOn()));
  sound.addEventListener('click', () => {
    setSound(!soundOn());
    sound.setAttribute('aria-pressed', String(soundOn()));
    sound.replaceChildren(icon(soundOn() ? 'soundOn' : 'soundOff'));
    if (soundOn()) moveSound('mine');
  });

  return ctrl.start();
}
