// The form's derivation from the server's legal shape (fixtures: `ledger.selectors.deal_legal`'s own
// output, checked against it by tests/web/test_js_fixtures.py): a bid's fields, trumps and totals, what
// the form still lacks, the hand it sends, and the deal in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { blankForm, buildHand, changedWords, formFromHand, handKey, handWords, missingRequired, presetTrump, rulesOf, trumpsAllowed } from '../../static/clubscore/scorer/derive.js';

const legal = (variant) => JSON.parse(readFileSync(new URL(`./fixtures/legal-${variant}.json`, import.meta.url), 'utf8'));
const AMERICAN = legal('american').bids;
const FRENCH = legal('french').bids;

const WORDS = {
  names: ['Ann', 'Ben', 'Cleo', 'Dan'],
  bids: FRENCH.concat(AMERICAN).map((b) => ({ code: b.code, label: b.label })),
  symbol: { clubs: '♣', diamonds: '♦', hearts: '♥', spades: '♠', none: 'NT' },
  labels: { honours: 'Honours', jack: '♦J', last_trick: 'Last trick', revoke: 'Revoke' },
  pair: (a, b) => `${a} with ${b}`,
  turnedSuit: (s) => `turned ${s}`,
  fieldIs: (label, value) => `${label} ${value}`,
  counts: (c) => `tricks: ${c}`,
  conceded: 'conceded',
  inSentence: (l) => l.charAt(0).toLowerCase() + l.slice(1),
  turnedTrumps: FRENCH.filter((b) => b.trumps_turned).map((b) => b.code),
};

test('a bid\'s rules are the shape\'s: forbidden fields left out, its trumps and its trick total', () => {
  const seven = rulesOf(AMERICAN, 'seven', null);
  assert.ok(seven);
  assert.deepEqual(seven.fields, { bidder: 'required', trump: 'required', turned: 'optional', tricks: 'required', conceded: 'optional', revoke: 'optional' });
  assert.equal(seven.partner, false);
  assert.deepEqual(seven.tricks, { total: 13, exact: true });
  const misere = rulesOf(FRENCH, 'little_misere', null);
  assert.deepEqual(misere.tricks, { total: 12, exact: false }); // a discard: 12, and need not add up
  assert.equal(rulesOf(AMERICAN, 'no_such_bid', null), null);
  assert.equal(rulesOf(AMERICAN, '', null), null);
});

test('a simple allows its partner and the turned suit; belle, when known here, is that suit', () => {
  const simple = rulesOf(FRENCH, 'simple', null);
  assert.equal(simple.partner, true);
  assert.equal(simple.trumpsTurned, true);
  assert.deepEqual(simple.trumps, []);
  assert.deepEqual(rulesOf(FRENCH, 'simple', 'hearts').trumps, ['hearts']);
  assert.deepEqual(rulesOf(FRENCH, 'independence_six', 'hearts').trumps, ['clubs', 'diamonds', 'hearts', 'spades']);
});

test('what is missing: the bid first, then each required field, the tricks while the pad is not complete', () => {
  const form = blankForm();
  assert.deepEqual(missingRequired(form, null, false), ['bid']);
  form.bid = 'seven';
  const seven = rulesOf(AMERICAN, 'seven', null);
  const required = Object.keys(seven.fields).filter((f) => seven.fields[f] === 'required');
  assert.deepEqual(missingRequired(form, seven, false), required);
  form.bidder = 2;
  form.trump = 'hearts';
  assert.deepEqual(missingRequired(form, seven, false), required.filter((f) => !['bidder', 'trump'].includes(f)));
  assert.deepEqual(missingRequired(form, seven, true), required.filter((f) => !['bidder', 'trump', 'tricks'].includes(f)));
});

test('the hand sent holds only the fields its bid allows', () => {
  const form = { ...blankForm(), bid: 'seven', bidder: 2, trump: 'hearts', partner: 0, jack: 1, tricks: [2, 1, 8, 2] };
  const hand = buildHand(form, rulesOf(AMERICAN, 'seven', null));
  assert.deepEqual(hand, { bid: 'seven', bidder: 2, trump: 'hearts', tricks: [2, 1, 8, 2] });
  const pass = buildHand({ ...blankForm(), bid: 'pass', bidder: 1 }, rulesOf(AMERICAN, 'pass', null));
  assert.equal(pass.bid, 'pass');
  assert.ok(!('partner' in pass) && !('trump' in pass));
});

test('the deal in words: pair, bid, trump, turned suit, ♦J, each seat\'s tricks from the bidder round', () => {
  const hand = { bid: 'simple', bidder: 1, partner: 3, trump: 'clubs', turned: 'hearts', jack: 0, tricks: [2, 5, 3, 3] };
  assert.equal(handWords(hand, null, WORDS), 'Ben with Dan · simple · ♣ · turned ♥ · ♦J Ann · tricks: Ben 5, Cleo 3, Dan 3, Ann 2');
  // On the bar while counting: only the seats counted so far.
  assert.equal(handWords(hand, [false, true, false, true], WORDS), 'Ben with Dan · simple · ♣ · turned ♥ · ♦J Ann · tricks: Ben 5, Dan 3');
  // A simple in the turned suit says the suit once.
  assert.equal(handWords({ bid: 'simple', bidder: 0, trump: 'hearts', turned: 'hearts' }, null, WORDS), 'Ann · simple · ♥');
});

