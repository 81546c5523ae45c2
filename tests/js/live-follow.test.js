// The live channel's follower (static/clubscore/live.js, CS.live.follow): the stream, its loss and its
// return. The browser's parts it uses are stood in for here (EventSource, fetch, document, window's
// `online`) and node's mock timers move the clock: a refused stream tried again after 5 s, the poll
// while the stream is down and its end when the stream is back, a stalled stream's watchdog, the
// catch-up after a reconnect (the stream opens with the current state; one onChange per change,
// whichever of the poll and the stream brings it first), and oneAtATime's coalescing of reads.
import { test, mock, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = globalThis;
const windowEvents = new EventTarget();
globalThis.addEventListener = windowEvents.addEventListener.bind(windowEvents);
globalThis.dispatchEvent = windowEvents.dispatchEvent.bind(windowEvents);
globalThis.document = Object.assign(new EventTarget(), { hidden: false });

/** The browser's EventSource, as far as the follower uses it; each one opened is kept in `streams`. */
class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  constructor(url, init) {
    this.url = url;
    this.init = init;
    this.readyState = FakeEventSource.CONNECTING;
    this.listeners = {};
    streams.push(this);
  }
  addEventListener(type, fn) { (this.listeners[type] = this.listeners[type] || []).push(fn); }
  close() { this.readyState = FakeEventSource.CLOSED; }
  /** The server sends an event. */
  send(type, data) {
    this.readyState = FakeEventSource.OPEN;
    (this.listeners[type] || []).forEach((fn) => fn({ type, data: JSON.stringify(data) }));
  }
  /** The connection fails: EventSource retries by itself (CONNECTING), or gives up (CLOSED: a 404, a refusal). */
  fail(closed) {
    this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    (this.listeners.error || []).forEach((fn) => fn({ type: 'error' }));
  }
}
globalThis.EventSource = FakeEventSource;

let streams = [];
let fetches = [];
/** What the poll's URL answers: 304, or 200 with this tag. */
let answer = { status: 304, tag: '' };
globalThis.fetch = async (url, init) => {
  fetches.push({ url, ifNoneMatch: init.headers['If-None-Match'] });
  if (answer.status === 'offline') throw new TypeError('Failed to fetch');
  return { status: answer.status, headers: { get: (name) => (name === 'ETag' && answer.tag ? '"' + answer.tag + '"' : null) } };
};

await import('../../static/clubscore/live.js');
const { follow, oneAtATime, decide } = globalThis.CS.live;

