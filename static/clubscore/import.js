/* The import page: each chosen score sheet is settled by the server (POST /settle/, nothing stored) and
 * shown with its result; the treasurer gives the date it was played (and how its pools end when the sheet
 * does not say), then each is imported (POST /sessions/import/ with closed_at). The browser computes nothing. */
(function () {
  'use strict';
  const CS = window.CS;
  const el = CS.el;
  const cfg = JSON.parse(document.getElementById('import-config').textContent);
  const input = document.getElementById('sheet-files');
  const box = document.getElementById('previews');
  const go = document.getElementById('import-all');
  const status = document.getElementById('import-status');
  const TEXT = {
    notJson: 'This file is not JSON: is it a clubscore score sheet?',
    date: 'Played on',
    pools: 'At the close, the pools',
    divide: 'are divided', carry: 'are carried over',
    needDate: 'Give the date each evening was played.',
    importing: 'Importing…',
    imported: 'Imported as session #',
    done: function (n) { return n + ' evening' + (n === 1 ? '' : 's') + ' imported.'; },
    button: function (n) { return 'Import ' + n + ' evening' + (n === 1 ? '' : 's'); },
  };
  const today = new Date();
  const todayText = today.getFullYear() + '-' + String(today.getMonth() + 1).padStart(2, '0') + '-' + String(today.getDate()).padStart(2, '0');
  let items = [];

  function dateFromName(name) {
    const m = /(\d{4}-\d{2}-\d{2})/.exec(name);
    return m && m[1] <= todayText ? m[1] : '';
  }

  function preview(item) {
    const s = item.settlement, sheet = item.sheet;
    const close = s.close;
    const rows = sheet.players.map(function (name, i) {
      const cells = [el('th', { scope: 'row', text: name }), el('td', { class: 'n' }, [CS.numSpan(close ? close.final[i] : s.balances[i])])];
      if (close && close.currency) cells.push(el('td', { class: 'n' }, [CS.moneySpan(close.money[i], close.currency)]));
      return el('tr', {}, cells);
    });
    const head = [el('th', { scope: 'col', text: 'Player' }), el('th', { scope: 'col', class: 'n', text: close ? 'Final' : 'Counters' })];
    if (close && close.currency) head.push(el('th', { scope: 'col', class: 'n', text: 'Money' }));
    const parts = [el('div', { class: 'table-wrap' }, [el('table', { class: 'data' }, [el('thead', {}, [el('tr', {}, head)]), el('tbody', {}, rows)])])];
    if (close && close.currency && (close.payments || []).length) {
      parts.push(el('ul', { class: 'small' }, close.payments.map(function (p) {
        const who = function (x) { return x === 'pool' ? 'the pool' : sheet.players[x]; };
        return el('li', {}, [who(p.from) + ' pays ' + who(p.to) + ' ', CS.moneySpan(p.cents, close.currency, 'plain')]);
      })));
    }
    return parts;
  }

  function card(item, index) {
    const children = [el('h2', { text: item.name })];
    if (item.error) {
      children.push(el('p', { class: 'error', text: item.error }));
      return el('article', { class: 'sheet-card is-error', 'data-file': item.name }, children);
    }
    const sheet = item.sheet;
    children.push(el('p', { class: 'muted', text: (cfg.titles[sheet.variant] || sheet.variant) + ' · ' + sheet.hands.length + ' deals · ' + sheet.players.join(', ') +
      (sheet.stake ? ' · one counter = ' + sheet.stake.per_counter + ' ' + sheet.stake.currency : '') }));
    children.push.apply(children, preview(item));
    const date = el('input', { type: 'date', name: 'date-' + index, max: todayText, required: true, value: item.date || null,
      onchange: function () { item.date = date.value; refresh(); } });
    const fields = [el('label', {}, [TEXT.date + ' ', date])];
    if (!sheet.close) {
      const choice = function (value) {
        return el('label', { class: 'check' }, [el('input', { type: 'radio', name: 'pools-' + index, value: value, checked: item.pools === value,
          onchange: async function () {
            item.pools = value;
            await settle(item);
            const old = box.querySelector('[data-file="' + CSS.escape(item.name) + '"]');
            old.replaceWith(card(item, index));
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

  async function read(file) {
    const item = { name: file.name, date: dateFromName(file.name), pools: 'divide' };
    let sheet;
    try {
      sheet = JSON.parse(await file.text());
    } catch (err) {
      item.error = TEXT.notJson;
      return item;
    }
    item.sheet = sheet;
    return settle(item);
  }

  /* The server's settlement of the sheet as it will be imported (with the close chosen here if it has none). */
  async function settle(item) {
    const res = await CS.api('POST', cfg.api.settle, asImported(item));
    if (!res.ok) {
      const e = CS.errorOf(res);
      item.error = e ? e.message + (e.hand ? ' (deal ' + e.hand + ')' : '') : 'The server answered ' + res.status + '.';
      return item;
    }
    item.settlement = res.data;
    return item;
  }

  function asImported(item) {
    return Object.assign({}, item.sheet, { close: item.sheet.close || { pools: item.pools } });
  }

  input.addEventListener('change', async function () {
    status.textContent = '';
    items = await Promise.all(Array.from(input.files).map(read));
    box.replaceChildren.apply(box, items.map(card));
    refresh();
  });

  go.addEventListener('click', async function () {
    const todo = ready();
    if (todo.some(function (i) { return !i.date; })) { status.textContent = TEXT.needDate; return; }
    go.disabled = true;
    status.textContent = TEXT.importing;
    let count = 0;
    for (const item of todo) {
      const node = box.querySelector('[data-file="' + CSS.escape(item.name) + '"]');
      const res = await CS.api('POST', cfg.api.import, { club: cfg.club, sheet: asImported(item), closed_at: item.date });
      const result = node.querySelector('.result');
      if (res.ok) {
        item.done = true;
        count += 1;
        node.classList.add('is-done');
        node.querySelectorAll('input').forEach(function (i) { i.disabled = true; }); // imported: nothing left to change
        result.replaceChildren(TEXT.imported, el('a', { href: cfg.pages.settlement.replace('{id}', res.data.id), text: String(res.data.id) }));
      } else {
        const e = CS.errorOf(res);
        result.className = 'result error';
        result.textContent = e ? e.message : 'The server answered ' + res.status + '.';
      }
    }
    go.disabled = false;
    status.textContent = TEXT.done(count);
    refresh();
  });
})();
