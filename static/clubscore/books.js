// @ts-check
/* The books page: "Record this" fills the payment form from a suggested transfer (the amount as the
 * server formatted it, in the currency's minor units) */
(function () {
  'use strict';
  const CS = window.CS;
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById('payment-form'));
  if (!form) return;
  const payForm = form;
  /** One of the payment form's fields. @param {string} selector */
  function field(selector) {
    return /** @type {HTMLInputElement} */ (payForm.querySelector(selector));
  }

  /** @param {number} cents @param {string} currency */
  function amountText(cents, currency) {
    const exponent = CS.minorUnits(currency);
    // as the page writes a decimal (1,15 in French), which the server reads back, like the settlement's link
    return exponent ? (cents / Math.pow(10, exponent)).toFixed(exponent).replace('.', CS.decimalSign) : String(cents);
  }

  document.querySelectorAll(/** @type {'button'} */ ('.use-transfer')).forEach(function (button) {
    button.addEventListener('click', function () {
      const item = /** @type {HTMLLIElement} */ (button.closest('li'));
      const currency = /** @type {HTMLElement} */ (button.closest('.book')).dataset.currency || '';
      field('#pay-from').value = item.dataset.from || '';
      field('#pay-to').value = item.dataset.to || '';
      field('#pay-currency').value = currency;
      field('#pay-amount').value = amountText(Number(item.dataset.amount), currency);
      field('input[name=status][value=paid]').checked = true;
      // the netted list's transfers are free payments: tied to no evening
      field('input[name=session]').value = '';
      const evening = document.getElementById('pay-evening');
      if (evening) evening.hidden = true;
      payForm.scrollIntoView({ block: 'start' });
      field('#pay-note').focus();
    });
  });

})();
