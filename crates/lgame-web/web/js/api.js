// @ts-check
// The server's API (docs/api.md): every rule, value and record comes from here. The types
// below are the answers as the page reads them.

import { query } from './address.js';
import { errorText } from './i18n.js';
import * as local from './engine/local.js';

/** @typedef {import('./types.js').Color} Color */
/** @typedef {import('./types.js').ValueName} ValueName */
/** @typedef {import('./types.js').Reason} Reason */

// The answers' types are generated from the server's OpenAPI document (api-types.js); the
// names below are the ones the page's modules use.

/** A legal move: its notation, the L's new cells, the neutral steps, the position after it. @typedef {import('./api-types.js').MoveAnswer} MoveEntry */

/** @typedef {import('./api-types.js').Pieces} Pieces */

/** @typedef {import('./types.js').Outcome} Outcome */

/**
 * `/api/position`: a position laid out for drawing, its legal moves (`moves` is null when there
 * are too many to list), and why cells cannot join `selected`.
 * @typedef {import('./api-types.js').PositionAnswer} PositionDesc
 */

/** A move's value. @typedef {import('./api-types.js').AnalysedMove} AnalysedMove */

/** `/api/analysis`: the solver's value of a position and of every move, best first. @typedef {import('./api-types.js').Analysis} Analysis */

/** `/api/classes`: symmetry classes of a solved variant with a value. @typedef {import('./api-types.js').ClassesAnswer} Classes */

/** `/api/records`: a record read, or a line written. @typedef {import('./api-types.js').RecordAnswer} RecordAnswer */

/** Who sits at a side: an account, a browser without one, a closed account, the computer, a seat nobody has taken. @typedef {import('./api-types.js').Player} Player */

/**
 * A game's state (`/api/games/ID` and its WebSocket): `players` who sits at each side,
 * `invitation` the side an open invitation is for, `your_sides` the seats the asker's
 * browser holds (in the answers to it, not in the WebSocket's messages).
 * @typedef {import('./api-types.js').GameState} GameState
 */


/** A rated game's player's rating before it, and after it once it ended. @typedef {import('./api-types.js').SeatRating} RatingChange */
/** A friend's one-time invitation: its side and address (`/#/game/ID?invite=CODE`). @typedef {import('./api-types.js').Invitation} Invitation */

/** A new game: its id, each person's seat token (for programs), the friend's invitation, its state. @typedef {import('./api-types.js').Created} CreatedGame */

/** A new game's request: `hold` the sides this browser plays, `invite` a friend's side. @typedef {import('./api-types.js').CreateRequest} CreateRequest */

/** An account. @typedef {import('./api-types.js').Account} Account */

/** A game in a list (`you`: the side of the player whose list it is). @typedef {import('./api-types.js').GameSummary} GameSummary */

/** A page of games, newest first. @typedef {import('./api-types.js').GamesPage} GamesPage */

/** A player's profile: their counts and the games they play now. @typedef {import('./api-types.js').Profile} Profile */

/** An open seek in the lobby (`mine`: this browser's). @typedef {import('./api-types.js').SeekView} SeekView */

/** A quick pairing ticket: waiting, or paired with its game. @typedef {import('./api-types.js').PairingStatus} PairingStatus */

/** A message of the lobby's live stream, by its `type`. @typedef {import('./api-types.js').LobbyMessage} LobbyMessage */

/** A rating in one category: its history, oldest first, and the accuracy of its games. @typedef {import('./api-types.js').CategoryRating} Rating */
/** A rating after one rated game. @typedef {import('./api-types.js').HistoryPoint} RatingPoint */
/** The share of moves that kept the value: the average, and the newest ten games'. @typedef {import('./api-types.js').AccuracyTrend} RatingAccuracy */
/** A player's rating in each category they played rated. @typedef {import('./api-types.js').UserRatings} Ratings */
/** A category's best players. @typedef {import('./api-types.js').Leaderboard} Leaderboard */
/** A line of the leaderboard. @typedef {import('./api-types.js').LeaderboardLine} Leader */

/** An arena in a list: its variant, clock, length, times, state and players. @typedef {import('./api-types.js').ArenaSummary} ArenaSummary */
/** A player's line in an arena's standings. @typedef {import('./api-types.js').ArenaStanding} Standing */
/** An arena with its standings and, once finished, its podium. @typedef {import('./api-types.js').ArenaView} Arena */
/** A new arena. @typedef {import('./api-types.js').ArenaRequest} ArenaRequest */
/** A bot: the server's computer level it plays, whether it is online. @typedef {import('./api-types.js').BotInfo} BotInfo */
/** A challenge to a bot: pending, declined with a reason, or its game and the challenger's seat. @typedef {import('./api-types.js').ChallengeView} Challenge */
/** A game asked of a bot. @typedef {import('./api-types.js').ChallengeRequest} ChallengeRequest */

