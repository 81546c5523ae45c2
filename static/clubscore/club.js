/* The club page's leaderboard (stats.md), with its period and measure switches; when the endpoint does
 * not answer, the page says so rather than show anything else. */
(function () {
  'use strict';
  const CS = window.CS;
  const el = CS.el;
  const section = document.getElementById('leaderboard');
  if (!section) return;
  const form = section.querySelector('form');
  const body = section.querySelector('.board-body');

  function digits(currency) {
    try {
      return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency }).resolvedOptions().maximumFractionDigits;
    } catch (err) {
      return 2;
    }
  }

  function value(by, v, row, data) {
    if (by === 'success') return Math.round(v * 1000) / 10 + '%';
    if (by === 'money') {
      const currency = row.currency || data.currency;
      return currency ? CS.money(v, currency, digits(currency), 'signed') : CS.signed(v);
    }
    return Number(v).toFixed(2);
  }

  let asked = 0;

  async function load() {
    const params = new URLSearchParams(new FormData(form));
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
    body.replaceChildren(el('div', { class: 'table-wrap' }, [el('table', { class: 'data' }, [
      el('thead', {}, [el('tr', {}, [el('th', { scope: 'col', class: 'n', text: 'Rank' }), el('th', { scope: 'col', text: 'Player' }),
        el('th', { scope: 'col', class: 'n', text: data.by || params.get('by') }), el('th', { scope: 'col', class: 'n', text: 'Sessions' })])]),
      el('tbody', {}, rows.map(function (r) {
        return el('tr', {}, [el('td', { class: 'n', text: String(r.rank) }),
          el('td', {}, [el('a', { href: '/players/' + r.player.id + '/', text: r.player.name })]),
          el('td', { class: 'n', text: value(data.by || params.get('by'), r.value, r, data) }),
          el('td', { class: 'n', text: String(r.sessions) })]);
      })),
    ])]));
  }

  form.addEventListener('change', load);
  load();
})();
