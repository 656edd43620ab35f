// @ts-check
// A game, drawn: the status line, the players, the board (turned round for Blue's player, or
// on request) with its move builder and a first-move hint, the end's banner with the
// rematch, the seat an invitation offers, the invitation of a friend (and the link for
// spectators; game/seats.js draws these), what stands between two people (a draw offer, a
// request to take back, a rematch's opponent awaited; game/offers.js), the actions (undo, redo, draw,
// resign, flip, sound, analysis, record), the moves and the analysis panel. game/ctrl.js
// holds the game and acts on it.
//
// Each panel is a function of its slice of the state (`statusView`, `bannerView`, …, below),
// redrawn by dom.js's `panel` when its slice changed; `slices` cuts the state into them. The
// board, the move builder and the analysis panel are drawn by their own modules.

import * as api from '../api.js';
import { h, panel } from '../dom.js';
import { href } from '../address.js';
import { t, side, conclusion, endHeadline, winnerOf, plural, number } from '../i18n.js';
import { moveCells } from '../notation.js';
import { Board } from '../ui/board.js';
import { icon } from '../ui/icons.js';
import { moveBuilder } from '../ui/move/view.js';
import { AnalysisPanel, toggleButton } from '../ui/analysis/view.js';
import { GameCtrl, afterMove } from './ctrl.js';
import { playing } from './playing.js';
import { arenaName } from '../arena/name.js';
import { soundOn, setSound, moveSound } from './sound.js';
import { playersView, shareView, inviteView, copier } from './seats.js';
import { Clocks, clockText } from './clock.js';
import { offersView } from './offers.js';

/** @typedef {import('../api.js').Color} Color */

/**
 * What this page alone decides: the board turned round, the sounds, and whether it is asking
 * the player to confirm their resignation.
 * @typedef {{ flipped: boolean, sound: boolean, confirming: boolean }} Local
 */

/**
 * The status line: whose turn, or how it ended; its data for the tests and for styles. Its
 * square is the side to move's, the winner's once the game is over, and none for a draw or
 * an abort.
 * @param {{ turn: Color, plies: number, position: string, over: boolean, watching: boolean, text: string, dot: Color | null } | null} s
 */
function statusView(s) {
  const attrs = { class: 'status', role: 'status', 'aria-live': 'polite' };
  if (!s) return h('div', attrs);
  return h('div', {
    ...attrs, 'data-turn': s.turn, 'data-plies': s.plies, 'data-position': s.position,
    'data-over': String(s.over), 'data-watching': String(s.watching),
  }, s.dot && h('span', { class: `turn-dot ${s.dot}` }), h('span', { text: s.text }));
}

/** @param {boolean} shown */
const hintView = (shown) => h('p', { class: 'move-hint', hidden: !shown, text: t('game.hint') });

/**
 * The end's banner: what it means for this player, how, and the rematch; in an arena's game,
 * the way back to the arena instead (by itself after a countdown the player may stop).
 * @param {{ headline: string, how: string, result: string, ending: string, verdict: string, rematch: 'none' | 'off' | 'on', join: boolean, accuracy: string[],
 *   back: { url: string, seconds: number | null } | null } | null} s
 * @param {{ rematch(): void, stay(): void }} act
 */
function bannerView(s, act) {
  const back = s?.back;
  return h('div', {
    class: 'banner', hidden: !s, role: 'alert', 'data-result': s?.result, 'data-ending': s?.ending, 'data-verdict': s?.verdict,
  },
  h('p', { class: 'end-headline', text: s?.headline ?? '' }),
  h('p', { class: 'end-how', text: s?.how ?? '' }),
  h('ul', { class: 'end-accuracy', hidden: !s?.accuracy.length }, (s?.accuracy ?? []).map((line) => h('li', { text: line }))),
  h('div', { class: 'row' },
    h('button', { type: 'button', class: 'rematch primary', hidden: s?.rematch === 'none', disabled: s?.rematch === 'off', onclick: act.rematch },
      icon('rematch'), h('span', { text: t(s?.join ? 'game.joinRematch' : 'game.rematch') })),
    back && h('a', { class: 'back-to-arena button primary', href: back.url, text: t('arena.backNow') }),
    back && back.seconds !== null && h('button', { type: 'button', class: 'stay', text: t('arena.stay'), onclick: act.stay })),
  back && back.seconds !== null && h('p', { class: 'back-countdown muted', text: t('arena.backIn', { seconds: back.seconds }) }));
}