/** A refused request: the server's message and status, and its answer (a refusal's `kind`, `input` and `reason`, a game's `state`). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {any} [body]
   */
  constructor(status, message, body) {
    super(message);
    this.status = status;
    /** @type {import('./types.js').RefusalBody & { state?: GameState } | undefined} */
    this.body = body;
  }
}

/**
 * The words of a failure in the page's language: a refused request is worded by its kind
 * (docs/api.md, "Refusals"), the server's English words kept for a kind the page does not know.
 * @param {unknown} error
 * @returns {string}
 */
export function messageOf(error) {
  return errorText(error);
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function request(method, path, body) {
  /** @type {RequestInit} */
  const init = { method };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  // A game kept in this browser, and everything on a static copy of the page, is answered
  // here by the WebAssembly engine; so is what it can answer when the server is away.
  if (local.serverless() || /^\/api\/games\/local-/.test(path)) return answeredHere(method, path, body);
  if (!navigator.onLine && local.handles(method, path)) return answeredHere(method, path, body);
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    if (local.handles(method, path)) return answeredHere(method, path, body);
    throw new ApiError(0, `the server cannot be reached (${messageOf(e)})`, { kind: 'unreachable' });
  }
  const type = response.headers.get('Content-Type') || '';
  // An answer without a body (a 204: logged out, an account closed) is null.
  const text = await response.text();
  const data = !text ? null : type.includes('json') ? JSON.parse(text) : text;
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || String(data), data);
  }
  return data;
}

/**
 * A request answered in the browser (engine/local.js), as the server would answer it.
 * @param {string} method
 * @param {string} path
 * @param {unknown} body
 */
async function answeredHere(method, path, body) {
  const { status, data } = await local.answer(method, path, body);
  if (status !== 200) throw new ApiError(status, (data && data.error) || String(data), data);
  return data;
}

/**
 * A position laid out for drawing, its legal moves, and why cells cannot join `selected`.
 * @param {string | null} variant the rules text (`null`, as a game's state may have it: classic)
 * @param {string} position
 * @param {string[]} [selected]
 * @returns {Promise<PositionDesc>}
 */
export function position(variant, position, selected = []) {
  return request('GET', `/api/position?${query({ variant, position, selected: selected.join(',') })}`);
}

/**
 * The solver's analysis: the value and every move's, best first.
 * @param {string} variant
 * @param {string} position
 * @returns {Promise<Analysis>}
 */
export function analysis(variant, position) {
  return request('GET', `/api/analysis?${query({ variant, position })}`);
}

/**
 * Symmetry classes of a variant with a value (and distance).
 * @param {string} variant
 * @param {ValueName} value
 * @param {number} [plies]
 * @returns {Promise<Classes>}
 */
export function classes(variant, value, plies) {
  return request('GET', `/api/classes?${query({ variant, value, plies })}`);
}

/**
 * Reads a record (`{record}`) or writes a line (`{variant, start, moves}`).
 * @param {{ record: string } | { variant: string, start: string, moves: string[] }} body
 * @returns {Promise<RecordAnswer>}
 */
export function records(body) {
  return request('POST', '/api/records', body);
}

/** @param {string} text */
export function qrUrl(text) {
  return `/api/qr?${query({ text })}`;
}

/** @param {string} id */
const gamePath = (id) => `/api/games/${encodeURIComponent(id)}`;

/**
 * The game requests. The page's seats are the browser's (its session or anonymous
 * identity, by cookie): a command names the `side` it is for, never a token.
 */
