// @ts-check
/* The deal's form: the bid, the seats and suits, the count pad, what is filled by itself from the legal
 * shape (`derive`), what a change clears, and the pinned bar's words. What is allowed comes from the
 * server's shape (`deal.js`, `derive.js`); the form decides nothing of Boston's. */
import { $, $maybe, L, PETITE, SEATS, SEAT_FIELDS, SUIT_FIELDS, V, cfg, el, form, loadQueue, names, state } from './context.js';
import { belleOf, dealInfo as dealInfoOf, legalOf, nextDeal as nextDealOf } from './deal.js';
import { blankForm, buildHand as buildHandOf, changedWords as changedWordsOf, handWords as handWordsOf, missingRequired as missingOf, presetTrump,
  rulesOf as rulesOfShape, trumpsAllowed as trumpsAllowedOf } from './derive.js';
import { blankPad, fillPad as fillPadOf, padOrder as padOrderOf, tricksComplete as tricksCompleteOf } from './pad.js';
import { SYMBOL, T } from './words.js';
import { bus } from './bus.js';

/** @typedef {import('./derive.js').Rules} Rules */
/** @typedef {import('./types.js').DealInfo} DealInfo */
/** @typedef {import('./types.js').Hand} Hand */
/** @typedef {{ value: string | number | null, label: string, cls?: string, title?: string | null, aria?: string | null }} Option */

/** The form's element, on a page that has one (every caller is behind a check of `form`). */
const F = /** @type {HTMLFormElement} */ (form);

// --- deal numbers ------------------------------------------------------------------------------

/** The next deal to enter: the server's next, moved on by the deals waiting. @returns {import('./deal.js').NextDeal | null} */
export function nextDeal() {
  const waiting = loadQueue();
  const misdeals = waiting.filter(function (/** @type {any} */ w) { return w.hand.bid === 'misdeal'; }).length;
  return nextDealOf(cfg.deals, state.session, waiting.length, misdeals);
}

/** @param {number} number */
export function dealInfo(number) {
  return dealInfoOf(cfg.deals, number);
}

/** The deal the form is for: an amended one, the waiting one being fixed, or the next. */
export function formDeal() {
  if (state.mode === 'amend' && state.amending !== null) return dealInfo(state.amending);
  if (state.mode === 'fix') return dealInfo(loadQueue()[0].hand.number);
  return begunDeal();
}

/* A new deal keeps the number it was begun as: when another phone recorded that number meanwhile (the
 * live channel says so at once), Record sends it under that number, the server answers stale_number
 * and the page compares the two (the same deal is dropped, a different one is a conflict the scorer
 * settles), never a silent renumbering one tap away from a second recording. */
export function begunDeal() {
  const deal = nextDeal();
  if (deal && state.formNumber !== null && state.formNumber < deal.number) return dealInfo(state.formNumber) || deal;
  return deal;
}

/* What the session's rules allow on the form's deal, as the server declares it (each bid with its
 * fields and trumps, in rank order, and where it finds belle): the session's `next_legal` when the form
 * is for that deal; for a deal numbered on this phone (waiting offline) or amended, the deal table. */
function legalNow() {
  const deal = formDeal();
  return legalOf(cfg.deals, state.session, deal ? deal.number : null);
}

function bidsNow() {
  return legalNow().bids.map(function (b) { return b.code; });
}

/* A bid's legal entry on the form's deal: its fields (the forbidden ones left out), its trumps, and how
 * its tricks add up (the pad's total), all as the server's one reader says (`selectors.deal_legal`). */
/** @param {string} bid */
export function rulesOf(bid) {
  return rulesOfShape(legalNow().bids, bid, belle());
}

/** The bid's field table as R/O, under the session's options. A bidder who pays instead of playing played
 * no card: no count, no revoke (rules.md §0.11). @param {string} bid */
function fieldsOf(bid) {
  const r = rulesOf(bid);
  /** @type {Record<string, 'R' | 'O'>} */
  const out = {};
  if (r) Object.entries(r.fields).forEach(function (kv) { out[kv[0]] = kv[1] === 'required' ? 'R' : 'O'; });
  if (state.form.conceded === 'bidder') { delete out.tricks; delete out.revoke; }
  return out;
}

