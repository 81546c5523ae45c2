// @ts-check
/* clubscore's service worker: the scorer page opens with no network.
 *
 * It keeps the last copy of every scorer page, of the static files, of the scripts' words (the catalog
 * at /jsi18n/, in the language the page was last opened in) and of the API reads the scorer makes (the
 * session, its sheet, its hands). Pages, the catalog and reads go to the network first (the catalog
 * changes with the language chosen, so a kept copy is never preferred to the server's) and fall back to
 * that copy, marked with the header X-Clubscore-Offline so the page knows it is not the server's
 * answer now; static files come from the copy and are refreshed behind. Writes (POST, PUT, DELETE)
 * are never touched: the page's own queue sends them, each with its Idempotency-Key.
 */
'use strict';

/** This file runs as the service worker (tsconfig.sw.json checks it with the worker's types). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const CACHE = 'clubscore-scorer-v1';
const SCORER_PAGE = /^\/sessions\/\d+\/score\/$/;
const SCORER_READ = /^\/api\/v1\/sessions\/\d+\/(hands\/|sheet\/)?$/;
const CATALOG = '/jsi18n/'; // Django's JavaScriptCatalog: the scripts' words in the request's language

worker.addEventListener('install', function () { worker.skipWaiting(); });

worker.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.startsWith('clubscore-') && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return worker.clients.claim(); }));
});

/** @param {Response} response */
function offlineCopy(response) {
  const headers = new Headers(response.headers);
  headers.set('X-Clubscore-Offline', '1');
  return response.blob().then(function (body) {
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

/* The network's answer, kept when it is a good one; the kept copy when the network fails. */
/** @param {Request} request */
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected) await cache.put(request, response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) return offlineCopy(kept);
    throw err;
  }
}

/** @param {Request} request */
async function keptFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  const fresh = fetch(request).then(function (response) {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  if (kept) {
    fresh.catch(function () { return null; });
    return kept;
  }
  return fresh;
}

/* A page not controlled yet (its first visit) names what to keep: its own address, its files, its reads. */
worker.addEventListener('message', function (event) {
  const data = event.data || {};
  if (data.type !== 'keep' || !Array.isArray(data.urls)) return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(data.urls.map(function (/** @type {string} */ url) {
      return fetch(url, { credentials: 'same-origin', cache: 'no-store' }).then(function (response) {
        if (response.ok && !response.redirected) return cache.put(url, response);
        return null;
      }).catch(function () { return null; });
    }));
  }).then(function () {
    if (event.source) event.source.postMessage({ type: 'kept', urls: data.urls.length });
  }));
});

worker.addEventListener('fetch', function (event) {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (SCORER_PAGE.test(url.pathname) || SCORER_READ.test(url.pathname) || url.pathname === CATALOG) {
    event.respondWith(networkFirst(request));
  } else if (url.pathname.startsWith('/static/')) {
    event.respondWith(keptFirst(request));
  }
});