export const games = {
  /**
   * @param {CreateRequest} body
   * @returns {Promise<CreatedGame>}
   */
  create: (body) => request('POST', '/api/games', body),
  /**
   * @param {string} id
   * @returns {Promise<GameState>}
   */
  get: (id) => request('GET', gamePath(id)),
  /**
   * @param {string} id
   * @param {Color} side
   * @param {number} ply
   * @param {string} move
   * @param {number} [thinkMs] how long the move took the person, by this page's clock
   * @returns {Promise<GameState>}
   */
  move: (id, side, ply, move, thinkMs) => request('POST', `${gamePath(id)}/moves`, { side, ply, move, think_ms: thinkMs }),
  /**
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<GameState>}
   */
  undo: (id, side) => request('POST', `${gamePath(id)}/undo`, { side }),
  /**
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<GameState>}
   */
  draw: (id, side) => request('POST', `${gamePath(id)}/draw`, { side }),
  /**
   * Declines the other side's draw offer.
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<GameState>}
   */
  declineDraw: (id, side) => request('POST', `${gamePath(id)}/draw/decline`, { side }),
  /**
   * Takes back the other side's last move (and this side's reply to it), as they asked.
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<GameState>}
   */
  acceptUndo: (id, side) => request('POST', `${gamePath(id)}/undo/accept`, { side }),
  /**
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<GameState>}
   */
  declineUndo: (id, side) => request('POST', `${gamePath(id)}/undo/decline`, { side }),
  /**
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<GameState>}
   */
  resign: (id, side) => request('POST', `${gamePath(id)}/resign`, { side }),
  /**
   * Gives the other side more time.
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<GameState>}
   */
  giveTime: (id, side) => request('POST', `${gamePath(id)}/give-time`, { side }),
  /**
   * Claims an absent opponent's game.
   * @param {string} id
   * @param {Color} side
   * @param {'win' | 'draw'} result
   * @returns {Promise<GameState>}
   */
  claim: (id, side, result) => request('POST', `${gamePath(id)}/claim`, { side, result }),
  /**
   * Takes a seat for this browser: by a friend's invitation, or by a token (an old address).
   * @param {string} id
   * @param {{ invite: string } | { token: string }} by
   * @returns {Promise<GameState>}
   */
  seat: (id, by) => request('POST', `${gamePath(id)}/seat`, by),
  /**
   * A new invitation for the open `side` (the old link stops working).
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<Invitation>}
   */
  invitation: (id, side) => request('POST', `${gamePath(id)}/invitation`, { side }),
  /**
   * A rematch asked for this browser's `side`: the new game (colours swapped).
   * @param {string} id
   * @param {Color} side
   * @returns {Promise<CreatedGame>}
   */
  rematch: (id, side) => request('POST', `${gamePath(id)}/rematch`, { side }),
  /** @param {string} id */
  recordUrl: (id) => `${gamePath(id)}/record`,
  /**
   * Imports a game's record (a game played in this browser without the server).
   * @param {import('./api-types.js').ImportRequest} body
   * @returns {Promise<{ id: string }>}
   */
  importRecord: (body) => request('POST', '/api/games/import', body),
};

/** The account of this browser's session (docs/api.md, "Accounts"). */
/** Web Push (docs/api.md, "push notifications"). */
export const push = {
  /** @returns {Promise<import('./api-types.js').PushKey>} the server's VAPID public key */
  key: () => request('GET', '/api/push/key'),
  /**
   * This browser's subscription, for the account logged in.
   * @param {unknown} subscription `PushSubscription.toJSON()`
   */
  subscribe: (subscription) => request('POST', '/api/push/subscriptions', subscription),
  /** @param {string} endpoint */
  unsubscribe: (endpoint) => request('DELETE', '/api/push/subscriptions', { endpoint }),
};