/**
 * The actions on the game, what this page shows, and the actions' message.
 * @typedef {{ watching: boolean, undo: boolean, redo: boolean, drawOffered: boolean, draw: boolean, resign: boolean, confirming: boolean,
 *   flipped: boolean, sound: boolean, allowed: boolean, analysisOn: boolean, analyse: string | null, message: string }} ActionsSlice
 * @typedef {{ undo(): void, redo(): void, draw(): void, resign(): void, confirmResign(yes: boolean): void, flip(): void, sound(): void, analysis(): void }} Actions
 * @param {ActionsSlice} s
 * @param {Actions} act
 * @param {string} recordUrl
 */
function actionsView(s, act, recordUrl) {
  const button = (/** @type {string} */ cls, /** @type {string} */ text, /** @type {boolean} */ enabled, /** @type {() => void} */ onclick) =>
    h('button', { type: 'button', class: cls, text, disabled: !enabled, hidden: s.watching, onclick });
  /** A button that shows an icon, named for screen readers by `label`. */
  const iconButton = (/** @type {string} */ cls, /** @type {import('../ui/icons.js').IconName} */ name, /** @type {string} */ label, /** @type {boolean} */ pressed, /** @type {() => void} */ onclick) =>
    h('button', { type: 'button', class: `${cls} icon-button`, 'aria-label': label, title: label, 'aria-pressed': String(pressed), onclick }, icon(name));
  return h('div', { class: 'panel game-actions' },
    h('div', { class: 'row' },
      button('undo', t('game.undo'), s.undo, act.undo), ' ',
      button('redo', t('game.redo'), s.redo, act.redo), ' ',
      button('draw', t(s.drawOffered ? 'game.acceptDraw' : 'game.offerDraw'), s.draw, act.draw), ' ',
      button('resign', t('game.resign'), s.resign && !s.confirming, act.resign)),
    // Resigning is asked in the page, beside the button: yes, or keep playing.
    h('div', { class: 'row resign-confirm', role: 'alert', hidden: !(s.confirming && s.resign) },
      h('span', { text: t('game.confirmResign') }), ' ',
      h('button', { type: 'button', class: 'resign-yes primary', text: t('game.resignYes'), onclick: () => act.confirmResign(true) }), ' ',
      h('button', { type: 'button', class: 'resign-no', text: t('game.resignNo'), onclick: () => act.confirmResign(false) })),
    h('div', { class: 'row' },
      iconButton('flip', 'flip', t('game.flip'), s.flipped, act.flip), ' ',
      iconButton('sound', s.sound ? 'soundOn' : 'soundOff', t('game.sound'), s.sound, act.sound), ' ',
      // Fair play: in a live game between people the solver is neither shown nor asked.
      toggleButton(s.analysisOn, act.analysis, !s.allowed), ' ',
      h('a', { class: 'open-analysis', hidden: !s.allowed, href: s.allowed ? s.analyse : null, text: t('game.openAnalysis') }), ' ',
      h('a', { class: 'export', download: 'lgame-game.txt', href: recordUrl, text: t('game.export') }), ' ',
      h('a', { class: 'new-game', href: '#/play', text: t('game.newGame') })),
    h('p', { class: 'analysis-later muted', hidden: s.allowed, text: t('game.analysisAfter') }),
    h('p', { class: 'action-message', role: 'alert', text: s.message }));
}

/**
 * The moves in numbered rows, Red's then Blue's (a game Blue starts has no Red move in its
 * first row).
 * @param {{ color: Color, move: string }[]} moves
 * @returns {(string | null)[][]}
 */
export function moveRows(moves) {
  /** @type {(string | null)[][]} */
  const rows = [];
  for (const { color, move } of moves) {
    const last = rows[rows.length - 1];
    if (color === 'red' || !last || last[1] !== null) rows.push([null, null]);
    rows[rows.length - 1][color === 'red' ? 0 : 1] = move;
  }
  return rows;
}

/**
 * The moves so far, a numbered row a turn: 1. Red's move, Blue's move.
 * @param {{ plies: number, moves: { color: Color, move: string }[] } | null} s
 */
function historyView(s) {
  const cell = (/** @type {string | null} */ move, /** @type {Color} */ color) =>
    h('span', { class: `mv ${color} mono`, 'aria-label': move ? `${side(color)}: ${move}` : null, text: move ?? '…' });
  return h('section', { class: 'panel history' },
    h('h2', { text: s ? t('game.moves', { count: s.plies }) : '' }),
    h('ol', { class: 'move-list game-moves' }, moveRows(s ? s.moves : []).map(([red, blue]) =>
      h('li', {}, cell(red, 'red'), blue !== null ? cell(blue, 'blue') : null))));
}

