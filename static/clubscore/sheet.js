/* The live score sheet: asks the API for the session's version every few seconds and, when it has moved,
 * swaps in the server-rendered table. */
(function () {
  'use strict';
  const live = document.getElementById('live');
  const POLL_MS = 5000;
  async function poll() {
    const table = document.getElementById('sheet-table');
    const res = await window.CS.api('GET', live.dataset.sessionUrl);
    if (res.networkError) { live.textContent = gettext('Offline: the sheet refreshes when the network returns.'); return; }
    if (!res.ok) return;
    if (String(res.data.version) !== table.dataset.version) {
      const page = await fetch(live.dataset.rowsUrl, { credentials: 'same-origin', cache: 'no-store' });
      if (!page.ok) return;
      const holder = document.createElement('div');
      holder.innerHTML = await page.text();
      const fresh = holder.querySelector('#sheet-table');
      if (fresh) {
        table.replaceWith(fresh);
        window.CS.localise(fresh);
      }
    }
    live.textContent = res.data.status === 'open'
      ? interpolate(gettext('Live: refreshes as deals arrive (checked %(time)s).'), { time: new Date().toLocaleTimeString(window.CS.lang) }, true)
      : gettext('Closed.');
  }
  setInterval(function () { if (!document.hidden) poll(); }, POLL_MS);
})();