/* Whether the bid's bidder may pay instead of playing (the variant's declaration, `pays_instead`), alone. */
/** @param {string} bid */
function paysInstead(bid) {
  const found = V.bids.find(function (/** @type {{ code: string }} */ b) { return b.code === bid; });
  return !!found && !!found.pays_instead && state.form.partner === null;
}

/* Belle (старшая) on the form's deal, where the shape says it comes from: the server's suit, else the
 * turned suit of that deal as recorded or waiting on this phone. */
export function belle() {
  const deal = formDeal();
  return belleAt(deal ? deal.number : null);
}

/** Belle on deal `number` (the header's, during a conflict, is the conflicting deal's). @param {number | null} number */
export function belleAt(number) {
  return belleOf(legalOf(cfg.deals, state.session, number).belle, number, function (first) {
    const found = state.hands[first - 1] || loadQueue().map(function (i) { return i.hand; }).find(function (h) { return h.number === first; });
    return found && found.turned ? found.turned : null;
  });
}

/** The suits' codes of the variant. @returns {string[]} */
function suitCodes() {
  return V.suits.map(function (/** @type {{ code: string }} */ s) { return s.code; });
}

/** @param {Rules | null} r */
function trumpsAllowed(r) {
  return trumpsAllowedOf(r, state.form.turned, suitCodes());
}

/* Fill what is known: the only trump allowed, or belle where the bid allows it, until another is chosen;
 * the turned card from a trump outside the bid's own (a bid whose turned suit may be the trump); a
 * single legal choice. A value filled here is replaced as soon as the scorer chooses, and never
 * overrides the scorer's own choice. */
function derive() {
  const f = state.form;
  const auto = state.auto;
  const r = rulesOf(f.bid);
  const simpleOut = !!r && r.trumpsTurned && !!f.trump && !auto.trump && !!r.trumps && r.trumps.indexOf(f.trump) < 0;
  const inPetite = auto.turned === 'petite' && petiteChoices(r) && f.trump === f.turned;
  if (simpleOut && (f.turned === null || auto.turned)) {
    f.turned = f.trump;
    auto.turned = true;
  } else if (auto.turned && !inPetite) {
    f.turned = null; // filled from a choice that no longer says it (another bid, another trump)
    delete auto.turned;
  }
  if (r && r.trumps) {
    const allowed = trumpsAllowed(r);
    if (f.trump !== null && allowed.indexOf(f.trump) < 0) { f.trump = null; delete auto.trump; }
    if (f.trump === null || auto.trump) {
      const pick = presetTrump(allowed, belle());
      f.trump = pick;
      if (pick === null) delete auto.trump; else auto.trump = true;
    }
  }
  if (!r || !r.partner) f.partner = null;
  if (f.partner !== null && f.partner === f.bidder) f.partner = null;
  if (!r || !('conceded' in r.fields) || (f.conceded === 'bidder' && !paysInstead(f.bid))) f.conceded = false;
  if (!r || !('ace_turned' in r.fields)) f.ace_turned = false;
  if (f.conceded === 'bidder') f.revoke = null; // nobody played, nobody revoked
  if (!r || !('tricks' in r.fields)) resetPad();
  else fillPad(r);
}

// the count pad: a count per seat, one tap each, moving on by itself

/* The seats in the order the pad asks them: the bidder, his partner, then round the table. */
export function padOrder() {
  const f = state.form;
  const deal = formDeal();
  return padOrderOf(f.bidder, f.partner, deal ? deal.dealer : SEATS.length - 1);
}

function resetPad() {
  state.form.tricks = SEATS.map(function () { return 0; });
  state.pad = blankPad();
}

/* After a count: the last seat takes the remainder; with nothing left, every seat still open takes 0. */
/** @param {Rules} r */
function fillPad(r) {
  fillPadOf(state.pad, state.form.tricks, padOrder(), r.tricks, !!state.form.conceded);
}

/* The page moves with the scorer: after a tap, the rows still to come stay in view above the pinned
 * bar (the count pad while it asks a count), so no deal needs a swipe. Only when they are not in view
 * already: the page never jumps under a thumb that needs nothing. */
