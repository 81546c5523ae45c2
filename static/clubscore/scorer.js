// @ts-check
/* The scorer page: enter a deal, preview its payments (the server's stateless settle), record it.
 *
 * Offline at the table: every deal is first written to localStorage with its Idempotency-Key and the
 * number the scorer believes is next, then sent in order; a deal leaves the queue only when the server
 * has answered for it. A lost answer is retried with the same key and body, so the server records it
 * once. A refusal (a conflict with another phone, a closed session, a broken rule) stops the queue and
 * is shown until the scorer decides; nothing is dropped silently.
 *
 * The browser never computes a payment: previews and balances come from the server; nor a rule of
 * Boston: what a deal may be comes from the server's legal shape (`ledger.selectors.deal_legal`).
 *
 * This entry only wires the page (an ES module, no build step). Its parts are modules under scorer/,
 * each `// @ts-check` and checked with `tsc --noEmit`; the ones without a DOM are unit-tested with
 * `node --test tests/js/`: the queue, the count pad, the form's derivation (derive.js), the deal and
 * its shape (deal.js), the sheets settled (sheet.js); the form (form.js), the preview (preview.js),
 * recording, amend and undo (record.js), conflicts (conflict.js), the page around them (view.js), the
 * server's reads (server.js) and the live channel (channel.js). The modules are layered with no circle:
 * a lower one calls a higher one only through bus.js, whose calls this entry connects (bus.js draws the
 * layers; bin/import-circles.mjs checks them in bin/test). The page names every module in a
 * <link rel="modulepreload">, so the service worker keeps each one for offline.
 */
import { $, $maybe, form, state } from './scorer/context.js';
import { connect } from './scorer/bus.js';
import { moveRareFields } from './scorer/form.js';
import { preview, schedulePreview } from './scorer/preview.js';
import { flush, onRecord, onUndo, startAmend } from './scorer/record.js';
import { keepForOffline, loadChecks, refresh } from './scorer/server.js';
import { caughtUp, follow } from './scorer/channel.js';
import { showConflict } from './scorer/conflict.js';
import { disarmUndo, openDeals, render, renderStatus } from './scorer/view.js';

// The modules' calls upward (bus.js), each to its module, before anything runs.
connect({ render, renderStatus, disarmUndo, preview, schedulePreview, flush, onUndo, startAmend, showConflict, caughtUp });

moveRareFields();
if (form) {
  $('record').addEventListener('click', onRecord);
  form.addEventListener('submit', function (e) { e.preventDefault(); onRecord(); });
  // While a deal is on its way the form still shows it, as it was sent: a tap meanwhile (a bid, a count,
  // how the deal ended, by finger or by key) changes nothing, so a refusal's words stand beside what was
  // refused and the next deal starts on a clean form. Caught before any button's own handler.
  form.addEventListener('click', function (e) { if (state.busy) { e.preventDefault(); e.stopPropagation(); } }, true);
}
const amendOpen = $maybe('amend-open');
if (amendOpen) amendOpen.addEventListener('click', openDeals);
const undo = $maybe('undo');
if (undo) undo.addEventListener('click', onUndo);
// The pinned bar's height: the page keeps room for it at its foot (CSS --bar-h).
const bar = $maybe('deal-bar');
if (bar && 'ResizeObserver' in window) {
  new ResizeObserver(function () {
    document.documentElement.style.setProperty('--bar-h', bar.offsetHeight + 'px');
  }).observe(bar);
}

follow();

refresh().then(async function () {
  await loadChecks();
  render();
  schedulePreview();
  flush();
  amendFromLink();
});

/** `#amend-N`, the treasurer's "Amend deal N" under a dispute (settlement page): that deal's amend opens
 * at once, when the deal list offers its Amend (the session open, the user's right, nothing queued). The
 * fragment is dropped, so a reload shows the page as usual. */
function amendFromLink() {
  const asked = /^#amend-(\d+)$/.exec(location.hash);
  if (!asked) return;
  history.replaceState(null, '', location.pathname + location.search);
  if (document.querySelector('#deal-list [data-amend="' + asked[1] + '"]')) startAmend(Number(asked[1]));
}
keepForOffline();

