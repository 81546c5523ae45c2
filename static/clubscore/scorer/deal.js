// @ts-check
/* The deal the form is for and what its legal shape says, read from the server's data alone: the
 * session's `next` and `next_legal`, the page's deal table (`legal.deal_bids`, the same shape for every
 * deal) and the deals waiting on this phone. No rule of Boston here: who deals, which bids, which trumps
 * and where belle comes from are the shape's. */

/** @typedef {import('./types.js').DealInfo} DealInfo */
/** @typedef {import('./types.js').LegalBid} LegalBid */
/** @typedef {import('./types.js').BelleOf} BelleOf */
/** @typedef {{ number: number, dealer: number, double?: boolean, deal?: number }} NextDeal a deal: its number, who deals, whether it counts double, and `deal`, the deal of the game, when a misdeal made it differ from the number (rules.md §0.11) */

/**
 * The session as the API gives it, the parts read here.
 * @typedef {{ next: { number: number } | null, next_legal?: { number: number, deal?: number, bids: LegalBid[], belle?: BelleOf | null } | null }} SessionNext
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
 * Hand `number` of the sheet as the deal `game` of the game (rules.md §0.11: a misdeal is a hand that
 * passes the deal, not a deal of the game): its dealer by the hand's number, its double by the game's
 * deal, both looked up in the deal table; `deal` said only where the two differ, as the server says it.
 * @param {DealInfo[]} deals
 * @param {number} number
 * @param {number} game
 * @returns {NextDeal | null}
 */
export function handAsDeal(deals, number, game) {
  const info = dealInfo(deals, number);
  if (!info) return null;
  const out = { number: info.number, dealer: info.dealer, double: info.double };
  if (game === number) return out;
  const of = dealInfo(deals, game);
  return Object.assign(out, { double: !!(of && of.double), deal: game });
}

/**
 * The server's next deal, with `deal`, the game's deal, where its `next_legal` says a misdeal made it
 * differ from the number (`next` itself keeps its three keys).
 * @param {{ next: NextDeal | null, next_legal?: { number: number, deal?: number } | null }} session
 * @returns {NextDeal | null}
 */
export function serverNext(session) {
  const next = session.next;
  const legal = session.next_legal;
  if (!next || next.deal || !legal || legal.number !== next.number || !legal.deal) return next;
  return Object.assign({}, next, { deal: legal.deal });
}

/**
 * The next deal to enter: the server's next, moved on by the deals waiting (looked up in the deal table
 * the server sent with the page, not worked out here); the waiting misdeals move the deal on but not the
 * game's deal number.
 * @param {DealInfo[]} deals
 * @param {{ next: NextDeal | null, next_legal?: { number: number, deal?: number } | null } | null} session
 * @param {number} waiting how many deals wait on this phone
 * @param {number} [misdeals] how many of them are misdeals
 * @returns {NextDeal | null}
 */
export function nextDeal(deals, session, waiting, misdeals) {
  if (!session) return null;
  const next = serverNext(session);
  if (!waiting || !next) return next;
  return handAsDeal(deals, next.number + waiting, (next.deal || next.number) + waiting - (misdeals || 0));
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
    const was = serverNext(out.session);
    const game = (was ? was.deal || was.number : answer.number + 1) + (answer.bid === 'misdeal' ? 0 : 1);
    const following = handAsDeal(deals, answer.number + 1, was ? game : answer.number + 1);
    out = {
      session: Object.assign({}, out.session, {
        hands_count: answer.number,
        version: Math.max(out.session.version || 0, answer.version || 0),
        balances: answer.balances,
        pools: answer.pools,
        next: following,
      }),
      hands: out.hands.concat([answer]),
    };
  }
  return out;
}
