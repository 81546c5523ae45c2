// @ts-check
/* The page around the form: the header (the deal, its dealer, belle, the pools), the banner (offline,
 * waiting deals, a lost login), the balances, Undo, the recorded deals with Amend, the disputes, and the
 * confirmation of what was recorded. */
import { $, $maybe, CS, L, V, cfg, el, form, loadQueue, names, root, showChildren, state } from './context.js';
import { belle, belleAt, dealInfo, formDeal, handWords, nextDeal, renderForm, resetForm } from './form.js';
import { deltasLine, penaltyLine, poolsText, schedulePreview } from './preview.js';
import { bus } from './bus.js';
import { refresh } from './server.js';
import { SYMBOL, fmt, T } from './words.js';

// --- messages --------------------------------------------------------------------------------------

/* What a flush sent: Undo and Amend of the last deal recorded first (at the top of the bar, never where
 * Record stood: a hurried second tap lands on words, issue 38 item 1), the deals recorded before it in
 * one line (a catch-up after many deals offline stays a few lines), then the last deal in the bar's own
 * words and its payments; a deal dropped as another phone's twin is said on its own line. */
/** @param {any[]} sent */
export function notifySent(sent) {
  disarmUndo();
  const box = $('confirmation');
  /** @type {HTMLElement[]} */
  const parts = [];
  const recorded = sent.filter(function (h) { return !h.duplicate; });
  const last = recorded[recorded.length - 1];
  state.confirmed = last ? last.number : null;
  if (last) parts.push(confirmTools(last.number));
  const earlier = recorded.slice(0, -1).map(function (h) { return h.number; });
  if (earlier.length) {
    parts.push(el('p', { class: 'sent earlier', text: fmt(ngettext('Deal %(numbers)s recorded too.', 'Deals %(numbers)s recorded too.', earlier.length),
      { numbers: earlier.join(', ') }) }));
  }
  sent.forEach(function (hand) {
    if (hand.duplicate) parts.push(el('p', { class: 'sent duplicate', text: T.duplicate(hand.number) }));
  });
  if (last) {
    parts.push(el('p', { class: 'sent', text: T.recordedWords(last.number, handWords(last, last.entered)) }));
    const penalty = penaltyLine(last.transfers); // what the bar said before Record, said again
    if (penalty) parts.push(penalty);
    parts.push(deltasLine(last.deltas)); // the pools after it are in the header
  }
  box.replaceChildren.apply(box, parts);
  box.hidden = false;
  renderForm();
}

/* Undo and Amend in the confirmation, until the next deal is started. Both are disabled for a moment
 * after it appears: a tap then is a hurried Record's second or third, and changes nothing. */
/** @param {number} number */
function confirmTools(number) {
  const buttons = [
    el('button', { type: 'button', class: 'secondary', id: 'confirm-undo', onclick: function (/** @type {Event} */ e) { bus.onUndo(e); }, disabled: true }, [T.undoDeal(number)]),
    el('button', { type: 'button', class: 'secondary', 'data-amend': String(number), id: 'confirm-amend', disabled: true,
      onclick: function () { bus.startAmend(number); } }, [T.amendDeal(number)]),
  ];
  setTimeout(function () { buttons.forEach(function (b) { /** @type {HTMLButtonElement} */ (b).disabled = false; }); }, HURRIED_MS);
  return el('div', { class: 'buttons confirm-tools' }, buttons);
}

/** How long a tap after Record is taken for a hurried second tap of Record's (3 taps 0.6 s apart: 1.2 s). */
const HURRIED_MS = 1500;

/** @param {string} text @param {any} hand a deal the server answered with, its payments shown */
export function notify(text, hand) {
  disarmUndo();
  state.confirmed = null;
  const box = $('confirmation');
  const parts = [el('p', { text: text })];
  if (hand && hand.deltas) {
    parts.push(deltasLine(hand.deltas));
    parts.push(el('p', { class: 'muted', text: poolsText(hand.pools) }));
  }
  box.replaceChildren.apply(box, parts);
  box.hidden = false;
}

/** A recorded deal in the deal list: "Ben simple ♥ 5 tricks". @param {any} hand */
function summary(hand) {
  const bid = V.bids.find(function (/** @type {{ code: string }} */ b) { return b.code === hand.bid; });
  const bits = [hand.bidder !== undefined && hand.bidder !== null ? names[hand.bidder] : '', bid ? bid.label : hand.bid];
  if (hand.trump) bits.push(SYMBOL[hand.trump] || hand.trump);
  const paid = hand.conceded === 'bidder'; // he paid instead of playing: no trick was played (rules.md §0.11)
  if (hand.tricks && !paid && hand.bidder !== undefined && hand.bidder !== null) {
    bits.push(fmt(ngettext('%(n)s trick', '%(n)s tricks', hand.tricks[hand.bidder]), { n: hand.tricks[hand.bidder] }));
  }
  if (hand.conceded) bits.push('· ' + (paid ? T.paysInstead(names[hand.bidder]) : T.conceded));
  return bits.filter(Boolean).join(' ');
}

