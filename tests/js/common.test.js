// What every page's script shares (static/clubscore/common.js, window.CS): the API call that never throws
// (its headers, a lost network, the service worker's copy, a paginated list read to its end), and the
// numbers, money, days and ratings written as the page's language writes them, with the separators of
// Django's catalog (get_format) where it is loaded. The DOM helpers (el, numSpan, localise) are the
// browser tests'.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = globalThis;

/** A page in `lang`, as common.js reads it when it loads: <html lang>, the cookie, the <meta>s, the
 * currencies' minor units (#currency-units). */
function page(lang, { zone = null, getFormat = null } = {}) {
  globalThis.document = {
    documentElement: { lang },
    cookie: 'sessionid=x; csrftoken=tok%3D1',
    querySelector: (selector) => (selector === 'meta[name="time-zone"]' && zone ? { content: zone } : null),
    getElementById: (id) => (id === 'currency-units' ? { textContent: '{"default": 2, "JPY": 0, "KWD": 3}' } : null),
    addEventListener() {},
  };
  if (getFormat) globalThis.get_format = getFormat; else delete globalThis.get_format;
}

/** common.js loaded afresh for a page (a new URL is a new module instance): its window.CS. */
async function load(lang, options) {
  page(lang, options);
  await import(`../../static/clubscore/common.js?${lang}-${options && options.zone}`);
  return window.CS;
}

// Django's French formats (django/conf/locale/fr/formats.py): a no-break space between groups, a comma.
const DJANGO_FR = (name) => ({ THOUSAND_SEPARATOR: '\u00a0', DECIMAL_SEPARATOR: ',' })[name];
const fr = await load('fr', { zone: 'Pacific/Auckland', getFormat: DJANGO_FR });
const en = await load('en');

test('counters: signed, grouped as the language groups, the server\'s minus sign', () => {
  assert.deepEqual([en.signed(1234), en.signed(-25), en.signed(0)], ['+1,234', '\u221225', '0']);
  assert.equal(fr.signed(1234), '+1\u00a0234'); // Django's separator, not Intl's U+202F
  assert.deepEqual([en.signClass(3), en.signClass(-3), en.signClass(0)], ['pos', 'neg', 'zero']);
  assert.equal(fr.plain.format(-1234), '\u22121\u00a0234');
});

test('money: minor units by currency, the sign where the language puts it', () => {
  assert.equal(en.money(-115, 'USD'), '\u2212$1.15');
  assert.equal(en.money(123456, 'EUR'), '+\u20ac1,234.56');
  assert.equal(en.money(-123456, 'EUR', 'plain'), '\u2212\u20ac1,234.56');
  assert.equal(en.money(0, 'EUR'), '\u20ac0.00'); // no sign on nothing
  assert.equal(fr.money(-115, 'USD'), '\u22121,15\u00a0$');
  assert.equal(fr.money(123456, 'EUR'), '+1\u00a0234,56\u00a0\u20ac');
  assert.equal(fr.money(1500, 'JPY'), '+1\u00a0500\u00a0\u00a5'); // no minor unit
  assert.equal(en.money(1500, 'KWD'), '+KWD\u00a01.500'); // three
  assert.deepEqual([en.minorUnits('JPY'), en.minorUnits('KWD'), en.minorUnits('XXX')], [0, 3, 2]);
});

test('shares, decimals and ratings in the page\'s language', () => {
  assert.equal(en.percent(0.456, 1), '45.6%');
  assert.equal(fr.percent(0.456, 1), '45,6\u00a0%');
  assert.equal(en.percent(0.5), '50%');
  assert.equal(fr.decimal('27.44', 1), '27,4');
  assert.equal(en.decimal(-2.25, 1), '\u22122.3');
  assert.equal(fr.decimalSign, ',');
  assert.equal(en.decimalSign, '.');
  const r = { mu: 17.6, sigma: 0.3, ordinal: -2.25 };
  assert.equal(en.ratingWords(r), 'about 18, give or take 1'); // a give-or-take is never said as 0
  assert.equal(fr.ratingFigure(r), 'cautious figure \u22122,3'); // the catalog's words aside (none here)
});

test('days: a bare day is that day, a timestamp the day it was in the club\'s time zone', () => {
  assert.equal(en.day('2026-11-30'), 'Nov 30, 2026');
  assert.equal(en.day('2026-11-30T23:30:00+00:00'), 'Nov 30, 2026'); // no zone said: UTC
  assert.equal(fr.day('2026-11-30'), '30 nov. 2026');
  assert.equal(fr.day('2026-11-30T23:30:00+00:00'), '1 d\u00e9c. 2026'); // already the next day in Auckland
  assert.equal(en.day('nonsense'), 'nonsense');
});

