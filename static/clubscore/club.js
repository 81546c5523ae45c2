// @ts-check
/* The club page's leaderboard (stats.md), with its period, measure and currency switches: the money
 * measure is asked in one currency at a time (the club's most used first, as the server lists them). */
(function () {
  'use strict';
  const CS = window.CS;
  const el = CS.el;
  const found = document.getElementById('leaderboard');
  const foundForm = found && found.querySelector('form');
  const foundBody = found && found.querySelector('.board-body');
  if (!found || !foundForm || !foundBody) return;
  const section = found, form = foundForm, body = foundBody;
  const currencyBox = document.getElementById('board-currency');
  /** @type {Record<string, string>} */
  const HEADINGS = { rating: gettext('Rating'), money: gettext('Money'), success: gettext('Success rate') };

  /** One row's figure. @param {string} by @param {any} r a leaderboard row (stats.md) @param {any} data the answer */
  function value(by, r, data) {
    if (by === 'success') return el('span', { text: CS.percent(r.value, 1) });
    if (by === 'money') return data.currency ? CS.moneySpan(r.value, data.currency) : CS.numSpan(r.value);
    return CS.ratingSpan({ mu: r.mu, sigma: r.sigma, ordinal: r.value }); // said as on the player's page
  }

  /* The period's own year or month (a past one, stats.md's `year=YYYY`, `month=YYYY-MM`): its list shows
   * only beside its period; "This year" and "This month" ask for none. */
  const whenBoxes = { year: document.getElementById('board-year-box'), month: document.getElementById('board-month-box') };
  function params() {
    const data = new FormData(form);
    const by = String(data.get('by'));
    const period = String(data.get('period'));
    const asked = new URLSearchParams();
    asked.set('period', period.replace('past-', ''));
    asked.set('by', by);
    if (period === 'past-year') asked.set('year', String(data.get('year')));
    else if (period === 'past-month') asked.set('month', String(data.get('month')));
    if (by === 'money' && data.get('currency')) asked.set('currency', String(data.get('currency')));
    Object.entries(whenBoxes).forEach(function (kv) { if (kv[1]) kv[1].hidden = period !== 'past-' + kv[0]; });
    return asked;
  }

  let asked = 0;

  async function load() {
    const by = new FormData(form).get('by');
    if (currencyBox) currencyBox.hidden = by !== 'money';
    const query = params();
    const csv = document.getElementById('leaderboard-csv');
    if (csv) csv.setAttribute('href', section.dataset.url + '?' + query.toString() + '&format=csv'); // what is shown
    const mine = ++asked;
    const res = await CS.api('GET', section.dataset.url + '?' + query.toString());
    if (mine !== asked) return; // the switches moved on: a later answer is the one to show
    section.dataset.shown = query.toString();
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
    const table = el('div', { class: 'table-wrap' }, [el('table', { class: 'data', id: 'board-table' }, [
      el('thead', {}, [el('tr', {}, [el('th', { scope: 'col', class: 'n', text: '#' }), el('th', { scope: 'col', text: gettext('Player') }),
        el('th', { scope: 'col', class: 'n', text: heading }), el('th', { scope: 'col', class: 'n', text: gettext('Sessions') })])]),
      el('tbody', {}, rows.map(function (/** @type {any} */ r) {
        return el('tr', {}, [el('td', { class: 'n', text: String(r.rank) }),
          el('td', {}, [el('a', { href: '/players/' + r.player.id + '/', text: r.player.name })]),
          el('td', { class: 'n' }, [value(data.by, r, data)]),
          el('td', { class: 'n', text: String(r.sessions) })]);
      })),
    ])]);
    if (data.by === 'rating') body.replaceChildren(table, el('p', { class: 'small muted', id: 'board-relation', text: CS.ratingRelation }));
    else body.replaceChildren(table);
  }

  form.addEventListener('change', load);
  load();
})();
