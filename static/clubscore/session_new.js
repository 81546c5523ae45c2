// @ts-check
/* The new-session form: show the chosen variant's house rules only, name the seats in the first-dealer
 * choice once the players are chosen, offer only the carried pools of the chosen variant, warn when the
 * same four already sit at another open table, and bring a refused form's errors into view. */
(function () {
  'use strict';
  const T = {
    /** @param {number} n */
    sameTable: function (n) {
      return interpolate(gettext('These four players already sit at another open table (session #%(session)s). Open a second one only if they really play two.'), { session: n }, true);
    },
    /** @param {number} n */
    seat: function (n) { return interpolate(gettext('Seat %(n)s'), { n: n }, true); },
    /** @param {number} n @param {string | null} name */
    seatOf: function (n, name) { return interpolate(gettext('Seat %(n)s: %(name)s'), { n: n, name: name }, true); },
  };
  const variant = /** @type {HTMLSelectElement} */ (document.getElementById('variant'));
  /** @type {{players: number[], session: number}[]} */
  const openTables = JSON.parse((document.getElementById('open-tables') || { textContent: '[]' }).textContent);
  function showRules() {
    document.querySelectorAll(/** @type {'fieldset'} */ ('fieldset.rules')).forEach(function (fs) { fs.hidden = fs.dataset.variant !== variant.value; });
    const carry = /** @type {HTMLSelectElement | null} */ (document.getElementById('carry_pools_from'));
    if (carry) {
      Array.from(carry.options).forEach(function (o) {
        if (!o.value) return;
        const other = o.dataset.variant !== variant.value;
        o.hidden = other;
        o.disabled = other;
        if (other && o.selected) carry.value = '';
      });
    }
  }
  function chosenPlayers() {
    return [0, 1, 2, 3].map(function (seat) {
      const select = /** @type {HTMLSelectElement | null} */ (document.getElementById('seat-' + seat));
      return select && select.value ? Number(select.value) : null;
    });
  }
  function nameSeats() {
    [0, 1, 2, 3].forEach(function (seat) {
      const select = /** @type {HTMLSelectElement | null} */ (document.getElementById('seat-' + seat));
      const label = document.querySelector('[data-seat-name="' + seat + '"]');
      const option = select && select.selectedOptions[0];
      if (label) label.textContent = option && option.value ? T.seatOf(seat + 1, option.textContent) : T.seat(seat + 1);
    });
    const chosen = chosenPlayers();
    const warn = document.getElementById('same-table');
    if (!warn) return;
    const key = chosen.every(function (p) { return p !== null; }) ? chosen.slice().sort(function (a, b) { return a - b; }).join(',') : null;
    const same = key && openTables.find(function (t) { return t.players.join(',') === key; });
    warn.hidden = !same;
    warn.textContent = same ? T.sameTable(same.session) : '';
  }
  variant.addEventListener('change', showRules);
  document.querySelectorAll('select[id^="seat-"]').forEach(function (s) { s.addEventListener('change', nameSeats); });
  showRules();
  nameSeats();
  const errors = document.getElementById('form-errors');
  if (errors) { errors.scrollIntoView({ block: 'start' }); errors.focus(); }
})();
