// The deal the form is for and its legal shape: the server's next, moved on by the waiting deals; the
// session's next_legal or the deal table; belle where the shape says (fixtures: `deal_legal`'s output).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { belleOf, dealInfo, legalOf, nextDeal } from '../../static/clubscore/scorer/deal.js';

const legal = (variant) => JSON.parse(readFileSync(new URL(`./fixtures/legal-${variant}.json`, import.meta.url), 'utf8'));
const FRENCH = legal('french');
const AMERICAN = legal('american');
const DEALS = [1, 2, 3, 4].map((n) => ({ number: n, dealer: (n - 1) % 4, legal: FRENCH.bids, belle: FRENCH.belle }));

test('the next deal is the server\'s, moved on by the deals waiting on this phone', () => {
  const session = { next: { number: 2, dealer: 1 } };
  assert.equal(nextDeal(DEALS, session, 0), session.next);
  assert.equal(nextDeal(DEALS, session, 2), dealInfo(DEALS, 4));
  assert.equal(nextDeal(DEALS, session, 3), null); // past the deal table
  assert.equal(nextDeal(DEALS, { next: null }, 1), null);
  assert.equal(nextDeal(DEALS, null, 0), null);
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
