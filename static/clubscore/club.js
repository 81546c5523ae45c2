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
  const HEADINGS = { rating: gettext('Rating'), money: gettext('Money'), success: gettext('Success rate') };

  function value(by, v, data) {
    if (by === 'success') return el('span', { text: CS.percent(v, 1) });
    if (by === 'money') return data.currency ? CS.moneySpan(v, data.currency) : CS.numSpan(v);
    return el('span', { text: CS.decimal(v, 1) });
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
        ? gettext('The leaderboard is not available from this server yet.')
        : res.networkError ? gettext('No network.')
          : (error ? error.message : interpolate(gettext('The server answered %(status)s.'), { status: res.status }, true)) }));
      return;
    }
    const data = res.data;
    const rows = data.rows || [];
    if (!rows.length) {
      body.replaceChildren(el('p', { class: 'muted', text: gettext('Nobody qualifies for this period and measure yet.') }));
      return;
    }
    const heading = data.by === 'money' && data.currency
      ? interpolate(gettext('%(measure)s (%(currency)s)'), { measure: HEADINGS.money, currency: data.currency }, true) : HEADINGS[data.by];
    body.replaceChildren(el('div', { class: 'table-wrap' }, [el('table', { class: 'data', id: 'board-table' }, [
      el('thead', {}, [el('tr', {}, [el('th', { scope: 'col', class: 'n', text: '#' }), el('th', { scope: 'col', text: gettext('Player') }),
        el('th', { scope: 'col', class: 'n', text: heading }), el('th', { scope: 'col', class: 'n', text: gettext('Sessions') })])]),
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
