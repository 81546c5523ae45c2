// @ts-check
/* clubscore's live channel in the browser (issue 25): one small hook for every page that follows a table.
 *
 *   const follower = CS.live.follow({
 *     events: '/live/sessions/12/',   // the server-sent-event stream (ledger/web/live.py)
 *     poll: '/sessions/12/follow/rows/', // optional: a URL that answers 304 to If-None-Match: "<tag>"
 *     tag: '7.2',                     // the live tag the page already shows ("<version>.<checks version>")
 *     onChange: function (change) {}, // called once the tag moved: change.tag, .version, .checks, .hands, .status
 *     onStatus: function (state) {},  // 'live', 'reconnecting' or 'polling'
 *     read: function () {},           // optional: the page's own read of `poll` (If-None-Match, one at a time)
 *     heartbeat: 15000,               // optional: the stream's heartbeat period in ms (its `ping` events say it too)
 *   });
 *   follower.seen('8.2');  // the page has caught up to this tag by itself (say, after its own write)
 *   follower.stop();
 *
 * The stream opens with the current state, so a phone that reconnects catches up at once. While the
 * stream is down (a proxy that buffers, a dropped connection), the hook polls `poll` every 5 s with
 * If-None-Match and calls onChange when it answers 200; the stream's return ends the polling.
 *
 * A stream can also stall with no error (a proxy that holds it, a phone that slept, a network that
 * changed): the server sends a `ping` every heartbeat, and a stream silent for two of them plus a margin
 * is closed by the watchdog, which says 'reconnecting', re-reads at once and opens a new one (issue 38,
 * item 8). The browser back online does the same at once, rather than waiting for EventSource's own
 * retries.
 *
 * A change can carry its page's fragment (`change.html`, rendered by the stream from the change's data,
 * and `change.prev`, the tag it follows: ledger/live.py). `CS.live.decide(tag, change)` says what the
 * page does with it: 'apply' it with no read when the page shows `prev`, 'skip' it when the page is
 * already there or further, 'read' once when it missed a change (a gap, a reconnect, a poll).
 *
 * window.CS.live is the object clubscoreLive() returns: its type (ClubscoreLive) is read from this code. */

/** What live.js adds to window.CS as `live`: tsc reads it from clubscoreLive's return.
 * @typedef {ReturnType<typeof clubscoreLive>} ClubscoreLive */

/** A change as the live channel relays it (ledger/live.py, ledger/web/live.py): `tag` the live tag it brings
 * the page to, `prev` the tag it follows and `html` its page's fragment, when it carries them; `polled`
 * marks the fallback poll's.
 * @typedef {{ tag?: string, version?: number, checks?: number, hands?: number, status?: string, session?: number,
 *   prev?: string, html?: string, polled?: boolean }} LiveChange */

/** What a page gives `CS.live.follow` (the example above).
 * @typedef {object} FollowOptions
 * @property {string} events the server-sent-event stream's URL
 * @property {string} tag the live tag the page shows
 * @property {string} [poll] a URL that answers 304 to If-None-Match: "<tag>", read while the stream is down
 * @property {number} [heartbeat] the stream's heartbeat in ms
 * @property {() => void} [read] the page's own read of `poll`
 * @property {(change: LiveChange) => void | Promise<void>} onChange
 * @property {(state: string) => void} [onStatus] 'live', 'reconnecting' or 'polling' */

window.CS = window.CS || /** @type {Window['CS']} */ ({}); // common.js comes first on every page; node's tests load this alone
window.CS.live = clubscoreLive();

