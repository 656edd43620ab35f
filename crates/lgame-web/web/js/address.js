// @ts-check
// The page's addresses (`#/view/rest?parameters`): every screen can be bookmarked, shared and
// reloaded. The router (app.js) reads them; the views write them with these functions, so
// that no view imports the router.

/**
 * A parameter's value; empty ones (`undefined`, `null`, `''`) are left out of an address.
 * @typedef {string | number | boolean | null | undefined} Param
 */

/**
 * Parameters as a query string, the empty ones left out.
 * @param {Record<string, Param>} params
 * @returns {string}
 */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  return q.toString();
}

/**
 * An address for a view with parameters.
 * @param {string} view
 * @param {Record<string, Param>} [params]
 * @param {string[]} [rest] the path after the view's name (a game's id)
 * @returns {string}
 */
export function href(view, params = {}, rest = []) {
  const q = query(params);
  return `#/${[view, ...rest].join('/')}${q ? '?' + q : ''}`;
}

/**
 * Changes the address without re-rendering the view (the view keeps its state).
 * @param {string} address
 */
export function replaceAddress(address) {
  // A whole view stays whole at its new address (`body[data-shown]`, set by the router).
  const whole = document.body.dataset.shown === location.href;
  history.replaceState(null, '', address);
  if (whole) document.body.dataset.shown = location.href;
}