/**
 * Each side's accuracy against the solved game, in words (none: the server does not solve
 * the variant). "Red: accuracy 87 % (13 of 15 moves kept the value; 2 plies longer than the fastest win)".
 * @param {import('../api-types.js').AccuracyAnswer | null} accuracy
 */
function accuracyLines(accuracy) {
  if (!accuracy) return [];
  return /** @type {Color[]} */ (['red', 'blue']).map((color) => {
    const a = accuracy[color];
    if (a.accuracy === null) return t('game.accuracyNone', { side: side(color) });
    // Said only when the wins took longer than they had to.
    const slower = a.won_kept > 0 && a.extra_plies > 0 ? plural('game.accuracySlower', a.extra_plies) : '';
    return plural('game.accuracy', a.scored, {
      side: side(color), percent: `${number(Math.round(a.accuracy * 100))} %`, kept: number(a.kept), slower,
    });
  });
}

/**
 * What the status says: whose turn it is as this page sees it, or how the game ended.
 * @param {GameCtrl} ctrl
 * @param {import('../api.js').GameState} state
 */
function statusText(ctrl, state) {
  if (state.over) return conclusion(winnerOf(state.result), state.ending, state.turn);
  const other = state.turn === 'red' ? 'blue' : 'red';
  if (ctrl.sending !== null && ctrl.vsComputer()) return t('game.computerThinking', { side: side(other) });
  if (ctrl.watching()) return t('game.watching', { side: side(state.turn) });
  if (ctrl.myTurn()) return t(ctrl.humanSides().length === 2 ? 'game.turnOf' : 'game.yourTurn', { side: side(state.turn) });
  if (state.seats[state.turn] !== 'human') return t('game.computerThinking', { side: side(state.turn) });
  return t('game.waitingFor', { side: side(state.turn) });
}

/**
 * The players' slice: who sits where, and a rated game's category and ratings.
 * @param {import('../api.js').GameState} state
 * @param {Color[]} yours
 */
function ratedPlayers(state, yours) {
  const rated = Boolean(state.rated && state.category);
  return { players: state.players, yours, category: rated ? state.category : null, ratings: rated ? state.ratings : null };
}

/**
 * The state cut into the panels' slices.
 * @param {GameCtrl} ctrl
 * @param {Local} local
 * @param {string} watchUrl the spectators' link
 */
