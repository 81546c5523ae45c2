// @ts-check
/* The page around the form: the header (the deal, its dealer, belle, the pools), the banner (offline,
 * waiting deals, a lost login), the balances, Undo, the recorded deals with Amend, the disputes, and the
 * confirmation of what was recorded. */
import { $, $maybe, CS, L, V, cfg, el, form, loadQueue, names, root, state } from './context.js';
import { belle, belleAt, dealInfo, formDeal, handWords, nextDeal, renderForm, resetForm } from './form.js';
import { deltasLine, poolsText, schedulePreview } from './preview.js';
import { flush, onUndo, startAmend } from './record.js';
import { refresh } from './server.js';
import { conflictAt, showConflict } from './conflict.js';
import { SYMBOL, fmt, T } from './words.js';

// --- messages --------------------------------------------------------------------------------------

/* What a flush sent: each deal recorded, with its payments (or dropped as another phone's twin). */
/** @param {any[]} sent */
export function notifySent(sent) {
  const box = $('confirmation');
  /** @type {HTMLElement[]} */
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
/** @param {number} number */
function confirmTools(number) {
  return el('div', { class: 'buttons confirm-tools' }, [
    el('button', { type: 'button', class: 'secondary', id: 'confirm-undo', onclick: onUndo }, [T.undoDeal(number)]),
    el('button', { type: 'button', class: 'secondary', 'data-amend': String(number), id: 'confirm-amend',
      onclick: function () { startAmend(number); } }, [T.amendDeal(number)]),
  ]);
}

/** @param {string} text @param {any} hand a deal the server answered with, its payments shown */
export function notify(text, hand) {
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
  if (hand.tricks && hand.bidder !== undefined && hand.bidder !== null) {
    bits.push(fmt(ngettext('%(n)s trick', '%(n)s tricks', hand.tricks[hand.bidder]), { n: hand.tricks[hand.bidder] }));
  }
  if (hand.conceded) bits.push('· ' + T.conceded);
  return bits.filter(Boolean).join(' ');
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
  note.hidden = !waiting;
  note.textContent = !waiting ? '' : fmt(s.hands
    ? ngettext('After deal %(deal)s: the deal waiting to be sent is not counted yet.', 'After deal %(deal)s: the %(n)s deals waiting to be sent are not counted yet.', waiting)
    : ngettext('Before the first deal: the deal waiting to be sent is not counted yet.', 'Before the first deal: the %(n)s deals waiting to be sent are not counted yet.', waiting),
  { deal: s.hands, n: waiting });
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

/** Whether a recorded deal may be amended now (a scorer, the session open, nothing waiting, online). */
function mayAmend() {
  return cfg.can_score && state.session && state.session.status === 'open' && !loadQueue().length && state.online;
}

function renderDeals() {
  const list = $('deal-list');
  const canAmend = mayAmend();
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

export function render() {
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
  const canAmend = mayAmend();
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
