// @ts-check
/* The deal the form is for and what its legal shape says, read from the server's data alone: the
 * session's `next` and `next_legal`, the page's deal table (`legal.deal_bids`, the same shape for every
 * deal) and the deals waiting on this phone. No rule of Boston here: who deals, which bids, which trumps
 * and where belle comes from are the shape's. */

/** @typedef {import('./types.js').DealInfo} DealInfo */
/** @typedef {import('./types.js').LegalBid} LegalBid */
/** @typedef {import('./types.js').BelleOf} BelleOf */
/** @typedef {{ number: number, dealer: number, double?: boolean }} NextDeal a deal: its number, who deals, whether it counts double */

/**
 * The session as the API gives it, the parts read here.
 * @typedef {{ next: { number: number } | null, next_legal?: { number: number, bids: LegalBid[], belle?: BelleOf | null } | null }} SessionNext
 */

/**
 * A deal of the table by its number, or null past the table's end.
 * @param {DealInfo[]} deals
 * @param {number} number
 * @returns {DealInfo | null}
 */
export function dealInfo(deals, number) {
  return deals.find(function (d) { return d.number === number; }) || null;
}

/**
 * The next deal to enter: the server's next, moved on by the deals waiting (looked up in the deal table
 * the server sent with the page, not worked out here).
 * @param {DealInfo[]} deals
 * @param {{ next: NextDeal | null } | null} session
 * @param {number} waiting how many deals wait on this phone
 * @returns {NextDeal | null}
 */
export function nextDeal(deals, session, waiting) {
  if (!session) return null;
  if (!waiting) return session.next;
  if (!session.next) return null;
  return dealInfo(deals, session.next.number + waiting);
}

/**
 * The legal shape of deal `number`: the session's `next_legal` when it is that deal (read again with
 * the session after every recorded deal), else the deal table's entry.
 * @param {DealInfo[]} deals
 * @param {SessionNext | null} session
 * @param {number | null} number
 * @returns {{ bids: LegalBid[], belle: BelleOf | null }}
 */
export function legalOf(deals, session, number) {
  const next = session && session.next_legal;
  if (number !== null && next && next.number === number) return { bids: next.bids, belle: next.belle || null };
  const info = number !== null ? dealInfo(deals, number) : null;
  if (info) return { bids: info.legal || [], belle: info.belle || null };
  return { bids: [], belle: deals.length ? deals[0].belle || null : null };
}

/**
 * Belle (старшая) on deal `number` as the shape says: none when no bid is played in belle, none on the
 * deal that sets it (or before), the shape's suit once the server knows it, else the turned suit of the
 * deal the shape names, as recorded or waiting on this phone (`turnedOf`).
 * @param {BelleOf | null} shape
 * @param {number | null} number the form's deal (null: past the game)
 * @param {(deal: number) => string | null} turnedOf that deal's turned suit, if the page has it
 * @returns {string | null}
 */
export function belleOf(shape, number, turnedOf) {
  if (!shape) return null;
  if (number !== null && number <= shape.deal) return null;
  return shape.suit || turnedOf(shape.deal);
}

/**
 * The session and its hands moved on by the deals this phone saw recorded (their 201 answers) that the
 * session it holds does not show yet: the read after them failed, or came from the service worker's
 * copy of a moment before (the server restarting during an upgrade, issue 27). Without them the next
 * deal would be numbered as one of them again, and come back as a conflict with itself. An answer
 * counts only for the deal right after the hands held, and only on a session older than it (a lower
 * version): a read that has it, or that is newer (the deal undone meanwhile), changes nothing.
 * @param {DealInfo[]} deals
 * @param {any} session the API's session (or null)
 * @param {any[]} hands the API's hands
 * @param {any[]} answers the 201 answers (`HandOut`), oldest first
 * @returns {{ session: any, hands: any[] }}
 */
export function withRecorded(deals, session, hands, answers) {
  let out = { session: session, hands: hands };
  for (const answer of answers) {
    if (!session || !answer || answer.number !== out.hands.length + 1) continue;
    if ((out.session.version || 0) >= (answer.version || 0)) continue;
    const following = dealInfo(deals, answer.number + 1);
    out = {
      session: Object.assign({}, out.session, {
        hands_count: answer.number,
        version: Math.max(out.session.version || 0, answer.version || 0),
        balances: answer.balances,
        pools: answer.pools,
        next: following ? { number: following.number, dealer: following.dealer, double: following.double } : null,
      }),
      hands: out.hands.concat([answer]),
    };
  }
  return out;
}
