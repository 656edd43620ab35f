// @ts-check
// Play without a server (docs/web.md, "Without a server"): the requests the page sends the
// server about positions, analysis, the classes of a value (puzzles, learn) and games
// against the computer or between two people on this device, answered in the browser by
// the WebAssembly engine (crates/lgame-wasm) with the server's answers. api.js asks here
// when the server cannot be reached, on a static copy of the page (`cargo xtask static`),
// and always for a game kept in this browser (an id `local-…`). The rules, the values and
// the computer's moves are the engine's; here is only the bookkeeping of a game kept in
// the browser's storage.

import { instantiate } from './wasm.js';
import { read, write } from '../storage.js';

/** @typedef {import('../api-types.js').GameState} GameState */
/** @typedef {import('../types.js').Color} Color */

/** Where the engine is served (with the page, and cached by the service worker). */
export const ENGINE_URL = '/assets/engine/lgame.wasm';

/**
 * A game kept in this browser: what the engine replays it from.
 * @typedef {{
 *   id: string, created: number, variant: string, setup: string, turn_limit: number | null,
 *   red: string, blue: string, hold: Color[], seed: number, moves: string[],
 *   resigned: Color | null, imported?: string
 * }} LocalGame
 */

/**
 * An answer as the server gives one: its status and its body.
 * @typedef {{ status: number, data: any }} LocalAnswer
 */

/** @type {Promise<import('./wasm.js').Engine> | null} */
let loading = null;

