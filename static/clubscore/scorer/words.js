// @ts-check
/* The scorer page's words, from Django's catalog (/jsi18n/, loaded before the modules): a sentence with
 * a number is translated whole. The suits' signs and the reasons of a transfer, said in the page's words. */

/** A sentence with its values: `interpolate` of the catalog, named. */
export const fmt = function (/** @type {string} */ text, /** @type {Record<string, unknown>} */ values) { return interpolate(text, values, true); };
export const SYMBOL = /** @type {Record<string, string>} */ ({ clubs: '♣', diamonds: '♦', hearts: '♥', spades: '♠', none: pgettext('no trump, short', 'NT') });

export const T = {
  suits: /** @type {Record<string, string>} */ ({ clubs: pgettext('suit', 'clubs'), diamonds: pgettext('suit', 'diamonds'), hearts: pgettext('suit', 'hearts'), spades: pgettext('suit', 'spades') }),
  none: pgettext('no seat or suit', 'none'), noTrump: gettext('no trump'), noTrumpShort: SYMBOL.none,
  more: function (/** @type {string} */ fields) { return fmt(gettext('More: %(fields)s'), { fields: fields }); },
  record: function (/** @type {number} */ n) { return fmt(gettext('Record deal %(n)s'), { n: n }); },
  save: function (/** @type {number} */ n) { return fmt(gettext('Save deal %(n)s'), { n: n }); },
  saveWaiting: function (/** @type {number} */ n) { return fmt(gettext('Save waiting deal %(n)s'), { n: n }); },
  stillToEnter: function (/** @type {string} */ fields) { return fmt(gettext('Still to enter: %(fields)s'), { fields: fields }); },
  // a button's name begins with its visible text (WCAG 2.5.3): "♠ petite: spades, the turned suit"
  inPetite: function (/** @type {string} */ label, /** @type {string} */ suit) { return fmt(gettext('%(label)s: %(suit)s, the turned suit'), { label: label, suit: suit }); },
  movedOn: function (/** @type {number} */ n) { return fmt(gettext('Another phone recorded deal %(n)s while you entered this one: Record compares yours with it before anything is counted.'), { n: n }); },
  clearedBidderCounts: gettext('New bidder: the tricks were cleared, count them again.'),
  clearedBidderPartner: gettext('New bidder: the partner was cleared.'),
  clearedBidderBoth: gettext('New bidder: the tricks and the partner were cleared.'),
  clearedBidCounts: gettext('New bid: its tricks add up otherwise, so the tricks were cleared.'),
  clearedBidPartner: gettext('New bid: it takes no partner, so the partner was cleared.'),
  clearedBidBoth: gettext('New bid: the tricks and the partner were cleared.'),
  // the deal in words, the same on the pinned bar and in the confirmation
  pair: function (/** @type {string} */ bidder, /** @type {string} */ partner) { return fmt(gettext('%(bidder)s with %(partner)s'), { bidder: bidder, partner: partner }); },
  turnedSuit: function (/** @type {string} */ suit) { return fmt(gettext('turned %(suit)s'), { suit: suit }); },
  fieldIs: function (/** @type {string} */ label, /** @type {string | number} */ value) { return fmt(gettext('%(field)s %(value)s'), { field: label, value: value }); },
  counts: function (/** @type {string} */ counts) { return fmt(gettext('tricks: %(counts)s'), { counts: counts }); },
  tricksOf: function (/** @type {string} */ who) { return fmt(gettext('tricks of %(names)s'), { names: who }); },
  recordedWords: function (/** @type {number} */ n, /** @type {string} */ words) { return fmt(gettext('Deal %(n)s recorded: %(deal)s.'), { n: n, deal: words }); },
  amendedWords: function (/** @type {number} */ n, /** @type {string} */ words) { return fmt(gettext('Deal %(n)s amended: %(deal)s.'), { n: n, deal: words }); },
  undoDeal: function (/** @type {number} */ n) { return fmt(gettext('Undo deal %(n)s'), { n: n }); },
  amendDeal: function (/** @type {number} */ n) { return fmt(gettext('Amend deal %(n)s'), { n: n }); },
  changeBid: function (/** @type {string} */ label) { return fmt(gettext('%(bid)s (change the bid)'), { bid: label }); },
  tricks: gettext('tricks'), notCounted: gettext('not counted yet'), tricksDone: gettext('every seat counted'),
  tricksFor: function (/** @type {string} */ name) { return fmt(gettext('tricks for %(name)s'), { name: name }); },
  countFor: function (/** @type {number} */ n, /** @type {string} */ name) { return fmt(ngettext('%(n)s trick for %(name)s', '%(n)s tricks for %(name)s', n), { n: n, name: name }); },
  conceded: gettext('conceded (“I pay”)'), notConceded: gettext('not conceded'),
  // the table law (rules.md §0.11): how a deal ended, the ace turned, a misdeal, a penalty
  playedOut: pgettext('the deal ended', 'played out'),
  bidderPaysInstead: gettext('bidder pays instead'),
  paysInstead: function (/** @type {string} */ name) { return fmt(gettext('%(name)s pays instead of playing'), { name: name }); },
  aceTurned: function (/** @type {string} */ dealer) {
    return dealer ? fmt(gettext('ace turned by %(dealer)s: remiz'), { dealer: dealer }) : gettext('ace turned: remiz');
  },
  noAceTurned: gettext('no ace turned'),
  yes: pgettext('answer', 'yes'), no: pgettext('answer', 'no'),
  passesTo: function (/** @type {string} */ name) { return fmt(gettext('the deal passes to %(name)s'), { name: name }); },
  penalty: function (/** @type {string} */ transfers) { return fmt(gettext('Penalty: %(transfers)s'), { transfers: transfers }); },
  changes: function (/** @type {string} */ what) { return fmt(gettext('Changes: %(changes)s'), { changes: what }); },
  noChange: gettext('Nothing changed yet.'),
  duplicate: function (/** @type {number} */ n) { return fmt(gettext('Deal %(n)s was already recorded by another phone, the same deal as yours: yours was dropped, nothing is counted twice.'), { n: n }); },
  conflictTitle: function (/** @type {number} */ n) { return fmt(gettext('Conflict: another phone recorded deal %(n)s first, and it differs from yours.'), { n: n }); },
  theirs: gettext('Recorded by the other phone'), mine: gettext('Yours, not recorded'),
  keepTheirs: gettext('Keep theirs, drop mine'),
  recordMineNext: function (/** @type {number} */ n) { return fmt(gettext('Record mine as the next deal (%(n)s)'), { n: n }); },
  conflictHead: function (/** @type {number} */ n) { return fmt(gettext('Deal %(n)s: settle the conflict'), { n: n }); },
  offline: gettext('Offline: deals are kept on this phone until the network returns.'),
  lastSeen: gettext('The balances are as this phone last saw them.'),
  belleDeal1: function (/** @type {string} */ belle) { return fmt(gettext('%(belle)s: the suit turned on deal 1'), { belle: belle }); },
  closedPools: gettext('Closed: the settlement shows how the pools were divided or carried.'),
  left: function (/** @type {number} */ n) { return fmt(gettext('(%(n)s left)'), { n: n }); },
  allCounted: function (/** @type {number} */ n) { return fmt(gettext('(all %(n)s)'), { n: n }); },
  tooMany: function (/** @type {number} */ n) { return fmt(gettext('(%(n)s too many)'), { n: n }); },
  rebalanced: function (/** @type {string} */ name, /** @type {number} */ was, /** @type {number} */ now) {
    return fmt(gettext('%(name)s %(was)s → %(now)s, to make the total: tap %(name)s to change it.'), { name: name, was: was, now: now });
  },
  noPreview: gettext('No preview offline: the server checks and settles the deal when it is sent.'),
  kept: function (/** @type {number} */ n) { return fmt(gettext('Deal %(n)s is kept on this phone and waits to be sent.'), { n: n }); },
  refused: function (/** @type {string | number} */ status) { return fmt(gettext('refused (%(status)s)'), { status: status }); },
  // a transfer's reason (rules.md §0.9), a code in the server's answer, said in the page's words
  reasons: /** @type {Record<string, string>} */ ({
    ante: pgettext('transfer reason', 'ante'), contract: pgettext('transfer reason', 'contract'),
    overtricks: pgettext('transfer reason', 'overtricks'), honours: pgettext('transfer reason', 'honours'),
    pool: pgettext('transfer reason', 'pool'), division: pgettext('transfer reason', 'division'),
    jack: pgettext('transfer reason', 'jack'), penalty: pgettext('transfer reason', 'penalty'),
    adjustment: pgettext('transfer reason', 'adjustment'),
  }),
};
