// @ts-check
// The new-club form (issue 26): the time zone starts at the browser's own, when the page did not
// come back with one the user chose; the browser's zone is put first among the likely ones (issue 38).
(function () {
  "use strict";
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("club-zone"));
  const form = document.getElementById("club-new");
  if (!select || !form || select.dataset.typed || form.querySelector("[aria-invalid]")) return;
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    return;
  }
  const found = Array.from(select.options).find((o) => o.value === zone);
  const likely = select.querySelector("optgroup");
  if (!found || !likely) return;
  const first = Array.from(likely.children).find((o) => o instanceof HTMLOptionElement && o.value === zone);
  const option = first || /** @type {HTMLOptionElement} */ (found.cloneNode(true));
  likely.insertBefore(option, likely.firstChild);
  select.value = zone;
  /** @type {HTMLOptionElement} */ (option).selected = true;
})();