function slices(ctrl, local, watchUrl) {
  const state = ctrl.state;
  const text = state ? statusText(ctrl, state) : '';
  const verdict = state && state.over ? ctrl.verdict() : null;
  const invited = ctrl.invitation();
  const aborted = ctrl.aborted();
  const winner = state && state.over ? winnerOf(state.result) : null;
  const arenaPage = ctrl.arenaPage();
  return {
    offers: ctrl.offers(),
    status: state && {
      turn: state.turn, plies: state.plies, position: state.position, over: state.over, watching: ctrl.watching(), text,
      dot: state.over ? winner : state.turn,
    },
    hint: Boolean(state && ctrl.myTurn() && !ctrl.movedYet()),
    banner: state && state.over ? {
      headline: verdict ? t(`game.${verdict}`) : endHeadline(winner, state.ending),
      // An aborted game has no result to show.
      how: aborted ? text : `${text} (${state.result})`,
      result: state.result, ending: state.ending || '', verdict: verdict || (aborted ? 'aborted' : ''),
      rematch: /** @type {'none' | 'off' | 'on'} */ (!ctrl.offersRematch() ? 'none' : ctrl.canRematch() ? 'on' : 'off'),
      // Still here with a rematch made: the other player asked for it.
      join: Boolean(state.rematch),
      accuracy: aborted ? [] : accuracyLines(state.accuracy),
      back: arenaPage ? { url: arenaPage, seconds: ctrl.backIn } : null,
    } : null,
    arena: state && state.arena ? { url: href('arena', {}, [state.arena]), title: ctrl.arenaTitle } : null,
    share: invited && { ...invited, watch: watchUrl },
    players: state && state.players ? ratedPlayers(state, ctrl.humanSides()) : null,
    invite: (() => {
      const offered = ctrl.offeredSeat();
      return offered && { side: offered, text: ctrl.inviteText() };
    })(),
    actions: {
      watching: ctrl.watching(), undo: ctrl.canUndo(), redo: ctrl.canRedo(), drawOffered: ctrl.drawOffered(),
      draw: ctrl.canDraw(), resign: ctrl.canResign(), confirming: local.confirming, flipped: local.flipped, sound: local.sound,
      allowed: !state || ctrl.analysisAllowed(), analysisOn: ctrl.analysisOn,
      analyse: state && href('analyse', { variant: state.variant, position: state.start, line: state.moves.join(';'), at: state.plies }),
      message: ctrl.message,
    },
    history: state && { plies: state.plies, moves: ctrl.moveList() },
  };
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 * @param {string[]} rest the game's id
 */
export async function render(main, params, rest) {
  const id = rest[0];
  if (!id) throw new Error(t('game.noId'));
  const clocksHolder = document.createElement('div');
  const clocks = new Clocks(clocksHolder, { give: () => ctrl.giveTime(), claim: (result) => ctrl.claim(result) });
  const [status, offers, arenaNote, players, boardHolder, builderHolder, hint, banner, invite, share, actions, history, analysisHolder] =
    ['div', 'div', 'p', 'p', 'div', 'div', 'p', 'div', 'div', 'div', 'div', 'section', 'div'].map((tag) => document.createElement(tag));
  [boardHolder.className, builderHolder.className, analysisHolder.className] = ['board-holder', 'builder', 'analysis-holder'];
  // The game is put on the page once its first state is drawn: drawn piece by piece in
  // place, the players' line and the board moved the panels below them (a layout shift of
  // 0.17 on a phone).
  const stage = h('div', { class: 'stage' },
    h('div', {}, status, offers, arenaNote, players, clocksHolder, boardHolder, builderHolder, hint),
    h('div', { class: 'side' }, banner, invite, share, actions, history, analysisHolder));

  const ctrl = new GameCtrl(id, params, {
    frame: (...args) => view.frame(...args),
    optimistic: (...args) => view.optimistic(...args),
    ready: (...args) => view.ready(...args),
    redraw: () => redraw(),
  });
  // The seats first (an old address's tokens): a page that moves for no side watches, and
  // its board takes no move.
  const first = await ctrl.prepare();
  const watching = !(first.your_sides && first.your_sides.length);
  const board = new Board(boardHolder, { label: t('board.label'), interactive: !watching });
  builderHolder.hidden = watching;
  /** @type {Local} */
  const local = { flipped: false, sound: soundOn(), confirming: false };
  let flipChosen = false;
  const setFlipped = (/** @type {boolean} */ on) => {
    local.flipped = on;
    board.setFlipped(on);
    redraw();
  };
  /** @type {import('./ctrl.js').GameView} */
  const view = {
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
      if (ctrl.analysisOn && current) analysis.update(desc, ctrl.history());
    },
    optimistic(desc, entry) {
      board.set(afterMove(desc, entry));
      board.show({ last: { l: entry.l, neutrals: entry.neutrals } });
      moveSound('mine');
    },
    ready: (desc, mine) => builder.setPosition(desc, mine),
    redraw,
  };
  const analysis = new AnalysisPanel(analysisHolder, {
    preview: (move) => builder.showPreview(move),
    play: (move) => builder.submit(move),
  });
  analysis.root.hidden = true;
  const builder = moveBuilder(board, builderHolder, (move) => ctrl.move(move));

  const act = gameActions(ctrl, local, redraw, () => setFlipped(!local.flipped), analysis);
  const draw = drawers({ status, offers, hint, banner, arenaNote, players, invite, share, actions, history }, ctrl, act);
  const watchUrl = `${location.origin}/${href('game', {}, [id])}`;

  const endInView = scrollToTheEnd(banner);
  function redraw() {
    const state = ctrl.state;
    // Fair play: once the game is between people and live, the analysis closes.
    if (state && !ctrl.analysisAllowed() && ctrl.analysisOn) ctrl.toggleAnalysis();
    const s = slices(ctrl, local, watchUrl);
    draw.status(s.status);
    draw.offers(s.offers);
    draw.hint(s.hint);
    const hidden = banner.hidden;
    draw.banner(s.banner);
    endInView(state, hidden);
    draw.arena(s.arena);
    draw.players(s.players);
    draw.invite(s.invite);
    draw.share(s.share);
    draw.actions(s.actions);
    draw.history(s.history);
    clocks.update(state, ctrl.humanSides());
    // Nothing left to move once the game is over.
    builderHolder.hidden = watching || Boolean(state && state.over);
    analysis.root.hidden = !ctrl.analysisOn;
    document.title = titleOf(ctrl, clocks);
    playing.game = id;
    playing.over = !state || state.over || ctrl.humanSides().length === 0;
  }
  const titleTimer = setInterval(() => { document.title = titleOf(ctrl, clocks); }, 1000);
  redraw();
  // A game between two people that has just begun: its sound, as when pairing found it.
  const people = first.seats.red === 'human' && first.seats.blue === 'human';
  if (!first.over && first.plies === 0 && people && ctrl.humanSides().length === 1) moveSound('start');

  let unwatch = () => {};
  try {
    unwatch = await ctrl.start(first);
  } finally {
    main.append(stage);
  }
  ctrl.nameArena(arenaName);
  return () => {
    playing.game = null;
    playing.over = true;
    clearInterval(titleTimer);
    ctrl.stay();
    clocks.stop();
    unwatch();
  };
}