/** The engine, fetched and instantiated once. */
export function engine() {
  if (!loading) {
    loading = fetch(ENGINE_URL)
      .then((r) => {
        if (!r.ok) throw new Error(`the engine cannot be loaded (${r.status})`);
        return r.arrayBuffer();
      })
      .then(instantiate);
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** Whether this is a static copy of the page (no server behind it at all). */
export function serverless() {
  return Boolean(document.querySelector('meta[name="lgame-static"]'));
}

/**
 * Whether the browser answers this request when the server cannot be reached.
 * @param {string} method
 * @param {string} path
 */
export function handles(method, path) {
  const route = new URL(path, location.origin).pathname;
  return (method === 'GET' && (route === '/api/position' || route === '/api/analysis' || route === '/api/classes'))
    || (method === 'POST' && (route === '/api/games' || route === '/api/records'));
}

/**
 * Whether a game's id is of a game kept in this browser.
 * @param {string} id
 */
export function isLocal(id) {
  return String(id).startsWith('local-');
}

/** The games kept in this browser, newest last. @returns {LocalGame[]} */
export function localGames() {
  const games = read('offlineGames');
  return Array.isArray(games) ? games : [];
}

/** @param {LocalGame[]} games */
function keep(games) {
  write('offlineGames', games);
}

/** @param {string} id */
function find(id) {
  return localGames().find((g) => g.id === id) || null;
}

/** @param {LocalGame} game */
function save(game) {
  keep(localGames().filter((g) => g.id !== game.id).concat([game]));
}

/**
 * Marks a kept game as imported into the server (its id there): it is not sent again.
 * @param {string} id
 * @param {string} imported
 */
export function markImported(id, imported) {
  const game = find(id);
  if (game) save({ ...game, imported });
}

/**
 * The finished games kept in this browser and not yet imported, each with its record.
 * @returns {Promise<{ game: LocalGame, record: string }[]>}
 */
export async function toImport() {
  const waiting = localGames().filter((g) => !g.imported);
  if (!waiting.length) return [];
  const rules = await engine();
  return waiting.flatMap((game) => {
    const answer = rules.ask({
      op: 'game', variant: game.variant, setup: game.setup, moves: game.moves,
      turn_limit: game.turn_limit, resigned: game.resigned,
    });
    return 'ok' in answer && answer.ok.over ? [{ game, record: answer.ok.record }] : [];
  });
}

/**
 * A refusal as the server's.
 * @param {number} status
 * @param {string} kind
 * @param {string} error
 * @returns {LocalAnswer}
 */
function refused(status, kind, error) {
  return { status, data: { error, kind } };
}

/**
 * The engine's answer as the server's: 200 with the answer, or the refusal (422 for an
 * illegal move or a variant too large, 400 for text it cannot read).
 * @param {import('./wasm.js').Answer} answer
 * @returns {LocalAnswer}
 */
function asServer(answer) {
  if ('ok' in answer) return { status: 200, data: answer.ok };
  const status = ['illegal_move', 'variant_too_large', 'unservable'].includes(answer.kind) ? 422 : 400;
  return { status, data: answer };
}

/** @param {string} seat */
function player(seat) {
  return seat === 'human' ? { kind: 'anonymous', name: null } : { kind: 'computer', name: seat };
}

/**
 * A kept game's state, as `GET /api/games/{id}` answers: the engine replays it (and plays
 * the computer's replies); the fields of what needs a server (clocks, ratings, offers,
 * invitations) say there is none.
 * @param {LocalGame} game
 * @returns {Promise<LocalAnswer>}
 */
async function state(game) {
  const answer = (await engine()).ask({
    op: 'game', variant: game.variant, setup: game.setup, moves: game.moves,
    red: game.red, blue: game.blue, seed: game.seed, turn_limit: game.turn_limit, resigned: game.resigned,
  });
  if (!('ok' in answer)) return asServer(answer);
  const played = answer.ok;
  if (played.moves.length !== game.moves.length) {
    game.moves = played.moves;
    save(game);
  }
  /** @type {GameState} */
  const full = {
    ...played,
    id: game.id,
    variant: game.variant,
    seats: { red: game.red, blue: game.blue },
    players: { red: player(game.red), blue: player(game.blue) },
    present: { red: true, blue: true },
    clock: null, draw_offer: null, undo_request: null, invitation: null,
    rated: false, category: null, ratings: null, accuracy: null, rematch: null, rematch_of: null,
    draw_rules: { repetition: null, turn_limit: game.turn_limit },
    your_sides: game.hold,
    you: game.hold.includes(played.turn) ? played.turn : game.hold[0],
  };
  return { status: 200, data: full };
}

/**
 * `POST /api/games` in the browser: a game against the computer or between two people on
 * this device (a friend's game needs the server).
 * @param {any} body
 * @returns {Promise<LocalAnswer>}
 */
async function create(body) {
  if (body.invite) return refused(503, 'unavailable', 'a game with a friend needs the server: it cannot be reached');
  /** @type {LocalGame} */
  const game = {
    id: `local-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`,
    created: Math.floor(Date.now() / 1000),
    variant: body.variant || 'classic',
    setup: body.setup || '',
    turn_limit: body.turn_limit || null,
    red: body.red || 'human',
    blue: body.blue || 'human',
    hold: body.hold || ['red', 'blue'],
    seed: crypto.getRandomValues(new Uint32Array(1))[0],
    moves: [],
    resigned: null,
  };
  const first = await state(game);
  if (first.status !== 200) return first;
  save(game);
  return { status: 200, data: { id: game.id, state: first.data } };
}

/**
 * A command on a kept game (`moves`, `undo`, `resign`), as the server answers it.
 * @param {LocalGame} game
 * @param {string} command
 * @param {any} body
 * @returns {Promise<LocalAnswer>}
 */
async function command(game, command, body) {
  const now = await state(game);
  if (now.status !== 200) return now;
  /** @type {GameState} */
  const current = now.data;
  /** @param {string} kind @param {string} error */
  const conflict = (kind, error) => ({ status: 409, data: { error, kind, state: current } });
  if (current.over && command !== 'record') return conflict('game_over', 'the game is over');
  if (command === 'moves') {
    if (body.ply !== current.plies + 1) return conflict('stale_move', `ply ${body.ply} is not the next (${current.plies + 1})`);
    if (body.side !== current.turn) return conflict('not_your_turn', `it is ${current.turn}'s turn`);
    const next = { ...game, moves: game.moves.concat([body.move]) };
    const answer = await state(next);
    if (answer.status === 200) save(next);
    return answer;
  }
  if (command === 'undo') {
    // Back to the person's previous turn: their last move and the computer's replies.
    /** @param {Color} side */
    const seat = (side) => (side === 'red' ? game.red : game.blue);
    const rules = await engine();
    /** The side to move after `n` plies (the engine's replay, no computer's reply). @param {number} n */
    const toMove = (n) => {
      const replay = rules.ask({ op: 'game', variant: game.variant, setup: game.setup, moves: game.moves.slice(0, n) });
      return 'ok' in replay ? replay.ok.turn : 'red';
    };
    let n = game.moves.length;
    let taken = 0;
    while (n > 0 && (taken === 0 || seat(toMove(n)) !== 'human')) {
      if (seat(toMove(n - 1)) === 'human') taken += 1;
      n -= 1;
    }
    if (!taken) return conflict('nothing_to_undo', 'there is no move to take back');
    const back = { ...game, moves: game.moves.slice(0, n) };
    save(back);
    return state(back);
  }
  if (command === 'resign') {
    const resigned = { ...game, resigned: body.side };
    const answer = await state(resigned);
    if (answer.status === 200) save(resigned);
    return answer;
  }
  return refused(503, 'unavailable', 'this needs the server, which cannot be reached');
}

/**
 * Answers a request of the server's API in the browser, or says it needs the server.
 * @param {string} method
 * @param {string} path the path and query, as api.js sends it
 * @param {any} body
 * @returns {Promise<LocalAnswer>}
 */
export async function answer(method, path, body) {
  const url = new URL(path, location.origin);
  /** @param {string} name */
  const q = (name) => url.searchParams.get(name) || undefined;
  const route = url.pathname;
  if (method === 'GET' && route === '/api/position') {
    return asServer((await engine()).ask({ op: 'position', variant: q('variant'), position: q('position'), selected: q('selected') }));
  }
  if (method === 'GET' && route === '/api/analysis') {
    return asServer((await engine()).ask({ op: 'analysis', variant: q('variant'), position: q('position') }));
  }
  if (method === 'GET' && route === '/api/classes') {
    const plies = q('plies');
    return asServer((await engine()).ask({
      op: 'classes', variant: q('variant'), value: q('value') || '',
      plies: plies === undefined ? null : /^\d+$/.test(plies) ? Number(plies) : plies,
    }));
  }
  if (method === 'POST' && route === '/api/games') return create(body || {});
  if (method === 'POST' && route === '/api/records') return asServer((await engine()).ask({ op: 'records', ...(body || {}) }));
  const game = /^\/api\/games\/([^/]+)(?:\/([a-z-]+))?$/.exec(route);
  if (game && isLocal(decodeURIComponent(game[1]))) {
    const kept = find(decodeURIComponent(game[1]));
    if (!kept) return refused(404, 'no_game', `no game ${decodeURIComponent(game[1])} is kept in this browser`);
    if (method === 'GET' && !game[2]) return state(kept);
    if (method === 'POST' && game[2]) return command(kept, game[2], body || {});
  }
  return refused(503, 'unavailable', serverless()
    ? 'this needs the game server: friends, the lobby and accounts are not part of a static copy of the page'
    : 'this needs the server, which cannot be reached');
}
