/* The new-session form: show the chosen variant's house rules only, and name the seats in the
 * first-dealer choice once the players are chosen. */
(function () {
  'use strict';
  const variant = document.getElementById('variant');
  function showRules() {
    document.querySelectorAll('fieldset.rules').forEach(function (fs) { fs.hidden = fs.dataset.variant !== variant.value; });
  }
  function nameSeats() {
    [0, 1, 2, 3].forEach(function (seat) {
      const select = document.getElementById('seat-' + seat);
      const label = document.querySelector('[data-seat-name="' + seat + '"]');
      const option = select && select.selectedOptions[0];
      if (label) label.textContent = 'Seat ' + (seat + 1) + (option && option.value ? ': ' + option.textContent : '');
    });
  }
  variant.addEventListener('change', showRules);
  document.querySelectorAll('select[id^="seat-"]').forEach(function (s) { s.addEventListener('change', nameSeats); });
  showRules();
  nameSeats();
})();
