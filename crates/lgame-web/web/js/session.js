// @ts-check
// Who this browser is: the account of its session (`GET /api/session`), or nobody (it plays
// under its anonymous identity, a cookie the server sets). Asked once when the page loads;
// the header and the views hear of every change (a log-in, a log-out, a closed account).

import * as api from './api.js';

/** @typedef {import('./api.js').Account} Account */

/** The account, `null` when nobody is logged in, `undefined` until the server answered. @type {Account | null | undefined} */
let current;
/** @type {Set<(account: Account | null) => void>} */
const listeners = new Set();
/** @type {Promise<Account | null> | null} */
let loading = null;

/** The account as known now (`undefined`: not asked yet). */
export function account() {
  return current;
}

/** The account, asked of the server the first time. @returns {Promise<Account | null>} */
export function load() {
  if (current !== undefined) return Promise.resolve(current);
  if (!loading) {
    loading = api.account.me().then(
      (a) => a,
      () => null, // the server unreachable: nobody logged in, as far as the page knows
    ).then((a) => {
      set(a);
      return a;
    });
  }
  return loading;
}

/**
 * Says who is logged in now (after a sign-up, log-in, log-out or a closed account).
 * @param {Account | null} next
 */
export function set(next) {
  current = next;
  loading = Promise.resolve(next);
  for (const f of listeners) f(next);
}

/**
 * Calls `f` on every change; returns a function that stops it.
 * @param {(account: Account | null) => void} f
 */
export function onChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Logs out (this session only). */
export async function logOut() {
  await api.account.logOut();
  set(null);
}