function keepInView() {
  if (!form || form.hidden) return;
  /** @type {Element | null} */
  let target = null;
  const padRow = $('pad-seats').closest('.frow');
  if (state.lastRow === padRow && state.pad.active !== null) target = padRow; // a count still to give
  else if (state.lastRow) {
    let next = state.lastRow.nextElementSibling;
    while (next && (/** @type {HTMLElement} */ (next).hidden || !next.classList.contains('frow'))) next = next.nextElementSibling;
    target = next;
  }
  if (!target) return;
  // Amending, a count given leaves the page where it is: the before/after table above the form stays in view.
  if (state.mode === 'amend' && target !== padRow) return;
  const bar = $maybe('deal-bar');
  const bottom = window.innerHeight - (bar && !bar.hidden ? bar.getBoundingClientRect().height : 0);
  const box = target.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= bottom) return;
  window.scrollBy({ top: box.top - 4, behavior: 'instant' });
}

/** @param {number} n */
function padCount(n) {
  const pad = state.pad;
  const seat = pad.active === null ? padOrder()[0] : pad.active;
  state.form.tricks[seat] = n;
  pad.entered[seat] = true;
  if (pad.auto === seat) pad.auto = null;
  pad.active = null;
  state.lastRow = $('pad-seats').closest('.frow');
  afterChange();
  keepInView();
}

/** @param {number} seat */
function padSeat(seat) {
  state.pad.active = seat;
  state.lastRow = $('pad-seats').closest('.frow');
  renderForm();
  keepInView(); // the keys of that count come into view
}

/* Whether the tricks are complete: every seat counted, adding up to the deal's total; a misère needs
 * only the bidder's count (its tricks may add up to less); a concession none. */
function tricksComplete() {
  const f = state.form;
  const r = rulesOf(f.bid);
  if (!r || !('tricks' in r.fields)) return true;
  return tricksCompleteOf(state.pad, f.tricks, r.tricks, f.bidder, !!f.conceded);
}

/** The hand the form sends. @returns {Hand} */
export function buildHand() {
  return buildHandOf(state.form, rulesOf(state.form.bid));
}

/* What the form still lacks before it can be recorded (the server decides the rest). */
export function missingRequired() {
  return missingOf(state.form, rulesOf(state.form.bid), tricksComplete());
}

/**
 * @param {string} group
 * @param {Option[]} options
 * @param {unknown} value the form's
 * @param {(value: any) => void} onPick
 */
function optionButtons(group, options, value, onPick) {
  const box = /** @type {HTMLElement} */ (F.querySelector('[data-group="' + group + '"]'));
  box.replaceChildren();
  options.forEach(function (opt) {
    box.appendChild(el('button', {
      type: 'button', class: 'opt' + (opt.cls ? ' ' + opt.cls : ''), 'aria-pressed': String(opt.value === value),
      'data-value': opt.value === null ? '' : String(opt.value), title: opt.title || null,
      'aria-label': opt.aria || null,
      onclick: function () { state.lastRow = box.closest('.frow'); onPick(opt.value); keepInView(); },
    }, [opt.label]));
  });
}

/** @param {string} name @param {Record<string, string>} table @returns {Option[]} */
function seatOptions(name, table) {
  let seats = SEATS;
  if (name === 'partner') seats = seats.filter(function (s) { return s !== state.form.bidder; });
  /** @type {Option[]} */
  const options = seats.map(function (s) { return { value: s, label: names[s] }; });
  if (table[name] === 'O') options.push({ value: null, label: T.none, cls: 'none' });
  return options;
}

/** @param {string} code @returns {Option} */
function suitOption(code) {
  const s = V.suits.find(function (/** @type {{ code: string }} */ x) { return x.code === code; });
  return { value: code, label: s ? s.symbol : T.noTrumpShort, title: code === 'none' ? T.noTrump : T.suits[code] || code,
    aria: code === 'none' ? T.noTrumpShort + ' (' + T.noTrump + ')' : T.suits[code] || code,
    cls: 'suit suit-' + code };
}

