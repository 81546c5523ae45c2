// @ts-check
/* The shapes the scorer's modules share, as JSDoc types (no code): what the server sends
 * (`ledger.selectors.next_legal`) and what the page keeps. */

/** @typedef {'required' | 'optional' | 'forbidden'} FieldMode */

/**
 * One bid of a deal's legal shape (`ledger.selectors.deal_legal`), in rank order.
 * @typedef {object} LegalBid
 * @property {string} code
 * @property {string} [label]
 * @property {Record<string, FieldMode>} fields every hand field's mode
 * @property {string[] | null} [trumps] the suits the bid allows, null when it names none
 * @property {boolean} [trumps_turned] the deal's turned suit is allowed as well
 * @property {boolean} [belle_trump] belle is among its trumps (once known) and is preselected
 * @property {{ total: number, exact: boolean }} tricks how the four counts add up
 */

/**
 * Where a deal finds belle (старшая): the turned suit of deal `deal` (which itself has none yet), `suit`
 * once the server knows it.
 * @typedef {{ deal: number, suit: string | null }} BelleOf
 */

/**
 * A deal's legal shape: its number, its bids and where it finds belle (null: no bid is played in belle).
 * @typedef {{ number: number, bids: LegalBid[], belle?: BelleOf | null }} Legal
 */

/**
 * A deal of the page's deal table (the server's, with the page): who deals, whether it counts double,
 * its legal shape's bids and belle.
 * @typedef {{ number: number, dealer: number, double?: boolean, legal: LegalBid[], bids?: string[], belle?: BelleOf | null }} DealInfo
 */

/**
 * A hand as the API takes it (and as the queue keeps it, with its number).
 * @typedef {object} Hand
 * @property {number} [number]
 * @property {string} bid
 * @property {number} [bidder]
 * @property {number} [partner]
 * @property {string} [trump]
 * @property {string} [turned]
 * @property {number[]} [tricks]
 * @property {number} [honours]
 * @property {boolean | 'bidder'} [conceded]
 * @property {boolean} [ace_turned]
 * @property {number} [jack]
 * @property {number} [revoke]
 * @property {number} [last_trick]
 */

/**
 * The count pad: which seats were counted, the seat the pad filled by itself, the seat it asks now.
 * @typedef {{ entered: boolean[], auto: number | null, active: number | null }} Pad
 */

export {};
