/* The club page's leaderboard (stats.md), with its period, measure and currency switches: the money
 * measure is asked in one currency at a time (the club's most used first, as the server lists them). */
(function () {
  'use strict';
  const CS = window.CS;
  const el = CS.el;
  const section = document.getElementById('leaderboard');
  if (!section) return;
  const form = section.querySelector('form');
  const body = section.querySelector('.board-body');
  const currencyBox = document.getElementById('board-currency');
  const HEADINGS = { rating: 'Rating', money: 'Money', success: 'Success rate' };

  function value(by, v, data) {
    if (by === 'success') return el('span', { text: Math.round(v * 1000) / 10 + '%' });
    if (by === 'money') return data.currency ? CS.moneySpan(v, data.currency) : CS.numSpan(v);
    return el('span', { text: Number(v).toFixed(1) });
  }

  let asked = 0;

  async function load() {
    const by = new FormData(form).get('by');
    if (currencyBox) currencyBox.hidden = by !== 'money';
    const params = new URLSearchParams();
    new FormData(form).forEach(function (v, k) { if (k !== 'currency' || by === 'money') params.set(k, v); });
    const mine = ++asked;
    const res = await CS.api('GET', section.dataset.url + '?' + params.toString());
    if (mine !== asked) return; // the switches moved on: a later answer is the one to show
    section.dataset.shown = params.toString();
    if (!res.ok) {
      const error = CS.errorOf(res);
      body.replaceChildren(el('p', { class: 'muted', text: res.status === 404
        ? 'The leaderboard is not available from this server yet.'
        : res.networkError ? 'No network.' : (error ? error.message : 'The server answered ' + res.status + '.') }));
      return;
    }
    const data = res.data;
    const rows = data.rows || [];
    if (!rows.length) {
      body.replaceChildren(el('p', { class: 'muted', text: 'Nobody qualifies for this period and measure yet.' }));
      return;
    }
    const heading = HEADINGS[data.by] + (data.by === 'money' && data.currency ? ' (' + data.currency + ')' : '');
    body.replaceChildren(el('div', { class: 'table-wrap' }, [el('table', { class: 'data', id: 'board-table' }, [
      el('thead', {}, [el('tr', {}, [el('th', { scope: 'col', class: 'n', text: '#' }), el('th', { scope: 'col', text: 'Player' }),
        el('th', { scope: 'col', class: 'n', text: heading }), el('th', { scope: 'col', class: 'n', text: 'Sessions' })])]),
      el('tbody', {}, rows.map(function (r) {
        return el('tr', {}, [el('td', { class: 'n', text: String(r.rank) }),
          el('td', {}, [el('a', { href: '/players/' + r.player.id + '/', text: r.player.name })]),
          el('td', { class: 'n' }, [value(data.by, r.value, data)]),
          el('td', { class: 'n', text: String(r.sessions) })]);
      })),
    ])]));
  }

  form.addEventListener('change', load);
  load();
})();
