// The new-club form (issue 26): the time zone starts at the browser's own, when the page did not
// come back with one the user chose.
(function () {
  "use strict";
  const select = document.getElementById("club-zone");
  const form = document.getElementById("club-new");
  if (!select || !form || form.querySelector("[aria-invalid]")) return;
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    return;
  }
  if (select.dataset.chosen === "UTC" && Array.from(select.options).some((o) => o.value === zone)) {
    select.value = zone;
  }
})();
