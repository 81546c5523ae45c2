/* The scorer page: enter a deal, preview its payments (the server's stateless settle), record it.
 *
 * Offline at the table: every deal is first written to localStorage with its Idempotency-Key and the
 * number the scorer believes is next, then sent in order; a deal leaves the queue only when the server
 * has answered for it. A lost answer is retried with the same key and body, so the server records it
 * once. A refusal (a conflict with another phone, a closed session, a broken rule) stops the queue and
 * is shown until the scorer decides; nothing is dropped silently.
 *
 * The browser never computes a payment: previews and balances come from the server.
 *
 * The entry of the page (an ES module, no build step): the queue, the count pad and the form's
 * derivation from the server's legal shape are modules of their own under scorer/, unit-tested with
 * `node --test tests/js/` and checked with `tsc --noEmit` (// @ts-check, JSDoc types).
 */
import { makeQueue } from './scorer/queue.js';
import { blankPad, fillPad as fillPadOf, padOrder as padOrderOf, tricksComplete as tricksCompleteOf } from './scorer/pad.js';
import { blankForm, buildHand as buildHandOf, handWords as handWordsOf, missingRequired as missingOf, rulesOf as rulesOfShape } from './scorer/derive.js';

(function () {
  const CS = window.CS;
  const el = CS.el;
  const cfg = JSON.parse(document.getElementById('scorer-config').textContent);
  const V = cfg.variant;
  const L = cfg.legal;
  const names = cfg.players;
  const QKEY = 'clubscore.queue.' + cfg.session;
  // Which hand fields name a seat and which a suit: the engine's own sets, sent with the page.
  const SEAT_FIELDS = L.seat_fields;
  const SUIT_FIELDS = L.suit_fields;
  const FORM_FIELDS = ['bid', 'bidder', 'trump', 'partner', 'turned', 'tricks', 'honours', 'conceded', 'jack', 'revoke', 'last_trick'];
  const SYMBOL = { clubs: '♣', diamonds: '♦', hearts: '♥', spades: '♠', none: pgettext('no trump, short', 'NT') };
  const RETRY_MS = 4000;
  const POLL_MS = 15000;
  const PETITE = 'petite:'; // a trump button's value for "this suit, the turned one"

  // The page's words, from Django's catalog (/jsi18n/); a sentence with a number is translated whole.
  const fmt = function (text, values) { return interpolate(text, values, true); };
  const T = {
    suits: { clubs: pgettext('suit', 'clubs'), diamonds: pgettext('suit', 'diamonds'), hearts: pgettext('suit', 'hearts'), spades: pgettext('suit', 'spades') },
    none: pgettext('no seat or suit', 'none'), noTrump: gettext('no trump'), noTrumpShort: SYMBOL.none,
    more: function (fields) { return fmt(gettext('More: %(fields)s'), { fields: fields }); },
    record: function (n) { return fmt(gettext('Record deal %(n)s'), { n: n }); },
    save: function (n) { return fmt(gettext('Save deal %(n)s'), { n: n }); },
    saveWaiting: function (n) { return fmt(gettext('Save waiting deal %(n)s'), { n: n }); },
    stillToEnter: function (fields) { return fmt(gettext('Still to enter: %(fields)s'), { fields: fields }); },
    // a button's name begins with its visible text (WCAG 2.5.3): "♠ petite: spades, the turned suit"
    inPetite: function (label, suit) { return fmt(gettext('%(label)s: %(suit)s, the turned suit'), { label: label, suit: suit }); },
    movedOn: function (n) { return fmt(gettext('Another phone recorded deal %(n)s while you entered this one: Record compares yours with it before anything is counted.'), { n: n }); },
    clearedBidderCounts: gettext('New bidder: the tricks were cleared, count them again.'),
    clearedBidderPartner: gettext('New bidder: the partner was cleared.'),
    clearedBidderBoth: gettext('New bidder: the tricks and the partner were cleared.'),
    clearedBidCounts: gettext('New bid: its tricks add up otherwise, so the tricks were cleared.'),
    clearedBidPartner: gettext('New bid: it takes no partner, so the partner was cleared.'),
    clearedBidBoth: gettext('New bid: the tricks and the partner were cleared.'),
    // the deal in words, the same on the pinned bar and in the confirmation
    pair: function (bidder, partner) { return fmt(gettext('%(bidder)s with %(partner)s'), { bidder: bidder, partner: partner }); },
    turnedSuit: function (suit) { return fmt(gettext('turned %(suit)s'), { suit: suit }); },
    fieldIs: function (label, value) { return fmt(gettext('%(field)s %(value)s'), { field: label, value: value }); },
    counts: function (counts) { return fmt(gettext('tricks: %(counts)s'), { counts: counts }); },
    tricksOf: function (who) { return fmt(gettext('tricks of %(names)s'), { names: who }); },
    recordedWords: function (n, words) { return fmt(gettext('Deal %(n)s recorded: %(deal)s.'), { n: n, deal: words }); },
    amendedWords: function (n, words) { return fmt(gettext('Deal %(n)s amended: %(deal)s.'), { n: n, deal: words }); },
    undoDeal: function (n) { return fmt(gettext('Undo deal %(n)s'), { n: n }); },
    amendDeal: function (n) { return fmt(gettext('Amend deal %(n)s'), { n: n }); },
    changeBid: function (label) { return fmt(gettext('%(bid)s (change the bid)'), { bid: label }); },
    tricks: gettext('tricks'), notCounted: gettext('not counted yet'), tricksDone: gettext('every seat counted'),
    tricksFor: function (name) { return fmt(gettext('tricks for %(name)s'), { name: name }); },
    countFor: function (n, name) { return fmt(ngettext('%(n)s trick for %(name)s', '%(n)s tricks for %(name)s', n), { n: n, name: name }); },
    conceded: gettext('conceded (“I pay”)'),
    duplicate: function (n) { return fmt(gettext('Deal %(n)s was already recorded by another phone, the same deal as yours: yours was dropped, nothing is counted twice.'), { n: n }); },
    conflictTitle: function (n) { return fmt(gettext('Conflict: another phone recorded deal %(n)s first, and it differs from yours.'), { n: n }); },
    theirs: gettext('Recorded by the other phone'), mine: gettext('Yours, not recorded'),
    keepTheirs: gettext('Keep theirs, drop mine'),
    recordMineNext: function (n) { return fmt(gettext('Record mine as the next deal (%(n)s)'), { n: n }); },
    conflictHead: function (n) { return fmt(gettext('Deal %(n)s: settle the conflict'), { n: n }); },
    offline: gettext('Offline: deals are kept on this phone and sent when the network returns. No preview offline: the server checks each deal when it is sent.'),
    lastSeen: gettext('The balances are as this phone last saw them.'),
    belleDeal1: function (belle) { return fmt(gettext('%(belle)s: the suit turned on deal 1'), { belle: belle }); },
    closedPools: gettext('Closed: the settlement shows how the pools were divided or carried.'),
    left: function (n) { return fmt(gettext('(%(n)s left)'), { n: n }); },
    allCounted: function (n) { return fmt(gettext('(all %(n)s)'), { n: n }); },
    tooMany: function (n) { return fmt(gettext('(%(n)s too many)'), { n: n }); },
    noPreview: gettext('No preview offline: the server checks and settles the deal when it is sent.'),
    kept: function (n) { return fmt(gettext('Deal %(n)s is kept on this phone and waits to be sent.'), { n: n }); },
    refused: function (status) { return fmt(gettext('refused (%(status)s)'), { status: status }); },
    // a transfer's reason (rules.md §0.9), a code in the server's answer, said in the page's words
    reasons: {
      ante: pgettext('transfer reason', 'ante'), contract: pgettext('transfer reason', 'contract'),
      overtricks: pgettext('transfer reason', 'overtricks'), honours: pgettext('transfer reason', 'honours'),
      pool: pgettext('transfer reason', 'pool'), division: pgettext('transfer reason', 'division'),
      jack: pgettext('transfer reason', 'jack'), penalty: pgettext('transfer reason', 'penalty'),
      adjustment: pgettext('transfer reason', 'adjustment'),
    },
  };

  const $ = function (id) { return document.getElementById(id); };
  const root = $('scorer');
  const form = $('hand-form');

  const state = {
    session: null,      // the API's session
    hands: [],          // the API's hands (raw + settled)
    sheet: null,        // the API's score sheet
    form: blankForm(),
    auto: {},           // the form's fields filled by derive(), not chosen by the scorer
    pad: { entered: [false, false, false, false], auto: null, active: null },
    mode: 'new',        // 'new', 'amend' (a recorded deal) or 'fix' (the first waiting deal)
    amending: null,     // the deal number being amended
    sending: false,
    online: navigator.onLine !== false,
    awaiting: null,     // the key of the deal the form waits for (sent at once, online)
    authProblem: null,
    previewSeq: 0,
    previewTimer: null,
    undoArmed: false,
    undoTimer: null,
    notice: null,       // a refusal not tied to a waiting deal (an amendment, an undo), shown until dismissed
    busy: false,
    loadError: null,
    formNumber: null,   // the deal number the form showed when the scorer began this deal
    cleared: null,      // what the last change of bidder or bid cleared, said until the next change
    bidsOpen: false,    // the bid row shows every bid again (a bid chosen folds it to that bid)
    lastRow: null,      // the form's row the scorer tapped last: the page keeps the rows after it in view
    confirmed: null,    // the deal the confirmation offers to undo or amend, until the next deal is started
    disputes: {},       // deal number -> the reasons of its open disputes (the live checks, issue 25)
    checks: Number(String(cfg.live.tag).split('.')[1]) || 0, // the checks' version the page has read
  };

  // --- the queue (localStorage) -------------------------------------------------------------------

  const queue = makeQueue(localStorage, QKEY, CS.uuid4);
  const loadQueue = queue.load;
  const saveQueue = queue.save;
  const renumberQueue = queue.renumber; // after a conflict: a deal whose number changes gets a new key

  // --- what the server knows ------------------------------------------------------------------------

  async function refresh() {
    const results = await Promise.all([
      CS.api('GET', cfg.api.session), CS.api('GET', cfg.api.sheet), CS.apiAll(cfg.api.hands),
    ]);
    if (results.some(function (r) { return r.networkError; })) {
      state.online = false;
      return false;
    }
    // Offline, the service worker answers with the session as last seen: shown, but not the server's now.
    const copy = results.some(function (r) { return r.offlineCopy; });
    const bad = results.find(function (r) { return !r.ok; });
    if (bad) {
      state.loadError = bad;
      if (bad.status === 401 || bad.status === 403) state.authProblem = bad;
      return false;
    }
    state.online = !copy;
    state.lastSeen = copy;
    state.loadError = null;
    state.authProblem = null;
    state.session = results[0].data;
    state.sheet = results[1].data;
    state.hands = results[2].data;
    if (!copy) keepState();
    return true;
  }

  // --- deal numbers ------------------------------------------------------------------------------

  /* The next deal to enter: the server's next, moved on by the deals waiting (looked up in the deal
   * order the server sent with the page, not worked out here). */
  function nextDeal() {
    if (!state.session) return null;
    const waiting = loadQueue().length;
    if (!waiting) return state.session.next;
    if (!state.session.next) return null;
    const number = state.session.next.number + waiting;
    return cfg.deals.find(function (d) { return d.number === number; }) || null;
  }

  function dealInfo(number) {
    return cfg.deals.find(function (d) { return d.number === number; }) || null;
  }

  // --- the form -------------------------------------------------------------------------------------

  /* The deal the form is for: an amended one, the waiting one being fixed, or the next. */
  function formDeal() {
    if (state.mode === 'amend') return dealInfo(state.amending);
    if (state.mode === 'fix') return dealInfo(loadQueue()[0].hand.number);
    return begunDeal();
  }

  /* A new deal keeps the number it was begun as: when another phone recorded that number meanwhile (the
   * live channel says so at once), Record sends it under that number, the server answers stale_number
   * and the page compares the two (the same deal is dropped, a different one is a conflict the scorer
   * settles), never a silent renumbering one tap away from a second recording. */
  function begunDeal() {
    const deal = nextDeal();
    if (deal && state.formNumber !== null && state.formNumber < deal.number) return dealInfo(state.formNumber) || deal;
    return deal;
  }

  /* What the session's rules allow on the form's deal, as the server declares it (each bid with its
   * fields and trumps, in rank order): the session's `next_legal` when the form is for that deal (read
   * again with the session after every recorded deal); for a deal numbered on this phone (waiting
   * offline) or amended, the server's deal table, which has the same entries for every deal. */
  function legalBids() {
    const deal = formDeal();
    const next = state.session && state.session.next_legal;
    if (deal && next && next.number === deal.number) return next.bids;
    const info = deal && dealInfo(deal.number);
    return (info && info.legal) || [];
  }

  function bidsNow() {
    return legalBids().map(function (b) { return b.code; });
  }

  /* A bid's legal entry on the form's deal: its fields (the forbidden ones left out), its trumps, and how
   * its tricks add up (the pad's total), all as the server's one reader says (`selectors.deal_legal`). */
  function rulesOf(bid) {
    return rulesOfShape(legalBids(), bid, belle());
  }

  /* The bid's field table as R/O, under the session's options. */
  function fieldsOf(bid) {
    const r = rulesOf(bid);
    const out = {};
    if (r) Object.entries(r.fields).forEach(function (kv) { out[kv[0]] = kv[1] === 'required' ? 'R' : 'O'; });
    return out;
  }

  /* Belle (старшая): deal 1's turned suit, known once deal 1 is recorded or waits; deal 1 sets it. */
  function belle() {
    if (!L.belle) return null;
    const deal = formDeal();
    if (deal && deal.number === 1) return null;
    const first = state.hands[0] || loadQueue().map(function (i) { return i.hand; }).find(function (h) { return h.number === 1; });
    return first && first.turned ? first.turned : null;
  }

  /* The trumps the bid allows this deal: its own, and the turned suit where the server says so (a
   * simple); any suit while the turned card is not given yet: choosing one then says which was turned. */
  function trumpsAllowed(r) {
    if (!r || !r.trumps) return [];
    if (!r.trumpsTurned) return r.trumps;
    const t = state.form.turned;
    const suits = V.suits.map(function (s) { return s.code; });
    if (!t) return suits;
    return suits.filter(function (s) { return s === t || r.trumps.indexOf(s) >= 0; });
  }

  /* Fill what is known: belle as the trump until another is chosen; the turned card from a simple's
   * trump other than belle (a simple is played in belle or the turned suit); a single legal choice. A value filled here is replaced as
   * soon as the scorer chooses, and never overrides the scorer's own choice. */
  function derive() {
    const f = state.form;
    const auto = state.auto;
    const r = rulesOf(f.bid);
    const simpleOut = r && r.trumpsTurned && f.trump && !auto.trump && r.trumps.indexOf(f.trump) < 0;
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
        const b = belle();
        let pick = null;
        if (allowed.length === 1) pick = allowed[0];
        else if (b && allowed.indexOf(b) >= 0) pick = b;
        f.trump = pick;
        if (pick === null) delete auto.trump; else auto.trump = true;
      }
    }
    if (!r || !r.partner) f.partner = null;
    if (f.partner !== null && f.partner === f.bidder) f.partner = null;
    if (!r || !('tricks' in r.fields)) resetPad();
    else fillPad();
  }

  // the count pad: a count per seat, one tap each, moving on by itself

  /* The seats in the order the pad asks them: the bidder, his partner, then round the table. */
  function padOrder() {
    const f = state.form;
    return padOrderOf(f.bidder, f.partner, (formDeal() || { dealer: 3 }).dealer);
  }

  function resetPad() {
    state.form.tricks = [0, 0, 0, 0];
    state.pad = blankPad();
  }

  function padTotal() {
    const r = rulesOf(state.form.bid);
    return r ? r.tricks.total : 13;
  }

  /* After a count: the last seat takes the remainder; with nothing left, every seat still open takes 0. */
  function fillPad() {
    const r = rulesOf(state.form.bid);
    fillPadOf(state.pad, state.form.tricks, padOrder(), r ? r.tricks : null, state.form.conceded);
  }

  /* The page moves with the scorer: after a tap, the rows still to come stay in view above the pinned
   * bar (the count pad while it asks a count), so no deal needs a swipe. Only when they are not in view
   * already: the page never jumps under a thumb that needs nothing. */
  function keepInView() {
    if (!form || form.hidden) return;
    let target = null;
    const padRow = $('pad-seats').closest('.frow');
    if (state.lastRow === padRow && state.pad.active !== null) target = padRow; // a count still to give
    else if (state.lastRow) {
      let next = state.lastRow.nextElementSibling;
      while (next && (next.hidden || !next.classList.contains('frow'))) next = next.nextElementSibling;
      target = next;
    }
    if (!target) return;
    const bar = $('deal-bar');
    const bottom = window.innerHeight - (bar && !bar.hidden ? bar.getBoundingClientRect().height : 0);
    const box = target.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= bottom) return;
    window.scrollBy({ top: box.top - 4, behavior: 'instant' });
  }

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
    return tricksCompleteOf(state.pad, f.tricks, r.tricks, f.bidder, f.conceded);
  }

  function buildHand() {
    return buildHandOf(state.form, rulesOf(state.form.bid));
  }

  function formFromHand(hand) {
    const f = blankForm();
    FORM_FIELDS.forEach(function (name) {
      if (hand[name] !== undefined && hand[name] !== null) f[name] = name === 'tricks' ? hand.tricks.slice() : hand[name];
    });
    return f;
  }

  /* What the form still lacks before it can be recorded (the server decides the rest). */
  function missingRequired() {
    return missingOf(state.form, rulesOf(state.form.bid), tricksComplete());
  }

  function optionButtons(group, options, value, onPick) {
    const box = form.querySelector('[data-group="' + group + '"]');
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

  function seatOptions(name, table) {
    let seats = [0, 1, 2, 3];
    if (name === 'partner') seats = seats.filter(function (s) { return s !== state.form.bidder; });
    const options = seats.map(function (s) { return { value: s, label: names[s] }; });
    if (table[name] === 'O') options.push({ value: null, label: T.none, cls: 'none' });
    return options;
  }

  function suitOption(code) {
    const s = V.suits.find(function (x) { return x.code === code; });
    return { value: code, label: s ? s.symbol : T.noTrumpShort, title: code === 'none' ? T.noTrump : T.suits[code] || code,
      aria: code === 'none' ? T.noTrumpShort + ' (' + T.noTrump + ')' : T.suits[code] || code,
      cls: 'suit suit-' + code };
  }

  function suitOptions(name, table) {
    let codes = V.suits.map(function (s) { return s.code; });
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
   * turned card, on a deal after deal 1 (belle known), while the turned card is not given on its own. */
  function petiteChoices(r) {
    if (!L.petite || !r || !r.trumps || r.trumpsTurned || !('turned' in r.fields) || !belle()) return false;
    return state.form.turned === null || state.auto.turned === 'petite';
  }

  /* A tap on the trump row: a suit, or a suit "in petite" (the trump and the turned card at once). */
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

  function set(name, value) {
    const before = state.form[name];
    const rulesBefore = rulesOf(state.form.bid);
    state.form[name] = value;
    delete state.auto[name];
    if (name === 'bid' || name === 'bidder' || name === 'partner' || name === 'conceded') state.pad.active = null;
    afterChange((name === 'bid' || name === 'bidder') && before !== value && before !== null && before !== ''
      ? clearBroken(name, rulesBefore) : null);
  }

  /* A new bidder or bid after the counts: the answers given for the old one that no longer fit are
   * cleared, and the form says so (a count entered for the old bidder would pay the new one). A new
   * bidder clears the counts (the pad asked them from the old bidder round) and a partner who is now the
   * bidder; a new bid clears the counts when its tricks add up otherwise, and a partner it takes none of. */
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
  function afterChange(cleared) {
    state.cleared = cleared || null;
    began();
    state.keepErrors = false;
    derive();
    clearErrors();
    renderForm();
    schedulePreview();
  }


  /* Rarely used optional fields (a revoke; American's first-preference suit) wait under "More". */
  function moveRareFields() {
    if (!form) return;
    const more = $('more-fields');
    const rare = ['revoke'];
    const turnedModes = cfg.deals.reduce(function (all, d) { return all.concat(d.legal); }, [])
      .map(function (b) { return b.fields.turned; }).filter(function (m) { return m && m !== 'forbidden'; });
    if (turnedModes.length && turnedModes.every(function (m) { return m === 'optional'; })) rare.push('turned');
    rare.forEach(function (name) { more.appendChild(form.querySelector('.frow[data-field="' + name + '"]')); });
  }

  /* The row shown before a bid is chosen: the bidder (tapped first, as the table says it). */
  function shownWithoutBid(name) {
    return name === 'bidder';
  }

  function renderForm() {
    if (!form) return;
    const f = state.form;
    const table = fieldsOf(f.bid);
    form.querySelectorAll('.frow[data-field]').forEach(function (row) {
      const name = row.dataset.field;
      row.hidden = name !== 'bid' && !(name in table) && !(!f.bid && shownWithoutBid(name));
      row.classList.toggle('required', table[name] === 'R' || (!f.bid && shownWithoutBid(name)));
    });
    const more = $('more-fields');
    const shown = Array.from(more.querySelectorAll('.frow')).filter(function (row) { return !row.hidden; });
    more.hidden = !shown.length;
    $('more-summary').textContent = T.more(shown.map(function (row) { return inSentence(V.field_labels[row.dataset.field]); }).join(', '));
    if (shown.some(function (row) { return state.form[row.dataset.field] !== null && !state.auto[row.dataset.field]; })) more.open = true;
    const allowed = bidsNow();
    // A bid chosen folds the row to it (the form stays one screen); tapping it shows every bid again.
    const folded = !!f.bid && !state.bidsOpen && allowed.indexOf(f.bid) >= 0;
    const bidBox = form.querySelector('[data-group="bid"]');
    bidBox.classList.toggle('folded', folded);
    bidBox.dataset.folded = String(folded);
    optionButtons('bid', V.bids.filter(function (b) { return allowed.indexOf(b.code) >= 0 && (!folded || b.code === f.bid); }).map(function (b) {
      return { value: b.code, label: b.label, cls: b.code === 'pass' ? 'pass' : '', aria: folded ? T.changeBid(b.label) : null };
    }), f.bid, function (v) {
      if (folded) { state.bidsOpen = true; renderForm(); return; }
      state.bidsOpen = false;
      set('bid', v);
    });
    SEAT_FIELDS.forEach(function (name) {
      if (name in table || (!f.bid && shownWithoutBid(name))) {
        optionButtons(name, seatOptions(name, f.bid ? table : { bidder: 'R' }), f[name], function (v) { set(name, v); });
      }
    });
    SUIT_FIELDS.forEach(function (name) {
      if (name in table || (!f.bid && shownWithoutBid(name))) {
        const value = name === 'trump' && state.auto.turned === 'petite' ? PETITE + f.trump : f[name];
        optionButtons(name, suitOptions(name, f.bid ? table : { turned: 'R' }), value,
          name === 'trump' ? pickTrump : function (v) { set(name, v); });
      }
    });
    if ('honours' in table) {
      optionButtons('honours', [0, 3, 4].map(function (h) { return { value: h, label: String(h) }; }), f.honours,
        function (v) { set('honours', v); });
    }
    $('f-conceded').checked = !!f.conceded;
    if ('tricks' in table) renderPad();
    // Belle is said once, in the header's badge, not again beside the trump on every deal.
    const leftOut = $('bids-left-out');
    if (leftOut) leftOut.hidden = state.hands.length > 0 || loadQueue().length > 0; // said on the session's first deal only
    const record = $('record');
    const deal = formDeal();
    if (deal) {
      record.textContent = state.mode === 'amend' ? T.save(deal.number)
        : state.mode === 'fix' ? T.saveWaiting(deal.number) : T.record(deal.number);
    }
    const missing = missingRequired();
    record.disabled = state.busy || missing.length > 0;
    record.setAttribute('aria-describedby', 'record-hint');
    $('record-hint').textContent = missing.length ? T.stillToEnter(missingWords(missing)) : '';
    $('deal-words').textContent = f.bid ? handWords(buildHand(), state.pad.entered) : '';
    $('deal-words').hidden = !f.bid;
    // Until the next deal is started the bar is the confirmation of the last; Record comes back with it.
    const confirming = !$('confirmation').hidden && state.mode === 'new' && !f.bid;
    $('deal-bar').classList.toggle('confirming', confirming);
    renderMovedOn();
    const note = $('cleared-note');
    note.textContent = state.cleared || '';
    note.hidden = !state.cleared;
  }

  /* What the form still lacks, in the player's words: "bidder, tricks of Cleo, Dan". */
  function missingWords(missing) {
    return missing.map(function (m) {
      if (m === 'tricks') {
        const open = padOrder().filter(function (s) { return !state.pad.entered[s]; });
        if (open.length && open.length < 4) return T.tricksOf(open.map(function (s) { return names[s]; }).join(', '));
      }
      if (m === 'bid') return inSentence(V.field_labels.bid || pgettext('bid', 'Bid'));
      return inSentence(V.field_labels[m] || m);
    }).join(', ');
  }

  /* A deal in words, the same on the pinned bar and in the confirmation: "Ben with Dan · simple ♥ ·
   * turned ♥ · ♦J Ann · tricks: Ben 5, Dan 3, Ann 2, Cleo 3". `entered`: the counts given so far (the
   * bar's), every count when absent (a recorded deal). */
  function handWords(hand, entered) {
    return handWordsOf(hand, entered, {
      names: names, bids: V.bids, symbol: SYMBOL, labels: V.field_labels, pair: T.pair, turnedSuit: T.turnedSuit,
      fieldIs: T.fieldIs, counts: T.counts, conceded: T.conceded, inSentence: inSentence,
    });
  }

  /* The pinned bar's payments: each player's, from the server's preview (or a line why there are none). */
  function barPays(deltas, text) {
    const box = $('bar-pays');
    if (!box) return;
    box.replaceChildren.apply(box, deltas ? [deltasLine(deltas)] : (text ? [el('span', { class: 'muted', text: text })] : []));
    box.hidden = !deltas && !text;
  }

  // A field's label inside a sentence: "Bidder" becomes "bidder", but a card keeps its capital (♦J, not ♦j).
  function inSentence(label) {
    return /^\p{Lu}\p{Ll}/u.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
  }

  function renderPad() {
    const f = state.form;
    const pad = state.pad;
    const total = padTotal();
    const order = padOrder();
    const box = $('pad-seats');
    const others = function (seat) {
      return order.filter(function (s) { return s !== seat && pad.entered[s] && s !== pad.auto; })
        .reduce(function (a, s) { return a + f.tricks[s]; }, 0);
    };
    const sum = f.tricks.reduce(function (a, b) { return a + b; }, 0);
    const left = total - sum;
    // A deal may end short of 13 (a misère lost early, a concession): then some are left, never "-1 too many".
    const counted = left === 0 ? T.allCounted(total) : (left > 0 ? T.left(left) : T.tooMany(-left));
    $('tricks-left').textContent = pad.entered.every(Boolean) ? counted
      : T.left(Math.max(0, total - order.filter(function (s) { return pad.entered[s]; }).reduce(function (a, s) { return a + f.tricks[s]; }, 0)));
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
    const most = total - others(seat);
    const keys = $('pad-keys');
    const buttons = [];
    for (let n = 0; n <= 13; n++) {
      buttons.push(el('button', { type: 'button', class: 'key', 'data-count': String(n), disabled: n > most || pad.active === null,
        'aria-label': T.countFor(n, names[seat]), onclick: function () { padCount(n); } }, [String(n)]));
    }
    keys.replaceChildren.apply(keys, buttons);
    keys.setAttribute('aria-label', pad.active === null ? T.tricksDone : T.tricksFor(names[seat]));
  }

  function resetForm() {
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
    render();
    window.scrollTo({ top: 0, behavior: 'instant' }); // the next deal starts at the top of the form
    state.previewSeq++; // an answer still on its way is for the old form
    preview();
  }

  // --- errors next to their fields ------------------------------------------------------------------

  function clearErrors() {
    if (!form) return;
    form.querySelectorAll('.ferr').forEach(function (p) { p.textContent = ''; });
    form.querySelectorAll('.frow').forEach(function (row) { row.classList.remove('has-error'); });
  }

  /* The server's error, each message beside the field it names, in the server's words. Returns whether
   * every message found its field. */
  function showErrors(error) {
    clearErrors();
    const other = [];
    Object.entries(error.fields || {}).forEach(function (kv) {
      const name = kv[0], msgs = kv[1];
      const target = $('err-' + name);
      const row = target && target.closest('.frow');
      if (target && row && !row.hidden) {
        target.textContent = msgs.join(' ');
        row.classList.add('has-error');
        if (row.parentElement.tagName === 'DETAILS') row.parentElement.open = true;
      } else {
        other.push((V.field_labels[name] || name) + ': ' + msgs.join(' '));
      }
    });
    if (!Object.keys(error.fields || {}).length || other.length) {
      $('err-other').textContent = other.length ? other.join(' — ') : error.message;
    }
    const first = form.querySelector('.has-error');
    if (first) first.scrollIntoView({ block: 'nearest' });
    return Object.keys(error.fields || {}).length > 0 && !other.length;
  }

  // --- preview (the server settles; the browser shows) ------------------------------------------------

  function schedulePreview() {
    clearTimeout(state.previewTimer);
    state.previewTimer = setTimeout(preview, 200);
  }

  function previewSheet(hand) {
    const sheet = Object.assign({}, state.sheet);
    delete sheet.close;
    const waiting = loadQueue().map(function (item) { const h = Object.assign({}, item.hand); delete h.number; return h; });
    if (state.mode === 'amend') {
      sheet.hands = state.sheet.hands.slice();
      sheet.hands[state.amending - 1] = hand;
      sheet.hands = sheet.hands.concat(waiting);
    } else if (state.mode === 'fix') {
      sheet.hands = state.sheet.hands.concat([hand], waiting.slice(1));
    } else {
      sheet.hands = state.sheet.hands.concat(waiting, [hand]);
    }
    return sheet;
  }

  function partyName(p) { return p === 'pool' ? V.pool_label || gettext('pool') : names[p]; }

  function deltasLine(deltas) {
    return el('ul', { class: 'deltas' }, deltas.map(function (d, seat) {
      return el('li', {}, [el('span', { class: 'who', text: names[seat] }), ' ', CS.numSpan(d)]);
    }));
  }

  function transfersList(transfers, pools) {
    const count = fmt(ngettext('%(n)s transfer', '%(n)s transfers', transfers.length), { n: transfers.length });
    return el('details', { class: 'transfers' }, [
      el('summary', { text: pools ? fmt(gettext('after it: %(pools)s · %(transfers)s'), { pools: poolsText(pools), transfers: count }) : count }),
      el('ul', {}, transfers.map(function (t) {
        return el('li', { text: fmt(gettext('%(payer)s → %(payee)s: %(counters)s (%(reason)s)'),
          { payer: partyName(t.from), payee: partyName(t.to), counters: CS.plain.format(t.counters), reason: T.reasons[t.reason] || t.reason }) });
      })),
    ]);
  }

  function poolsText(pools) {
    if (!pools || !pools.length) return fmt(gettext('%(pool)s empty'), { pool: V.pool_label });
    return V.pool_label + ' ' + pools.map(function (p) { return CS.plain.format(p); }).join(' · ');
  }

  async function preview() {
    const box = $('preview');
    if (!box || !state.sheet || $('record').hidden) { if (box) box.hidden = true; return; }
    box.hidden = false;
    delete box.dataset.hand;
    const f = state.form;
    barPays(null, null);
    if (!f.bid) {
      box.replaceChildren(el('p', { class: 'muted', text: gettext('Choose the bid; every payment is shown here before you record it.') }));
      return;
    }
    const missing = missingRequired();
    if (missing.length) {
      box.replaceChildren(el('p', { class: 'muted', text: fmt(gettext('Still to enter: %(fields)s.'), { fields: missingWords(missing) }) }));
      return;
    }
    if (navigator.onLine === false) {
      box.replaceChildren(el('p', { class: 'muted', text: T.noPreview }));
      barPays(null, T.noPreview);
      return;
    }
    const hand = buildHand();
    const seq = ++state.previewSeq;
    const sheet = previewSheet(hand);
    const position = state.mode === 'amend' ? state.amending
      : state.mode === 'fix' ? state.sheet.hands.length + 1 : sheet.hands.length;
    const res = await CS.api('POST', cfg.api.settle, sheet);
    if (seq !== state.previewSeq) return;
    if (!res.networkError && !state.online) {
      state.online = true; // the server answered: send what waits
      flush();
    }
    if (res.networkError) {
      state.online = false;
      renderStatus();
      box.replaceChildren(el('p', { class: 'muted', text: T.noPreview }));
      barPays(null, T.noPreview);
      return;
    }
    const error = CS.errorOf(res);
    if (!res.ok) {
      if (error && error.hand === position) {
        const placed = showErrors(error);
        box.replaceChildren(el('p', { class: 'warn', text: placed ? gettext('Not valid yet: see the marked fields.')
          : fmt(gettext('Not valid yet: %(message)s'), { message: error.message }) }));
        barPays(null, box.textContent);
      } else {
        box.replaceChildren(el('p', { class: 'warn', text: error ? error.message : fmt(gettext('The preview failed (%(status)s).'), { status: res.status }) }));
      }
      return;
    }
    if (!state.keepErrors) clearErrors();
    const settled = res.data.hands[position - 1];
    const parts = [el('p', { class: 'preview-title', text: fmt(state.mode === 'amend' ? gettext('Deal %(n)s would become:') : gettext('Deal %(n)s pays:'), { n: position }) })];
    if (state.mode === 'amend') {
      const before = state.hands[position - 1];
      parts.push(changeTable(before.deltas, settled.deltas, state.session.balances, res.data.balances));
    } else {
      parts.push(deltasLine(settled.deltas));
    }
    parts.push(transfersList(settled.transfers, settled.pools));
    box.replaceChildren.apply(box, parts);
    barPays(settled.deltas, null);
    box.dataset.hand = JSON.stringify(hand); // what this preview is of
  }

  // --- the deal number moving on under the scorer ----------------------------------------------------

  /* The deal number the form showed at the scorer's first choice of this deal. */
  function began() {
    if (state.mode === 'new' && state.formNumber === null && nextDeal()) state.formNumber = nextDeal().number;
    if (state.mode === 'new' && !$('confirmation').hidden) {
      state.confirmed = null; // the next deal is started: the bar is the new deal's (the deal list keeps the last)
      $('confirmation').hidden = true;
      $('deal-bar').classList.remove('confirming');
    }
  }

  /* Another phone recorded the deal this one began as: said beside Record, so that the scorer checks it
   * is not the same deal before recording it under the next number. */
  function renderMovedOn() {
    const line = $('moved-line');
    if (!line) return;
    const deal = nextDeal();
    const moved = state.mode === 'new' && deal && state.formNumber !== null && state.formNumber !== deal.number;
    line.textContent = moved && state.form.bid ? T.movedOn(state.formNumber) : '';
    line.hidden = !line.textContent;
  }

  /* An amendment's preview: each seat's change in that deal and its total, before and after. */
  function changeTable(oldDeltas, newDeltas, oldTotals, newTotals) {
    const rows = [0, 1, 2, 3].map(function (seat) {
      const changed = oldDeltas[seat] !== newDeltas[seat] || oldTotals[seat] !== newTotals[seat];
      return el('tr', { class: changed ? 'changed' : '' }, [
        el('th', { scope: 'row', text: names[seat] }),
        el('td', {}, [CS.numSpan(oldDeltas[seat])]), el('td', {}, [CS.numSpan(newDeltas[seat])]),
        el('td', {}, [CS.numSpan(oldTotals[seat])]), el('td', {}, [CS.numSpan(newTotals[seat])]),
      ]);
    });
    return el('table', { class: 'change-table' }, [
      el('thead', {}, [el('tr', {}, [el('th', { text: '' }), el('th', { text: gettext('deal was') }), el('th', { text: pgettext('the deal', 'becomes') }),
        el('th', { text: gettext('total was') }), el('th', { text: pgettext('the total', 'becomes') })])]),
      el('tbody', {}, rows),
    ]);
  }

  // --- recording -------------------------------------------------------------------------------------

  async function onRecord() {
    if (state.busy) return;
    if (state.mode === 'amend') return amend();
    const hand = buildHand();
    if (state.mode === 'fix') {
      const q = loadQueue();
      q[0].hand = Object.assign(hand, { number: q[0].hand.number });
      q[0].key = CS.uuid4();
      delete q[0].problem;
      saveQueue(q);
      resetForm();
      flush();
      return;
    }
    const deal = begunDeal();
    if (!deal) return;
    root.dataset.entered = String(Number(root.dataset.entered || 0) + 1);
    const q = loadQueue();
    const item = { key: CS.uuid4(), hand: Object.assign(hand, { number: deal.number }), at: new Date().toISOString() };
    const direct = q.length === 0 && state.online && !state.sending;
    q.push(item);
    saveQueue(q);
    if (direct) {
      state.awaiting = item.key;
      state.busy = true;
      $('record').textContent = fmt(gettext('Recording deal %(n)s…'), { n: deal.number });
      $('record').disabled = true;
    } else {
      resetForm();
      notify(T.kept(deal.number), null);
    }
    flush();
  }

  function handKey(hand) {
    const out = {};
    FORM_FIELDS.concat(['adjustments']).forEach(function (name) {
      if (hand && hand[name] !== undefined && hand[name] !== null) out[name] = hand[name];
    });
    return JSON.stringify(out);
  }

  /* Whether the deal another phone recorded under this number is the same as the waiting one. */
  async function sameAsRecorded(item) {
    await refresh();
    const theirs = state.hands[item.hand.number - 1];
    return !!theirs && handKey(theirs) === handKey(item.hand);
  }

  function done(item) {
    if (state.awaiting === item.key) {
      state.awaiting = null;
      state.busy = false;
      return true;
    }
    return false;
  }

  /* Send the waiting deals, oldest first, one at a time. */
  async function flush() {
    if (state.sending) return;
    let q = loadQueue();
    if (!q.length || q[0].problem || state.mode === 'fix') { render(); return; }
    state.sending = true;
    renderStatus();
    let recorded = false;
    const sent = []; // every deal this flush recorded, each shown with its payments
    try {
      while ((q = loadQueue()).length && !q[0].problem) {
        const item = q[0];
        const res = await CS.api('POST', cfg.api.hands, item.hand, { 'Idempotency-Key': item.key });
        if (res.networkError) {
          state.online = false;
          if (done(item)) { resetForm(); notify(fmt(gettext('No network: deal %(n)s is kept on this phone and waits to be sent.'), { n: item.hand.number }), null); }
          break;
        }
        state.online = true;
        const error = CS.errorOf(res);
        const code = error && error.code;
        if (res.status === 201) {
          queue.dropHead(item.key);
          recorded = true;
          if (done(item)) resetForm();
          sent.push(res.data);
          notifySent(sent);
          continue;
        }
        if (code === 'stale_number' && await sameAsRecorded(item)) {
          // The other phone recorded this very deal: mine is dropped, nothing is counted twice.
          if (state.awaiting === item.key) { state.awaiting = null; state.busy = false; resetForm(); }
          queue.dropHead(item.key);
          sent.push({ number: item.hand.number, duplicate: true });
          notifySent(sent);
          recorded = true;
          continue;
        }
        if (res.status >= 500 || res.status === 429 || code === 'idempotency_in_flight') {
          if (done(item)) { resetForm(); notify(fmt(gettext('The server could not take deal %(n)s yet; it waits on this phone.'), { n: item.hand.number }), null); }
          break; // the retry timer sends it again, with the same key
        }
        if (res.status === 401 || res.status === 403) {
          state.authProblem = res;
          if (done(item)) { resetForm(); }
          break;
        }
        if (res.status === 400 && done(item)) {
          // Entered just now and refused: back to the form, the server's words beside the fields.
          queue.dropHead(item.key);
          showErrors(error || { message: T.refused(res.status), fields: {} });
          state.keepErrors = true; // the server's refusal stays until the scorer changes the deal
          break;
        }
        // A conflict or a refusal of a deal that waited: stop and show it until the scorer decides.
        if (state.awaiting === item.key) { state.awaiting = null; state.busy = false; resetForm(); }
        q = loadQueue();
        if (q.length && q[0].key === item.key) {
          q[0].problem = { status: res.status, error: error || { code: 'error', message: T.refused(res.status), fields: {} } };
          saveQueue(q);
        }
        break;
      }
    } finally {
      state.sending = false;
      state.busy = false;
    }
    if (!recorded) render(); // at once; after a recording, the server's figures come first
    if (recorded || state.online) await refresh();
    if (recorded) { await loadChecks(); caughtUp(); }
    render();
    schedulePreview();
  }

  async function amend() {
    const number = state.amending;
    const hand = buildHand();
    state.busy = true;
    renderForm();
    const res = await CS.api('PUT', cfg.api.hands + number + '/', hand, { 'If-Match': '"' + state.session.version + '"' });
    state.busy = false;
    if (res.networkError) {
      state.online = false;
      render();
      $('err-other').textContent = gettext('No network: the amendment was not saved. Try again when the network is back.');
      return;
    }
    const error = CS.errorOf(res);
    if (res.ok) {
      await refresh();
      await loadChecks(); // an amend clears the deal's checks: its dispute is gone
      caughtUp();
      resetForm();
      notify(T.amendedWords(number, handWords(res.data)), res.data);
      return;
    }
    if (res.status === 412 || res.status === 409) {
      await refresh();
      state.notice = { status: res.status, error: error };
      render();
      return;
    }
    if (error && error.hand && error.hand !== number) {
      showErrors({ message: error.message, fields: {} });
    } else {
      showErrors(error || { message: T.refused(res.status), fields: {} });
    }
    renderForm();
  }

  // --- undo ----------------------------------------------------------------------------------------

  /* Undo from the actions or from the confirmation: the button tapped arms, a second tap undoes. */
  async function onUndo(e) {
    const button = (e && e.currentTarget) || $('undo');
    const q = loadQueue();
    if (!state.undoArmed) {
      state.undoArmed = true;
      const before = button.textContent;
      button.textContent = q.length ? fmt(gettext('Tap again: remove waiting deal %(n)s'), { n: q[q.length - 1].hand.number })
        : fmt(gettext('Tap again: undo deal %(n)s'), { n: state.hands.length });
      button.classList.add('armed');
      clearTimeout(state.undoTimer);
      state.undoTimer = setTimeout(function () {
        state.undoArmed = false;
        if (button !== $('undo')) { button.textContent = before; button.classList.remove('armed'); }
        renderActions();
      }, 4000);
      return;
    }
    state.undoArmed = false;
    clearTimeout(state.undoTimer);
    if (q.length) {
      q.pop();
      saveQueue(q);
      notify(gettext('The waiting deal was removed; it was never sent.'), null);
      render();
      return;
    }
    const number = state.hands.length;
    const res = await CS.api('DELETE', cfg.api.hands + number + '/', null, { 'If-Match': '"' + state.session.version + '"' });
    if (res.networkError) {
      state.online = false;
      render();
      notify(fmt(gettext('No network: deal %(n)s was not undone.'), { n: number }), null);
      return;
    }
    await refresh();
    if (res.ok) {
      await loadChecks();
      caughtUp();
      notify(fmt(gettext('Deal %(n)s undone.'), { n: number }), null);
    } else {
      state.notice = { status: res.status, error: CS.errorOf(res) };
    }
    render();
    schedulePreview();
  }

  // --- amend an earlier deal ---------------------------------------------------------------------------

  function startAmend(number) {
    const hand = state.hands[number - 1];
    state.mode = 'amend';
    state.amending = number;
    state.form = formFromHand(hand);
    state.auto = {};
    // The same pad as a new deal's: a count changed, the last seat of the pad's order takes the rest.
    state.pad = { entered: [true, true, true, true], auto: null, active: null };
    const order = padOrder();
    if (rulesOf(state.form.bid) && rulesOf(state.form.bid).tricks.exact && !state.form.conceded) state.pad.auto = order[order.length - 1];
    state.confirmed = null;
    $('confirmation').hidden = true; // the bar is the amendment's now
    $('deal-bar').classList.remove('confirming');
    clearErrors();
    render();
    schedulePreview();
    window.scrollTo({ top: 0, behavior: 'instant' });
  }

  function startFix() {
    const q = loadQueue();
    state.mode = 'fix';
    state.form = formFromHand(q[0].hand);
    state.auto = {};
    state.pad = { entered: [true, true, true, true], auto: null, active: null };
    render();
    showErrors(q[0].problem.error);
    schedulePreview();
  }

  // --- messages --------------------------------------------------------------------------------------

  /* What a flush sent: each deal recorded, with its payments (or dropped as another phone's twin). */
  function notifySent(sent) {
    const box = $('confirmation');
    const parts = [];
    sent.forEach(function (hand) {
      if (hand.duplicate) {
        parts.push(el('p', { class: 'sent duplicate', text: T.duplicate(hand.number) }));
        return;
      }
      parts.push(el('p', { class: 'sent', text: T.recordedWords(hand.number, handWords(hand)) }));
      parts.push(deltasLine(hand.deltas)); // the pools after it are in the header
    });
    const last = sent.filter(function (h) { return !h.duplicate; }).pop();
    state.confirmed = last ? last.number : null;
    if (last) parts.push(confirmTools(last.number));
    box.replaceChildren.apply(box, parts);
    box.hidden = false;
    renderForm();
  }

  /* Undo and Amend in the confirmation, until the next deal is started. */
  function confirmTools(number) {
    return el('div', { class: 'buttons confirm-tools' }, [
      el('button', { type: 'button', class: 'secondary', id: 'confirm-undo', onclick: onUndo }, [T.undoDeal(number)]),
      el('button', { type: 'button', class: 'secondary', 'data-amend': String(number), id: 'confirm-amend',
        onclick: function () { startAmend(number); } }, [T.amendDeal(number)]),
    ]);
  }

  function notify(text, hand) {
    const box = $('confirmation');
    const parts = [el('p', { text: text })];
    if (hand && hand.deltas) {
      parts.push(deltasLine(hand.deltas));
      parts.push(el('p', { class: 'muted', text: poolsText(hand.pools) }));
    }
    box.replaceChildren.apply(box, parts);
    box.hidden = false;
  }

  function summary(hand) {
    const bid = V.bids.find(function (b) { return b.code === hand.bid; });
    const bits = [hand.bidder !== undefined && hand.bidder !== null ? names[hand.bidder] : '', bid ? bid.label : hand.bid];
    if (hand.trump) bits.push(SYMBOL[hand.trump] || hand.trump);
    if (hand.tricks && hand.bidder !== undefined && hand.bidder !== null) {
      bits.push(fmt(ngettext('%(n)s trick', '%(n)s tricks', hand.tricks[hand.bidder]), { n: hand.tricks[hand.bidder] }));
    }
    if (hand.conceded) bits.push('· ' + T.conceded);
    return bits.filter(Boolean).join(' ');
  }

  function showConflict(problem, item) {
    const box = $('conflict');
    const error = problem.error || { message: T.refused(problem.status), code: 'error' };
    const parts = [];
    const buttons = [];
    if (item && error.code === 'stale_number') {
      const next = state.session && state.session.next;
      const theirs = state.hands[item.hand.number - 1];
      parts.push(el('p', { class: 'conflict-title', text: T.conflictTitle(item.hand.number) }));
      parts.push(el('div', { class: 'conflict-sides' }, [
        el('div', { class: 'side theirs' }, [el('p', { class: 'side-title', text: T.theirs }),
          el('p', { text: theirs ? handWords(theirs) : '' }), theirs ? deltasLine(theirs.deltas) : null]),
        el('div', { class: 'side mine' }, [el('p', { class: 'side-title', text: T.mine }), el('p', { text: handWords(item.hand) })]),
      ]));
      buttons.push(discardButton(item, T.keepTheirs, 'primary'));
      if (next) {
        // Mine goes to the queue's head as the next deal, once: the form is emptied, so no tap records it again.
        buttons.push(el('button', { type: 'button', class: 'secondary', onclick: function () { renumberQueue(next.number); resetForm(); flush(); } },
          [T.recordMineNext(next.number)]));
      }
    } else if (item && error.code === 'session_closed') {
      parts.push(el('p', { class: 'conflict-title', text: fmt(gettext('The session was closed before deal %(n)s was sent.'), { n: item.hand.number }) }));
      parts.push(el('p', { text: fmt(gettext('Yours was not recorded: %(deal)s. A treasurer can reopen the session; then send it again.'), { deal: handWords(item.hand) }) }));
      buttons.push(el('button', { type: 'button', onclick: function () { retryHead(); } }, [gettext('Try again')]));
      buttons.push(discardButton(item));
    } else if (item) {
      parts.push(el('p', { class: 'conflict-title', text: fmt(gettext('Deal %(n)s was refused (%(deal)s).'), { n: item.hand.number, deal: handWords(item.hand) }) }));
      parts.push(el('p', { text: error.message }));
      buttons.push(el('button', { type: 'button', class: 'primary', onclick: startFix }, [gettext('Fix it')]));
      buttons.push(discardButton(item));
    } else {
      const title = problem.status === 412 ? gettext('The session changed on another device: look again, then retry.')
        : fmt(gettext('Refused: %(message)s'), { message: error.message });
      parts.push(el('p', { class: 'conflict-title', text: title }));
      if (problem.status === 412) parts.push(el('p', { class: 'muted', text: error.message }));
      buttons.push(el('button', { type: 'button', onclick: function () { state.notice = null; box.hidden = true; } }, [gettext('OK')]));
    }
    parts.push(el('div', { class: 'buttons' }, buttons));
    box.replaceChildren.apply(box, parts);
    box.hidden = false;
  }

  function discardButton(item, label, cls) {
    return el('button', { type: 'button', class: cls || 'danger', onclick: function () {
      queue.dropHead(item.key);
      if (state.session && state.session.next) renumberQueue(state.session.next.number);
      resetForm(); // a dropped deal is never left in the form, one tap from being recorded
      notify(fmt(gettext('Your deal %(n)s was discarded.'), { n: item.hand.number }), null);
      flush();
    } }, [label || gettext('Discard mine')]);
  }

  function retryHead() {
    queue.retryHead(); // the refusal is stored with the old key; a new attempt needs a new one
    flush();
  }

  // --- rendering ------------------------------------------------------------------------------------

  function renderStatus() {
    const q = loadQueue();
    const badge = $('queue-badge');
    const banner = $('banner');
    badge.hidden = !q.length;
    badge.textContent = '⟳ ' + fmt(gettext('%(n)s waiting'), { n: q.length });
    const lines = [];
    if (state.authProblem) {
      lines.push(el('p', {}, [gettext('You are logged out.') + ' ', el('a', { href: cfg.pages.login, target: '_blank', text: gettext('Log in again') }),
        ' ' + gettext('(in a new tab; deals on this phone are kept), then') + ' ',
        el('button', { type: 'button', class: 'link', onclick: function () { state.authProblem = null; flush(); refresh().then(render); } }, [gettext('retry')]), '.']));
    }
    if (!state.online) lines.push(el('p', { class: 'offline', text: T.offline + (state.lastSeen ? ' ' + T.lastSeen : '') }));
    if (q.length) {
      const numbers = q.map(function (i) { return i.hand.number; }).join(', ');
      const text = state.sending
        ? ngettext('%(n)s deal waiting to be sent (%(numbers)s): sending…', '%(n)s deals waiting to be sent (%(numbers)s): sending…', q.length)
        : ngettext('%(n)s deal waiting to be sent (%(numbers)s).', '%(n)s deals waiting to be sent (%(numbers)s).', q.length);
      lines.push(el('p', { class: 'waiting', text: fmt(text, { n: q.length, numbers: numbers }) }));
    }
    banner.replaceChildren.apply(banner, lines);
    banner.hidden = !lines.length;
    banner.classList.toggle('is-offline', !state.online);
    const head = q[0];
    if (head && head.problem) showConflict(head.problem, head);
    else if (state.notice) showConflict(state.notice, null);
    else $('conflict').hidden = true;
  }

  /* The number of a waiting deal another phone's deal stands against: the header stays on it until the
   * scorer settles it, and no new deal is entered meanwhile. */
  function conflictAt() {
    const head = loadQueue()[0];
    return head && head.problem && head.problem.error && head.problem.error.code === 'stale_number' ? head.hand.number : null;
  }

  function renderHead() {
    const s = state.session;
    if (!s) return;
    const deal = conflictAt() ? dealInfo(conflictAt()) : formDeal();
    const title = $('deal-title');
    if (state.mode === 'amend') title.textContent = fmt(gettext('Amending deal %(n)s'), { n: state.amending });
    else if (state.mode === 'fix') title.textContent = fmt(gettext('Fixing waiting deal %(n)s'), { n: deal.number });
    else if (conflictAt()) title.textContent = T.conflictHead(conflictAt());
    else if (s.status === 'closed') title.textContent = gettext('Session closed');
    else title.textContent = deal ? fmt(gettext('Deal %(n)s'), { n: deal.number }) : gettext('The game is over');
    $('deal-dealer').textContent = deal ? '· ' + fmt(gettext('dealer %(name)s'), { name: names[deal.dealer] }) : '';
    $('deal-double').hidden = !(deal && deal.double);
    const b = belle();
    const badge = $('deal-belle');
    badge.hidden = !L.belle || !deal;
    badge.textContent = L.belle ? (b ? L.belle + ' ' + SYMBOL[b] : T.belleDeal1(L.belle)) : '';
    $('pools-line').textContent = s.status === 'closed' ? T.closedPools : poolsText(s.pools);
    const mode = $('mode-line');
    if (state.mode === 'amend' || state.mode === 'fix') {
      mode.replaceChildren(el('span', { text: state.mode === 'amend' ? fmt(gettext('Amending deal %(n)s: the preview shows what changes.'), { n: state.amending })
        : gettext('Fix the waiting deal, then save it.') }),
        el('button', { type: 'button', class: 'secondary', onclick: function () { resetForm(); schedulePreview(); } }, [gettext('Cancel')]));
      mode.hidden = false;
    } else {
      mode.hidden = true;
    }
  }

  function renderBalances() {
    const s = state.session;
    const list = $('balances');
    if (!s) return;
    list.replaceChildren.apply(list, s.balances.map(function (b, seat) {
      return el('li', { 'data-seat': String(seat) }, [el('span', { class: 'who', text: names[seat] }), ' ', CS.numSpan(b)]);
    }));
    const waiting = loadQueue().length;
    const note = $('balances-note');
    note.hidden = !waiting;
    note.textContent = !waiting ? '' : fmt(s.hands
      ? ngettext('After deal %(deal)s: the deal waiting to be sent is not counted yet.', 'After deal %(deal)s: the %(n)s deals waiting to be sent are not counted yet.', waiting)
      : ngettext('Before the first deal: the deal waiting to be sent is not counted yet.', 'Before the first deal: the %(n)s deals waiting to be sent are not counted yet.', waiting),
    { deal: s.hands, n: waiting });
  }

  function renderActions() {
    const undo = $('undo');
    if (!undo) return;
    const q = loadQueue();
    const s = state.session;
    const open = s && s.status === 'open';
    if (state.undoArmed) return;
    undo.classList.remove('armed');
    if (q.length) {
      const last = q[q.length - 1];
      undo.hidden = false;
      undo.disabled = state.sending && q.length === 1;
      undo.textContent = fmt(gettext('Remove waiting deal %(n)s'), { n: last.hand.number });
    } else {
      undo.hidden = !(open && state.hands.length);
      undo.disabled = !state.online || state.mode !== 'new';
      undo.textContent = fmt(gettext('Undo deal %(n)s'), { n: state.hands.length });
    }
  }

  function renderDeals() {
    const list = $('deal-list');
    const canAmend = cfg.can_score && state.session && state.session.status === 'open' && !loadQueue().length && state.online;
    const items = state.hands.slice().reverse().map(function (h) {
      const disputed = state.disputes[h.number];
      return el('li', { value: String(h.number), 'data-number': String(h.number), class: disputed ? 'disputed' : '' }, [
        disputed ? el('span', { class: 'badge dispute', text: gettext('Disputed') }) : null, disputed ? ' ' : null,
        el('span', { class: 'deal-no', text: '#' + h.number }), ' ',
        el('span', { class: 'muted', text: fmt(h.double ? gettext('%(name)s dealt ×2:') : gettext('%(name)s dealt:'), { name: names[h.dealer] }) + ' ' }),
        el('span', { text: summary(h) }), ' ',
        deltasLine(h.deltas),
        canAmend ? el('button', { type: 'button', class: 'secondary small', 'data-amend': String(h.number),
          onclick: function () { startAmend(h.number); } }, [gettext('Amend')]) : null,
      ]);
    });
    list.replaceChildren.apply(list, items);
  }

  function render() {
    if (!state.session) {
      root.dataset.state = state.loadError ? 'error' : 'loading';
      return;
    }
    root.dataset.state = 'ready';
    const open = state.session.status === 'open';
    const canEnter = cfg.can_score && open && !conflictAt() && (state.mode !== 'new' || !!nextDeal());
    if (form) {
      form.hidden = !canEnter;
      $('record').hidden = !canEnter;
      $('deal-bar').hidden = !canEnter;
      $('preview').hidden = !canEnter;
      if (canEnter) renderForm();
    }
    renderHead();
    renderStatus();
    renderBalances();
    renderActions();
    renderDeals();
    renderDisputes();
    root.dataset.waiting = String(loadQueue().length);
    root.dataset.version = String(state.session.version);
    root.dataset.hands = String(state.hands.length);
  }

  /* The deals another seat disputed, under the header, each with its reasons and Amend one tap away. */
  function renderDisputes() {
    const box = $('disputes');
    const numbers = Object.keys(state.disputes).map(Number).filter(function (n) { return n <= state.hands.length; })
      .sort(function (a, b) { return a - b; });
    const canAmend = cfg.can_score && state.session && state.session.status === 'open' && !loadQueue().length && state.online;
    box.replaceChildren.apply(box, numbers.map(function (n) {
      return el('p', { class: 'dispute-line', 'data-number': String(n) }, [
        el('span', { class: 'badge dispute', text: fmt(gettext('Deal %(n)s disputed'), { n: n }) }), ' ',
        el('span', { text: state.disputes[n].join(' · ') }), ' ',
        canAmend ? el('button', { type: 'button', class: 'secondary small', 'data-amend': String(n),
          onclick: function () { startAmend(n); } }, [T.amendDeal(n)]) : null,
      ]);
    }));
    box.hidden = !numbers.length;
  }

  /* The live checks: a deal is marked while one of its seats' disputes is open (not settled by the treasurer). */
  async function loadChecks() {
    const res = await CS.apiAll(cfg.api.checks);
    if (!res.ok || res.offlineCopy) return;
    const disputes = {};
    res.data.forEach(function (c) {
      if (c.state === 'disputed' && !c.outcome) (disputes[c.number] = disputes[c.number] || []).push(names[c.seat] + ': ' + c.reason);
    });
    state.disputes = disputes;
  }

  /* The page's own live tag, once it has read the session after its own write: the stream's echo of it is
   * not read again. */
  function caughtUp() {
    if (state.session) live.seen(state.session.version + '.' + state.checks);
  }

  // --- wiring ----------------------------------------------------------------------------------------

  moveRareFields();
  if (form) {
    $('f-conceded').addEventListener('change', function (e) { set('conceded', e.target.checked); });
    $('record').addEventListener('click', onRecord);
    form.addEventListener('submit', function (e) { e.preventDefault(); onRecord(); });
  }
  if ($('undo')) $('undo').addEventListener('click', onUndo);
  // The pinned bar's height: the page keeps room for it at its foot (CSS --bar-h).
  if ($('deal-bar') && 'ResizeObserver' in window) {
    new ResizeObserver(function () {
      document.documentElement.style.setProperty('--bar-h', $('deal-bar').offsetHeight + 'px');
    }).observe($('deal-bar'));
  }

  window.addEventListener('online', function () { state.online = true; renderStatus(); flush(); });
  window.addEventListener('offline', function () { state.online = false; render(); });
  window.addEventListener('storage', function (e) { if (e.key === QKEY) render(); });

  setInterval(function () {
    const q = loadQueue();
    if (q.length && !q[0].problem && !state.sending && state.mode !== 'fix') flush();
  }, RETRY_MS);

  setInterval(async function () {
    if (state.sending || state.busy || document.hidden) return;
    const res = await CS.api('GET', cfg.api.session);
    if (res.networkError || res.offlineCopy) { if (state.online) { state.online = false; render(); } return; }
    if (!state.online) { state.online = true; flush(); }
    if (res.ok && state.session && res.data.version !== state.session.version) {
      await refresh();
      render();
      schedulePreview();
    }
  }, POLL_MS);

  /* The live channel (issue 25): another phone's deal or a seat's dispute shows at once, not at the poll.
   * It re-reads the session, its hands and its checks; the form the scorer is entering is left as it is
   * (a deal number that moved on is said by the form's own conflict logic, as after the poll). */
  const live = CS.live.follow({
    events: cfg.live.events,
    tag: cfg.live.tag,
    onChange: async function (change) {
      if (change.checks !== undefined && change.checks !== state.checks) {
        state.checks = change.checks;
        await loadChecks();
      }
      if (state.sending || state.busy) return; // the page's own write reads and shows everything after it
      if (state.session && change.version !== undefined && change.version !== state.session.version) {
        await refresh();
        await loadChecks(); // an amend or undo from another phone clears checks without moving their version
      }
      render();
      schedulePreview();
    },
  });

  refresh().then(async function () {
    await loadChecks();
    render();
    schedulePreview();
    flush();
  });
  keepForOffline();

  /* The service worker keeps this page, its files and the session's last state, so that the page opens
   * with no network. As the page loads it names them all, controlled or not: a page loaded before the
   * worker took control (claimed on its first visit) is controlled by the time this runs, and its own
   * address and scripts went past the worker. Later, a page the worker controls is kept by its reads. */
  function keepForOffline() {
    if (!('serviceWorker' in navigator) || !cfg.service_worker) return;
    navigator.serviceWorker.register(cfg.service_worker, { scope: '/' }).catch(function () { return null; });
    navigator.serviceWorker.addEventListener('message', function (e) {
      if (e.data && e.data.type === 'kept') root.dataset.kept = String(Number(root.dataset.kept || 0) + 1);
    });
    keepState(true);
  }

  function keepState(always) {
    if (!('serviceWorker' in navigator) || !cfg.service_worker || (!always && navigator.serviceWorker.controller)) return;
    const urls = [location.pathname, cfg.api.session, cfg.api.sheet, cfg.api.hands + '?page_size=200'].concat(
      Array.from(document.querySelectorAll('script[src], link[rel="stylesheet"], link[rel="modulepreload"]')).map(function (n) { return n.src || n.href; }));
    navigator.serviceWorker.ready.then(function (reg) {
      if (reg.active) reg.active.postMessage({ type: 'keep', urls: urls });
    });
  }})();