/* The Undo armed goes back to what it said; "Yes" goes away. */
export function disarmUndo() {
  clearTimeout(state.undoTimer);
  state.undoArmed = false;
  const button = state.undoButton;
  state.undoButton = null;
  const yes = $maybe('undo-yes');
  if (yes) yes.remove();
  if (button) {
    button.textContent = button.dataset.label || button.textContent;
    button.classList.remove('armed');
  }
  const amend = $maybe('confirm-amend');
  if (amend) amend.hidden = false;
}

/* The number of a waiting deal another phone's deal stands against: the header stays on it until the
 * scorer settles it, and no new deal is entered meanwhile. */
function conflictAt() {
  const head = loadQueue()[0];
  return head && head.problem && head.problem.error && head.problem.error.code === 'stale_number' ? head.hand.number : null;
}

// --- rendering ------------------------------------------------------------------------------------

export function renderStatus() {
  const q = loadQueue();
  const badge = $('queue-badge');
  const banner = $('banner');
  badge.hidden = !q.length;
  badge.textContent = '⟳ ' + fmt(gettext('%(n)s waiting'), { n: q.length });
  const lines = [];
  if (state.authProblem) {
    lines.push(el('p', {}, [gettext('You are logged out.') + ' ', el('a', { href: cfg.pages.login, target: '_blank', text: gettext('Log in again') }),
      ' ' + gettext('(in a new tab; deals on this phone are kept), then') + ' ',
      el('button', { type: 'button', class: 'link', onclick: function () { state.authProblem = null; bus.flush(); refresh().then(render); } }, [gettext('retry')]), '.']));
  }
  // One short line (issue 38, item 6): offline, the deals kept on this phone by number; the balances'
  // age is said under the balances, "no preview" in the preview.
  const numbers = q.map(function (i) { return i.hand.number; }).join(', ');
  if (!state.online && q.length) {
    lines.push(el('p', { class: 'offline waiting', text: fmt(ngettext('Offline: %(n)s deal waiting to be sent (%(numbers)s), kept on this phone.',
      'Offline: %(n)s deals waiting to be sent (%(numbers)s), kept on this phone.', q.length), { n: q.length, numbers: numbers }) }));
  } else if (!state.online) {
    lines.push(el('p', { class: 'offline', text: T.offline }));
  } else if (q.length) {
    const text = state.sending
      ? ngettext('%(n)s deal waiting to be sent (%(numbers)s): sending…', '%(n)s deals waiting to be sent (%(numbers)s): sending…', q.length)
      : ngettext('%(n)s deal waiting to be sent (%(numbers)s).', '%(n)s deals waiting to be sent (%(numbers)s).', q.length);
    lines.push(el('p', { class: 'waiting', text: fmt(text, { n: q.length, numbers: numbers }) }));
  }
  showChildren(banner, lines); // its retry button stays under a press while the page renders again
  banner.hidden = !lines.length;
  banner.classList.toggle('is-offline', !state.online);
  const head = q[0];
  if (head && head.problem) bus.showConflict(head.problem, head);
  else if (state.notice) bus.showConflict(state.notice, null);
  else $('conflict').hidden = true;
}

function renderHead() {
  const s = state.session;
  if (!s) return;
  const at = conflictAt();
  const deal = at ? dealInfo(at) : formDeal();
  const title = $('deal-title');
  if (state.mode === 'amend') title.textContent = fmt(gettext('Amending deal %(n)s'), { n: state.amending });
  else if (state.mode === 'fix') title.textContent = fmt(gettext('Fixing waiting deal %(n)s'), { n: deal ? deal.number : '' });
  else if (at) title.textContent = T.conflictHead(at);
  else if (s.status === 'closed') title.textContent = gettext('Session closed');
  else title.textContent = deal ? fmt(gettext('Deal %(n)s'), { n: deal.number }) : gettext('The game is over');
  $('deal-dealer').textContent = deal ? '· ' + fmt(gettext('dealer %(name)s'), { name: names[deal.dealer] }) : '';
  $('deal-double').hidden = !(deal && deal.double);
  // After a misdeal the sheet's hand and the game's deal differ (rules.md §0.11): both are said.
  const game = /** @type {any} */ (deal) && /** @type {any} */ (deal).deal;
  const gameNote = $('deal-game');
  gameNote.hidden = !(game && !at && state.mode === 'new' && s.status !== 'closed');
  gameNote.textContent = gameNote.hidden ? '' : fmt(gettext('deal %(n)s of the game'), { n: game });
  const b = at ? belleAt(at) : belle(); // a conflicting deal 1 has no belle yet, whatever the other phone turned
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
  list.replaceChildren.apply(list, s.balances.map(function (/** @type {number} */ b, /** @type {number} */ seat) {
    return el('li', { 'data-seat': String(seat) }, [el('span', { class: 'who', text: names[seat] }), ' ', CS.numSpan(b)]);
  }));
  const waiting = loadQueue().length;
  const note = $('balances-note');
  const lastSeen = !state.online && state.lastSeen ? T.lastSeen : '';
  note.hidden = !waiting && !lastSeen;
  note.textContent = !waiting ? lastSeen : fmt(s.hands
    ? ngettext('After deal %(deal)s: the deal waiting to be sent is not counted yet.', 'After deal %(deal)s: the %(n)s deals waiting to be sent are not counted yet.', waiting)
    : ngettext('Before the first deal: the deal waiting to be sent is not counted yet.', 'Before the first deal: the %(n)s deals waiting to be sent are not counted yet.', waiting),
  { deal: s.hands, n: waiting }) + (lastSeen ? ' ' + lastSeen : '');
}

