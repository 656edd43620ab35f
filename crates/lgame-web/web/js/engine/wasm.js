// @ts-check
// The WebAssembly engine's JavaScript side (crates/lgame-wasm): one request in, one answer
// out, both JSON. The module exports lgame_alloc, lgame_free, lgame_call and
// lgame_answer_len (docs/web.md, "Without a server"); nothing here knows a rule.

/**
 * The engine's exports.
 * @typedef {Object} Exports
 * @property {WebAssembly.Memory} memory
 * @property {(len: number) => number} lgame_alloc
 * @property {(ptr: number, len: number) => void} lgame_free
 * @property {(ptr: number, len: number) => number} lgame_call
 * @property {() => number} lgame_answer_len
 */

/**
 * An answer: `{ok}` or a refusal as the server words one (`{error, kind, reason}`).
 * @typedef {{ ok: any } | { error: string, kind: string, reason?: any }} Answer
 */

/** An engine ready to answer. */
export class Engine {
  /** @param {Exports} exports */
  constructor(exports) {
    this.exports = exports;
  }

  /**
   * Answers one request (`{op, …}`, crates/lgame-wasm's table).
   * @param {Record<string, unknown>} request
   * @returns {Answer}
   */
  ask(request) {
    const e = this.exports;
    const bytes = new TextEncoder().encode(JSON.stringify(request));
    const at = e.lgame_alloc(bytes.length);
    new Uint8Array(e.memory.buffer, at, bytes.length).set(bytes);
    let answer;
    try {
      answer = e.lgame_call(at, bytes.length);
    } finally {
      e.lgame_free(at, bytes.length);
    }
    // The memory may have grown during the call: read through the buffer as it is now.
    const text = new TextDecoder().decode(new Uint8Array(e.memory.buffer, answer, e.lgame_answer_len()));
    return JSON.parse(text);
  }
}

/**
 * Instantiates the engine from its bytes.
 * @param {BufferSource} bytes
 * @returns {Promise<Engine>}
 */
export async function instantiate(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, {});
  return new Engine(/** @type {Exports} */ (/** @type {unknown} */ (instance.exports)));
}
