// @ts-check
/* The player page: the statistics and ratings endpoints when the server has them (stats.md), and a chart
 * of the counters over the closed sessions from the server-rendered results. Nothing is made up: when an
 * endpoint does not answer, the page says so. */
(function () {
  'use strict';
  const CS = window.CS;
  const el = CS.el;
  /** The page's own data (the server renders it): the endpoints and the counters' series per variant.
   * @type {{stats: string, ratings: string, series: Record<string, {total: number, session: number, date: string, counters: number}[]>, titles: Record<string, string>, [key: string]: any}} */
  const cfg = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('player-config')).textContent || '{}');
  const COLOURS = ['#0b5cad', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0f766e'];

  function chartAvailable() { return typeof window.Chart === 'function'; }

  function countersChart() {
    const canvas = document.getElementById('counters-chart');
    if (!canvas || !chartAvailable()) return;
    const variants = Object.keys(cfg.series);
    const longest = Math.max.apply(null, variants.map(function (v) { return cfg.series[v].length; }).concat([0]));
    new window.Chart(canvas, {
      type: 'line',
      data: {
        labels: Array.from({ length: longest }, function (_, i) { return String(i + 1); }),
        datasets: variants.map(function (v, i) {
          return {
            label: cfg.titles[v] || v,
            data: cfg.series[v].map(function (p) { return p.total; }),
            borderColor: COLOURS[i % COLOURS.length], backgroundColor: COLOURS[i % COLOURS.length],
            tension: 0, pointRadius: 3,
          };
        }),
      },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        scales: { x: { title: { display: true, text: gettext('closed session') } },
          y: { title: { display: true, text: gettext('counters, running total') } } },
        plugins: { tooltip: { callbacks: { afterLabel: function (/** @type {{datasetIndex: number, dataIndex: number}} */ ctx) {
          const p = cfg.series[variants[ctx.datasetIndex]][ctx.dataIndex];
          return interpolate(gettext('session #%(session)s (%(date)s): %(counters)s'), { session: p.session, date: p.date ? CS.day(p.date) : '', counters: CS.signed(p.counters) }, true);
        } } } },
      },
    });
  }

  /* `words`: the sentences of one endpoint (statistics, ratings), each whole so that it translates. */
  /** @param {HTMLElement} box @param {ApiResult} res @param {{missing: string, offline: string, refused: string}} words */
  function unavailable(box, res, words) {
    if (res.status === 404) {
      box.replaceChildren(el('p', { class: 'muted', text: words.missing }));
    } else if (res.networkError) {
      box.replaceChildren(el('p', { class: 'muted', text: words.offline }));
    } else {
      const error = CS.errorOf(res);
      box.replaceChildren(el('p', { class: 'error', text: interpolate(words.refused,
        { reason: error ? error.message : interpolate(gettext('the server answered %(status)s'), { status: res.status }, true) }, true) }));
    }
  }

  const STATS_WORDS = {
    missing: gettext('Detailed statistics are not available from this server yet. The results below come from the sessions themselves.'),
    offline: gettext('Detailed statistics: no network.'),
    refused: gettext('Detailed statistics: %(reason)s'),
  };
  const RATING_WORDS = {
    missing: gettext('Ratings are not available from this server yet. The results below come from the sessions themselves.'),
    offline: gettext('Ratings: no network.'),
    refused: gettext('Ratings: %(reason)s'),
  };

  /* A figure: `key` names it for the page (data-figure), `label` says it in the page's language. */
  /** @param {string} key @param {string} label @param {Node} value */
  function figure(key, label, value) {
    return el('li', { 'data-figure': key }, [el('span', { class: 'label', text: label }), el('span', { class: 'value' }, [value])]);
  }

  /** @param {number} cents @param {string} currency */
  function moneyNode(cents, currency) { return CS.moneySpan(cents, currency); }


  /** @param {unknown} value */
  function text(value) { return document.createTextNode(String(value)); }

  /** @param {{kind: string, length: number}} streak */
  function streakWords(streak) {
    const n = streak.length;
    const words = streak.kind === 'win' ? ngettext('%(n)s win', '%(n)s wins', n)
      : streak.kind === 'loss' ? ngettext('%(n)s loss', '%(n)s losses', n) : '%(n)s ' + streak.kind;
    return interpolate(words, { n: CS.plain.format(n) }, true);
  }

  /** @param {any} data the player's statistics (stats.md), as the API answers them */
  function renderStats(data) {
    const box = /** @type {HTMLElement} */ (document.getElementById('stats-body'));
    const parts = [];
    const top = [figure('sessions', gettext('sessions'), text(CS.plain.format(data.sessions))),
      figure('deals', gettext('deals'), text(CS.plain.format(data.deals)))];
    Object.entries(data.money || {}).forEach(function (kv) {
      top.push(figure('money (' + kv[0] + ')', interpolate(gettext('money (%(currency)s)'), { currency: kv[0] }, true), moneyNode(kv[1], kv[0])));
    });
    if (data.streak && data.streak.length) top.push(figure('current streak', gettext('current streak'), text(streakWords(data.streak))));
    parts.push(el('ul', { class: 'figures', id: 'stats-figures' }, top));
    const details = el('details', { class: 'fold', id: 'stats-details' }, [el('summary', { text: gettext('Per variant and contract') })]);
    parts.push(details);
    Object.entries(data.variants || {}).forEach(function (kv, vi) {
      const name = kv[0], v = kv[1];
      const bids = cfg.bids[name] || {};
      details.appendChild(el('h3', { text: cfg.titles[name] || name }));
      const figs = [figure('sessions', gettext('sessions'), text(CS.plain.format(v.sessions))),
        figure('deals', gettext('deals'), text(CS.plain.format(v.deals))), figure('counters', gettext('counters'), CS.numSpan(v.counters))];
      if (v.best_session) figs.push(figure('best session', gettext('best session'), el('a', { href: '/sessions/' + v.best_session.id + '/', text: interpolate(pgettext('session number', '#%(n)s'), { n: v.best_session.id }, true) + ' ' + CS.signed(v.best_session.counters) })));
      if (v.worst_session) figs.push(figure('worst session', gettext('worst session'), el('a', { href: '/sessions/' + v.worst_session.id + '/', text: interpolate(pgettext('session number', '#%(n)s'), { n: v.worst_session.id }, true) + ' ' + CS.signed(v.worst_session.counters) })));
      if (v.pools_won) {
        figs.push(figure('pools won', gettext('pools won'), text(interpolate(ngettext('%(n)s (%(counters)s counter)', '%(n)s (%(counters)s counters)', v.pools_won.counters),
          { n: CS.plain.format(v.pools_won.count), counters: CS.plain.format(v.pools_won.counters) }, true))));
      }
      if (v.misere_partout) {
        figs.push(figure('all-pass deals', gettext('all-pass deals'), text(interpolate(gettext('%(played)s played, %(lost)s lost'),
          { played: CS.plain.format(v.misere_partout.played), lost: CS.plain.format(v.misere_partout.lost) }, true))));
      }
      if (v.table_law) { /* table law (issue 42): each event against its culprit, a count and a rate per deal */
        const events = [['revokes', gettext('revokes')], ['misdeals', gettext('misdeals (as dealer)')],
          ['concessions', gettext('paid instead of playing')]];
        events.forEach(function (e) {
          const got = v.table_law[e[0]];
          if (!got) return;
          figs.push(figure(e[0], e[1], text(interpolate(gettext('%(n)s (%(rate)s of the deals)'),
            { n: CS.plain.format(got.count), rate: CS.percent(got.rate, 1) }, true))));
        });
      }
      details.appendChild(el('ul', { class: 'figures' }, figs));
      const contracts = v.contracts || [];
      if (contracts.length) {
        /** @param {any} c a contract's line */
        const label = function (c) {
          const bid = bids[c.bid] || c.bid;
          return c.role === 'partner' ? interpolate(gettext('%(bid)s (partner)'), { bid: bid }, true) : bid;
        };
        details.appendChild(el('div', { class: 'table-wrap' }, [el('table', { class: 'data contracts', 'data-variant': name }, [
          el('thead', {}, [el('tr', {}, [gettext('Contract'), gettext('Played'), gettext('Made'), gettext('Rate'), gettext('Over-tricks'),
            gettext('Short')].map(function (h, i) {
            return el('th', { scope: 'col', class: i ? 'n' : null, text: h });
          }))]),
          el('tbody', {}, contracts.map(function (/** @type {any} */ c) {
            return el('tr', {}, [el('th', { scope: 'row', text: label(c) }), el('td', { class: 'n', text: String(c.played) }),
              el('td', { class: 'n', text: String(c.made) }), el('td', { class: 'n', text: CS.percent(c.rate) }),
              el('td', { class: 'n', text: String(c.overtricks) }), el('td', { class: 'n', text: String(c.shortfall) })]);
          })),
        ])]));
        if (chartAvailable()) {
          const canvas = el('canvas', { role: 'img', 'aria-label': interpolate(gettext('Success rate by contract, %(variant)s'), { variant: cfg.titles[name] || name }, true) });
          const box = el('div', { class: 'chart-box' }, [canvas]);
          box.style.height = Math.max(160, contracts.length * 28 + 60) + 'px'; // a property, not a style= attribute: CSP allows it
          details.appendChild(box);
          setTimeout(function () {
            new window.Chart(canvas, {
              type: 'bar',
              data: {
                labels: contracts.map(function (/** @type {any} */ c) { return label(c) + '  ' + c.made + '/' + c.played; }),
                datasets: [{ label: gettext('made / played'), data: contracts.map(function (/** @type {any} */ c) { return Math.round(c.rate * 1000) / 10; }),
                  backgroundColor: COLOURS[vi % COLOURS.length] }],
              },
              options: { indexAxis: 'y', responsive: true, maintainAspectRatio: false, animation: false,
                scales: { x: { min: 0, max: 100, title: { display: true, text: gettext('success rate, %') } } },
                plugins: { legend: { display: false } } },
            });
          });
        }
      }
    });
    box.replaceChildren.apply(box, parts);
  }

  /** @param {any} data the player's ratings over time (stats.md), as the API answers them */
  function renderRatings(data) {
    const box = /** @type {HTMLElement} */ (document.getElementById('ratings-body'));
    /** @type {{closed_at: string, mu: number, sigma: number, ordinal: number}[]} */
    const rows = Array.isArray(data) ? data : (data && data.results) || [];
    if (!rows.length) {
      box.replaceChildren(el('p', { class: 'muted', text: gettext('No rating yet: it starts with the first closed session.') }));
      return;
    }
    const last = rows[rows.length - 1];
    const HIGH = gettext('high'); // the band's upper edge: drawn, never in the legend
    const parts = [
      el('p', { class: 'rating-words', id: 'rating-words' }, [CS.ratingSpan(last)]),
      el('p', { class: 'small', id: 'rating-relation', text: CS.ratingRelation }),
      el('p', { class: 'muted small', text: interpolate(ngettext(
        'Skill after %(n)s closed session: the likely value, and how far it may be off. The shaded band on the chart is that range.',
        'Skill after %(n)s closed sessions: the likely value, and how far it may be off. The shaded band on the chart is that range.',
        rows.length), { n: rows.length }, true) }),
    ];
    if (chartAvailable()) {
      const canvas = el('canvas', { role: 'img', 'aria-label': gettext('Rating after each session, with its give-or-take band') });
      parts.push(el('div', { class: 'chart-box short' }, [canvas]));
      setTimeout(function () {
        new window.Chart(canvas, {
          type: 'line',
          data: {
            labels: rows.map(function (r) { return CS.day(r.closed_at); }),
            datasets: [
              { label: HIGH, data: rows.map(function (r) { return r.mu + r.sigma; }), borderWidth: 0, pointRadius: 0, fill: false },
              { label: gettext('give or take'), data: rows.map(function (r) { return r.mu - r.sigma; }), borderWidth: 0, pointRadius: 0,
                fill: '-1', backgroundColor: 'rgba(11,92,173,0.18)' },
              { label: gettext('rating'), data: rows.map(function (r) { return r.mu; }), borderColor: COLOURS[0], backgroundColor: COLOURS[0] },
            ],
          },
          options: { responsive: true, maintainAspectRatio: false, animation: false,
            plugins: { legend: { labels: { filter: function (/** @type {{text: string}} */ item) { return item.text !== HIGH; } } } } },
        });
      });
    }
    parts.push(el('details', { class: 'fold', id: 'rating-details' }, [el('summary', { text: gettext('How the rating works') }),
      el('p', { class: 'small', text: interpolate(gettext('After every closed session the four players\' ratings move by where each finished (Plackett-Luce, as in openskill). The leaderboard ranks by the cautious figure, the rating less three times its give-or-take: %(ordinal)s now.'),
        { ordinal: CS.decimal(last.ordinal, 1) }, true) })]));
    box.replaceChildren.apply(box, parts);
  }

  let asked = 0;
  function loadStats() {
    const chosen = /** @type {HTMLInputElement | null} */ (document.querySelector('#stats-period input:checked'));
    const year = chosen ? chosen.value : '';
    const url = cfg.stats + (year ? '?date_from=' + year + '-01-01&date_to=' + year + '-12-31' : '');
    const mine = ++asked;
    CS.api('GET', url).then(function (res) {
      if (mine !== asked) return;
      /** @type {HTMLElement} */ (document.getElementById('stats')).dataset.shown = year || 'all';
      if (res.ok && res.data) renderStats(res.data);
      else unavailable(/** @type {HTMLElement} */ (document.getElementById('stats-body')), res, STATS_WORDS);
    });
  }
  const periodForm = document.getElementById('stats-period');
  if (periodForm) periodForm.addEventListener('change', loadStats);

  countersChart();
  loadStats();
  CS.apiAll(cfg.ratings).then(function (res) { // every page: the whole history, oldest first
    if (res.ok) renderRatings(res.data);
    else unavailable(/** @type {HTMLElement} */ (document.getElementById('ratings-body')), res, RATING_WORDS);
  });
})();