test('without the catalog, the English stands in: gettext, ngettext and interpolate', () => {
  assert.equal(gettext('Deal'), 'Deal');
  assert.equal(ngettext('%(n)s deal', '%(n)s deals', 1), '%(n)s deal');
  assert.equal(ngettext('%(n)s deal', '%(n)s deals', 2), '%(n)s deals');
  assert.equal(interpolate('%(a)s → %(b)s', { a: 'Ann', b: 'Ben' }, true), 'Ann → Ben');
  assert.equal(interpolate('%s and %s', ['Ann', 'Ben']), 'Ann and Ben');
});

test('uuid4: a version-4 UUID, a new one each time', () => {
  const a = en.uuid4();
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(a, en.uuid4());
});

/** A fetch that answers from `answers` in turn and keeps what it was asked. */
function serve(answers) {
  const asked = [];
  globalThis.fetch = async (url, init) => {
    asked.push({ url, init });
    const a = answers.shift();
    if (a === 'offline') throw new TypeError('Failed to fetch');
    const headers = new Map(Object.entries(a.headers || {}));
    return { ok: a.status < 400, status: a.status, headers: { get: (n) => (headers.has(n) ? headers.get(n) : null) },
      json: async () => { if (a.body === undefined) throw new SyntaxError('no body'); return a.body; } };
  };
  return asked;
}

test('api: a write sends its body, the CSRF token and the page\'s language; the answer says all', async () => {
  const asked = serve([{ status: 201, body: { number: 3 }, headers: { ETag: '"8"', 'Retry-After': '2' } }]);
  const res = await fr.api('POST', '/api/v1/sessions/1/hands/', { bid: 'pass' }, { 'Idempotency-Key': 'k' });
  assert.deepEqual(res, { ok: true, status: 201, data: { number: 3 }, etag: '"8"', retryAfter: 2, networkError: false, offlineCopy: false });
  const { init } = asked[0];
  assert.equal(init.method, 'POST');
  assert.equal(init.credentials, 'same-origin');
  assert.equal(init.body, '{"bid":"pass"}');
  assert.deepEqual(init.headers, { Accept: 'application/json', 'Accept-Language': 'fr', 'Idempotency-Key': 'k',
    'X-CSRFToken': 'tok=1', 'Content-Type': 'application/json' });
});

test('api: a read sends no token and no body; a refusal\'s error is errorOf\'s', async () => {
  const asked = serve([{ status: 409, body: { error: { code: 'stale_number', message: 'Taken.' } } }]);
  const res = await en.api('GET', '/api/v1/sessions/1/');
  assert.equal(asked[0].init.headers['X-CSRFToken'], undefined);
  assert.equal(asked[0].init.body, undefined);
  assert.equal(res.ok, false);
  assert.deepEqual(en.errorOf(res), { code: 'stale_number', message: 'Taken.' });
  assert.equal(en.errorOf({ ok: true, status: 200, data: {} }), null);
  assert.equal(en.errorOf(null), null);
});

test('api never throws: a lost network is networkError, an answer with no JSON has no data, the worker\'s copy is said', async () => {
  serve(['offline', { status: 502 }, { status: 200, body: { version: 7 }, headers: { 'X-Clubscore-Offline': '1' } }]);
  assert.deepEqual(await en.api('GET', '/a'), { ok: false, status: 0, data: null, networkError: true });
  const bad = await en.api('GET', '/a');
  assert.equal(bad.status, 502);
  assert.equal(bad.data, null);
  assert.equal(bad.offlineCopy, false);
  const copy = await en.api('GET', '/a');
  assert.equal(copy.offlineCopy, true);
  assert.deepEqual(copy.data, { version: 7 });
});

test('apiAll reads every page of a list; the first refusal is its answer; a page from the worker\'s copy marks all', async () => {
  const asked = serve([
    { status: 200, body: { results: [1, 2], next: '/api/v1/hands/?page=2&page_size=200' } },
    { status: 200, body: { results: [3], next: null }, headers: { 'X-Clubscore-Offline': '1' } },
  ]);
  assert.deepEqual(await en.apiAll('/api/v1/hands/'), { ok: true, status: 200, data: [1, 2, 3], offlineCopy: true });
  assert.deepEqual(asked.map((a) => a.url), ['/api/v1/hands/?page_size=200', '/api/v1/hands/?page=2&page_size=200']);
  serve([{ status: 200, body: { results: [1], next: '/next' } }, { status: 403, body: { error: { message: 'No.' } } }]);
  const refused = await en.apiAll('/api/v1/checks/?state=open');
  assert.equal(refused.status, 403);
  assert.equal(en.errorOf(refused).message, 'No.');
});
