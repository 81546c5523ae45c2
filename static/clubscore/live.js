/* clubscore's live channel in the browser (issue 25): one small hook for every page that follows a table.
 *
 *   const follower = CS.live.follow({
 *     events: '/live/sessions/12/',   // the server-sent-event stream (ledger/web/live.py)
 *     poll: '/sessions/12/follow/rows/', // optional: a URL that answers 304 to If-None-Match: "<tag>"
 *     tag: '7.2',                     // the live tag the page already shows ("<version>.<checks version>")
 *     onChange: function (change) {}, // called once the tag moved: change.tag, .version, .checks, .hands, .status
 *     onStatus: function (state) {},  // 'live', 'reconnecting' or 'polling'
 *   });
 *   follower.seen('8.2');  // the page has caught up to this tag by itself (say, after its own write)
 *   follower.stop();
 *
 * The stream opens with the current state, so a phone that reconnects catches up at once. While the
 * stream is down (a proxy that buffers, a dropped connection), the hook polls `poll` every 5 s with
 * If-None-Match and calls onChange when it answers 200; the stream's return ends the polling. */
(function () {
  'use strict';
  const POLL_MS = 5000;

  function follow(opts) {
    let tag = opts.tag || '';
    let source = null;
    let timer = null;
    let stopped = false;
    const status = opts.onStatus || function () {};

    function changed(change) {
      if (!change || !change.tag || change.tag === tag) return;
      tag = change.tag;
      opts.onChange(change);
    }

    async function poll() {
      if (!opts.poll || document.hidden) return;
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

    function connect() {
      if (stopped || typeof EventSource !== 'function') { startPolling(); return; }
      source = new EventSource(opts.events, { withCredentials: true });
      function onEvent(ev) {
        stopPolling();
        status('live');
        let data = null;
        try { data = JSON.parse(ev.data); } catch (err) { return; }
        changed(data);
      }
      source.addEventListener('change', onEvent);
      source.addEventListener('board', onEvent);
      source.addEventListener('error', function () {
        status('reconnecting');
        startPolling();  // EventSource reconnects by itself; until it does, the page polls
        if (source.readyState === EventSource.CLOSED) {  // a 404 or a refused stream: try again later
          source = null;
          setTimeout(connect, POLL_MS);
        }
      });
    }

    document.addEventListener('visibilitychange', function () { if (!document.hidden && timer) poll(); });
    connect();
    return {
      seen: function (t) { tag = t; },
      stop: function () { stopped = true; stopPolling(); if (source) source.close(); },
      get tag() { return tag; },
    };
  }

  window.CS = window.CS || {};
  window.CS.live = { follow: follow };
})();
