// @ts-check
/* Following a table (a member, a seat link) and the room board: a change the live channel (live.js)
 * carries is applied as it comes (its deals and the table now, rendered by the stream); a page that
 * missed one, and the board, read the fragment and swap it in. On a phone with a seat: ✓ and "That's
 * not right". */
(function () {
  'use strict';
  /** The page's own data: its stream, its rows' URL, the tag it shows, the seat's ✓ and dispute URLs.
   * @type {{events: string, rows: string, tag: string, heartbeat?: number, seat?: number | null, confirm: string, dispute: string}} */
  const config = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('follow-config')).textContent || '{}');
  const statusLine = document.getElementById('live-status');
  /** @type {Record<string, string>} */
  const STATUS = {
    live: gettext('Live: deals appear as they are recorded.'),
    reconnecting: gettext('Reconnecting…'),
    polling: gettext('Reconnecting: the page checks for new deals every few seconds.'),
    held: gettext('New deals show once you send or close “That\'s not right”.'),
    closed: gettext('Closed.'),
  };
  const board = document.body.classList.contains('board-page');
  /** @type {Record<string, string>} */
  const BOARD_STATUS = { live: gettext('Live'), reconnecting: gettext('Reconnecting…'), polling: gettext('Reconnecting…') };
  const RETRY_MS = 10000; // a ✓ kept on the phone is tried again this often while the browser says it is online
  let linkStatus = 'live'; // what the live hook last said
  let missed = false; // a change came while a reason was being written: its rows wait for the reason
  let closed = false; // the table is closed: its result shows, nothing is live any more (issue 38, item 9)

  /** @param {HTMLElement | null} rows */
  function showClosed(rows) {
    closed = !!rows && rows.dataset.status === 'closed';
    const hint = document.getElementById('follow-hint');
    if (hint) hint.hidden = closed;
  }
  showClosed(document.getElementById('follow-rows'));

  function showStatus() {
    const said = board ? BOARD_STATUS[linkStatus] : STATUS[closed ? 'closed' : missed ? 'held' : linkStatus];
    if (statusLine && said && statusLine.textContent !== said) {
      statusLine.textContent = said;
    }
  }

  /* A reason for "That's not right" being written: open, and changed (or with the cursor in it). The rows
   * are not swapped under it, which would wipe it, even when the cursor has left it for a moment. */
  function writing() {
    return Array.prototype.some.call(document.querySelectorAll('#follow-rows form.why:not([hidden])'), function (/** @type {HTMLFormElement} */ form) {
      const input = /** @type {HTMLInputElement} */ (form.querySelector('input'));
      return input.value !== input.defaultValue || (form.contains(document.activeElement) && input.value !== '');
    });
  }

  // One read of the rows at a time, and one more after it when the table moved meanwhile (live.js).
  const refresh = window.CS.live.oneAtATime(readRows);

  async function readRows() {
    const holder = /** @type {HTMLElement} */ (document.getElementById('follow-rows'));
    let res;
    try {
      res = await fetch(config.rows, { credentials: 'same-origin', cache: 'no-store', headers: { 'If-None-Match': '"' + holder.dataset.tag + '"' } });
    } catch (err) {
      // Not read (the network went as the change came): the page is where its rows say, so that the
      // next poll, the stream's return or the browser back online reads them again (issue 38, item 8).
      follower.seen(holder.dataset.tag || '');
      return;
    }
    if (res.status !== 200) { if (res.status !== 304) follower.seen(holder.dataset.tag || ''); return; }
    const box = document.createElement('div');
    box.innerHTML = await res.text();
    const fresh = /** @type {HTMLElement | null} */ (box.querySelector('#follow-rows'));
    if (!fresh) return;
    if (writing()) { missed = true; showStatus(); return; } // shown once the reason is sent or closed
    missed = false;
    showClosed(fresh);
    showStatus();
    holder.replaceWith(fresh);
    if (window.CS.localise) window.CS.localise(fresh);
    follower.seen(fresh.dataset.tag || '');
  }

  /* A change that carries its fragment, applied to the rows shown: the deals it carries replace theirs
   * (or come in at their place, the last first), the deals after the session's last go (an undo), the
   * table now is replaced. False when it cannot be (the page is not the one it was rendered for). */
  /** @param {LiveChange} change */
  function applyFollow(change) {
    const holder = document.getElementById('follow-rows');
    const fresh = window.CS.live.fragmentPart(change.html || '', '#follow-rows');
    const hands = change.hands || 0;
    if (!fresh || !holder) return false;
    const list = holder.querySelector('ol.follow-deals');
    const state = holder.querySelector('.follow-state');
    const freshState = fresh.querySelector('.follow-state');
    if (!list || !state || !freshState) return false;
    state.replaceWith(freshState);
    fresh.querySelectorAll(/** @type {'li'} */ ('li.follow-deal')).forEach(function (li) {
      const n = Number(li.dataset.deal);
      const old = document.getElementById('deal-' + n);
      if (old && list.contains(old)) { old.replaceWith(li); return; }
      const after = Array.from(list.querySelectorAll(/** @type {'li'} */ ('li.follow-deal'))).find(function (x) { return Number(x.dataset.deal) < n; });
      list.insertBefore(li, after || null);
    });
    list.querySelectorAll(/** @type {'li'} */ ('li.follow-deal')).forEach(function (li) { if (Number(li.dataset.deal) > hands) li.remove(); });
    const empty = list.querySelector('li.muted');
    if (hands > 0 && empty) empty.remove();
    if (hands === 0 && !list.querySelector('li')) {
      const none = fresh.querySelector('ol.follow-deals li.muted');
      if (none) list.appendChild(none);
    }
    holder.dataset.tag = change.tag || '';
    if (window.CS.localise) window.CS.localise(holder);
    return true;
  }

  /** @param {LiveChange} change */
  function onChange(change) {
    if (board) { refresh(); return; } // the board reads: its panels say more than a change carries
    const holder = document.getElementById('follow-rows');
    const how = window.CS.live.decide((holder && holder.dataset.tag) || '', change);
    if (how === 'skip') return;
    if (how === 'apply' && !refresh.busy()) {
      if (writing()) { missed = true; showStatus(); return; } // shown once the reason is sent or closed
      if (applyFollow(change)) { follower.seen(change.tag || ''); return; }
    }
    refresh();
  }

  const follower = window.CS.live.follow({
    events: config.events,
    poll: config.rows,
    tag: config.tag,
    heartbeat: config.heartbeat,
    onChange: onChange,
    read: refresh,
    onStatus: function (/** @type {string} */ state) {
      linkStatus = state;
      showStatus();
      if (state === 'live') retryChecks();
    },
  });
  /** @type {any} */ (window.CS).follower = follower; // for the tests' eyes

  /** @param {string} url @param {unknown} body @param {HTMLFormElement | null} form */
  async function say(url, body, form) {
    const res = await window.CS.api('POST', url, body);
    if (!res.ok && form) {
      const err = /** @type {HTMLElement} */ (form.querySelector('.ferr'));
      const fields = (res.data && res.data.error && res.data.error.fields) || {};
      err.textContent = (fields.reason && fields.reason[0]) || (res.data && res.data.error ? res.data.error.message : gettext('Not sent: check the network and try again.'));
      return;
    }
    if (!res.ok) return;
    if (form) { form.hidden = true; if (document.activeElement instanceof HTMLElement) document.activeElement.blur(); }
    if (linkStatus !== 'live') refresh(); // live, the stream brings the change with its rows
  }

  /* A ✓ that did not reach the server (issue 38, item 8): said under the status line, outside the rows
   * (which are swapped), and kept: sent again once the network or the stream is back, or the next time
   * the player taps. A refusal (a revoked link, a closed table) is said and not sent again. */
  /** @type {Map<string, {again: boolean, said: string}>} */
  const waiting = new Map(); // deal number -> {said: what the page says of its ✓, again: sent again by itself}
  /** @type {HTMLElement | null} */
  let checkNote = null;
  function showChecks() {
    if (!checkNote) {
      checkNote = document.createElement('p');
      checkNote.id = 'check-status';
      checkNote.className = 'check-status';
      checkNote.setAttribute('role', 'alert');
      const above = statusLine || document.querySelector('h1');
      if (above) above.insertAdjacentElement('afterend', checkNote); else document.body.prepend(checkNote);
    }
    const lines = Array.from(waiting.values(), function (w) { return w.said; });
    checkNote.hidden = lines.length === 0;
    checkNote.textContent = lines.join(' ');
  }

  /** @param {string} n the deal's number, as the page says it */
  async function confirm(n) {
    const res = await window.CS.api('POST', config.confirm.replace('{n}', n), {});
    if (res.ok) {
      waiting.delete(n);
      showChecks();
      if (linkStatus !== 'live') refresh(); // live, the stream brings the change with its rows
      return;
    }
    if (res.networkError || res.status === 0 || res.status >= 500) {
      waiting.set(n, { again: true, said: interpolate(gettext('Your ✓ on deal %(n)s is not sent yet: it is sent again as soon as the network is back.'), { n: n }, true) });
    } else if (res.status === 404 || res.status === 403 || res.status === 401) {
      waiting.set(n, { again: false, said: interpolate(gettext('Your ✓ on deal %(n)s was not taken: this link no longer works. Ask the scorer for a new one.'), { n: n }, true) });
    } else {
      const why = res.data && res.data.error ? res.data.error.message : '';
      waiting.set(n, { again: false, said: interpolate(gettext('Your ✓ on deal %(n)s was not taken: %(why)s'), { n: n, why: why }, true) });
    }
    showChecks();
  }

  let retrying = false;
  async function retryChecks() {
    if (retrying) return;
    retrying = true;
    try {
      for (const n of Array.from(waiting.keys())) {
        const w = waiting.get(n);
        if (w && w.again) await confirm(n);
      }
    } finally {
      retrying = false;
    }
  }
  window.addEventListener('online', retryChecks);
  setInterval(function () { if (waiting.size && navigator.onLine) retryChecks(); }, RETRY_MS);

  if (config.seat === null || config.seat === undefined) return;
  document.addEventListener('click', function (ev) {
    const button = ev.target instanceof Element ? /** @type {HTMLButtonElement | null} */ (ev.target.closest('.deal-actions button[data-action]')) : null;
    if (!button) return;
    const n = /** @type {HTMLElement} */ (button.closest('.deal-actions')).dataset.deal || '';
    if (button.dataset.action === 'confirm') {
      confirm(n);
    } else {
      const form = /** @type {HTMLFormElement} */ (document.getElementById('why-' + n));
      form.hidden = !form.hidden;
      button.setAttribute('aria-expanded', String(!form.hidden));
      if (!form.hidden) /** @type {HTMLInputElement} */ (form.querySelector('input')).focus();
      else if (missed) refresh(); // closed: the deals that waited for it show now
    }
  });
  document.addEventListener('submit', function (ev) {
    const form = ev.target instanceof Element ? /** @type {HTMLFormElement | null} */ (ev.target.closest('form.why')) : null;
    if (!form) return;
    ev.preventDefault();
    const n = /** @type {HTMLElement} */ (form.closest('.deal-actions')).dataset.deal || '';
    say(config.dispute.replace('{n}', n), { reason: /** @type {HTMLInputElement} */ (form.querySelector('input')).value }, form);
  });
})();
