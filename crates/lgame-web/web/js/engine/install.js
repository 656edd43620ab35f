// @ts-check
// Installs the service worker (web/sw.js), which keeps the page and the engine for use
// without a network, and hands it the files this page loaded before it was in control.

import { serverless, toImport, markImported } from './local.js';
import * as api from '../api.js';

/** Registers the worker and, once it is active, names the files to keep. */
export async function installWorker() {
  if (!('serviceWorker' in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.register(serverless() ? '/sw.js' : '/assets/sw.js', { scope: '/' });
    const ready = await navigator.serviceWorker.ready;
    // Every file of the page (index.html lists them): the views not opened yet too.
    const listed = document.getElementById('lgame-files');
    const files = listed ? /** @type {string[]} */ (JSON.parse(listed.textContent || '[]')) : [];
    const urls = performance.getEntriesByType('resource').map((e) => e.name)
      .concat([location.origin + '/', location.origin + '/assets/engine/lgame.wasm'], files.map((f) => location.origin + f));
    (ready.active || registration.active)?.postMessage({ keep: urls });
  } catch (e) {
    console.warn('the page cannot be kept for use offline', e);
  }
}

/** Who hears of each game imported (a list of games open then asks again). @type {Set<() => void>} */
const imported = new Set();

/**
 * Calls `listener` after each game imported, until the function returned is called.
 * @param {() => void} listener
 */
export function onImported(listener) {
  imported.add(listener);
  return () => { imported.delete(listener); };
}

/**
 * Imports into the server the finished games played in this browser without it, once it
 * answers again (`POST /api/games/import`), its person's sides held by this browser: they
 * join this browser's games (and its account's) on the server. Unfinished ones stay here
 * until they end.
 */
export async function importKeptGames() {
  if (serverless() || !navigator.onLine) return;
  for (const { game, record } of await toImport()) {
    try {
      /** @type {import('../api.js').Color[]} */
      const hold = [];
      if (game.red === 'human') hold.push('red');
      if (game.blue === 'human') hold.push('blue');
      const created = await api.games.importRecord({ record, red: game.red, blue: game.blue, hold });
      markImported(game.id, created.id);
      for (const listener of imported) listener();
    } catch (e) {
      // The server is away again (or refuses the record): kept, and tried on the next visit.
      if (!(e instanceof api.ApiError) || e.status === 0) return;
      markImported(game.id, `refused: ${api.messageOf(e)}`);
    }
  }
}