function clubscoreLive() {
  'use strict';
  const POLL_MS = 5000;
  const HEARTBEAT_MS = 15000; // the server's default (settings.LIVE_HEARTBEAT_SECONDS)
  const MARGIN_MS = 2000;

  /** @param {FollowOptions} opts */
  function follow(opts) {
    let tag = opts.tag || '';
    /** @type {EventSource | null} */
    let source = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    let timer = null;
    let stopped = false;
    const status = opts.onStatus || function () {};
    let every = opts.heartbeat || HEARTBEAT_MS;
    /** @type {ReturnType<typeof setTimeout> | null} */
    let watchdog = null;

    /** @param {LiveChange | null} change */
    function changed(change) {
      if (!change || !change.tag || change.tag === tag) return;
      tag = change.tag;
      opts.onChange(change);
    }

    async function poll() {
      if (!opts.poll || document.hidden) return;
      if (opts.read) { opts.read(); return; } // the page's own read, one at a time: a poll and a change coalesce
      let res;
      try {
        res = await fetch(opts.poll, { credentials: 'same-origin', cache: 'no-store', headers: { 'If-None-Match': '"' + tag + '"' } });
      } catch (err) { return; }
      const etag = (res.headers.get('ETag') || '').replace(/"/g, '');
      if (res.status === 200 && etag && etag !== tag) {
        tag = etag;
        opts.onChange({ tag: etag, polled: true });
      }
    }

    function startPolling() {
      if (timer || !opts.poll) return;
      status('polling');
      timer = setInterval(poll, POLL_MS);
    }

    function stopPolling() {
      if (timer) { clearInterval(timer); timer = null; }
    }

    // No event of any kind (a change, a board, a ping) for two heartbeats: the stream is stalled.
    function watch() {
      if (watchdog) clearTimeout(watchdog);
      watchdog = stopped ? null : setTimeout(stalled, 2 * every + MARGIN_MS);
    }

    function stalled() {
      watchdog = null;
      reopen();
    }

    // A new stream, and a read at once: what was missed shows without waiting for the stream's first event.
    function reopen() {
      if (stopped) return;
      if (source) { source.close(); source = null; }
      startPolling();
      status('reconnecting');
      poll();
      connect();
    }

    function connect() {
      if (stopped || typeof EventSource !== 'function') { startPolling(); return; }
      const mine = new EventSource(opts.events, { withCredentials: true });
      source = mine;
      watch();
      /** @param {MessageEvent} ev */
      function onEvent(ev) {
        if (source !== mine) return;
        watch();
        stopPolling();
        status('live');
        let data = null;
        try { data = JSON.parse(ev.data); } catch (err) { return; }
        if (ev.type === 'ping') {
          if (data && data.every > 0 && data.every !== every) { every = data.every; watch(); }
          return;
        }
        changed(data);
      }
      mine.addEventListener('change', onEvent);
      mine.addEventListener('board', onEvent);
      mine.addEventListener('ping', onEvent);
      mine.addEventListener('error', function () {
        if (source !== mine) return;
        status('reconnecting');
        startPolling();  // EventSource reconnects by itself; until it does, the page polls
        if (mine.readyState === EventSource.CLOSED) {  // a 404 or a refused stream: try again later
          source = null;
          setTimeout(function () { if (!source) connect(); }, POLL_MS);
        }
      });
    }

    document.addEventListener('visibilitychange', function () { if (!document.hidden && timer) poll(); });
    window.addEventListener('online', reopen);
    connect();
    return {
      seen: function (/** @type {string} */ t) { tag = t; },
      stop: function () {
        stopped = true;
        stopPolling();
        if (watchdog) { clearTimeout(watchdog); watchdog = null; }
        if (source) source.close();
      },
      get tag() { return tag; },
    };
  }

  /* A live tag as numbers: "12.3" -> [12, 3]; null for anything else. */
  /** @param {string | undefined} tag @returns {[number, number] | null} */
  function parseTag(tag) {
    const m = /^(\d+)\.(\d+)$/.exec(String(tag || ''));
    return m ? [Number(m[1]), Number(m[2])] : null;
  }

  /* Whether tag `a` is later than `b`: each write moves one half by one, so the pair orders the changes. */
  /** @param {[number, number]} a @param {[number, number]} b */
  function later(a, b) {
    return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
  }

  /* What a page showing `tag` does with `change`: 'skip', 'apply' (it carries its fragment and follows
   * the page's tag) or 'read' (the page missed something: one read catches it up). */
  /** @param {string} tag @param {LiveChange | null} change @returns {'skip' | 'apply' | 'read'} */
  function decide(tag, change) {
    const now = parseTag(tag);
    const next = change ? parseTag(change.tag) : null;
    if (!next) return 'skip';
    if (now && !later(next, now)) return 'skip';
    if (change && change.html && change.prev && change.prev === tag) return 'apply';
    return 'read';
  }

  /* The same for a page that shows the deals only (the score sheet): `version` is the session's version
   * it shows; a change of the seats' words alone leaves it as it is. */
  /** @param {number} version @param {LiveChange | null} change @returns {'skip' | 'apply' | 'read'} */
  function decideVersion(version, change) {
    const next = change ? parseTag(change.tag) : null;
    if (!next) return 'skip';
    if (next[0] <= version) return 'skip';
    const prev = parseTag(change ? change.prev : undefined);
    if (change && change.html && prev && prev[0] === version && next[0] === version + 1) return 'apply';
    return 'read';
  }

  /* `read` one at a time, and once more after it when asked meanwhile: two changes close together (a
   * deal, then a ✓) started two reads, and when the older answer landed last it put the older rows back,
   * a deal behind until the next change. The returned function's `busy()` says whether a read is on its way. */
  /** @param {() => Promise<void>} read */
  function oneAtATime(read) {
    let reading = false;
    let again = false;
    async function run() {
      if (reading) { again = true; return; }
      reading = true;
      try {
        do { again = false; await read(); } while (again);
      } finally {
        reading = false;
      }
    }
    run.busy = function () { return reading; };
    return run;
  }

  /* The element `selector` of a change's fragment, or null. */
  /** @param {string} html @param {string} selector */
  function fragmentPart(html, selector) {
    const box = document.createElement('div');
    box.innerHTML = html;
    return box.querySelector(selector);
  }

  return {
    follow: follow, decide: decide, decideVersion: decideVersion, parseTag: parseTag, oneAtATime: oneAtATime, fragmentPart: fragmentPart,
  };
}