/** @param {string} name @param {Record<string, string>} table @returns {Option[]} */
function suitOptions(name, table) {
  let codes = suitCodes();
  const r = rulesOf(state.form.bid);
  if (name === 'trump') codes = trumpsAllowed(r);
  const suits = codes.map(suitOption);
  if (name === 'trump' && petiteChoices(r)) {
    // An independence, neuf, solo or nine in petite: one tap says the trump and the turned card.
    codes.filter(function (c) { return c !== belle(); }).forEach(function (c) {
      const label = SYMBOL[c] + ' ' + L.petite;
      suits.push({ value: PETITE + c, label: label, cls: 'suit suit-' + c + ' petite', aria: T.inPetite(label, T.suits[c]) });
    });
  }
  if (table[name] === 'O') suits.push({ value: null, label: T.none, cls: 'none' });
  return suits;
}

/* Whether the trump row offers "in petite" (младшая) choices: a bid in any suit that also needs the
 * turned card, on a deal after the one that sets belle (belle known), while the turned card is not
 * given on its own. */
/** @param {Rules | null} r */
function petiteChoices(r) {
  if (!L.petite || !r || !r.trumps || r.trumpsTurned || !('turned' in r.fields) || !belle()) return false;
  return state.form.turned === null || state.auto.turned === 'petite';
}

/* A tap on the trump row: a suit, or a suit "in petite" (the trump and the turned card at once). */
/** @param {string | null} value */
function pickTrump(value) {
  const f = state.form;
  if (typeof value === 'string' && value.indexOf(PETITE) === 0) {
    f.trump = value.slice(PETITE.length);
    delete state.auto.trump;
    f.turned = f.trump;
    state.auto.turned = 'petite';
    afterChange();
    return;
  }
  if (state.auto.turned === 'petite') { f.turned = null; delete state.auto.turned; }
  set('trump', value);
}

/** @param {string} name a field of the form @param {unknown} value */
export function set(name, value) {
  const f = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (state.form));
  const before = f[name];
  const rulesBefore = rulesOf(state.form.bid);
  f[name] = value;
  delete state.auto[name];
  if (name === 'bid' || name === 'bidder' || name === 'partner' || name === 'conceded') state.pad.active = null;
  afterChange((name === 'bid' || name === 'bidder') && before !== value && before !== null && before !== ''
    ? clearBroken(name, rulesBefore) : null);
}

/* A new bidder or bid after the counts: the answers given for the old one that no longer fit are
 * cleared, and the form says so (a count entered for the old bidder would pay the new one). A new
 * bidder clears the counts (the pad asked them from the old bidder round) and a partner who is now the
 * bidder; a new bid clears the counts when its tricks add up otherwise, and a partner it takes none of. */
/** @param {string} name @param {Rules | null} rulesBefore */
function clearBroken(name, rulesBefore) {
  const f = state.form;
  const r = rulesOf(f.bid);
  const counted = state.pad.entered.some(function (done, seat) { return done && seat !== state.pad.auto; });
  let counts = false;
  if (counted) {
    if (name === 'bidder') counts = true;
    else counts = !r || !('tricks' in r.fields) || !rulesBefore || r.tricks.total !== rulesBefore.tricks.total
      || r.tricks.exact !== rulesBefore.tricks.exact;
  }
  const partner = f.partner !== null && (name === 'bidder' ? f.partner === f.bidder : !(r && r.partner));
  if (counts) resetPad();
  if (partner) f.partner = null;
  if (!counts && !partner) return null;
  if (name === 'bidder') return counts && partner ? T.clearedBidderBoth : counts ? T.clearedBidderCounts : T.clearedBidderPartner;
  return counts && partner ? T.clearedBidBoth : counts ? T.clearedBidCounts : T.clearedBidPartner;
}

/* `cleared`: what this change cleared, said until the next change. */
/** @param {string | null} [cleared] */
function afterChange(cleared) {
  state.cleared = cleared || null;
  began();
  state.keepErrors = false;
  derive();
  clearErrors();
  renderForm();
  bus.schedulePreview();
}