export const account = {
  /** @returns {Promise<Account | null>} who is logged in: null when nobody */
  me: () => request('GET', '/api/session').then((/** @type {{ account: Account | null }} */ s) => s.account),
  /**
   * Signs up and logs in.
   * @param {{ username: string, password: string, email?: string }} body
   * @returns {Promise<Account>}
   */
  signUp: (body) => request('POST', '/api/account', body),
  /**
   * @param {string} username
   * @param {string} password
   * @returns {Promise<Account>}
   */
  logIn: (username, password) => request('POST', '/api/session', { username, password }),
  /** @returns {Promise<unknown>} */
  logOut: () => request('DELETE', '/api/session'),
  /**
   * Changes the password; every other session ends.
   * @param {string} password
   * @param {string} newPassword
   * @returns {Promise<Account>}
   */
  changePassword: (password, newPassword) => request('POST', '/api/account/password', { password, new_password: newPassword }),
  /**
   * Changes the account's email address (`null`: none); a link mailed to it confirms it.
   * @param {string | null} email
   * @returns {Promise<Account>}
   */
  changeEmail: (email) => request('POST', '/api/account/email', { email }),
  /**
   * Confirms an address with the code of its mailed link.
   * @param {string} code
   * @returns {Promise<unknown>}
   */
  confirmEmail: (code) => request('POST', '/api/account/email/confirm', { code }),
  /**
   * Asks for a link that sets a new password, mailed to the account's confirmed address: the
   * same answer whether or not the name or address is known.
   * @param {{ username: string } | { email: string }} who
   * @returns {Promise<unknown>}
   */
  askReset: (who) => request('POST', '/api/password-reset', who),
  /**
   * Sets a new password with a mailed link's code; every session ends, and this browser is
   * logged in with a new one.
   * @param {string} code
   * @param {string} password
   * @returns {Promise<Account>}
   */
  reset: (code, password) => request('POST', '/api/password-reset/confirm', { code, password }),
  /** @returns {Promise<import('./api-types.js').MailChoices>} what the account is mailed */
  mail: () => request('GET', '/api/account/mail'),
  /**
   * Chooses what the account is mailed.
   * @param {import('./api-types.js').MailChoices} choices
   * @returns {Promise<import('./api-types.js').MailChoices>}
   */
  chooseMail: (choices) => request('PUT', '/api/account/mail', choices),
  /** @returns {Promise<{ ended: number }>} every other session ended */
  endOtherSessions: () => request('DELETE', '/api/account/sessions'),
  /** @returns {Promise<import('./api-types.js').Sessions>} */
  sessions: () => request('GET', '/api/account/sessions'),
  /** @param {string} id */
  endSession: (id) => request('DELETE', `/api/account/sessions/${encodeURIComponent(id)}`),
  /**
   * Closes the account.
   * @param {string} password
   * @returns {Promise<unknown>}
   */
  close: (password) => request('DELETE', '/api/account', { password }),
  /**
   * This browser's games (its account's, or its anonymous identity's), unfinished ones too.
   * @param {number} page
   * @returns {Promise<GamesPage>}
   */
  games: (page) => request('GET', `/api/account/games?${query({ page })}`),
  /** All of one's data, as a file. */
  exportUrl: '/api/account/export',
};

/** @param {string} name */
const userPath = (name) => `/api/users/${encodeURIComponent(name)}`;

export const users = {
  /**
   * @param {string} name
   * @returns {Promise<Profile>}
   */
  profile: (name) => request('GET', userPath(name)),
  /**
   * @param {string} name
   * @param {{ page?: number, result?: string, variant?: string, opponent?: string }} filters
   * @returns {Promise<GamesPage>}
   */
  games: (name, filters) => request('GET', `${userPath(name)}/games?${query(filters)}`),
  /**
   * The player's rating in each category they played rated games of.
   * @param {string} name
   * @returns {Promise<Ratings>}
   */
  ratings: (name) => request('GET', `${userPath(name)}/ratings`),
};

/**
 * A category's best players.
 * @param {string} category
 * @returns {Promise<Leaderboard>}
 */
export function leaderboard(category) {
  return request('GET', `/api/leaderboard/${encodeURIComponent(category)}`);
}

/** The bots, and challenges to them (docs/bots.md). */
export const bots = {
  /** @returns {Promise<{ bots: BotInfo[] }>} */
  list: () => request('GET', '/api/bots'),
  /**
   * @param {string} name
   * @param {ChallengeRequest} body
   * @returns {Promise<Challenge>}
   */
  challenge: (name, body) => request('POST', `/api/challenges/${encodeURIComponent(name)}`, body),
  /**
   * @param {string} id
   * @returns {Promise<Challenge>}
   */
  status: (id) => request('GET', `/api/challenges/${encodeURIComponent(id)}`),
  /**
   * @param {string} id
   * @returns {Promise<unknown>}
   */
  cancel: (id) => request('DELETE', `/api/challenges/${encodeURIComponent(id)}`),
};

/** @param {string} id */
const arenaPath = (id) => `/api/arenas/${encodeURIComponent(id)}`;

/** The arenas (docs/api.md, "Arenas"). */
export const arenas = {
  /** @returns {Promise<{ arenas: ArenaSummary[] }>} */
  list: () => request('GET', '/api/arenas'),
  /**
   * @param {string} id
   * @returns {Promise<Arena>}
   */
  get: (id) => request('GET', arenaPath(id)),
  /**
   * @param {ArenaRequest} body
   * @returns {Promise<Arena>}
   */
  create: (body) => request('POST', '/api/arenas', body),
  /**
   * @param {string} id
   * @returns {Promise<unknown>}
   */
  join: (id) => request('POST', `${arenaPath(id)}/join`, {}),
  /**
   * @param {string} id
   * @returns {Promise<unknown>}
   */
  leave: (id) => request('POST', `${arenaPath(id)}/leave`, {}),
};

