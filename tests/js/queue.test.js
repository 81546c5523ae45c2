// The queue of waiting deals: each deal keeps its key across retries (the server records it once),
// and a conflict's renumbering gives a new key only to a deal whose number changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeQueue } from '../../static/clubscore/scorer/queue.js';

/** A Web Storage of its own (the browser's API, in memory). */
function memoryStore() {
  const data = new Map();
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => { data.set(k, String(v)); },
    removeItem: (k) => { data.delete(k); },
    data,
  };
}

function counter() {
  let n = 0;
  return () => `key-${++n}`;
}

test('a deal keeps its key across loads and retries of the network, so it is recorded once', () => {
  const store = memoryStore();
  const q = makeQueue(store, 'clubscore.queue.7', counter());
  q.save([{ key: 'k1', hand: { number: 3, bid: 'pass' } }]);
  // The page reopened cold, the network failed twice: the same key is sent each time.
  const again = makeQueue(store, 'clubscore.queue.7', counter());
  assert.equal(again.load()[0].key, 'k1');
  assert.equal(again.load()[0].key, 'k1');
  again.dropHead('k1'); // the 201
  assert.deepEqual(again.load(), []);
  assert.equal(store.data.size, 0, 'an empty queue leaves nothing in storage');
  again.dropHead('k1'); // a second answer for the same deal takes nothing more off
  assert.deepEqual(again.load(), []);
});

test('the head is dropped only when it is the deal answered', () => {
  const q = makeQueue(memoryStore(), 'q', counter());
  q.save([{ key: 'a', hand: { number: 1, bid: 'pass' } }, { key: 'b', hand: { number: 2, bid: 'pass' } }]);
  q.dropHead('b');
  assert.deepEqual(q.load().map((i) => i.key), ['a', 'b']);
  q.dropHead('a');
  assert.deepEqual(q.load().map((i) => i.key), ['b']);
});

test('after a conflict the waiting deals are renumbered; only a moved deal gets a new key', () => {
  const q = makeQueue(memoryStore(), 'q', counter());
  q.save([
    { key: 'a', hand: { number: 4, bid: 'pass' }, problem: { status: 409, error: { code: 'stale_number' } } },
    { key: 'b', hand: { number: 5, bid: 'pass' } },
  ]);
  q.renumber(4); // keep the numbers: the problem is cleared, the keys stay
  assert.deepEqual(q.load().map((i) => [i.hand.number, i.key, 'problem' in i]), [[4, 'a', false], [5, 'b', false]]);
  q.renumber(5); // another phone recorded deal 4: mine become 5 and 6, each with a fresh key
  assert.deepEqual(q.load().map((i) => [i.hand.number, i.key]), [[5, 'key-1'], [6, 'key-2']]);
});

test('a retry after a refusal sends the head with a new key and without its problem', () => {
  const q = makeQueue(memoryStore(), 'q', counter());
  q.save([{ key: 'a', hand: { number: 1, bid: 'pass' }, problem: { status: 409, error: { code: 'session_closed' } } }]);
  q.retryHead();
  assert.deepEqual(q.load(), [{ key: 'key-1', hand: { number: 1, bid: 'pass' } }]);
});

test('a broken or foreign value in storage reads as an empty queue', () => {
  const store = memoryStore();
  const q = makeQueue(store, 'q', counter());
  store.setItem('q', '{not json');
  assert.deepEqual(q.load(), []);
  store.setItem('q', '{"a": 1}');
  assert.deepEqual(q.load(), []);
});
