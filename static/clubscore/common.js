// @ts-check
/* clubscore: what every page's script shares. Talking to the REST API with the logged-in session
 * (CSRF header), numbers in the page's language, ids. No payment is ever computed in the browser.
 *
 * The words come from Django's catalog (/jsi18n/, loaded before this file): gettext, ngettext,
 * pgettext, interpolate. Should it be missing (offline, never kept), the English stands in.
 *
 * What every page reaches as window.CS is the object clubscoreCommon() returns (live.js adds `live`):
 * its type is read from this code (ClubscoreCommon below), not described again by hand. */

/** What common.js puts in window.CS: tsc reads it from clubscoreCommon's return (types/globals.d.ts
 * adds live.js's `live`). @typedef {ReturnType<typeof clubscoreCommon>} ClubscoreCommon */

/** An API answer (`CS.api`): never throws; a lost network is `networkError`, the service worker's copy
 * `offlineCopy`.
 * @typedef {{ ok: boolean, status: number, data: any, etag?: string | null, retryAfter?: number,
 *   networkError?: boolean, offlineCopy?: boolean }} ApiResult */

/** The server's refusal (`error` in an answer's body).
 * @typedef {{ code?: string, message: string, fields?: Record<string, string[]>, hand?: number }} ApiError */

/** A child `CS.el` appends: a node, a text, or nothing. @typedef {Node | string | null | undefined} Child */

/** A player's rating as the statistics API gives it (stats.md): mu, sigma and the cautious ordinal.
 * @typedef {{ mu: number, sigma: number, ordinal: number }} Rating */

window.CS = /** @type {Window['CS']} */ (clubscoreCommon());