/* Rarely used optional fields (a revoke; American's first-preference suit) wait under "More". */
export function moveRareFields() {
  if (!form) return;
  const more = $('more-fields');
  const rare = ['revoke'];
  /** @type {string[]} */
  const turnedModes = cfg.deals.reduce(function (/** @type {any[]} */ all, /** @type {DealInfo} */ d) { return all.concat(d.legal); }, [])
    .map(function (/** @type {import('./types.js').LegalBid} */ b) { return b.fields.turned; })
    .filter(function (/** @type {string | undefined} */ m) { return m && m !== 'forbidden'; });
  if (turnedModes.length && turnedModes.every(function (m) { return m === 'optional'; })) rare.push('turned');
  rare.forEach(function (name) { more.appendChild(/** @type {Element} */ (F.querySelector('.frow[data-field="' + name + '"]'))); });
}

/* The row shown before a bid is chosen: the bidder (tapped first, as the table says it). */
/** @param {string} name */
function shownWithoutBid(name) {
  return name === 'bidder';
}

export function renderForm() {
  if (!form) return;
  const f = state.form;
  const values = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (f));
  const table = fieldsOf(f.bid);
  form.querySelectorAll('.frow[data-field]').forEach(function (node) {
    const row = /** @type {HTMLElement} */ (node);
    const name = row.dataset.field || '';
    row.hidden = name !== 'bid' && !(name in table) && !(!f.bid && shownWithoutBid(name));
    row.classList.toggle('required', table[name] === 'R' || (!f.bid && shownWithoutBid(name)));
  });
  const more = /** @type {HTMLDetailsElement} */ ($('more-fields'));
  const shown = /** @type {HTMLElement[]} */ (Array.from(more.querySelectorAll('.frow'))).filter(function (row) { return !row.hidden; });
  more.hidden = !shown.length;
  $('more-summary').textContent = T.more(shown.map(function (row) { return inSentence(V.field_labels[row.dataset.field || '']); }).join(', '));
  if (shown.some(function (row) { const name = row.dataset.field || ''; return values[name] !== null && !state.auto[name]; })) more.open = true;
  const allowed = bidsNow();
  // A bid chosen folds the row to it (the form stays one screen); tapping it shows every bid again.
  const folded = !!f.bid && !state.bidsOpen && allowed.indexOf(f.bid) >= 0;
  const bidBox = /** @type {HTMLElement} */ (form.querySelector('[data-group="bid"]'));
  bidBox.classList.toggle('folded', folded);
  bidBox.dataset.folded = String(folded);
  optionButtons('bid', V.bids.filter(function (/** @type {{ code: string }} */ b) { return allowed.indexOf(b.code) >= 0 && (!folded || b.code === f.bid); })
    .map(function (/** @type {{ code: string, label: string, all_pass: boolean }} */ b) {
      return { value: b.code, label: b.label, cls: b.all_pass ? 'pass' : '', aria: folded ? T.changeBid(b.label) : null };
    }), f.bid, function (v) {
    if (folded) { state.bidsOpen = true; renderForm(); return; }
    state.bidsOpen = false;
    set('bid', v);
  });
  SEAT_FIELDS.forEach(function (name) {
    if (name in table || (!f.bid && shownWithoutBid(name))) {
      optionButtons(name, seatOptions(name, f.bid ? table : { bidder: 'R' }), values[name], function (v) { set(name, v); });
    }
  });
  SUIT_FIELDS.forEach(function (name) {
    if (name in table || (!f.bid && shownWithoutBid(name))) {
      const value = name === 'trump' && state.auto.turned === 'petite' ? PETITE + f.trump : values[name];
      optionButtons(name, suitOptions(name, f.bid ? table : { turned: 'R' }), value,
        name === 'trump' ? pickTrump : function (v) { set(name, v); });
    }
  });
  if ('honours' in table) {
    optionButtons('honours', [0, 3, 4].map(function (h) { return { value: h, label: String(h) }; }), f.honours,
      function (v) { set('honours', v); });
  }
  if ('conceded' in table || f.conceded === 'bidder') {
    // How the deal ended: a clear choice, the third only where the variant lets the bidder pay instead.
    /** @type {Option[]} */
    const ended = [{ value: 'played', label: T.playedOut }, { value: 'conceded', label: T.conceded }];
    if (paysInstead(f.bid)) ended.push({ value: 'bidder', label: T.bidderPaysInstead });
    optionButtons('conceded', ended, f.conceded === 'bidder' ? 'bidder' : f.conceded ? 'conceded' : 'played',
      function (v) { set('conceded', v === 'bidder' ? 'bidder' : v === 'conceded'); });
  }
  if ('ace_turned' in table) {
    optionButtons('ace_turned', [{ value: 'no', label: T.no }, { value: 'yes', label: T.yes }], f.ace_turned ? 'yes' : 'no',
      function (v) { set('ace_turned', v === 'yes'); });
  }
  if ('tricks' in table) renderPad();
  // Belle is said once, in the header's badge, not again beside the trump on every deal.
  const leftOut = $maybe('bids-left-out');
  if (leftOut) leftOut.hidden = state.hands.length > 0 || loadQueue().length > 0; // said on the session's first deal only
  const record = /** @type {HTMLButtonElement} */ ($('record'));
  const deal = formDeal();
  if (deal) {
    record.textContent = state.mode === 'amend' ? T.save(deal.number)
      : state.mode === 'fix' ? T.saveWaiting(deal.number) : T.record(deal.number);
  }
  const missing = missingRequired();
  record.disabled = state.busy || missing.length > 0;
  // While a deal is on its way the form still shows it: said to screen readers (and to the browser tests,
  // which wait for it as a person does); taps meanwhile change nothing (scorer.js).
  F.setAttribute('aria-busy', String(state.busy));
  record.setAttribute('aria-describedby', 'record-hint');
  $('record-hint').textContent = missing.length ? T.stillToEnter(missingWords(missing)) : '';
  $('deal-words').textContent = f.bid ? handWords(buildHand(), state.pad.entered) : '';
  $('deal-words').hidden = !f.bid;
  const changes = $maybe('amend-changes');
  if (changes) {
    const amended = state.mode === 'amend' && state.amending !== null ? state.hands[state.amending - 1] : null;
    const said = amended && f.bid ? changeWords(amended, buildHand()) : '';
    changes.textContent = !amended ? '' : said ? T.changes(said) : T.noChange;
    changes.hidden = !amended;
  }
  // Until the next deal is started the bar is the confirmation of the last; Record comes back with it.
  const confirming = !$('confirmation').hidden && state.mode === 'new' && !f.bid;
  $('deal-bar').classList.toggle('confirming', confirming);
  renderMovedOn();
  const note = $('cleared-note');
  note.textContent = state.cleared || '';
  note.hidden = !state.cleared;
}

