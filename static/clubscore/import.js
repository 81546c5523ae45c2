// @ts-check
/* The import page: each chosen score sheet is settled by the server (POST /settle/, nothing stored) and
 * shown with its result; the treasurer gives the date it was played (and how its pools end when the sheet
 * does not say), then each is imported (POST /sessions/import/ with closed_at). The browser computes nothing. */
(function () {
  'use strict';
  const CS = window.CS;
  const el = CS.el;
  /** The page's own data: the club, its variants' titles, the endpoints and pages it uses.
   * @type {{club: number, titles: Record<string, string>, api: {players: string, settle: string, import: string}, pages: {settlement: string}}} */
  const cfg = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('import-config')).textContent || '{}');
  const input = /** @type {HTMLInputElement} */ (document.getElementById('sheet-files'));
  const box = /** @type {HTMLElement} */ (document.getElementById('previews'));
  const go = /** @type {HTMLButtonElement} */ (document.getElementById('import-all'));
  const status = /** @type {HTMLElement} */ (document.getElementById('import-status'));
  /**
   * One chosen file: its sheet (as the file says, unchecked: the server judges it) and the server's
   * settlement of it, or why it cannot be imported.
   * @typedef {{name: string, date: string, pools: string, error?: string, sheet?: any, settlement?: any,
   *   alike?: {name: string, others: string[]}[], done?: boolean}} Item
   */
  /** @type {Record<string, any>} */
  const TEXT = {
    notJson: gettext('This file is not JSON: is it a clubscore score sheet?'),
    notUtf8: gettext('This file is not UTF-8 text: save it as UTF-8 and choose it again.'),
    tooDeep: gettext('This file nests too deeply to be a score sheet.'),
    unreadable: gettext('This file could not be read.'),
    /** @param {string} name @param {string[]} others */
    alike: function (name, others) {
      return interpolate(gettext('“%(name)s” looks like %(others)s, already a player of the club: the import refuses it. Correct the file to the club’s name if it is the same person, or give a name told apart at a glance.'),
        { name: name, others: others.map(function (o) { return interpolate(pgettext('quotation', '“%(text)s”'), { text: o }, true); }).join(', ') }, true);
    },
    date: gettext('Played on'),
    pools: gettext('At the close, the pools'),
    divide: gettext('are divided'), carry: gettext('are carried over'),
    needDate: gettext('Give the date each evening was played.'),
    importing: gettext('Importing…'),
    imported: gettext('Imported as session #'),
    /** @param {number} n */
    done: function (n) { return interpolate(ngettext('%(n)s evening imported.', '%(n)s evenings imported.', n), { n: n }, true); },
    /** @param {number} n */
    button: function (n) { return interpolate(ngettext('Import %(n)s evening', 'Import %(n)s evenings', n), { n: n }, true); },
    /** @param {number} status */
    answered: function (status) { return interpolate(gettext('The server answered %(status)s.'), { status: status }, true); },
  };
  const today = new Date();
  const todayText = today.getFullYear() + '-' + String(today.getMonth() + 1).padStart(2, '0') + '-' + String(today.getDate()).padStart(2, '0');
  /** @type {Item[]} */
  let items = [];
  const MAX_DEPTH = 16; // a score sheet nests a few levels (a hand's tricks); the server refuses what JSON.stringify could not send

  /* True when the parsed value nests deeper than MAX_DEPTH (counted without recursion). */
  /** @param {unknown} value */
  function tooDeep(value) {
    /** @type {[any, number][]} */
    const stack = [[value, 1]];
    while (stack.length) {
      const top = /** @type {[any, number]} */ (stack.pop()), v = top[0], d = top[1];
      if (v === null || typeof v !== 'object') continue;
      if (d > MAX_DEPTH) return true;
      Object.keys(v).forEach(function (k) { stack.push([v[k], d + 1]); });
    }
    return false;
  }

  /** @param {string} name */
  function dateFromName(name) {
    const m = /(\d{4}-\d{2}-\d{2})/.exec(name);
    return m && m[1] <= todayText ? m[1] : '';
  }

  /** @param {Item} item */
  function preview(item) {
    const s = item.settlement, sheet = item.sheet;
    const close = s.close;
    const rows = sheet.players.map(function (/** @type {string} */ name, /** @type {number} */ i) {
      const cells = [el('th', { scope: 'row', text: name }), el('td', { class: 'n' }, [CS.numSpan(close ? close.final[i] : s.balances[i])])];
      if (close && close.currency) cells.push(el('td', { class: 'n' }, [CS.moneySpan(close.money[i], close.currency)]));
      return el('tr', {}, cells);
    });
    const head = [el('th', { scope: 'col', text: gettext('Player') }),
      el('th', { scope: 'col', class: 'n', text: close ? gettext('Final') : gettext('Counters') })];
    if (close && close.currency) head.push(el('th', { scope: 'col', class: 'n', text: gettext('Money') }));
    const parts = [el('div', { class: 'table-wrap' }, [el('table', { class: 'data' }, [el('thead', {}, [el('tr', {}, head)]), el('tbody', {}, rows)])])];
    if (close && close.currency && (close.payments || []).length) {
      parts.push(el('ul', { class: 'small' }, close.payments.map(function (/** @type {{from: number | 'pool', to: number | 'pool', cents: number}} */ p) {
        const who = function (/** @type {number | 'pool'} */ x) { return x === 'pool' ? gettext("the club's pool") : sheet.players[x]; };
        // one sentence with its amount, as the settlement writes it (in Russian «Ann → Cleo: 4,85 €»)
        return el('li', { 'data-cents': String(p.cents), text: interpolate(gettext('%(payer)s pays %(payee)s %(amount)s'),
          { payer: who(p.from), payee: who(p.to), amount: CS.money(p.cents, close.currency, 'plain') }, true) });
      })));
    }
    return parts;
  }

  /** @param {Item} item @param {number} index @returns {HTMLElement} */
  function card(item, index) {
    const children = [el('h2', { text: item.name })];
    if (item.error) {
      children.push(el('p', { class: 'error', text: item.error }));
      return el('article', { class: 'sheet-card is-error', 'data-file': item.name }, children);
    }
    const sheet = item.sheet;
    const about = [cfg.titles[sheet.variant] || sheet.variant,
      interpolate(ngettext('%(n)s deal', '%(n)s deals', sheet.hands.length), { n: sheet.hands.length }, true), sheet.players.join(', ')];
    if (sheet.stake) {
      about.push(interpolate(gettext('one counter = %(amount)s %(currency)s'),
        // As the server writes a stake (ledger/currency.py, decimal_text): the sheet's own digits with the
        // page's decimal sign, so 0.125 reads 0,125 here as on the settlement and in the stake field.
        { amount: String(sheet.stake.per_counter).replace('.', CS.decimalSign), currency: sheet.stake.currency }, true));
    }
    children.push(el('p', { class: 'muted', text: about.join(' · ') }));
    (item.alike || []).forEach(function (a) { children.push(el('p', { class: 'notice look-alike', role: 'note', text: TEXT.alike(a.name, a.others) })); });
    children.push.apply(children, preview(item));
    const date = /** @type {HTMLInputElement} */ (el('input', { type: 'date', name: 'date-' + index, max: todayText, required: true, value: item.date || null,
      onchange: function () { item.date = date.value; refresh(); } }));
    const fields = [el('label', {}, [TEXT.date + ' ', date])];
    if (!sheet.close) {
      const choice = function (/** @type {string} */ value) {
        return el('label', { class: 'check' }, [el('input', { type: 'radio', name: 'pools-' + index, value: value, checked: item.pools === value,
          onchange: async function () {
            item.pools = value;
            await settle(item);
            const old = box.querySelector('[data-file="' + CSS.escape(item.name) + '"]');
            if (old) old.replaceWith(card(item, index));
            refresh();
          } }), TEXT[value]]);
      };
      fields.push(el('fieldset', {}, [el('legend', { text: TEXT.pools }), choice('divide'), choice('carry')]));
    }
    children.push(el('div', { class: 'stack' }, fields));
    children.push(el('p', { class: 'result', role: 'status' }));
    return el('article', { class: 'sheet-card', 'data-file': item.name }, children);
  }

  function ready() { return items.filter(function (i) { return !i.error && !i.done; }); }

  function refresh() {
    const n = ready().length;
    go.hidden = n === 0;
    go.textContent = TEXT.button(n);
  }

  /* One chosen file as an item to show: its sheet and settlement, or the reason it cannot be imported.
   * Never throws, so one bad file never hides the others. */
  /** @param {File} file @returns {Promise<Item>} */
  async function read(file) {
    /** @type {Item} */
    const item = { name: file.name, date: dateFromName(file.name), pools: 'divide' };
    try {
      let text, sheet;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
      } catch (err) {
        item.error = TEXT.notUtf8; // a Latin-1 file would otherwise become "Zo\ufffd"
        return item;
      }
      try {
        sheet = JSON.parse(text);
      } catch (err) {
        item.error = err instanceof RangeError ? TEXT.tooDeep : TEXT.notJson;
        return item;
      }
      if (tooDeep(sheet)) {
        item.error = TEXT.tooDeep;
        return item;
      }
      item.sheet = sheet;
      await settle(item);
      if (!item.error) await lookAlikes(item);
    } catch (err) {
      item.error = TEXT.unreadable;
      item.sheet = undefined;
    }
    return item;
  }

  /* The club's players each new name could be taken for (the server compares them: GET ...?looks_like=). */
  /** @param {Item} item */
  async function lookAlikes(item) {
    /** @type {string[]} */
    const names = Array.isArray(item.sheet.players) ? item.sheet.players.filter(function (/** @type {unknown} */ n) { return typeof n === 'string'; }) : [];
    const answers = await Promise.all(names.map(function (name) {
      return CS.api('GET', cfg.api.players + '?looks_like=' + encodeURIComponent(name));
    }));
    /** @type {{name: string, others: string[]}[]} */
    const alike = [];
    item.alike = alike;
    answers.forEach(function (res, i) {
      /** @type {string[]} */
      const others = res.ok ? (res.data.results || []).map(function (/** @type {{name: string}} */ p) { return p.name; }) : [];
      if (others.length) alike.push({ name: names[i], others: others });
    });
  }

  /* The server's settlement of the sheet as it will be imported (with the close chosen here if it has none). */
  /** @param {Item} item */
  async function settle(item) {
    const res = await CS.api('POST', cfg.api.settle, asImported(item));
    if (!res.ok) {
      const e = CS.errorOf(res);
      item.error = e ? (e.hand ? interpolate(gettext('%(message)s (deal %(n)s)'), { message: e.message, n: e.hand }, true) : e.message)
        : TEXT.answered(res.status);
      return item;
    }
    item.settlement = res.data;
    return item;
  }

  /** @param {Item} item */
  function asImported(item) {
    return Object.assign({}, item.sheet, { close: item.sheet.close || { pools: item.pools } });
  }

  input.addEventListener('change', async function () {
    status.textContent = '';
    items = await Promise.all(Array.from(input.files || []).map(read));
    box.replaceChildren.apply(box, items.map(function (item, index) {
      try {
        return card(item, index);
      } catch (err) { // a sheet the server settled but this page cannot show: that file alone says so
        item.error = TEXT.unreadable;
        return card(item, index);
      }
    }));
    refresh();
  });

  go.addEventListener('click', async function () {
    const todo = ready();
    if (todo.some(function (i) { return !i.date; })) { status.textContent = TEXT.needDate; return; }
    go.disabled = true;
    status.textContent = TEXT.importing;
    let count = 0;
    for (const item of todo) {
      const node = /** @type {HTMLElement} */ (box.querySelector('[data-file="' + CSS.escape(item.name) + '"]'));
      const res = await CS.api('POST', cfg.api.import, { club: cfg.club, sheet: asImported(item), closed_at: item.date });
      const result = /** @type {HTMLElement} */ (node.querySelector('.result'));
      if (res.ok) {
        item.done = true;
        count += 1;
        node.classList.add('is-done');
        node.querySelectorAll('input').forEach(function (i) { i.disabled = true; }); // imported: nothing left to change
        result.replaceChildren(TEXT.imported, el('a', { href: cfg.pages.settlement.replace('{id}', res.data.id), text: String(res.data.id) }));
      } else {
        const e = CS.errorOf(res);
        result.className = 'result error';
        result.textContent = e ? e.message : TEXT.answered(res.status);
      }
    }
    go.disabled = false;
    status.textContent = TEXT.done(count);
    refresh();
  });
})();
