// @ts-check
// The service worker (docs/web.md, "Without a server"): keeps the page, its modules, the
// catalog and the WebAssembly engine, so that the page, once visited, loads and plays with
// no network. The page's files are asked of the network first (a new version shows at
// once) and answered from the cache when it cannot be reached; the API is never cached
// (but the catalog, part of the page): without the server, the page asks the engine.
// Served as /assets/sw.js with `Service-Worker-Allowed: /` (and as /sw.js on a static copy).

const CACHE = 'lgame-page';

/**
 * The worker's global scope (the page's types are the document's: typed loosely here).
 * @type {any}
 */
const worker = self;

/** @param {URL} url */
function isPage(url) {
  return url.origin === worker.location.origin
    && (url.pathname === '/' || url.pathname === '/index.html' || url.pathname.startsWith('/assets/')
      || url.pathname.startsWith('/api/catalog') || url.pathname.startsWith('/@/'));
}

/**
 * @param {Request} request
 * @param {any} event the fetch event, which keeps the worker alive while the copy is stored
 */
async function answer(request, event) {
  const url = new URL(request.url);
  // A profile's address is the page itself.
  const key = url.pathname.startsWith('/@/') || url.pathname === '/index.html' ? '/' : url.pathname + url.search;
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    // Stored after the answer, not before it: the page does not wait for the cache's write.
    if (response.ok) event.waitUntil(cache.put(key, response.clone()));
    return response;
  } catch (e) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw e;
  }
}

worker.addEventListener('install', (/** @type {any} */ event) => {
  // The engine and the page itself at once; the page sends the rest it loaded (below).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(['/', '/assets/engine/lgame.wasm'])));
  worker.skipWaiting();
});

worker.addEventListener('activate', (/** @type {any} */ event) => {
  event.waitUntil(worker.clients.claim());
});

worker.addEventListener('fetch', (/** @type {any} */ event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || !isPage(url)) return;
  event.respondWith(answer(event.request, event));
});

// The page names the files it loaded before this worker controlled it: kept too.
worker.addEventListener('message', (/** @type {any} */ event) => {
  const urls = event.data && Array.isArray(event.data.keep) ? event.data.keep : [];
  const wanted = urls.map((/** @type {string} */ u) => new URL(u, worker.location.origin)).filter(isPage);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(wanted.map(async (/** @type {URL} */ url) => {
    if (!(await cache.match(url.pathname + url.search))) {
      const response = await fetch(url).catch(() => null);
      if (response && response.ok) await cache.put(url.pathname + url.search, response);
    }
  }))).then(() => { if (event.source) event.source.postMessage({ kept: wanted.length }); }));
});

// Web Push (docs/deploy.md, "Push notifications"): the server's notice, decrypted by the
// browser, is JSON `{title, body, url, tag}`; shown as a notification, one a game (`tag`).
worker.addEventListener('push', (/** @type {any} */ event) => {
  /** @type {{title?: string, body?: string, url?: string, tag?: string}} */
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (e) {
    notice = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(worker.registration.showNotification(notice.title || 'L game', {
    body: notice.body || '',
    tag: notice.tag,
    icon: '/assets/icon-192.png',
    data: { url: notice.url || '/#/' },
  }));
});

/**
 * A click on a notification opens its game: a page of the site already open is shown and
 * sent there, else a new one opens. The page is sent there even where the browser refuses
 * to bring it forward (`focus` needs the click's user activation).
 * @param {any} notification
 */
async function openFrom(notification) {
  notification.close();
  const url = new URL((notification.data && notification.data.url) || '/#/', worker.location.origin).href;
  const pages = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const page = pages.find((/** @type {any} */ p) => new URL(p.url).origin === worker.location.origin);
  if (page) {
    await page.focus().catch(() => {});
    return page.navigate(url);
  }
  return worker.clients.openWindow(url);
}

worker.addEventListener('notificationclick', (/** @type {any} */ event) => {
  event.waitUntil(openFrom(event.notification));
});
