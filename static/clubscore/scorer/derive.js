// @ts-check
/* The form's derivation from the deal's legal shape (`ledger.selectors.next_legal`): a bid's fields and
 * trumps, what the form still lacks, the hand it sends, and the deal in words. Every rule comes from
 * that shape; the module holds none of Boston's. */

/** @typedef {import('./types.js').LegalBid} LegalBid */
/** @typedef {import('./types.js').Hand} Hand */

/**
 * The form's values (null: not chosen).
 * @typedef {object} Form
 * @property {string} bid
 * @property {number | null} bidder
 * @property {string | null} trump
 * @property {number | null} partner
 * @property {string | null} turned
 * @property {number[]} tricks
 * @property {number} honours
 * @property {boolean | 'bidder'} conceded true: the adversaries conceded; 'bidder': the bidder paid instead of
 *   playing (rules.md §0.11), where the bid allows it (the scorer variant's `pays_instead`)
 * @property {boolean} ace_turned the dealer turned up an ace («с ремизом», rules.md §0.11)
 * @property {number | null} jack
 * @property {number | null} revoke
 * @property {number | null} last_trick
 */

/**
 * A bid's rules on the form's deal.
 * @typedef {object} Rules
 * @property {Record<string, 'required' | 'optional'>} fields the fields it allows (the forbidden ones left out)
 * @property {string[] | null} trumps
 * @property {boolean} trumpsTurned
 * @property {boolean} belleTrump belle is among its trumps (the shape's `belle_trump`)
 * @property {boolean} partner
 * @property {{ total: number, exact: boolean }} tricks
 */

/** @returns {Form} */
export function blankForm() {
  return { bid: '', bidder: null, trump: null, partner: null, turned: null, tricks: [0, 0, 0, 0],
    honours: 0, conceded: false, ace_turned: false, jack: null, revoke: null, last_trick: null };
}

/**
 * A bid's entry of the legal shape as the form uses it. `belle`: the deal's belle (`deal.js`'s `belleOf`),
 * added to the trumps of a bid played in belle (`belle_trump`) when the shape could not name it yet (a
 * deal 1 waiting on this phone).
 * @param {LegalBid[]} bids
 * @param {string} code
 * @param {string | null} belle
 * @returns {Rules | null}
 */
export function rulesOf(bids, code, belle) {
  const entry = code ? bids.find(function (b) { return b.code === code; }) : undefined;
  if (!entry) return null;
  /** @type {Record<string, 'required' | 'optional'>} */
  const fields = {};
  Object.entries(entry.fields).forEach(function (kv) { if (kv[1] !== 'forbidden') fields[kv[0]] = kv[1]; });
  let trumps = entry.trumps || null;
  if (entry.belle_trump && trumps && belle && trumps.indexOf(belle) < 0) trumps = trumps.concat([belle]);
  return { fields: fields, trumps: trumps, trumpsTurned: !!entry.trumps_turned, belleTrump: !!entry.belle_trump,
    partner: 'partner' in fields, tricks: entry.tricks };
}

/**
 * The trumps the bid allows this deal: its own, and the turned suit where the shape says so
 * (`trumps_turned`); any suit while the turned card is not given yet: choosing one then says which was
 * turned.
 * @param {Rules | null} rules
 * @param {string | null} turned the form's turned suit
 * @param {string[]} suits the variant's suits
 * @returns {string[]}
 */
export function trumpsAllowed(rules, turned, suits) {
  if (!rules || !rules.trumps) return [];
  const own = rules.trumps;
  if (!rules.trumpsTurned) return own;
  if (!turned) return suits;
  return suits.filter(function (s) { return s === turned || own.indexOf(s) >= 0; });
}

/**
 * The trump the form preselects: the only one allowed, else belle where the bid allows it (belle is
 * known only where the deal's shape says where it comes from: `deal.js`'s `belleOf`); null when the
 * scorer must choose.
 * @param {string[]} allowed `trumpsAllowed`'s
 * @param {string | null} belle
 * @returns {string | null}
 */
export function presetTrump(allowed, belle) {
  if (allowed.length === 1) return allowed[0];
  if (belle && allowed.indexOf(belle) >= 0) return belle;
  return null;
}

