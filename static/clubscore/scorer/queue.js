// @ts-check
/* The queue of deals waiting on this phone (localStorage): each deal keeps its Idempotency-Key across
 * retries, so it is recorded exactly once; a deal whose number changes (after a conflict) was never
 * recorded, so it gets a new key. */

/** @typedef {import('./types.js').Hand} Hand */

/**
 * @typedef {object} Item
 * @property {string} key the Idempotency-Key the deal is sent with
 * @property {Hand & { number: number }} hand
 * @property {string} [at]
 * @property {boolean[]} [entered] the counts the scorer gave (the bar's words): a misère's others are not said as 0
 * @property {{ status: number, error: any }} [problem] a refusal that stops the queue until the scorer decides
 */

/**
 * @typedef {object} Store the part of the Web Storage API the queue uses
 * @property {(key: string) => string | null} getItem
 * @property {(key: string, value: string) => void} setItem
 * @property {(key: string) => void} removeItem
 */

/**
 * The queue of one session on one store.
 * @param {Store} store
 * @param {string} storeKey
 * @param {() => string} newKey a fresh Idempotency-Key
 */
export function makeQueue(store, storeKey, newKey) {
  /** @returns {Item[]} */
  function load() {
    try {
      const q = JSON.parse(store.getItem(storeKey) || 'null');
      return Array.isArray(q) ? q : [];
    } catch (err) {
      return [];
    }
  }

  /** @param {Item[]} q */
  function save(q) {
    if (q.length) store.setItem(storeKey, JSON.stringify(q));
    else store.removeItem(storeKey);
  }

  /** Give the waiting deals consecutive numbers from `start`; a deal whose number changes gets a new key
   * (its body changes; it was never recorded: the queue sends in order and stopped before it).
   * @param {number} start */
  function renumber(start) {
    const q = load();
    q.forEach(function (item, i) {
      if (item.hand.number !== start + i) {
        item.hand.number = start + i;
        item.key = newKey();
      }
      delete item.problem;
    });
    save(q);
  }

  /** Take the deal `key` off the queue's head (recorded, or dropped as another phone's twin); a head
   * that is another deal stays.
   * @param {string} key */
  function dropHead(key) {
    const q = load();
    if (q.length && q[0].key === key) { q.shift(); save(q); }
  }

  /** Send the head again after a refusal: the refusal is stored with the old key, so it needs a new one. */
  function retryHead() {
    const q = load();
    if (!q.length) return;
    delete q[0].problem;
    q[0].key = newKey();
    save(q);
  }

  return { load: load, save: save, renumber: renumber, dropHead: dropHead, retryHead: retryHead };
}
