// @ts-check
/* The preview: the server settles the form's deal (the stateless settle) and the page shows what each
 * player pays, on the pinned bar and below the form; an amendment shows each seat's change. The browser
 * never computes a payment. */
import { $, $maybe, CS, V, cfg, el, loadQueue, names, state } from './context.js';
import { buildHand, missingRequired, missingWords, showErrors, clearErrors } from './form.js';
import { previewSheet } from './sheet.js';
import { fmt, T } from './words.js';
import { bus } from './bus.js';

export function schedulePreview() {
  clearTimeout(state.previewTimer);
  state.previewTimer = setTimeout(preview, 200);
}

/** @param {number | 'pool'} p */
function partyName(p) { return p === 'pool' ? V.pool_label || gettext('pool') : names[p]; }

/** Each player's payment: "Ann +60 Ben −20 …". @param {number[]} deltas */
export function deltasLine(deltas) {
  return el('ul', { class: 'deltas' }, deltas.map(function (d, seat) {
    return el('li', {}, [el('span', { class: 'who', text: names[seat] }), ' ', CS.numSpan(d)]);
  }));
}

/** @param {{ from: number | 'pool', to: number | 'pool', counters: number, reason: string }[]} transfers @param {number[] | null} pools */
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

/** @param {number[] | null | undefined} pools */
export function poolsText(pools) {
  if (!pools || !pools.length) return fmt(gettext('%(pool)s empty'), { pool: V.pool_label });
  return V.pool_label + ' ' + pools.map(function (p) { return CS.plain.format(p); }).join(' · ');
}

/** @typedef {{ from: number | 'pool', to: number | 'pool', counters: number, reason: string }} Transfer */

/* A penalty of the table law (rules.md §0.11: a revoke, a misdeal, the remiz), who pays whom, in the server's
 * transfers of the deal: "Penalty: Ben → Ann 15, Ben → pool 10". Null when the deal has none. The same line
 * on the bar before Record and in the confirmation after it. */
/** @param {Transfer[] | null | undefined} transfers @returns {HTMLElement | null} */
export function penaltyLine(transfers) {
  const paid = (transfers || []).filter(function (t) { return t.reason === 'penalty' && t.counters; });
  if (!paid.length) return null;
  return el('p', { class: 'penalty', text: T.penalty(paid.map(function (t) {
    /** @param {number | 'pool'} p a party inside the sentence: "pool", not "Pool" */
    const said = function (p) { const n = partyName(p); return p === 'pool' ? n.charAt(0).toLowerCase() + n.slice(1) : n; };
    return said(t.from) + ' → ' + said(t.to) + ' ' + CS.plain.format(t.counters);
  }).join(', ')) });
}

/* The pinned bar's payments: the deal's penalty, if any, and each player's payment, from the server's preview
 * (or a line why there are none). */
/** @param {number[] | null} deltas @param {string | null} text @param {Transfer[]} [transfers] */
export function barPays(deltas, text, transfers) {
  const box = $maybe('bar-pays');
  if (!box) return;
  const penalty = deltas ? penaltyLine(transfers) : null;
  box.replaceChildren.apply(box, deltas ? (penalty ? [penalty] : []).concat([deltasLine(deltas)]) : (text ? [el('span', { class: 'muted', text: text })] : []));
  box.hidden = !deltas && !text;
}

export async function preview() {
  const box = $maybe('preview');
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
  const asked = previewSheet(state.sheet, loadQueue().map(function (item) { return item.hand; }), state.mode, state.amending, hand);
  const position = asked.position;
  const res = await CS.api('POST', cfg.api.settle, asked.sheet);
  if (seq !== state.previewSeq) return;
  if (!res.networkError && !state.online) {
    state.online = true; // the server answered: send what waits
    bus.flush();
  }
  if (res.networkError) {
    state.online = false;
    bus.renderStatus();
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
  barPays(settled.deltas, null, settled.transfers);
  box.dataset.hand = JSON.stringify(hand); // what this preview is of
  if (state.mode === 'amend' && state.pad.active === null) showAbove(box);
}

/* Amending, the before/after table is what the scorer checks before Save: once a change is settled (no
 * count being asked), the page brings it up above the pinned bar, not under it (issue 38, item 5). Save
 * is on the bar, so nothing the thumb needs moves away. */
/** @param {HTMLElement} box */
function showAbove(box) {
  const bar = $maybe('deal-bar');
  const bottom = window.innerHeight - (bar && !bar.hidden ? bar.getBoundingClientRect().height : 0);
  const table = box.querySelector('.change-table') || box;
  const r = table.getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= bottom) return;
  window.scrollBy({ top: Math.min(r.bottom - bottom + 4, r.top - 4), behavior: 'instant' });
}

/* An amendment's preview: each seat's change in that deal and its total, before and after. */
/** @param {number[]} oldDeltas @param {number[]} newDeltas @param {number[]} oldTotals @param {number[]} newTotals */
function changeTable(oldDeltas, newDeltas, oldTotals, newTotals) {
  const rows = names.map(function (_, seat) {
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
