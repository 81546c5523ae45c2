// The count pad: it asks the bidder, the partner, then round the table; it fills the last seat with the
// remainder of the total the legal shape gives, and every open seat with 0 when nothing is left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blankPad, fillPad, padOrder, tricksComplete } from '../../static/clubscore/scorer/pad.js';

const THIRTEEN = { total: 13, exact: true };
const DISCARD = { total: 12, exact: true };
const MISERE = { total: 13, exact: false };

/** A new deal's pad for that bidder, partner and dealer. */
function fresh(bidder, partner, dealer) {
  return { order: padOrder(bidder, partner, dealer), pad: blankPad(), tricks: [0, 0, 0, 0] };
}

/** Give `count` to the pad's active seat, as a tap on a count key does, then fill. */
function tap(pad, tricks, order, rule, count, conceded = false) {
  const seat = pad.active === null ? order[0] : pad.active;
  tricks[seat] = count;
  pad.entered[seat] = true;
  if (pad.auto === seat) pad.auto = null;
  pad.active = null;
  fillPad(pad, tricks, order, rule, conceded);
}

test('the order: bidder, partner, then round the table from the bidder; from the dealer\'s left without one', () => {
  assert.deepEqual(padOrder(2, null, 0), [2, 3, 0, 1]);
  assert.deepEqual(padOrder(1, 3, 0), [1, 3, 2, 0]);
  assert.deepEqual(padOrder(null, null, 3), [0, 1, 2, 3]);
  assert.deepEqual(padOrder(null, null, 1), [2, 3, 0, 1]);
});

test('three counts fill the last seat with what is left of 13', () => {
  const { order, pad, tricks } = fresh(2, null, 0);
  fillPad(pad, tricks, order, THIRTEEN, false);
  assert.equal(pad.active, 2);
  tap(pad, tricks, order, THIRTEEN, 8);
  tap(pad, tricks, order, THIRTEEN, 2);
  assert.equal(pad.active, 0);
  tap(pad, tricks, order, THIRTEEN, 1);
  assert.deepEqual(tricks, [1, 2, 8, 2]);
  assert.equal(pad.auto, 1);
  assert.equal(pad.active, null);
  assert.ok(tricksComplete(pad, tricks, THIRTEEN, 2, false));
});

test('a count that changes after the fill moves the filled seat with it', () => {
  const { order, pad, tricks } = fresh(0, null, 3);
  [7, 2, 2].forEach((n) => tap(pad, tricks, order, THIRTEEN, n));
  assert.deepEqual(tricks, [7, 2, 2, 2]);
  pad.active = 1; // the scorer taps the second seat again: it took 3
  tap(pad, tricks, order, THIRTEEN, 3);
  assert.deepEqual(tricks, [7, 3, 2, 1]);
  assert.ok(tricksComplete(pad, tricks, THIRTEEN, 0, false));
});

test('the total is the legal shape\'s: a bid with a discard adds up to 12', () => {
  const { order, pad, tricks } = fresh(1, null, 0);
  [6, 3, 2].forEach((n) => tap(pad, tricks, order, DISCARD, n));
  assert.deepEqual(tricks, [1, 6, 3, 2]);
  assert.ok(tricksComplete(pad, tricks, DISCARD, 1, false));
  assert.ok(!tricksComplete(pad, tricks, THIRTEEN, 1, false));
});

test('the whole total in the first counts: the open seats take 0', () => {
  const { order, pad, tricks } = fresh(0, 2, 3);
  tap(pad, tricks, order, THIRTEEN, 9);
  tap(pad, tricks, order, THIRTEEN, 4);
  assert.deepEqual(tricks, [9, 0, 4, 0]);
  assert.deepEqual(pad.entered, [true, true, true, true]);
  assert.ok(tricksComplete(pad, tricks, THIRTEEN, 0, false));
});

test('counts that need not add up (a misère) are never filled: the bidder\'s count completes it', () => {
  const { order, pad, tricks } = fresh(3, null, 0);
  assert.ok(!tricksComplete(pad, tricks, MISERE, 3, false));
  tap(pad, tricks, order, MISERE, 0);
  assert.ok(tricksComplete(pad, tricks, MISERE, 3, false));
  [4, 4].forEach((n) => tap(pad, tricks, order, MISERE, n));
  assert.deepEqual(pad.entered, [true, true, false, true]);
  assert.equal(pad.auto, null);
});

test('a concession needs no counts and fills nothing', () => {
  const { order, pad, tricks } = fresh(1, null, 0);
  [5, 3, 3].forEach((n) => tap(pad, tricks, order, THIRTEEN, n, true));
  assert.deepEqual(pad.entered, [false, true, true, true]);
  assert.ok(tricksComplete(pad, tricks, THIRTEEN, 1, true));
  assert.ok(!tricksComplete(pad, tricks, THIRTEEN, 1, false));
});
