// @ts-check
/* What the server knows, read again: the session, its sheet and hands, and the live checks (the
 * disputes); and what the service worker keeps of them so the page opens with no network. */
import { CS, cfg, names, root, state } from './context.js';
import { withRecorded } from './deal.js';

/** @type {Promise<boolean> | null} */
let reading = null; // the read on its way
/** @type {Promise<boolean> | null} */
let queued = null; // the one read after it, for every caller meanwhile

/* The session read again, one read at a time: a caller while a read is on its way gets the next read,
 * sent once that one has landed, so an answer sent earlier can never land after a later one and put an
 * older session back (two changes close together from the live channel start two reads; the follower
 * page, which read side by side, stayed a deal behind that way: follow.js).
 * @returns {Promise<boolean>} */
export function refresh() {
  if (!reading) {
    reading = readSession().finally(function () { reading = null; });
    return reading;
  }
  if (!queued) {
    /** @returns {Promise<boolean>} */
    const next = function () { queued = null; return refresh(); };
    queued = reading.then(next, next);
  }
  return queued;
}

/** @returns {Promise<boolean>} */
async function readSession() {
  const results = await Promise.all([
    CS.api('GET', cfg.api.session), CS.api('GET', cfg.api.sheet), CS.apiAll(cfg.api.hands),
  ]);
  if (results.some(function (r) { return r.networkError; })) {
    state.online = false;
    return false;
  }
  // Offline, the service worker answers with the session as last seen: shown, but not the server's now.
  const copy = results.some(function (r) { return r.offlineCopy; });
  const bad = results.find(function (r) { return !r.ok; });
  if (bad) {
    state.loadError = bad;
    if (bad.status === 401 || bad.status === 403) state.authProblem = bad;
    return false;
  }
  state.online = !copy;
  state.lastSeen = copy;
  state.loadError = null;
  state.authProblem = null;
  state.sheet = results[1].data;
  // The deals this phone saw recorded stay counted while the read is older than their answers (the
  // service worker's copy, or a read sent before them); a read as new as an answer ends its keeping.
  holdRecorded(results[0].data, results[2].data);
  const read = results[0].data ? results[0].data.version || 0 : 0;
  state.recorded = state.recorded.filter(function (a) { return (a.version || 0) > read; });
  if (!copy) keepState();
  return true;
}

/** The page's session and hands: these, moved on by the deals answered 201 that they lack (`withRecorded`).
 * @param {any} session @param {any[]} hands */
export function holdRecorded(session, hands) {
  const held = withRecorded(cfg.deals, session, hands, state.recorded);
  state.session = held.session;
  state.hands = held.hands;
}

/* The live checks: a deal is marked while one of its seats' disputes is open (not settled by the treasurer). */
export async function loadChecks() {
  const res = await CS.apiAll(cfg.api.checks);
  if (!res.ok || res.offlineCopy) return;
  /** @type {Record<number, string[]>} */
  const disputes = {};
  res.data.forEach(function (/** @type {{ state: string, outcome: string, number: number, seat: number, reason: string }} */ c) {
    if (c.state === 'disputed' && !c.outcome) (disputes[c.number] = disputes[c.number] || []).push(names[c.seat] + ': ' + c.reason);
  });
  state.disputes = disputes;
}

/* The service worker keeps this page, its files and the session's last state, so that the page opens
 * with no network. As the page loads it names them all, controlled or not: a page loaded before the
 * worker took control (claimed on its first visit) is controlled by the time this runs, and its own
 * address and scripts went past the worker. Later, a page the worker controls is kept by its reads.
 * Every module the page imports is named in it (<link rel="modulepreload">), so each one is kept. */
export function keepForOffline() {
  if (!('serviceWorker' in navigator) || !cfg.service_worker) return;
  navigator.serviceWorker.register(cfg.service_worker, { scope: '/' }).catch(function () { return null; });
  navigator.serviceWorker.addEventListener('message', function (e) {
    if (e.data && e.data.type === 'kept') root.dataset.kept = String(Number(root.dataset.kept || 0) + 1);
  });
  keepState(true);
}

/** After a 201 the page reads nothing again (record.js), so the service worker's copies of the session's
 * reads would stay a deal behind and a phone reopened offline would show the evening without it: the
 * worker is asked to keep them afresh, off the page's path (it fetches them itself, behind). */
export function keepReads() {
  if (!('serviceWorker' in navigator) || !cfg.service_worker) return;
  const urls = [cfg.api.session, cfg.api.sheet, cfg.api.hands + '?page_size=200'];
  navigator.serviceWorker.ready.then(function (reg) {
    if (reg.active) reg.active.postMessage({ type: 'keep', urls: urls });
  });
}

/** @param {boolean} [always] */
function keepState(always) {
  if (!('serviceWorker' in navigator) || !cfg.service_worker || (!always && navigator.serviceWorker.controller)) return;
  const urls = [location.pathname, cfg.api.session, cfg.api.sheet, cfg.api.hands + '?page_size=200'].concat(
    Array.from(document.querySelectorAll('script[src], link[rel="stylesheet"], link[rel="modulepreload"]')).map(function (n) {
      return /** @type {HTMLScriptElement} */ (n).src || /** @type {HTMLLinkElement} */ (n).href;
    }));
  navigator.serviceWorker.ready.then(function (reg) {
    if (reg.active) reg.active.postMessage({ type: 'keep', urls: urls });
  });
}
