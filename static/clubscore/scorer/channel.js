// @ts-check
/* The live channel (issue 25): another phone's deal or a seat's dispute shows at once, not at the poll.
 * It re-reads the session, its hands and its checks; the form the scorer is entering is left as it is
 * (a deal number that moved on is said by the form's own conflict logic, as after the poll). The page
 * also polls the session, and retries the waiting deals while the network is back. */
import { CS, POLL_MS, QKEY, RETRY_MS, cfg, loadQueue, state } from './context.js';
import { schedulePreview } from './preview.js';
import { flush } from './record.js';
import { loadChecks, refresh } from './server.js';
import { render, renderStatus } from './view.js';

/** @type {{ seen(tag: string): void } | null} */
let live = null;

/* The page's own live tag, once it has read the session after its own write: the stream's echo of it is
 * not read again. */
export function caughtUp() {
  if (live && state.session) live.seen(state.session.version + '.' + state.checks);
}

export function follow() {
  window.addEventListener('online', function () { state.online = true; renderStatus(); flush(); });
  window.addEventListener('offline', function () { state.online = false; render(); });
  window.addEventListener('storage', function (e) { if (e.key === QKEY) render(); });

  setInterval(function () {
    const q = loadQueue();
    if (q.length && !q[0].problem && !state.sending && state.mode !== 'fix') flush();
  }, RETRY_MS);

  setInterval(async function () {
    if (state.sending || state.busy || document.hidden) return;
    const res = await CS.api('GET', cfg.api.session);
    if (res.networkError || res.offlineCopy) { if (state.online) { state.online = false; render(); } return; }
    if (!state.online) { state.online = true; flush(); }
    if (res.ok && state.session && res.data.version !== state.session.version) {
      await refresh();
      render();
      schedulePreview();
    }
  }, POLL_MS);

  live = CS.live.follow({
    events: cfg.live.events,
    tag: cfg.live.tag,
    onChange: async function (change) {
      if (change.checks !== undefined && change.checks !== state.checks) {
        state.checks = change.checks;
        await loadChecks();
      }
      if (state.sending || state.busy) return; // the page's own write reads and shows everything after it
      if (state.session && change.version !== undefined && change.version !== state.session.version) {
        await refresh();
        await loadChecks(); // an amend or undo from another phone clears checks without moving their version
      }
      render();
      schedulePreview();
    },
  });
}