/**
 * What the form still lacks before it can be recorded (the server decides the rest): field names,
 * 'bid' while none is chosen.
 * @param {Form} form
 * @param {Rules | null} rules
 * @param {boolean} tricksDone the pad's `tricksComplete`
 * @returns {string[]}
 */
export function missingRequired(form, rules, tricksDone) {
  if (!form.bid || !rules) return ['bid'];
  const f = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (form));
  return Object.keys(rules.fields).filter(function (name) {
    if (rules.fields[name] !== 'required') return false;
    if (name === 'tricks') return !tricksDone;
    return f[name] === null || f[name] === undefined;
  });
}

/**
 * The hand the form sends: only the fields its bid allows.
 * @param {Form} form
 * @param {Rules | null} rules
 * @returns {Hand}
 */
export function buildHand(form, rules) {
  const table = rules ? rules.fields : {};
  const f = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (form));
  /** @type {Record<string, unknown>} */
  const hand = { bid: form.bid };
  ['bidder', 'trump', 'partner', 'turned', 'jack', 'revoke', 'last_trick'].forEach(function (name) {
    if (name in table && f[name] !== null && f[name] !== undefined) hand[name] = f[name];
  });
  // A bidder who pays instead of playing played no card: his deal has no tricks (rules.md §0.11).
  if ('tricks' in table && form.conceded !== 'bidder') hand.tricks = form.tricks.slice();
  if ('honours' in table && form.honours) hand.honours = form.honours;
  if ('conceded' in table && form.conceded) hand.conceded = form.conceded;
  if ('ace_turned' in table && form.ace_turned) hand.ace_turned = true;
  return /** @type {Hand} */ (/** @type {unknown} */ (hand));
}

/**
 * The words a deal is said in (the page's catalog, the session's names and labels).
 * @typedef {object} Words
 * @property {string[]} names the four seats' players
 * @property {{ code: string, label: string }[]} bids
 * @property {Record<string, string>} symbol each suit's sign
 * @property {Record<string, string>} labels each field's label
 * @property {(a: string, b: string) => string} pair "Ben with Dan"
 * @property {(suit: string) => string} turnedSuit
 * @property {(label: string, value: string | number) => string} fieldIs
 * @property {(counts: string) => string} counts
 * @property {string} conceded
 * @property {(name: string) => string} [paysInstead] "Ben pays instead of playing"
 * @property {(hand: Record<string, any>) => string} [aceTurned] "ace turned by Ann (remiz)": the caller knows
 *   the deal's dealer (a recorded deal says it, the form's deal is the page's)
 * @property {(label: string) => string} inSentence a label inside a sentence
 * @property {string[]} turnedTrumps the bids whose trump may be the turned suit (`trumps_turned`): played
 *   in it, the suit is said once
 */

/**
 * A deal in words, the same on the pinned bar, in the confirmation and in a conflict: "Ben with Dan ·
 * simple ♥ · turned ♥ · ♦J Ann · tricks: Ben 5, Dan 3, Ann 2, Cleo 3". `entered`: the counts given so
 * far (the bar's), every count when absent (a recorded deal).
 * @param {Hand} hand
 * @param {boolean[] | null | undefined} entered
 * @param {Words} w
 */
export function handWords(hand, entered, w) {
  const h = /** @type {Record<string, any>} */ (/** @type {unknown} */ (hand));
  const bid = w.bids.find(function (b) { return b.code === hand.bid; });
  /** @param {string} name */
  const has = function (name) { return h[name] !== undefined && h[name] !== null; };
  /** @type {string[]} */
  const bits = [];
  if (hand.bidder !== undefined && hand.bidder !== null) {
    bits.push(hand.partner !== undefined && hand.partner !== null ? w.pair(w.names[hand.bidder], w.names[hand.partner]) : w.names[hand.bidder]);
  }
  bits.push(bid ? bid.label : hand.bid);
  if (hand.trump) bits.push(w.symbol[hand.trump] || hand.trump);
  if (hand.turned && !(hand.trump === hand.turned && w.turnedTrumps.indexOf(hand.bid) >= 0)) bits.push(w.turnedSuit(w.symbol[hand.turned] || hand.turned));
  if (hand.honours) bits.push(w.fieldIs(w.inSentence(w.labels.honours), hand.honours));
  ['jack', 'last_trick', 'revoke'].forEach(function (name) {
    if (has(name)) bits.push(w.fieldIs(w.labels[name], w.names[h[name]]));
  });
  if (hand.conceded === 'bidder' && w.paysInstead && has('bidder')) bits.push(w.paysInstead(w.names[h.bidder]));
  else if (hand.conceded) bits.push(w.conceded);
  if (h.ace_turned && w.aceTurned) bits.push(w.aceTurned(h));
  const tricks = hand.tricks;
  if (tricks) {
    const bidder = hand.bidder;
    const seats = w.names.map(function (_, i) { return i; });
    const order = bidder !== undefined && bidder !== null ? seats.map(function (i) { return (bidder + i) % seats.length; }) : seats;
    const counted = order.filter(function (seat) { return !entered || entered[seat]; });
    if (counted.length) bits.push(w.counts(counted.map(function (seat) { return w.names[seat] + ' ' + tricks[seat]; }).join(', ')));
  }
  return bits.join(' · ');
}