/* What the form still lacks, in the player's words: "bidder, tricks of Cleo, Dan". */
/** @param {string[]} missing */
export function missingWords(missing) {
  return missing.map(function (m) {
    if (m === 'tricks') {
      const open = padOrder().filter(function (s) { return !state.pad.entered[s]; });
      if (open.length && open.length < SEATS.length) return T.tricksOf(open.map(function (s) { return names[s]; }).join(', '));
    }
    if (m === 'bid') return inSentence(V.field_labels.bid || pgettext('bid', 'Bid'));
    return inSentence(V.field_labels[m] || m);
  }).join(', ');
}

/** The bids whose trump may be the deal's turned suit, on any deal of the table. @type {string[]} */
const TURNED_TRUMPS = Array.from(new Set(cfg.deals.reduce(function (/** @type {string[]} */ all, /** @type {DealInfo} */ d) {
  return all.concat(d.legal.filter(function (b) { return b.trumps_turned; }).map(function (b) { return b.code; }));
}, [])));

/* A deal in words, the same on the pinned bar, in the confirmation and in a conflict: "Ben with Dan ·
 * simple ♥ · turned ♥ · ♦J Ann · tricks: Ben 5, Dan 3, Ann 2, Cleo 3". `entered`: the counts given so
 * far (the bar's), every count when absent (a recorded deal). */
/** @param {Hand} hand @param {boolean[]} [entered] */
export function handWords(hand, entered) {
  return handWordsOf(hand, entered, {
    names: names, bids: V.bids, symbol: SYMBOL, labels: V.field_labels, pair: T.pair, turnedSuit: T.turnedSuit,
    fieldIs: T.fieldIs, counts: T.counts, conceded: T.conceded, inSentence: inSentence, turnedTrumps: TURNED_TRUMPS,
    paysInstead: T.paysInstead, aceTurned: aceTurnedWords,
  }) + misdealWords(hand);
}

