// @ts-check
/* The live score sheet, on the live channel (live.js) as the follow page is: a deal recorded, amended or
 * undone comes with its rows (rendered by the stream for this page) and is applied as it comes; a page
 * that missed a change (a gap, a reconnect, the network back) reads the server-rendered table once. */
(function () {
  'use strict';
  const live = /** @type {HTMLElement} */ (document.getElementById('live'));
  let closed = live.dataset.status === 'closed';

  /** @param {string} state */
  function say(state) {
    if (closed) { live.textContent = gettext('Closed.'); return; }
    live.textContent = state === 'live'
      ? interpolate(gettext('Live: refreshes as deals arrive (checked %(time)s).'), { time: new Date().toLocaleTimeString(window.CS.lang) }, true)
      : gettext('Offline: the sheet refreshes when the network returns.');
  }

  /** The table this page shows (the server renders it with the page). */
  function sheetTable() { return /** @type {HTMLElement} */ (document.getElementById('sheet-table')); }

  function shown() { return Number(sheetTable().dataset.version); }

  /* The change's rows put in place: a row it carries replaces its deal's (or comes last), the rows after
   * the session's last deal go, the caption and the totals are the change's. */
  /** @param {LiveChange} change */
  function apply(change) {
    const table = sheetTable();
    const fresh = /** @type {HTMLElement | null} */ (window.CS.live.fragmentPart(change.html || '', '#sheet-table'));
    const hands = change.hands || 0;
    const body = table.querySelector('tbody');
    if (!fresh || !body) return false;
    const rows = fresh.querySelectorAll(/** @type {'tr'} */ ('tbody tr[data-deal]'));
    rows.forEach(function (tr) {
      const old = body.querySelector('tr[data-deal="' + tr.dataset.deal + '"]');
      if (old) old.replaceWith(tr); else body.appendChild(tr);
    });
    body.querySelectorAll(/** @type {'tr'} */ ('tr[data-deal]')).forEach(function (tr) { if (Number(tr.dataset.deal) > hands) tr.remove(); });
    body.querySelectorAll('tr:not([data-deal])').forEach(function (tr) { if (hands > 0) tr.remove(); });
    if (hands === 0 && !body.querySelector('tr')) {
      const none = fresh.querySelector('tbody tr');
      if (none) body.appendChild(none);
    }
    ['caption', 'tfoot'].forEach(function (part) {
      const mine = table.querySelector(part);
      const theirs = fresh.querySelector(part);
      if (mine && theirs) mine.replaceWith(theirs);
    });
    table.dataset.version = fresh.dataset.version;
    window.CS.localise(table);
    return true;
  }

  // One read at a time, and one more after it when the sheet moved meanwhile (live.js).
  const read = window.CS.live.oneAtATime(readTable);

  async function readTable() {
    const table = sheetTable();
    let res;
    try {
      res = await fetch(live.dataset.rowsUrl || '', { credentials: 'same-origin', cache: 'no-store', headers: { 'If-None-Match': '"' + tag + '"' } });
    } catch (err) { say('offline'); return; }
    if (res.status !== 200) return;
    const etag = (res.headers.get('ETag') || '').replace(/"/g, '');
    const holder = document.createElement('div');
    holder.innerHTML = await res.text();
    const fresh = holder.querySelector('#sheet-table');
    if (!fresh) return;
    table.replaceWith(fresh);
    window.CS.localise(fresh);
    if (etag) { tag = etag; follower.seen(etag); }
  }

  /** @param {string | undefined} a @param {string | undefined} b */
  function later(a, b) {
    const x = window.CS.live.parseTag(a);
    const y = window.CS.live.parseTag(b);
    return !!x && (!y || x[0] > y[0] || (x[0] === y[0] && x[1] > y[1]));
  }

  let tag = live.dataset.tag || '';
  const follower = window.CS.live.follow({
    events: live.dataset.events || '',
    poll: live.dataset.rowsUrl,
    tag: tag,
    heartbeat: Number(live.dataset.heartbeat) || undefined,
    read: read,
    onChange: function (change) {
      if (change.status) closed = change.status !== 'open';
      const how = window.CS.live.decideVersion(shown(), change);
      if (how === 'apply' && !read.busy() && apply(change)) tag = change.tag || tag;
      else if (how !== 'skip') read();
      else if (change.tag && later(change.tag, tag)) tag = change.tag; // the seats' words alone moved
      say('live');
    },
    onStatus: say,
  });
})();