/**
 * A game's WebSocket message applied to the state before it (docs/api.md): a `state`
 * replaces it; a `change` keeps the first `from` plies, adds its own and sets the rest.
 * @param {GameState | null} state
 * @param {any} message
 * @returns {GameState}
 */
export function applyMessage(state, message) {
  const { type, ...fields } = message;
  if (type === 'state' || !state) return /** @type {GameState} */ (fields);
  const { from, moves, positions, ...rest } = fields;
  return {
    ...state,
    ...rest,
    moves: state.moves.slice(0, from).concat(moves),
    positions: state.positions.slice(0, from).concat(positions),
  };
}

/** The close code of a WebSocket the server ended on purpose (docs/server.md). */
const ENDED_BY_SERVER = 4001;

/**
 * A WebSocket of this server's at `path` (as this browser: its cookies), each message's JSON
 * given to `onMessage`; reconnects after a drop (not after the server ended it). Returns a function that stops it, and one
 * that opens it again at once (after the browser got a cookie).
 * @param {string} path
 * @param {(message: any) => void} onMessage
 */
function stream(path, onMessage) {
  /** @type {WebSocket | null} */
  let socket = null;
  let stopped = false;
  let retry = 500;
  const open = () => {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const opened = new WebSocket(`${scheme}://${location.host}${path}`);
    socket = opened;
    opened.onopen = () => { retry = 500; };
    opened.onmessage = (event) => {
      try { onMessage(JSON.parse(event.data)); } catch (e) { console.error(e); }
    };
    opened.onclose = (event) => {
      // 4001: the server ended it (a newer page of this client took its place, or the
      // session or token was revoked): coming back would push out another page.
      if (event.code === ENDED_BY_SERVER) stopped = true;
      if (!stopped && socket === opened) setTimeout(open, retry = Math.min(retry * 2, 8000));
    };
  };
  open();
  return {
    stop: () => { stopped = true; if (socket) socket.close(); },
    reopen: () => { const old = socket; open(); if (old) old.close(); },
  };
}

/**
 * Watches a game over its WebSocket (as this browser: its cookie says its seats): `onState`
 * gets every state (each change applied to the state before it); reconnects after a drop.
 * Returns a function that stops watching.
 * @param {string} id
 * @param {(state: GameState) => void} onState
 * @returns {() => void}
 */
export function watch(id, onState) {
  // A game kept in this browser changes only by this page's own requests.
  if (local.isLocal(id)) return () => {};
  /** @type {GameState | null} */
  let state = null;
  return stream(`${gamePath(id)}/ws`, (message) => {
    state = applyMessage(message.type === 'state' ? null : state, message);
    onState(state);
  }).stop;
}

/** The lobby (docs/api.md, "The lobby"): seeks, quick pairing, and its live stream. */
export const lobby = {
  /**
   * @param {{ clock: object, colour?: string, variant?: string, rated?: boolean, rating_range?: [number, number] }} body
   * @returns {Promise<{ id: string, token: string, seek: SeekView }>}
   */
  seek: (body) => request('POST', '/api/seeks', body),
  /** @param {string} id */
  withdraw: (id) => request('DELETE', `/api/seeks/${encodeURIComponent(id)}`),
  /**
   * Takes a seek: the game made.
   * @param {string} id
   * @returns {Promise<CreatedGame>}
   */
  accept: (id) => request('POST', `/api/seeks/${encodeURIComponent(id)}/accept`, {}),
  /**
   * Waits in quick pairing's pool for `control` (`3+0`, `1d`, …), rated (accounts only) or casual.
   * @param {string} control
   * @param {boolean} [rated]
   * @returns {Promise<PairingStatus>}
   */
  pair: (control, rated) => request('POST', '/api/pairing', { control, rated: rated || undefined }),
  /**
   * @param {string} ticket
   * @returns {Promise<PairingStatus>}
   */
  ticket: (ticket) => request('GET', `/api/pairing/${encodeURIComponent(ticket)}`),
  /** @param {string} ticket */
  leave: (ticket) => request('DELETE', `/api/pairing/${encodeURIComponent(ticket)}`),
  /**
   * The live stream: every message to `onMessage`.
   * @param {(message: LobbyMessage) => void} onMessage
   */
  watch: (onMessage) => stream('/api/lobby/ws', onMessage),
};
