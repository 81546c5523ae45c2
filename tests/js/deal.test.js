// The deal the form is for and its legal shape: the server's next, moved on by the waiting deals; the
// session's next_legal or the deal table; belle where the shape says (fixtures: `deal_legal`'s output).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { belleOf, dealInfo, legalOf, nextDeal, withRecorded } from '../../static/clubscore/scorer/deal.js';

const legal = (variant) => JSON.parse(readFileSync(new URL(`./fixtures/legal-${variant}.json`, import.meta.url), 'utf8'));
const FRENCH = legal('french');
const AMERICAN = legal('american');
const DEALS = [1, 2, 3, 4].map((n) => ({ number: n, dealer: (n - 1) % 4, legal: FRENCH.bids, belle: FRENCH.belle }));

test('the next deal is the server\'s, moved on by the deals waiting on this phone', () => {
  const session = { next: { number: 2, dealer: 1 } };
  assert.equal(nextDeal(DEALS, session, 0), session.next);
  assert.deepEqual(nextDeal(DEALS, session, 2), { number: 4, dealer: 3, double: undefined });
  assert.equal(nextDeal(DEALS, session, 3), null); // past the deal table
  assert.equal(nextDeal(DEALS, { next: null }, 1), null);
  assert.equal(nextDeal(DEALS, null, 0), null);
});

test('a misdeal passes the deal but is not a deal of the game, recorded or waiting (rules.md §0.11)', () => {
  const DEALS6 = [1, 2, 3, 4, 5, 6].map((n) => ({ number: n, dealer: (n - 1) % 4, double: n === 4, legal: [], belle: null }));
  // Hand 3 follows a misdeal: the server's next_legal says it is the game's deal 2.
  const session = { next: { number: 3, dealer: 2, double: false }, next_legal: { number: 3, deal: 2, bids: [] } };
  assert.deepEqual(nextDeal(DEALS6, session, 0), { number: 3, dealer: 2, double: false, deal: 2 });
  assert.deepEqual(nextDeal(DEALS6, session, 2), { number: 5, dealer: 0, double: true, deal: 4 });
  assert.deepEqual(nextDeal(DEALS6, session, 2, 1), { number: 5, dealer: 0, double: false, deal: 3 });
  // Waiting on this phone: hand 1 a misdeal, so hand 5 after three waiting is the game's deal 4, a double.
  const fresh = { next: { number: 1, dealer: 0, double: false } };
  assert.deepEqual(nextDeal(DEALS6, fresh, 4, 1), { number: 5, dealer: 0, double: true, deal: 4 });
  // A misdeal this phone saw recorded: the next hand moves on, the game's deal does not.
  const before = { version: 1, hands_count: 0, next: { number: 1, dealer: 0, double: false }, status: 'open' };
  const held = withRecorded(DEALS6, before, [], [{ number: 1, version: 2, balances: [0, -10, 0, 0], pools: [10], bid: 'misdeal' }]);
  assert.deepEqual(held.session.next, { number: 2, dealer: 1, double: false, deal: 1 });
  const then = withRecorded(DEALS6, held.session, held.hands, [{ number: 2, version: 3, balances: [0, 0, 0, 0], pools: [0], bid: 'pass' }]);
  assert.deepEqual(then.session.next, { number: 3, dealer: 2, double: false, deal: 2 });
});

test('the legal shape is next_legal for the next deal, the deal table for another', () => {
  const own = { number: 2, bids: AMERICAN.bids, belle: null };
  const session = { next: { number: 2 }, next_legal: own };
  assert.equal(legalOf(DEALS, session, 2).bids, AMERICAN.bids);
  assert.equal(legalOf(DEALS, session, 3).bids, FRENCH.bids);
  assert.deepEqual(legalOf(DEALS, session, 3).belle, { deal: 1, suit: null });
  assert.deepEqual(legalOf(DEALS, session, 9).bids, []);
});

test('belle is the shape\'s: none on the deal that sets it, its suit once known, else that deal\'s turned suit', () => {
  const turned = (n) => (n === 1 ? 'hearts' : null);
  assert.equal(belleOf(null, 3, turned), null); // no bid played in belle (American)
  assert.equal(belleOf({ deal: 1, suit: null }, 1, turned), null); // deal 1 sets belle
  assert.equal(belleOf({ deal: 1, suit: null }, 2, turned), 'hearts'); // deal 1 waits on this phone
  assert.equal(belleOf({ deal: 1, suit: 'spades' }, 2, turned), 'spades');
  assert.equal(belleOf({ deal: 1, suit: null }, 2, () => null), null); // deal 1 not known at all
  assert.equal(AMERICAN.belle, null);
});

test('a deal this phone saw recorded stays counted when the session read after it is older', () => {
  const DEALS5 = [1, 2, 3, 4, 5].map((n) => ({ number: n, dealer: (n - 1) % 4, double: n === 4, legal: [], belle: null }));
  const before = { version: 3, hands_count: 2, balances: [0, 0, 0, 0], pools: [0], next: { number: 3, dealer: 2 }, status: 'open' };
  const hands = [{ number: 1 }, { number: 2 }];
  const answer = { number: 3, version: 4, balances: [1, -1, 0, 0], pools: [5], bid: 'pass' };
  const held = withRecorded(DEALS5, before, hands, [answer]);
  assert.deepEqual(held.hands.map((h) => h.number), [1, 2, 3]);
  assert.equal(held.session.hands_count, 3);
  assert.equal(held.session.version, 4);
  assert.deepEqual(held.session.balances, [1, -1, 0, 0]);
  assert.deepEqual(held.session.pools, [5]);
  assert.deepEqual(held.session.next, { number: 4, dealer: 3, double: true });
  assert.equal(held.session.status, 'open');
  assert.equal(before.hands_count, 2); // not changed in place
  assert.equal(nextDeal(DEALS5, held.session, 0).number, 4); // the next deal is 4, not 3 again
  // A session read that has the deal already, or one further on, is left as it is.
  const after = { version: 5, hands_count: 3, next: { number: 4, dealer: 3 } };
  const three = [...hands, { number: 3 }];
  assert.equal(withRecorded(DEALS5, after, three, [answer]).session, after);
  assert.equal(withRecorded(DEALS5, after, three, [answer]).hands, three);
  // Two deals recorded while the reads failed, in order; the table's end gives no next deal.
  const two = withRecorded(DEALS5, before, hands, [answer, { number: 4, version: 5 }, { number: 5, version: 6 }]);
  assert.deepEqual(two.hands.map((h) => h.number), [1, 2, 3, 4, 5]);
  assert.equal(two.session.next, null);
  assert.equal(withRecorded(DEALS5, null, [], [answer]).session, null);
  // A newer read without the deal (another phone undid it meanwhile) is the server's word: not put back.
  const undone = { version: 6, hands_count: 2, next: { number: 3, dealer: 2 } };
  assert.equal(withRecorded(DEALS5, undone, hands, [answer]).hands, hands);
});