/* The dealer of a deal: a recorded one says it, the form's is the page's. */
/** @param {Record<string, any>} hand */
function dealerOf(hand) {
  if (typeof hand.dealer === 'number') return hand.dealer;
  const deal = formDeal();
  return deal ? deal.dealer : null;
}

/* «С ремизом»: who turned the ace (the deal's dealer, who pays the remiz). */
/** @param {Record<string, any>} hand */
function aceTurnedWords(hand) {
  const dealer = dealerOf(hand);
  return T.aceTurned(dealer === null ? '' : names[dealer]);
}

/* A misdeal passes the deal on: the bar and the confirmation say to whom (the deal table's next dealer). */
/** @param {Record<string, any>} hand */
function misdealWords(hand) {
  if (hand.bid !== 'misdeal') return '';
  const number = typeof hand.number === 'number' ? hand.number : (formDeal() || { number: 0 }).number;
  const next = number ? dealInfo(number + 1) : null;
  return next ? ' · ' + T.passesTo(names[next.dealer]) : '';
}

/* What an amendment changes, in words ("Dan 3 → 2"); empty when nothing does. */
/** @param {Hand} before @param {Hand} after */
export function changeWords(before, after) {
  return changedWordsOf(/** @type {any} */ (before), /** @type {any} */ (after), {
    names: names, bids: V.bids, symbol: SYMBOL, labels: Object.assign({}, V.field_labels, { bid: V.field_labels.bid || pgettext('bid', 'Bid') }),
    pair: T.pair, turnedSuit: T.turnedSuit, fieldIs: T.fieldIs, counts: T.counts, conceded: T.conceded, inSentence: inSentence,
    turnedTrumps: TURNED_TRUMPS, yes: T.conceded, no: T.notConceded, paid: T.bidderPaysInstead,
    aceYes: T.aceTurned(''), aceNo: T.noAceTurned,
  });
}