/**
 * The panels' drawers, each laying its slice of the state onto its element.
 * @param {Record<'status' | 'offers' | 'hint' | 'banner' | 'arenaNote' | 'players' | 'invite' | 'share' | 'actions' | 'history', HTMLElement>} at
 * @param {GameCtrl} ctrl
 * @param {Actions} act
 */
function drawers(at, ctrl, act) {
  const copy = copier((text) => ctrl.say(text));
  return {
    status: panel(at.status, statusView),
    offers: panel(at.offers, (/** @type {Parameters<typeof offersView>[0]} */ s) => offersView(s, (what, yes) => ctrl.answer(what, yes))),
    hint: panel(at.hint, hintView),
    banner: panel(at.banner, (/** @type {Parameters<typeof bannerView>[0]} */ s) => bannerView(s, { rematch: () => ctrl.rematch(), stay: () => ctrl.stay() })),
    arena: panel(at.arenaNote, (/** @type {{ url: string, title: string } | null} */ s) => arenaNoteView(s)),
    players: panel(at.players, playersView),
    invite: panel(at.invite, (/** @type {Parameters<typeof inviteView>[0]} */ s) => inviteView(s, () => ctrl.takeSeat())),
    share: panel(at.share, (/** @type {Parameters<typeof shareView>[0]} */ s) => shareView(s, { copy, renew: () => ctrl.newInvitation() })),
    actions: panel(at.actions, (/** @type {ActionsSlice} */ s) => actionsView(s, act, api.games.recordUrl(ctrl.id))),
    history: panel(at.history, historyView),
  };
}

/**
 * A game seen going on here that ends: its banner (and an arena's countdown back) scrolled
 * into view, below the board on a phone. Returns what the redraw calls with the state and
 * whether the banner was hidden before it.
 * @param {HTMLElement} banner
 */
function scrollToTheEnd(banner) {
  let sawItGoOn = false;
  return (/** @type {import('../api.js').GameState | null} */ state, /** @type {boolean} */ wasHidden) => {
    if (state && !state.over) sawItGoOn = true;
    if (state && state.over && sawItGoOn && wasHidden && !banner.hidden) {
      sawItGoOn = false;
      banner.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    }
  };
}

/**
 * What the game's buttons do.
 * @param {GameCtrl} ctrl
 * @param {Local} local
 * @param {() => void} redraw
 * @param {() => void} flip
 * @param {AnalysisPanel} analysis
 * @returns {Actions}
 */
function gameActions(ctrl, local, redraw, flip, analysis) {
  return {
    undo: () => ctrl.undo(),
    redo: () => ctrl.redo(),
    draw: () => ctrl.draw(),
    resign: () => { local.confirming = true; redraw(); },
    confirmResign: (yes) => {
      local.confirming = false;
      redraw();
      if (yes) ctrl.resign();
    },
    flip,
    sound: () => {
      setSound(!soundOn());
      local.sound = soundOn();
      redraw();
      if (local.sound) moveSound('mine');
    },
    analysis: () => {
      ctrl.toggleAnalysis();
      redraw();
      if (ctrl.analysisOn && ctrl.desc) analysis.update(ctrl.desc, ctrl.history());
    },
  };
}

/**
 * The tab's title: "Your move" and one's clock while it is this page's turn.
 * @param {GameCtrl} ctrl
 * @param {Clocks} clocks
 */
function titleOf(ctrl, clocks) {
  const state = ctrl.state;
  const mine = state && ctrl.myTurn() && ctrl.humanSides().length === 1 ? state.turn : null;
  const clock = mine && state && state.clock ? ` ${clockText(clocks.left(mine))}` : '';
  return mine ? `${t('game.titleYourMove')}${clock} · lgame` : `${t('title.game')} · lgame`;
}

/**
 * An arena's game: which arena (its name once known), and the way back to it.
 * @param {{ url: string, title: string } | null} s
 */
function arenaNoteView(s) {
  return h('p', { class: 'arena-note', hidden: !s },
    h('span', { class: 'arena-name', text: s && s.title ? t('arena.gameOf', { arena: s.title }) : t('arena.game') }), ' ',
    s && h('a', { class: 'arena-link', href: s.url, text: t('arena.backLink') }));
}
