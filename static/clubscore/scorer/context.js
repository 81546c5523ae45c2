// @ts-check
/* What every part of the scorer page shares: the page's config (the server's, with the page), its
 * elements, the one state the parts read and change, and the queue of deals waiting on this phone. */
import { makeQueue } from './queue.js';
import { blankForm } from './derive.js';
import { blankPad } from './pad.js';

/** @typedef {import('./derive.js').Form} Form */
/** @typedef {import('./types.js').Pad} Pad */

export const CS = window.CS;
export const el = CS.el;
/** The page's config (`web.views.score`): the session's players, variant, deal table, legal words, API. @type {any} */
export const cfg = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('scorer-config')).textContent || '{}');
/** The variant's words: bids, suits, field labels, the pool's name. @type {any} */
export const V = cfg.variant;
/** The game's words beside the deal table: belle and petite, the seat and suit fields. @type {any} */
export const L = cfg.legal;
/** @type {string[]} */
export const names = cfg.players;
/** The table's seats, from its players. */
export const SEATS = names.map(function (_, i) { return i; });
export const QKEY = 'clubscore.queue.' + cfg.session;
// Which hand fields name a seat and which a suit: the engine's own sets, sent with the page.
/** @type {string[]} */
export const SEAT_FIELDS = L.seat_fields;
/** @type {string[]} */
export const SUIT_FIELDS = L.suit_fields;
export const RETRY_MS = 4000;
export const POLL_MS = 15000;
export const PETITE = 'petite:'; // a trump button's value for "this suit, the turned one"

/** An element the page always has. @param {string} id */
export function $(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }
/** An element the page may leave out (a reader's page has no form). @param {string} id */
export function $maybe(id) { return document.getElementById(id); }

/** The box's children made `parts`, each child the same as its new part (`isEqualNode`: its tag, its
 * attributes, its text, all the way down) left where it is, untouched; the others replaced one by one.
 * The page renders again whenever a read or a settle lands; a button rebuilt then is a new node, and a
 * press begun on the old one gets no click when it is released on the new one (a mouse's press, or
 * Playwright's: CI lost "Record mine as the next deal" that way). A button whose handler acts on
 * something the page does not show carries it in an attribute (conflict.js: the waiting deal's key), so
 * that a button kept is one that does the same.
 * @param {HTMLElement} box @param {(HTMLElement | null)[]} parts */
export function showChildren(box, parts) {
  const now = parts.filter(function (p) { return p !== null; });
  const was = Array.from(box.childNodes);
  now.forEach(function (part, i) {
    const old = was[i];
    if (!old) box.appendChild(part);
    else if (!old.isEqualNode(part)) old.replaceWith(part);
  });
  was.slice(now.length).forEach(function (old) { old.remove(); });
}

export const root = $('scorer');
/** The deal's form; null on a page of a reader who may not score. */
export const form = /** @type {HTMLFormElement | null} */ (document.getElementById('hand-form'));

/**
 * @typedef {object} State
 * @property {any} session the API's session
 * @property {any[]} hands the API's hands (raw + settled)
 * @property {any} sheet the API's score sheet
 * @property {Form} form
 * @property {Record<string, boolean | string>} auto the form's fields filled by derive(), not chosen by the scorer
 * @property {Pad} pad
 * @property {'new' | 'amend' | 'fix'} mode a new deal, a recorded deal amended, the first waiting deal fixed
 * @property {number | null} amending the deal number being amended
 * @property {boolean} sending
 * @property {boolean} online
 * @property {string | null} awaiting the key of the deal the form waits for (sent at once, online)
 * @property {ApiResult | null} authProblem
 * @property {boolean} [lastSeen] the session shown is the service worker's copy
 * @property {ApiResult | null} loadError
 * @property {number} previewSeq
 * @property {ReturnType<typeof setTimeout> | undefined} previewTimer
 * @property {boolean} undoArmed
 * @property {ReturnType<typeof setTimeout> | undefined} undoTimer
 * @property {{ status: number, error: ApiError | null } | null} notice a refusal not tied to a waiting deal, shown until dismissed
 * @property {boolean} busy
 * @property {boolean} [keepErrors] the server's refusal stays until the scorer changes the deal
 * @property {number | null} formNumber the deal number the form showed when the scorer began this deal
 * @property {string | null} cleared what the last change of bidder or bid cleared, said until the next change
 * @property {boolean} bidsOpen the bid row shows every bid again (a bid chosen folds it to that bid)
 * @property {Element | null} lastRow the form's row the scorer tapped last: the page keeps the rows after it in view
 * @property {number | null} confirmed the deal the confirmation offers to undo or amend, until the next deal is started
 * @property {HTMLElement | null} undoButton the Undo button armed (it reads "Keep deal N" until disarmed)
 * @property {Record<number, string[]>} disputes deal number -> the reasons of its open disputes (the live checks)
 * @property {number} checks the checks' version the page has read
 * @property {Record<string, ConflictPays>} conflictPays a conflicting deal's payments as the server settles it, by its key
 * @property {any[]} recorded the 201 answers of this phone's deals not yet in a session read from the server
 */

/** @typedef {{ deltas: number[] } | { error: string } | 'pending'} ConflictPays */

/** @type {State} */
export const state = {
  session: null,
  hands: [],
  sheet: null,
  form: blankForm(),
  auto: {},
  pad: blankPad(),
  mode: 'new',
  amending: null,
  sending: false,
  online: navigator.onLine !== false,
  awaiting: null,
  authProblem: null,
  loadError: null,
  previewSeq: 0,
  previewTimer: undefined,
  undoArmed: false,
  undoTimer: undefined,
  notice: null,
  busy: false,
  formNumber: null,
  cleared: null,
  bidsOpen: false,
  lastRow: null,
  confirmed: null,
  undoButton: null,
  disputes: {},
  checks: Number(String(cfg.live.tag).split('.')[1]) || 0,
  conflictPays: {},
  recorded: [],
};

// --- the queue (localStorage) -------------------------------------------------------------------

export const queue = makeQueue(localStorage, QKEY, CS.uuid4);
export const loadQueue = queue.load;
export const saveQueue = queue.save;
export const renumberQueue = queue.renumber; // after a conflict: a deal whose number changes gets a new key