// A field's label inside a sentence: "Bidder" becomes "bidder", but a card keeps its capital (♦J, not ♦j).
/** @param {string} label */
function inSentence(label) {
  return /^\p{Lu}\p{Ll}/u.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

function renderPad() {
  const f = state.form;
  const pad = state.pad;
  const r = rulesOf(f.bid);
  const total = r ? r.tricks.total : 0;
  // the keys: 0 to the most tricks any bid of the deal plays (those past this bid's count disabled)
  const most = legalNow().bids.reduce(function (m, b) { return Math.max(m, b.tricks.total); }, total);
  const order = padOrder();
  const box = $('pad-seats');
  /** @param {number} seat */
  const others = function (seat) {
    return order.filter(function (s) { return s !== seat && pad.entered[s] && s !== pad.auto; })
      .reduce(function (a, s) { return a + f.tricks[s]; }, 0);
  };
  const sum = f.tricks.reduce(function (a, b) { return a + b; }, 0);
  const left = total - sum;
  // A deal may end short of 13 (a misère lost early, a concession): then some are left, never "-1 too many".
  const counted = left === 0 ? T.allCounted(total) : (left > 0 ? T.left(left) : T.tooMany(-left));
  $('tricks-left').textContent = (pad.entered.every(Boolean) ? counted
    : T.left(Math.max(0, total - order.filter(function (s) { return pad.entered[s]; }).reduce(function (a, s) { return a + f.tricks[s]; }, 0))))
    + rebalanced(pad.auto);
  box.replaceChildren.apply(box, order.map(function (seat) {
    const active = pad.active === seat;
    return el('button', {
      type: 'button', class: 'pad-seat' + (active ? ' active' : '') + (pad.entered[seat] ? ' done' : ''),
      'data-seat': String(seat), 'aria-pressed': String(active),
      onclick: function () { padSeat(seat); },
    }, [el('span', { class: 'who', text: names[seat] }), ' ', el('output', { class: 'count', 'data-seat': String(seat),
      text: pad.entered[seat] ? String(f.tricks[seat]) : '·' }),
    el('span', { class: 'sr-only', text: ' ' + (pad.entered[seat] ? T.tricks : T.notCounted) })]);
  }));
  const seat = pad.active === null ? order[0] : pad.active;
  // Every seat counted (an amendment, a count corrected): a count above what the others leave is taken
  // and the line above says how many too many, rather than greying out the very count a dispute names.
  const allowed = pad.entered.every(Boolean) ? most : total - others(seat);
  const keys = $('pad-keys');
  const buttons = [];
  for (let n = 0; n <= most; n++) {
    buttons.push(el('button', { type: 'button', class: 'key', 'data-count': String(n), disabled: n > allowed || pad.active === null,
      'aria-label': T.countFor(n, names[seat]), onclick: function () { padCount(n); } }, [String(n)]));
  }
  keys.replaceChildren.apply(keys, buttons);
  keys.setAttribute('aria-label', pad.active === null ? T.tricksDone : T.tricksFor(names[seat]));
}

/* Amending, the seat the pad filled by itself to make the total, said when its count moved ("Ann 3 → 1"):
 * a higher count given to one seat comes off that one, never silently. */
/** @param {number | null} seat */
function rebalanced(seat) {
  if (state.mode !== 'amend' || state.amending === null || seat === null) return '';
  const before = state.hands[state.amending - 1];
  const was = before && before.tricks ? before.tricks[seat] : undefined;
  const now = state.form.tricks[seat];
  if (was === undefined || was === now) return '';
  return ' ' + T.rebalanced(names[seat], was, now);
}

export function resetForm() {
  state.formNumber = null;
  state.cleared = null;
  state.bidsOpen = false;
  state.lastRow = null;
  state.form = blankForm();
  state.auto = {};
  resetPad();
  state.mode = 'new';
  state.amending = null;
  clearErrors();
  bus.render();
  window.scrollTo({ top: 0, behavior: 'instant' }); // the next deal starts at the top of the form
  state.previewSeq++; // an answer still on its way is for the old form
  bus.preview();
}

// --- errors next to their fields ------------------------------------------------------------------

export function clearErrors() {
  if (!form) return;
  form.querySelectorAll('.ferr').forEach(function (p) { p.textContent = ''; });
  form.querySelectorAll('.frow').forEach(function (row) { row.classList.remove('has-error'); });
}

/* The server's error, each message beside the field it names, in the server's words. Returns whether
 * every message found its field. */
/** @param {ApiError} error */
export function showErrors(error) {
  clearErrors();
  /** @type {string[]} */
  const other = [];
  Object.entries(error.fields || {}).forEach(function (kv) {
    const name = kv[0], msgs = kv[1];
    const target = $maybe('err-' + name);
    const row = target && /** @type {HTMLElement | null} */ (target.closest('.frow'));
    if (target && row && !row.hidden) {
      target.textContent = msgs.join(' ');
      row.classList.add('has-error');
      const parent = row.parentElement;
      if (parent && parent.tagName === 'DETAILS') /** @type {HTMLDetailsElement} */ (parent).open = true;
    } else {
      other.push((V.field_labels[name] || name) + ': ' + msgs.join(' '));
    }
  });
  if (!Object.keys(error.fields || {}).length || other.length) {
    $('err-other').textContent = other.length ? other.join(' — ') : error.message;
  }
  const first = F.querySelector('.has-error');
  if (first) first.scrollIntoView({ block: 'nearest' });
  return Object.keys(error.fields || {}).length > 0 && !other.length;
}

// --- the deal number moving on under the scorer ----------------------------------------------------

/* The deal number the form showed at the scorer's first choice of this deal. */
function began() {
  const next = nextDeal();
  if (state.mode === 'new' && state.formNumber === null && next) state.formNumber = next.number;
  if (state.mode === 'new' && !$('confirmation').hidden) {
    state.confirmed = null; // the next deal is started: the bar is the new deal's (the deal list keeps the last)
    bus.disarmUndo();
    $('confirmation').hidden = true;
    $('deal-bar').classList.remove('confirming');
  }
}

/* Another phone recorded the deal this one began as: said beside Record, so that the scorer checks it
 * is not the same deal before recording it under the next number. */
function renderMovedOn() {
  const line = $maybe('moved-line');
  if (!line) return;
  const deal = nextDeal();
  const moved = state.mode === 'new' && deal && state.formNumber !== null && state.formNumber !== deal.number;
  line.textContent = moved && state.form.bid && state.formNumber !== null ? T.movedOn(state.formNumber) : '';
  line.hidden = !line.textContent;
}