export function renderActions() {
  const undo = /** @type {HTMLButtonElement | null} */ ($maybe('undo'));
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

/* "Amend a deal" in the header: the deal list opened and scrolled to the top of the screen. */
export function openDeals() {
  const deals = /** @type {HTMLDetailsElement} */ ($('deals'));
  deals.open = true;
  deals.scrollIntoView({ block: 'start', behavior: 'instant' });
}

/** Whether a recorded deal may be amended now (a scorer, the session open, nothing waiting, online). */
function mayAmend() {
  return cfg.can_score && state.session && state.session.status === 'open' && !loadQueue().length && state.online;
}

function renderDeals() {
  const list = $('deal-list');
  const canAmend = mayAmend();
  // The deal list is at the page's foot: one tap in the header opens it and brings it into view, so an
  // earlier deal's Amend is two taps away, no swipe (issue 38, item 5).
  const open = $maybe('amend-open');
  if (open) open.hidden = !canAmend || !state.hands.length || state.mode !== 'new';
  const items = state.hands.slice().reverse().map(function (h) {
    const disputed = state.disputes[h.number];
    return el('li', { value: String(h.number), 'data-number': String(h.number), class: disputed ? 'disputed' : '' }, [
      disputed ? el('span', { class: 'badge dispute', text: gettext('Disputed') }) : null, disputed ? ' ' : null,
      el('span', { class: 'deal-no', text: '#' + h.number }), ' ',
      el('span', { class: 'muted', text: fmt(h.double ? gettext('%(name)s dealt ×2:') : gettext('%(name)s dealt:'), { name: names[h.dealer] }) + ' ' }),
      el('span', { text: summary(h) }), ' ',
      deltasLine(h.deltas),
      canAmend ? el('button', { type: 'button', class: 'secondary small', 'data-amend': String(h.number),
        onclick: function () { bus.startAmend(h.number); } }, [gettext('Amend')]) : null,
    ]);
  });
  showChildren(list, items); // an Amend pressed as a read lands is not rebuilt under the press
}

export function render() {
  if (!state.session) {
    root.dataset.state = state.loadError ? 'error' : 'loading';
    return;
  }
  root.dataset.state = 'ready';
  const open = state.session.status === 'open';
  const canEnter = cfg.can_score && open && !conflictAt() && (state.mode !== 'new' || !!nextDeal());
  if (form) {
    // The game's last deal recorded: the bar stays, the confirmation in it (what was recorded, Undo,
    // Amend), with the game over said; only Record goes.
    const over = cfg.can_score && open && !conflictAt() && state.mode === 'new' && !nextDeal() && !$('confirmation').hidden;
    form.hidden = !canEnter;
    $('record').hidden = !canEnter;
    $('deal-bar').hidden = !canEnter && !over;
    $('preview').hidden = !canEnter;
    if (canEnter) renderForm();
    if (over) $('deal-bar').classList.add('confirming');
    renderGameOver(over);
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

/** The confirmation of the game's last deal says the game is over. @param {boolean} over */
function renderGameOver(over) {
  const box = $('confirmation');
  let line = box.querySelector('.game-over');
  if (!over || state.confirmed === null) { if (line) line.remove(); return; }
  if (!line) { line = el('p', { class: 'game-over' }); box.appendChild(line); }
  line.textContent = fmt(gettext('The game is over: deal %(n)s was its last.'), { n: state.confirmed });
}

/* The deals another seat disputed, under the header, each with its reasons and Amend one tap away. */
function renderDisputes() {
  const box = $('disputes');
  const numbers = Object.keys(state.disputes).map(Number).filter(function (n) { return n <= state.hands.length; })
    .sort(function (a, b) { return a - b; });
  const canAmend = mayAmend();
  showChildren(box, numbers.map(function (n) {
    return el('p', { class: 'dispute-line', 'data-number': String(n) }, [
      el('span', { class: 'badge dispute', text: fmt(gettext('Deal %(n)s disputed'), { n: n }) }), ' ',
      el('span', { text: state.disputes[n].join(' · ') }), ' ',
      canAmend ? el('button', { type: 'button', class: 'secondary small', 'data-amend': String(n),
        onclick: function () { bus.startAmend(n); } }, [T.amendDeal(n)]) : null,
    ]);
  }));
  box.hidden = !numbers.length;
}