function clubscoreCommon() {
  'use strict';

  if (typeof window.gettext !== 'function') {
    window.gettext = function (msgid) { return msgid; };
    window.ngettext = function (singular, plural, count) { return count === 1 ? singular : plural; };
    window.pgettext = function (context, msgid) { return msgid; };
    window.interpolate = function (fmt, obj, named) {
      const values = /** @type {Record<string, unknown>} */ (obj);
      if (named) return fmt.replace(/%\(\w+\)s/g, function (m) { return String(values[m.slice(2, -2)]); });
      let i = 0;
      return fmt.replace(/%s/g, function () { return String(values[i++]); });
    };
  }

  /* The page's language (<html lang>), which the server chose: numbers and money are written as it writes them. */
  const LANG = document.documentElement.lang || 'en';

  /** @param {string} name */
  function cookie(name) {
    const found = document.cookie.split(';').map(function (c) { return c.trim(); })
      .find(function (c) { return c.startsWith(name + '='); });
    return found ? decodeURIComponent(found.slice(name.length + 1)) : null;
  }

  function csrfToken() {
    const meta = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="csrf-token"]'));
    return cookie('csrftoken') || (meta ? meta.content : '');
  }

  /** One API call. Never throws: {ok, status, data, etag, networkError}.
   * @param {string} method @param {string} url @param {unknown} [body] @param {Record<string, string>} [headers]
   * @returns {Promise<ApiResult>} */
  async function api(method, url, body, headers) {
    /** @type {RequestInit & {headers: Record<string, string>}} */
    const init = {
      method: method,
      credentials: 'same-origin',
      cache: 'no-store',
      // the server's messages (a refusal, a field's error) in the page's language
      headers: Object.assign({ 'Accept': 'application/json', 'Accept-Language': LANG }, headers || {}),
    };
    if (method !== 'GET' && method !== 'HEAD') {
      init.headers['X-CSRFToken'] = csrfToken();
    }
    if (body !== undefined && body !== null) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, init);
    } catch (err) {
      return { ok: false, status: 0, data: null, networkError: true };
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    return {
      ok: response.ok,
      status: response.status,
      data: data,
      etag: response.headers.get('ETag'),
      retryAfter: Number(response.headers.get('Retry-After')) || 0,
      networkError: false,
      offlineCopy: response.headers.get('X-Clubscore-Offline') === '1', // the service worker's last copy

    };
  }

  /** Every page of a paginated list.
   * @param {string} url @returns {Promise<ApiResult>} */
  async function apiAll(url) {
    /** @type {unknown[]} */
    const out = [];
    let offline = false;
    let next = url + (url.indexOf('?') >= 0 ? '&' : '?') + 'page_size=200';
    while (next) {
      const res = await api('GET', next);
      if (!res.ok) return res;
      if (res.offlineCopy) offline = true;
      out.push.apply(out, res.data.results || []);
      next = res.data.next;
    }
    return { ok: true, status: 200, data: out, offlineCopy: offline };
  }

  /** @param {ApiResult | null | undefined} res @returns {ApiError | null} */
  function errorOf(res) {
    return (res && res.data && res.data.error) || null;
  }

  function uuid4() {
    if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
    const b = new Uint8Array(16);
    window.crypto.getRandomValues(b); // available outside secure contexts too
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, function (x) { return x.toString(16).padStart(2, '0'); }).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  /* Intl's digits and the currency's place, with the separators Django's formats give the server's
   * formatter (get_format, from the catalog): Intl writes French groups with U+202F, Django with U+00A0. */
  /** @type {Partial<Record<string, string>>} */
  const SEPARATORS = typeof window.get_format === 'function'
    ? { group: window.get_format('THOUSAND_SEPARATOR'), decimal: window.get_format('DECIMAL_SEPARATOR') } : {};

  /** @param {Intl.NumberFormat} formatter @returns {{format(value: number): string}} */
  function asServer(formatter) {
    return { format: function (value) {
      return formatter.formatToParts(value).map(function (part) {
        if (part.type === 'minusSign') return '\u2212';  // the server's minus (−), whatever Intl writes
        const separator = SEPARATORS[part.type];
        return separator !== undefined ? separator : part.value;
      }).join('');
    } };
  }

  const plain = asServer(new Intl.NumberFormat(LANG, { maximumFractionDigits: 0 }));

  /* A counter amount: "+60", "−25", "0", grouped as the page's language groups. */
  /** @param {number} n */
  function signed(n) {
    if (n > 0) return '+' + plain.format(n);
    if (n < 0) return '\u2212' + plain.format(-n);
    return '0';
  }

  /** @param {number} n */
  function signClass(n) {
    return n > 0 ? 'pos' : n < 0 ? 'neg' : 'zero';
  }

  /* The currencies' minor units as the server decides them (ISO 4217; `ledger.currency`), from the page. */
  const unitsEl = document.getElementById('currency-units');
  const UNITS = unitsEl ? JSON.parse(unitsEl.textContent) : { default: 2 };

  /** @param {string} currency @returns {number} */
  function minorUnits(currency) {
    return Object.prototype.hasOwnProperty.call(UNITS, currency) ? UNITS[currency] : UNITS.default;
  }

  /* The one money formatter of the pages: minor units of `currency` as the page's language writes them
   * (its grouping, decimal comma and where the currency's sign goes: "−$1.15", "−1,15 €").
   * style "signed" writes + and − (the default), "plain" only −. */
  /** @param {number} cents @param {string} currency @param {string} [style] */
  function money(cents, currency, style) {
    const exponent = minorUnits(currency);
    const value = cents / Math.pow(10, exponent);
    const signed = style !== 'plain';
    let text;
    try {
      text = asServer(new Intl.NumberFormat(LANG, {
        style: 'currency', currency: currency, currencyDisplay: 'narrowSymbol', // "$", "₽": the server's signs
        minimumFractionDigits: exponent, maximumFractionDigits: exponent,
        signDisplay: signed ? 'exceptZero' : 'auto',
      })).format(value);
    } catch (err) {
      text = (value > 0 && signed ? '+' : '') + value.toFixed(exponent) + ' ' + currency;
    }
    return text.replace('-', '\u2212'); // the same minus sign as the counters
  }

  /* A money amount as a coloured span (signed), or plain. */
  /** @param {number} cents @param {string} currency @param {string} [style] */
  function moneySpan(cents, currency, style) {
    return el('span', { class: 'money' + (style === 'plain' ? '' : ' ' + signClass(cents)), 'data-cents': String(cents),
      'data-currency': currency, 'data-style': style || 'signed', text: money(cents, currency, style) });
  }

  /* Server-rendered numbers ([data-n], [data-cents]) written again by the formatters above. */
  /** @param {ParentNode} [root] */
  function localise(root) {
    (root || document).querySelectorAll(/** @type {'span'} */ ('[data-n]')).forEach(function (el) {
      const n = Number(el.dataset.n);
      el.textContent = el.dataset.style === 'plain' ? (n < 0 ? '\u2212' : '') + plain.format(Math.abs(n)) : signed(n);
    });
    (root || document).querySelectorAll(/** @type {'span'} */ ('.money[data-cents]')).forEach(function (el) { // the formatter's own spans, not a row's data
      el.textContent = money(Number(el.dataset.cents), el.dataset.currency || '', el.dataset.style);
    });
  }

  /** @param {string} tag @param {Record<string, any>} [attrs] @param {Child[]} [children] @returns {HTMLElement} */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(function (kv) {
      const k = kv[0], v = kv[1];
      if (v === null || v === undefined || v === false) return;
      if (k === 'text') node.textContent = v;
      else if (k === 'class') node.className = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : v);
    });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  /* A share (0.456) as a percentage in the page's language: "45.6%", "45,6 %". */
  /** @param {number} share @param {number} [digits] */
  function percent(share, digits) {
    return asServer(new Intl.NumberFormat(LANG, { style: 'percent', maximumFractionDigits: digits || 0 })).format(share);
  }

  /* A decimal (a rating: 27.4, −2.2) with `digits` decimals in the page's language: "27,4", "−2,2". */
  /** @param {number | string} value @param {number} digits */
  function decimal(value, digits) {
    return asServer(new Intl.NumberFormat(LANG, { minimumFractionDigits: digits, maximumFractionDigits: digits }))
      .format(Number(value));
  }

  /* A day ("2026-11-30", or a timestamp with its offset) as the page's language writes it: "Nov 30, 2026",
   * "30 nov. 2026", "30 нояб. 2026 г.". A timestamp is the day it was in the club's time zone (issue 26:
   * the page's <meta name="time-zone">; the API's times are UTC), a bare day is that day. */
  const zoneMeta = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="time-zone"]'));
  const dayFormat = new Intl.DateTimeFormat(LANG, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  let zonedFormat = dayFormat;
  try {
    zonedFormat = new Intl.DateTimeFormat(LANG, { day: 'numeric', month: 'short', year: 'numeric', timeZone: (zoneMeta && zoneMeta.content) || 'UTC' });
  } catch (e) { /* a zone this browser does not know: UTC days */ }
  /** @param {string} iso */
  function day(iso) {
    const text = String(iso);
    const stamp = text.length > 10 && text.charAt(10) === 'T';
    const when = new Date(stamp ? text : text.slice(0, 10) + 'T00:00:00Z');
    return isNaN(when.getTime()) ? text : (stamp ? zonedFormat : dayFormat).format(when);
  }

  /** @param {number} n */
  function numSpan(n) {
    return el('span', { class: 'num ' + signClass(n), 'data-n': String(n), text: signed(n) });
  }

  /* A rating, said one way on every page (issue 26): its words, "about 18, give or take 7" (mu and sigma
   * rounded), beside the cautious figure the leaderboard ranks by (stats.md's ordinal, mu - 3 sigma), and
   * one line that says how the two relate. The player page and the leaderboard both show it so. */
  /** @param {Rating} r */
  function ratingWords(r) {
    return interpolate(gettext('about %(mu)s, give or take %(sigma)s'),
      { mu: Math.round(r.mu), sigma: Math.max(1, Math.round(r.sigma)) }, true);
  }
  /** @param {Rating} r */
  function ratingFigure(r) {
    return interpolate(gettext('cautious figure %(figure)s'), { figure: decimal(r.ordinal, 1) }, true);
  }
  /** @param {Rating} r */
  function ratingSpan(r) {
    return el('span', { class: 'rating' }, [el('span', { class: 'rating-said', text: ratingWords(r) }), ' · ',
      el('span', { class: 'rating-figure', 'data-n': String(r.ordinal), text: ratingFigure(r) })]);
  }
  const RATING_RELATION = gettext('The cautious figure is the rating less three times its give-or-take: it rises as the rating rises and as the give-or-take narrows. The leaderboard ranks by it.');

  /* What every page's script reaches as window.CS (live.js adds `live`): its type is this object's. */
  const common = {
    ratingWords: ratingWords, ratingFigure: ratingFigure, ratingSpan: ratingSpan, ratingRelation: RATING_RELATION,
    api: api, apiAll: apiAll, errorOf: errorOf, uuid4: uuid4, signed: signed, signClass: signClass,
    money: money, moneySpan: moneySpan, minorUnits: minorUnits, localise: localise, el: el, numSpan: numSpan, plain: plain,
    lang: LANG, percent: percent, decimal: decimal, decimalSign: SEPARATORS.decimal || '.', day: day,
  };

  /* Logging out leaves nothing of the club on this browser (issue 29, point 6): the answer clears the site's
   * data (Clear-Site-Data), and the page first drops the service worker's kept copies itself. But deals
   * waiting on this phone (the scorer's queue, never sent yet) would be lost with them: while one waits,
   * the logout is refused and says why. */
  const QUEUE_PREFIX = 'clubscore.queue.';

  function waitingDeals() {
    let n = 0;
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (!key || !key.startsWith(QUEUE_PREFIX)) continue;
        const q = JSON.parse(localStorage.getItem(key) || '[]');
        if (Array.isArray(q)) n += q.length;
      }
    } catch (err) {
      return n;
    }
    return n;
  }

  function forgetKept() {
    if (!window.caches) return Promise.resolve();
    return caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k.startsWith('clubscore-'); }).map(function (k) { return caches.delete(k); }));
    }).catch(function () { return null; });
  }

  /** @param {HTMLFormElement} logout */
  function guardLogout(logout) {
    logout.addEventListener('submit', function (e) {
      if (logout.dataset.cleared === '1') return;
      e.preventDefault();
      const waiting = waitingDeals();
      let refused = document.getElementById('logout-refused');
      if (waiting) {
        if (!refused) {
          const notice = el('p', { id: 'logout-refused', class: 'notice', role: 'alert' });
          const header = document.querySelector('header.top');
          if (header) header.after(notice); else document.body.prepend(notice);
          refused = notice;
        }
        refused.textContent = interpolate(ngettext(
          'Not logged out: %(n)s deal waits on this phone to be sent. Open the scorer page and let it be recorded (or discard it) first.',
          'Not logged out: %(n)s deals wait on this phone to be sent. Open the scorer page and let them be recorded (or discard them) first.',
          waiting), { n: waiting }, true);
        return;
      }
      if (refused) refused.remove();
      forgetKept().then(function () {
        logout.dataset.cleared = '1';
        logout.submit();
      });
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    localise(document);
    document.querySelectorAll(/** @type {'form'} */ ('form[data-logout]')).forEach(guardLogout);
  });
  /* A button marked data-print prints the page: no inline handler, the Content-Security-Policy allows none. */
  document.addEventListener('click', function (event) {
    if (event.target instanceof Element && event.target.closest('[data-print]')) window.print();
  });
  return common;
}
