// The server's API (docs/api.md): every rule, value and record comes from here.

/** A refused request: the server's message and status. */
export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, `the server cannot be reached (${e.message})`);
  }
  const type = response.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || String(data), data);
  }
  return data;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, v);
  }
  return q.toString();
}

/** A position laid out for drawing, its legal moves, and why cells cannot join `selected`. */
export function position(variant, position, selected = []) {
  return request('GET', `/api/position?${query({ variant, position, selected: selected.join(',') })}`);
}

/** The solver's analysis: the value and every move's, best first. */
export function analysis(variant, position) {
  return request('GET', `/api/analysis?${query({ variant, position })}`);
}

/** Symmetry classes of a variant with a value (and distance). */
export function classes(variant, value, plies) {
  return request('GET', `/api/classes?${query({ variant, value, plies })}`);
}

/** Reads a record (`{record}`) or writes a line (`{variant, start, moves}`). */
export function records(body) {
  return request('POST', '/api/records', body);
}

export function diagramUrl(variant, position, highlight) {
  return `/api/diagram?${query({ variant, position, highlight })}`;
}

export function qrUrl(text) {
  return `/api/qr?${query({ text })}`;
}

export const games = {
  create: (body) => request('POST', '/api/games', body),
  import: (body) => request('POST', '/api/games/import', body),
  get: (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}?${query({ token })}`),
  move: (id, token, ply, move) =>
    request('POST', `/api/games/${encodeURIComponent(id)}/moves`, { token, ply, move }),
  undo: (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/undo`, { token }),
  draw: (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/draw`, { token }),
  resign: (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/resign`, { token }),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
};

/**
 * Watches a game over its WebSocket: `onState` gets every state; reconnects after a drop.
 * Returns a function that stops watching.
 */
export function watch(id, token, onState, onStatus = () => {}) {
  let socket = null;
  let stopped = false;
  let retry = 500;
  const open = () => {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const q = query({ token });
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/ws${q ? '?' + q : ''}`);
    socket.onopen = () => { retry = 500; onStatus(true); };
    socket.onmessage = (event) => {
      try { onState(JSON.parse(event.data)); } catch (e) { console.error(e); }
    };
    socket.onclose = () => {
      onStatus(false);
      if (!stopped) setTimeout(open, retry = Math.min(retry * 2, 8000));
    };
  };
  open();
  return () => { stopped = true; if (socket) socket.close(); };
}
