// @ts-check
/* A refusal of a deal that waited, shown until the scorer decides: another phone's deal under the same
 * number (a conflict: both sides in words, each with what every player pays, as the server settles it),
 * a closed session, a broken rule; or a refusal of an amendment or an undo. After either choice of a
 * conflict the form is empty: a dropped deal is never one tap away from being recorded. */
import { $, CS, cfg, el, queue, renumberQueue, showChildren, state } from './context.js';
import { handWords, resetForm } from './form.js';
import { deltasLine } from './preview.js';
import { flush, startFix } from './record.js';
import { conflictSheet } from './sheet.js';
import { notify, renderStatus } from './view.js';
import { fmt, T } from './words.js';

/** @typedef {import('./queue.js').Item} Item */

/* What each player would pay had my deal been recorded under its number instead of theirs: the
 * server settles the sheet up to it (the stateless settle), once per waiting deal; the page shows it. */
/** @param {Item} item */
function minePays(item) {
  const known = state.conflictPays[item.key];
  if (known === undefined && state.sheet) {
    state.conflictPays[item.key] = 'pending';
    const sheet = conflictSheet(state.sheet, item.hand);
    CS.api('POST', cfg.api.settle, sheet).then(function (res) {
      const error = CS.errorOf(res);
      state.conflictPays[item.key] = res.ok ? { deltas: res.data.hands[item.hand.number - 1].deltas }
        : { error: res.networkError ? T.noPreview : error ? error.message : T.refused(res.status) };
      renderStatus();
    });
  }
  if (!known || known === 'pending') return el('p', { class: 'muted pays-pending', text: '…' });
  if ('deltas' in known) return deltasLine(known.deltas);
  return el('p', { class: 'warn', text: known.error });
}

/** @param {{ status: number, error: ApiError | null }} problem @param {Item | null} item */
export function showConflict(problem, item) {
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
      el('div', { class: 'side mine' }, [el('p', { class: 'side-title', text: T.mine }), el('p', { text: handWords(item.hand) }),
        minePays(item)]),
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
  // The buttons act on the waiting deal `item` (its key): a button kept across a render is one that
  // acts on the same deal. What is unchanged stays as it was: a press is never lost to a render.
  parts.push(el('div', { class: 'buttons', 'data-key': item ? item.key : null }, buttons));
  showChildren(box, parts);
  box.hidden = false;
}

/** @param {Item} item @param {string} [label] @param {string} [cls] */
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