test('the trumps a bid allows, and the one the form preselects, are the shape\'s', () => {
  const suits = ['clubs', 'diamonds', 'hearts', 'spades'];
  const simple = rulesOf(FRENCH, 'simple', 'hearts'); // played in belle (hearts) or the turned suit
  assert.equal(simple.belleTrump, true);
  assert.deepEqual(trumpsAllowed(simple, null, suits), suits); // any suit while the turned card is not given
  assert.deepEqual(trumpsAllowed(simple, 'clubs', suits), ['clubs', 'hearts']);
  assert.equal(presetTrump(suits, 'hearts'), 'hearts'); // belle, where the deal has one
  const six = rulesOf(FRENCH, 'independence_six', 'hearts');
  assert.equal(six.belleTrump, false);
  assert.equal(presetTrump(trumpsAllowed(six, null, suits), 'hearts'), 'hearts');
  assert.equal(presetTrump(trumpsAllowed(six, null, suits), null), null); // no belle (deal 1, American): the scorer chooses
  assert.deepEqual(trumpsAllowed(rulesOf(FRENCH, 'pass', 'hearts'), null, suits), []);
  assert.equal(presetTrump(['spades'], 'hearts'), 'spades'); // the only one allowed
});

test('two hands are the same deal when their fields are, whatever their number', () => {
  const hand = { number: 3, bid: 'seven', bidder: 2, trump: 'hearts', tricks: [2, 1, 8, 2] };
  assert.equal(handKey(hand), handKey({ ...hand, number: 4, partner: null }));
  assert.notEqual(handKey(hand), handKey({ ...hand, tricks: [2, 2, 8, 1] }));
  const form = formFromHand(hand);
  assert.deepEqual([form.bid, form.bidder, form.trump, form.partner, form.tricks], ['seven', 2, 'hearts', null, [2, 1, 8, 2]]);
  assert.notEqual(form.tricks, hand.tricks); // a copy: the form's pad does not change the hand
});

test('an amendment says what it changes: each count that moved, each field, nothing when nothing did', () => {
  const w = { ...WORDS, labels: { ...WORDS.labels, bid: 'Bid', bidder: 'Bidder', trump: 'Trump', jack: '♦J' }, yes: 'conceded', no: 'not conceded' };
  const seven = { bid: 'seven', bidder: 2, trump: 'hearts', tricks: [2, 1, 8, 2] };
  assert.equal(changedWords(seven, { ...seven }, w), '');
  assert.equal(changedWords(seven, { ...seven, tricks: [2, 2, 8, 1] }, w), 'Ben 1 → 2, Dan 2 → 1');
  assert.equal(changedWords(seven, { ...seven, bid: 'six', trump: 'clubs' }, w), 'bid seven → six, trump ♥ → ♣');
  assert.equal(changedWords(seven, { ...seven, conceded: true }, w), 'conceded');
  const simple = { bid: 'simple', bidder: 1, trump: 'hearts', jack: 0, tricks: [2, 5, 3, 3] };
  assert.equal(changedWords(simple, { ...simple, jack: 3 }, w), '♦J Ann → Dan');
  assert.equal(changedWords({ ...seven, conceded: true }, seven, w), 'not conceded');
});

test('a bidder who pays instead of playing sends no count and is said by name (rules.md §0.11)', () => {
  const rules = rulesOf(AMERICAN, 'seven', null);
  const form = { ...blankForm(), bid: 'seven', bidder: 1, trump: 'hearts', conceded: 'bidder', tricks: [0, 3, 0, 0] };
  const hand = buildHand(form, rules);
  assert.deepEqual(hand, { bid: 'seven', bidder: 1, trump: 'hearts', conceded: 'bidder' });
  assert.deepEqual(buildHand({ ...form, conceded: true }, rules).tricks, [0, 3, 0, 0]); // conceded: the counts so far
  const w = { ...WORDS, paysInstead: (name) => `${name} pays instead of playing` };
  assert.equal(handWords(hand, null, w), 'Ben · seven · ♥ · Ben pays instead of playing');
  assert.equal(handWords(hand, null, WORDS), 'Ben · seven · ♥ · conceded'); // words without it: still conceded
  const said = { ...w, labels: { ...WORDS.labels }, yes: 'conceded', no: 'not conceded', paid: 'the bidder pays instead' };
  assert.equal(changedWords({ ...hand, conceded: true }, hand, said), 'the bidder pays instead');
});

test('the ace turned is sent only where the bid allows it, and said with its dealer', () => {
  const allows = { fields: { turned: 'required', ace_turned: 'optional' }, trumps: null, trumpsTurned: false, belleTrump: false,
    partner: false, tricks: { total: 13, exact: true } };
  const form = { ...blankForm(), bid: 'pass', turned: 'spades', ace_turned: true };
  assert.deepEqual(buildHand(form, allows), { bid: 'pass', turned: 'spades', ace_turned: true });
  assert.deepEqual(buildHand(form, { ...allows, fields: { turned: 'required' } }), { bid: 'pass', turned: 'spades' });
  assert.deepEqual(buildHand({ ...form, ace_turned: false }, allows), { bid: 'pass', turned: 'spades' });
  const w = { ...WORDS, bids: [{ code: 'pass', label: 'all pass' }], aceTurned: (h) => `ace turned by ${WORDS.names[h.dealer]}` };
  assert.equal(handWords({ bid: 'pass', turned: 'spades', ace_turned: true, dealer: 0 }, null, w), 'all pass · turned ♠ · ace turned by Ann');
  const said = { ...w, yes: 'conceded', no: 'not conceded', aceYes: 'ace turned', aceNo: 'no ace turned' };
  assert.equal(changedWords({ bid: 'pass', turned: 'spades' }, { bid: 'pass', turned: 'spades', ace_turned: true }, said), 'ace turned');
  assert.equal(changedWords({ bid: 'pass', turned: 'spades', ace_turned: true }, { bid: 'pass', turned: 'spades' }, said), 'no ace turned');
});