/** Lets the promises the clock's callbacks started (a poll's fetch) settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

let followers = [];
function start(extra = {}) {
  const changes = [];
  const statuses = [];
  const follower = follow({
    events: '/live/sessions/12/', poll: '/sessions/12/follow/rows/', tag: '7.2',
    onChange: (change) => { changes.push(change); }, onStatus: (s) => { statuses.push(s); }, ...extra,
  });
  followers.push(follower);
  return { follower, changes, statuses, last: () => statuses[statuses.length - 1] };
}

beforeEach(() => {
  streams = [];
  fetches = [];
  answer = { status: 304, tag: '' };
  document.hidden = false;
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
});

afterEach(() => {
  followers.forEach((f) => f.stop());
  followers = [];
  mock.timers.reset();
});

test('the stream opens with credentials; a change is passed on once, its echo and the page\'s own write not again', () => {
  const { follower, changes, last } = start();
  assert.equal(streams.length, 1);
  assert.equal(streams[0].url, '/live/sessions/12/');
  assert.deepEqual(streams[0].init, { withCredentials: true });
  streams[0].send('change', { tag: '7.2', version: 7, checks: 2 }); // the state the page shows: nothing to do
  assert.equal(changes.length, 0);
  assert.equal(last(), 'live');
  streams[0].send('change', { tag: '8.2', prev: '7.2', version: 8 });
  streams[0].send('change', { tag: '8.2', prev: '7.2', version: 8 });
  assert.deepEqual(changes.map((c) => c.tag), ['8.2']);
  follower.seen('9.2'); // the page read after its own write
  streams[0].send('change', { tag: '9.2', prev: '8.2' });
  assert.deepEqual(changes.map((c) => c.tag), ['8.2']);
  assert.equal(follower.tag, '9.2');
  streams[0].send('board', { tag: '9.3' }); // the room board's event is a change too
  assert.deepEqual(changes.map((c) => c.tag), ['8.2', '9.3']);
});

test('a dropped stream: the page polls every 5 s with its tag until the stream is back, then stops polling', async () => {
  const { changes, statuses, last } = start();
  streams[0].send('ping', { every: 15000 });
  streams[0].fail(false); // EventSource reconnects by itself
  assert.deepEqual(statuses.slice(-2), ['reconnecting', 'polling']);
  assert.equal(streams.length, 1, 'EventSource retries itself: no second stream');
  mock.timers.tick(4999);
  await settle();
  assert.equal(fetches.length, 0);
  mock.timers.tick(1);
  await settle();
  assert.deepEqual(fetches, [{ url: '/sessions/12/follow/rows/', ifNoneMatch: '"7.2"' }]); // 304: nothing changed
  assert.equal(changes.length, 0);
  answer = { status: 200, tag: '8.2' };
  mock.timers.tick(5000);
  await settle();
  assert.deepEqual(changes, [{ tag: '8.2', polled: true }]); // decide() says: read once
  assert.equal(decide('7.2', changes[0]), 'read');
  streams[0].send('change', { tag: '8.2', version: 8 }); // back: the same change is not passed on twice
  assert.equal(changes.length, 1);
  assert.equal(last(), 'live');
  mock.timers.tick(30000); // less than the watchdog's 32 s: a stream silent that long is stalled (below)
  await settle();
  assert.equal(fetches.length, 2, 'the stream back, the poll stops');
});

test('a refused stream (closed) is opened again after 5 s, polling meanwhile, and catches up on its first event', async () => {
  const { changes, last } = start();
  streams[0].fail(true);
  assert.equal(last(), 'polling');
  mock.timers.tick(4999);
  assert.equal(streams.length, 1, 'not at once: a refused stream would be hammered');
  mock.timers.tick(1);
  assert.equal(streams.length, 2);
  streams[1].fail(true); // refused again: again 5 s later, never sooner
  mock.timers.tick(4999);
  assert.equal(streams.length, 2);
  mock.timers.tick(1);
  assert.equal(streams.length, 3);
  await settle();
  // The new stream opens with the current state: the deals missed meanwhile come as one change, without prev.
  streams[2].send('change', { tag: '10.4', version: 10, checks: 4 });
  assert.deepEqual(changes.map((c) => c.tag), ['10.4']);
  assert.equal(decide('7.2', changes[0]), 'read');
  assert.equal(last(), 'live');
  const polled = fetches.length;
  mock.timers.tick(30000);
  await settle();
  assert.equal(fetches.length, polled, 'the stream back, the poll stops');
});

test('an event from a stream replaced is ignored', () => {
  const { changes } = start();
  const old = streams[0];
  old.fail(true);
  mock.timers.tick(5000);
  old.send('change', { tag: '8.2' });
  assert.equal(changes.length, 0);
  streams[1].send('change', { tag: '8.2' });
  assert.equal(changes.length, 1);
});

test('a stalled stream (no event for two heartbeats and a margin) is closed, the page reads at once and opens another', async () => {
  const { changes, statuses } = start();
  streams[0].send('ping', { every: 15000 });
  mock.timers.tick(31999);
  assert.equal(streams.length, 1);
  answer = { status: 200, tag: '8.2' };
  mock.timers.tick(1);
  assert.equal(streams[0].readyState, FakeEventSource.CLOSED);
  assert.equal(streams.length, 2);
  assert.deepEqual(statuses.slice(-2), ['polling', 'reconnecting']);
  await settle();
  assert.equal(fetches.length, 1, 'read at once, not 5 s later');
  assert.deepEqual(changes, [{ tag: '8.2', polled: true }]);
  // The new stream's first event is the state the read brought: not passed on again.
  streams[1].send('change', { tag: '8.2', version: 8 });
  assert.equal(changes.length, 1);
});

test('the heartbeat the stream says sets the watchdog; every event feeds it', () => {
  start();
  streams[0].send('ping', { every: 1000 });
  mock.timers.tick(3000);
  streams[0].send('change', { tag: '8.2' }); // fed just before it would bite
  mock.timers.tick(3999);
  assert.equal(streams.length, 1);
  mock.timers.tick(1);
  assert.equal(streams.length, 2, '2 × 1 s + 2 s of silence');
});

test('the browser back online reopens at once, without waiting for EventSource\'s own retries', async () => {
  const { statuses } = start();
  streams[0].fail(false);
  window.dispatchEvent(new Event('online'));
  assert.equal(streams[0].readyState, FakeEventSource.CLOSED);
  assert.equal(streams.length, 2);
  assert.equal(statuses[statuses.length - 1], 'reconnecting');
  await settle();
  assert.equal(fetches.length, 1);
});

test('a hidden page does not poll; shown again, it polls at once', async () => {
  start();
  streams[0].fail(false);
  document.hidden = true;
  mock.timers.tick(15000);
  await settle();
  assert.equal(fetches.length, 0);
  document.hidden = false;
  document.dispatchEvent(new Event('visibilitychange'));
  await settle();
  assert.equal(fetches.length, 1);
});

test('a page with its own read: the poll calls it rather than fetching', async () => {
  let reads = 0;
  start({ read: () => { reads += 1; } });
  streams[0].fail(false);
  mock.timers.tick(10000);
  await settle();
  assert.equal(reads, 2);
  assert.equal(fetches.length, 0);
});

test('the network gone at the poll: nothing is passed on, the next poll tries again', async () => {
  const { changes } = start();
  streams[0].fail(false);
  answer = { status: 'offline' };
  mock.timers.tick(5000);
  await settle();
  assert.equal(changes.length, 0);
  answer = { status: 200, tag: '9.0' };
  mock.timers.tick(5000);
  await settle();
  assert.deepEqual(changes, [{ tag: '9.0', polled: true }]);
});

test('stop: the stream closed, no poll, no watchdog, no reopening', async () => {
  const { follower } = start();
  streams[0].fail(false);
  follower.stop();
  assert.equal(streams[0].readyState, FakeEventSource.CLOSED);
  mock.timers.tick(120000);
  window.dispatchEvent(new Event('online'));
  await settle();
  assert.equal(streams.length, 1);
  assert.equal(fetches.length, 0);
});

test('oneAtATime: a read asked while one is on its way runs once after it, however often it was asked', async () => {
  mock.timers.reset();
  let reads = 0;
  /** @type {(() => void)[]} */
  const pending = [];
  const run = oneAtATime(() => { reads += 1; return new Promise((resolve) => pending.push(resolve)); });
  const first = run();
  assert.equal(run.busy(), true);
  run();
  run();
  assert.equal(reads, 1);
  pending.shift()();
  await settle();
  assert.equal(reads, 2, 'the reads asked meanwhile make one more');
  pending.shift()();
  await first;
  assert.equal(reads, 2);
  assert.equal(run.busy(), false);
});

test('oneAtATime: a read that throws does not leave it busy', async () => {
  mock.timers.reset();
  const run = oneAtATime(async () => { throw new Error('lost'); });
  await assert.rejects(run());
  assert.equal(run.busy(), false);
});
