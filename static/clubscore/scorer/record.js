// @ts-check
/* Recording: a deal is first written to the queue with its Idempotency-Key and the number the scorer
 * believes is next, then sent in order; a deal leaves the queue only when the server has answered for
 * it. A lost answer is retried with the same key and body, so the server records it once. A refusal (a
 * conflict with another phone, a closed session, a broken rule) stops the queue and is shown until the
 * scorer decides; nothing is dropped silently. Amend and Undo of a recorded deal. */
import { $, $maybe, CS, cfg, el, loadQueue, queue, root, saveQueue, state } from './context.js';
import { formFromHand, handKey } from './derive.js';
import { begunDeal, buildHand, changeWords, clearErrors, handWords, padOrder, renderForm, resetForm, rulesOf, showErrors } from './form.js';
import { schedulePreview } from './preview.js';
import { holdRecorded, keepReads, loadChecks, refresh } from './server.js';
import { bus } from './bus.js';
import { disarmUndo, notify, notifySent, render, renderActions, renderStatus } from './view.js';
import { fmt, T } from './words.js';

/** @typedef {import('./queue.js').Item} Item */

export async function onRecord() {
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
  const item = { key: CS.uuid4(), hand: Object.assign(hand, { number: deal.number }), at: new Date().toISOString(),
    entered: state.pad.entered.slice() };
  const direct = q.length === 0 && state.online && !state.sending;
  q.push(item);
  saveQueue(q);
  if (direct) {
    state.awaiting = item.key;
    state.busy = true;
    const record = /** @type {HTMLButtonElement} */ ($('record'));
    record.textContent = fmt(gettext('Recording deal %(n)s…'), { n: deal.number });
    record.disabled = true;
    $('hand-form').setAttribute('aria-busy', 'true');
  } else {
    resetForm();
    notify(T.kept(deal.number), null);
  }
  flush();
}

/* Whether the deal another phone recorded under this number is the same as the waiting one. */
/** @param {Item} item */
async function sameAsRecorded(item) {
  await refresh();
  const theirs = state.hands[item.hand.number - 1];
  return !!theirs && handKey(theirs) === handKey(item.hand);
}

/** @param {Item} item */
function done(item) {
  if (state.awaiting === item.key) {
    state.awaiting = null;
    state.busy = false;
    return true;
  }
  return false;
}

/* Send the waiting deals, oldest first, one at a time. */
export async function flush() {
  if (state.sending) return;
  let q = loadQueue();
  if (!q.length || q[0].problem || state.mode === 'fix') { render(); return; }
  state.sending = true;
  renderStatus();
  let recorded = false;
  let gap = false; // a deal's 201 did not follow the page's session (another phone's deal, a retry): read
  /** @type {any[]} */
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
        if (!follows(res.data)) gap = true;
        // Counted at once: the session read after it may fail or be the service worker's older copy.
        state.recorded.push(res.data);
        holdRecorded(state.session, state.hands);
        if (!gap && state.sheet) state.sheet.hands = state.sheet.hands.concat([withoutNumber(item.hand)]);
        recorded = true;
        if (done(item)) resetForm();
        // said as the bar said it: a count the scorer never gave (a misère's others) is not stated as 0
        sent.push(Object.assign({}, res.data, { entered: item.entered }));
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
        gap = true;
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
  if (recorded && !gap) {
    // The 201s said it all (the deal, the totals, the pools, the version): nothing is read again. A new
    // deal has no checks yet. The stream's echo of it is not read either (issue 38 item 12).
    bus.caughtUp();
    keepReads();
  } else if (recorded || state.online) {
    await refresh();
    if (recorded) { await loadChecks(); bus.caughtUp(); }
  }
  render();
  schedulePreview();
}

/** Whether a deal's 201 is the very next change of the session the page shows: the next number, the next
 * version. Anything else (another phone's deal between, a retry answered with an older deal) is a gap.
 * @param {any} answer */
function follows(answer) {
  return !!state.session && !!answer && answer.number === state.hands.length + 1
    && answer.version === (state.session.version || 0) + 1;
}

/** The hand as the session's sheet keeps it (its number is its place).
 * @param {any} hand */
function withoutNumber(hand) {
  const out = Object.assign({}, hand);
  delete out.number;
  return out;
}

