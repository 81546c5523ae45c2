// @ts-check
/* The count pad: a count per seat, one tap each, moving on by itself. How the tricks add up comes from
 * the deal's legal shape (`tricks.total`, `tricks.exact`), never from a rule of its own. */

/** @typedef {import('./types.js').Pad} Pad */

/** @returns {Pad} */
export function blankPad() {
  return { entered: [false, false, false, false], auto: null, active: null };
}

/**
 * The seats in the order the pad asks them: the bidder, his partner, then round the table from the
 * bidder (from the dealer's left while no bidder is chosen).
 * @param {number | null} bidder
 * @param {number | null} partner
 * @param {number} dealer
 * @returns {number[]}
 */
export function padOrder(bidder, partner, dealer) {
  const start = bidder !== null ? bidder : (dealer + 1) % 4;
  /** @type {number[]} */
  const order = [];
  if (bidder !== null) order.push(bidder);
  if (partner !== null) order.push(partner);
  for (let i = 0; i < 4; i++) {
    const seat = (start + i) % 4;
    if (order.indexOf(seat) < 0) order.push(seat);
  }
  return order;
}

/**
 * After a count: the last seat takes the remainder; with nothing left, every seat still open takes 0.
 * Changes `pad` and `tricks` in place.
 * @param {Pad} pad
 * @param {number[]} tricks the four counts
 * @param {number[]} order `padOrder`'s
 * @param {{ total: number, exact: boolean }} rule the bid's `tricks`
 * @param {boolean} conceded a concession: the counts need not make the total
 */
export function fillPad(pad, tricks, order, rule, conceded) {
  const total = rule.total;
  const exact = rule.exact && !conceded;
  if (pad.auto !== null) { pad.entered[pad.auto] = false; pad.auto = null; }
  const open = order.filter(function (s) { return !pad.entered[s]; });
  const sum = order.filter(function (s) { return pad.entered[s]; }).reduce(function (a, s) { return a + tricks[s]; }, 0);
  if (open.length && open.length < 4 && sum === total) {
    open.forEach(function (s) { tricks[s] = 0; pad.entered[s] = true; });
    pad.auto = open.length === 1 ? open[0] : null;
  } else if (exact && open.length === 1 && total - sum >= 0) {
    tricks[open[0]] = total - sum;
    pad.entered[open[0]] = true;
    pad.auto = open[0];
  }
  open.forEach(function (s) { if (!pad.entered[s]) tricks[s] = 0; });
  if (pad.active === null || pad.entered[pad.active]) {
    const next = order.find(function (s) { return !pad.entered[s]; });
    pad.active = next === undefined ? null : next;
  }
}

/**
 * Whether the tricks are complete: every seat counted, adding up to the deal's total; a bid whose
 * counts need not add up (a misère) needs only the bidder's count; a concession none.
 * @param {Pad} pad
 * @param {number[]} tricks
 * @param {{ total: number, exact: boolean }} rule
 * @param {number | null} bidder
 * @param {boolean} conceded
 */
export function tricksComplete(pad, tricks, rule, bidder, conceded) {
  if (conceded) return true;
  if (!rule.exact) return bidder !== null && pad.entered[bidder];
  const sum = tricks.reduce(function (a, b) { return a + b; }, 0);
  return pad.entered.every(Boolean) && sum === rule.total;
}
