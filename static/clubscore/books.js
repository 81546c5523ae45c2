/* The books page: "Record this" fills the payment form from a suggested transfer (the amount as the
 * server formatted it, in the currency's minor units) */
(function () {
  'use strict';
  const CS = window.CS;
  const form = document.getElementById('payment-form');
  if (!form) return;

  function amountText(cents, currency) {
    const exponent = CS.minorUnits(currency);
    // as the page writes a decimal (1,15 in French), which the server reads back, like the settlement's link
    return exponent ? (cents / Math.pow(10, exponent)).toFixed(exponent).replace('.', CS.decimalSign) : String(cents);
  }

  document.querySelectorAll('.use-transfer').forEach(function (button) {
    button.addEventListener('click', function () {
      const item = button.closest('li');
      const currency = button.closest('.book').dataset.currency;
      form.querySelector('#pay-from').value = item.dataset.from;
      form.querySelector('#pay-to').value = item.dataset.to;
      form.querySelector('#pay-currency').value = currency;
      form.querySelector('#pay-amount').value = amountText(Number(item.dataset.amount), currency);
      form.querySelector('input[name=status][value=paid]').checked = true;
      // the netted list's transfers are free payments: tied to no evening
      form.querySelector('input[name=session]').value = '';
      const evening = document.getElementById('pay-evening');
      if (evening) evening.hidden = true;
      form.scrollIntoView({ block: 'start' });
      form.querySelector('#pay-note').focus();
    });
  });

})();