async function amend() {
  const number = /** @type {number} */ (state.amending);
  const hand = buildHand();
  const said = changeWords(state.hands[number - 1], hand); // before the read after it replaces the deal
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
    bus.caughtUp();
    resetForm();
    notify(T.amendedWords(number, handWords(res.data)) + (said ? ' ' + T.changes(said) : ''), res.data);
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

/* Undo from the actions or from the confirmation. A destructive tap never stands where the last tap
 * went: the first tap turns the button tapped into "Keep deal N" and puts "Yes, undo deal N" beside it,
 * so a second tap in the same place keeps the deal; and the confirmation's buttons are disabled for a
 * moment after it appears, when a hurried Record's second and third taps land (issue 38, item 1). */
/** @param {Event} [e] */
export function onUndo(e) {
  const button = /** @type {HTMLElement} */ ((e && e.currentTarget) || $('undo'));
  if (state.undoArmed) { disarmUndo(); renderActions(); return; } // the same place again: kept
  const q = loadQueue();
  state.undoArmed = true;
  state.undoButton = button;
  button.dataset.label = button.textContent || '';
  button.textContent = q.length ? fmt(gettext('Keep waiting deal %(n)s'), { n: q[q.length - 1].hand.number })
    : fmt(gettext('Keep deal %(n)s'), { n: state.hands.length });
  button.classList.add('armed');
  const amend = $maybe('confirm-amend');
  if (button.id === 'confirm-undo' && amend) amend.hidden = true; // "Yes" takes Amend's place, beside it
  const yes = el('button', { type: 'button', class: 'danger undo-yes', id: 'undo-yes', onclick: undoNow },
    [q.length ? fmt(gettext('Yes, remove waiting deal %(n)s'), { n: q[q.length - 1].hand.number })
      : fmt(gettext('Yes, undo deal %(n)s'), { n: state.hands.length })]);
  button.after(yes);
  clearTimeout(state.undoTimer);
  state.undoTimer = setTimeout(function () { disarmUndo(); renderActions(); }, 4000);
}

/* "Yes, undo": said at once on the button ("Undoing deal N…"), then sent. */
async function undoNow() {
  const yes = /** @type {HTMLButtonElement | null} */ ($maybe('undo-yes'));
  const q = loadQueue();
  clearTimeout(state.undoTimer);
  if (q.length) {
    disarmUndo();
    q.pop();
    saveQueue(q);
    notify(gettext('The waiting deal was removed; it was never sent.'), null);
    render();
    return;
  }
  const number = state.hands.length;
  if (yes) {
    yes.textContent = fmt(gettext('Undoing deal %(n)s…'), { n: number });
    yes.disabled = true;
    yes.setAttribute('aria-busy', 'true');
  }
  const res = await CS.api('DELETE', cfg.api.hands + number + '/', null, { 'If-Match': '"' + state.session.version + '"' });
  disarmUndo();
  if (res.networkError) {
    state.online = false;
    render();
    notify(fmt(gettext('No network: deal %(n)s was not undone.'), { n: number }), null);
    return;
  }
  await refresh();
  if (res.ok) {
    await loadChecks();
    bus.caughtUp();
    notify(fmt(gettext('Deal %(n)s undone.'), { n: number }), null);
  } else {
    state.notice = { status: res.status, error: CS.errorOf(res) };
  }
  render();
  schedulePreview();
}

// --- amend an earlier deal ---------------------------------------------------------------------------

/** @param {number} number */
export function startAmend(number) {
  disarmUndo();
  const hand = state.hands[number - 1];
  state.mode = 'amend';
  state.amending = number;
  state.form = formFromHand(hand);
  state.auto = {};
  // The same pad as a new deal's: a count changed, the last seat of the pad's order takes the rest.
  state.pad = { entered: state.form.tricks.map(function () { return true; }), auto: null, active: null };
  const order = padOrder();
  const rules = rulesOf(state.form.bid);
  if (rules && rules.tricks.exact && !state.form.conceded) state.pad.auto = order[order.length - 1];
  state.confirmed = null;
  $('confirmation').hidden = true; // the bar is the amendment's now
  $('deal-bar').classList.remove('confirming');
  clearErrors();
  render();
  schedulePreview();
  window.scrollTo({ top: 0, behavior: 'instant' });
}

export function startFix() {
  const q = loadQueue();
  state.mode = 'fix';
  state.form = formFromHand(q[0].hand);
  state.auto = {};
  state.pad = { entered: state.form.tricks.map(function () { return true; }), auto: null, active: null };
  render();
  const problem = q[0].problem;
  if (problem) showErrors(problem.error);
  schedulePreview();
}