/** The hand fields the form holds. */
export const FORM_FIELDS = ['bid', 'bidder', 'trump', 'partner', 'turned', 'ace_turned', 'tricks', 'honours', 'conceded', 'jack', 'revoke', 'last_trick'];

/**
 * The form filled from a hand (a recorded deal amended, a waiting deal fixed).
 * @param {Record<string, any>} hand
 * @returns {Form}
 */
export function formFromHand(hand) {
  const f = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (blankForm()));
  FORM_FIELDS.forEach(function (name) {
    if (hand[name] !== undefined && hand[name] !== null) f[name] = name === 'tricks' ? hand.tricks.slice() : hand[name];
  });
  return /** @type {Form} */ (/** @type {unknown} */ (f));
}

/**
 * What makes two hands the same deal (their fields, not their number): another phone's deal under this
 * number is dropped as a twin of the waiting one when the two keys are equal.
 * @param {Record<string, any> | null | undefined} hand
 * @returns {string}
 */
export function handKey(hand) {
  /** @type {Record<string, unknown>} */
  const out = {};
  FORM_FIELDS.concat(['adjustments']).forEach(function (name) {
    if (hand && hand[name] !== undefined && hand[name] !== null) out[name] = hand[name];
  });
  return JSON.stringify(out);
}

/**
 * What an amendment changes, in words: "Dan 3 → 2, Cleo 8 → 9" for the counts, "bid seven → six" for a
 * field; empty when nothing changed. Said on the bar while amending and in the amended confirmation, so
 * the scorer reads the change rather than finds it in a table.
 * @param {Record<string, any>} before the recorded hand
 * @param {Record<string, any>} after the form's hand
 * @param {Words & { yes: string, no: string, paid?: string, aceYes?: string, aceNo?: string }} w
 * @returns {string}
 */
export function changedWords(before, after, w) {
  /** @type {string[]} */
  const bits = [];
  /** @param {string} name @param {any} v */
  const say = function (name, v) {
    if (v === null) return '—';
    if (name === 'bid') { const bid = w.bids.find(function (b) { return b.code === v; }); return bid ? bid.label : String(v); }
    if (name === 'trump' || name === 'turned') return w.symbol[v] || String(v);
    if (typeof v === 'number' && name !== 'honours') return w.names[v];
    return String(v);
  };
  FORM_FIELDS.forEach(function (name) {
    if (name === 'tricks') return;
    const a = before[name] === undefined || before[name] === false ? null : before[name];
    const b = after[name] === undefined || after[name] === false ? null : after[name];
    if (a === b) return;
    if (name === 'conceded') { bits.push(b === 'bidder' && w.paid ? w.paid : b ? w.yes : w.no); return; }
    if (name === 'ace_turned') { bits.push(b ? w.aceYes || w.yes : w.aceNo || w.no); return; }
    bits.push(w.inSentence(w.labels[name] || name) + ' ' + say(name, a) + ' → ' + say(name, b));
  });
  const was = before.tricks || [], now = after.tricks || [];
  w.names.forEach(function (who, seat) {
    if ((was[seat] || 0) !== (now[seat] || 0)) bits.push(who + ' ' + (was[seat] || 0) + ' → ' + (now[seat] || 0));
  });
  return bits.join(', ');
}
