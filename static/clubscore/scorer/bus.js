// @ts-check
/* The scorer's few calls upward. Its modules are layered, each importing only the ones below it:
 *
 *   scorer.js                       wires the page (the top: it imports everything, nothing imports it)
 *   channel.js, conflict.js         the live channel and the poll; a refusal shown until the scorer decides
 *   record.js                       the queue sent, amend, undo
 *   view.js                         the page around the form
 *   preview.js                      the server's settle of the form's deal
 *   form.js                         the deal's form
 *   server.js                       the server's reads
 *   context.js, bus.js              the page's config, elements, state and queue; these calls
 *   words.js, derive.js, deal.js, pad.js, queue.js, sheet.js, types.js   no DOM, no state (unit-tested)
 *
 * A lower module that must have a higher one act (the form renders the page again, the preview sends
 * what waits, a button of the view starts an amendment) calls it here. Each call has one handler, which
 * scorer.js connects once, before the page runs; bin/import-circles.mjs (bin/test) holds the
 * imports to this order. */

/** @typedef {import('./queue.js').Item} Item */

/**
 * @typedef {object} Calls
 * @property {() => void} render the whole page again (view.js)
 * @property {() => void} renderStatus the banner, the waiting badge and a refusal shown (view.js)
 * @property {() => void} disarmUndo the armed Undo back to what it said (view.js)
 * @property {() => Promise<void>} preview the form's deal settled by the server now (preview.js)
 * @property {() => void} schedulePreview the same, once the taps pause (preview.js)
 * @property {() => Promise<void>} flush the waiting deals sent, oldest first (record.js)
 * @property {(e?: Event) => void} onUndo a tap on an Undo (record.js)
 * @property {(number: number) => void} startAmend deal `number` opened in the form to amend (record.js)
 * @property {(problem: { status: number, error: ApiError | null }, item: Item | null) => void} showConflict a refusal shown until the scorer decides (conflict.js)
 * @property {() => void} caughtUp the live follower told the page read its own write (channel.js)
 */

/** @param {string} name @returns {() => never} */
function unwired(name) {
  return function () { throw new Error('scorer: bus.' + name + ' called before scorer.js connected it'); };
}

/** The calls upward; scorer.js connects each one (`connect`) before anything runs. @type {Calls} */
export const bus = {
  render: unwired('render'),
  renderStatus: unwired('renderStatus'),
  disarmUndo: unwired('disarmUndo'),
  preview: unwired('preview'),
  schedulePreview: unwired('schedulePreview'),
  flush: unwired('flush'),
  onUndo: unwired('onUndo'),
  startAmend: unwired('startAmend'),
  showConflict: unwired('showConflict'),
  caughtUp: unwired('caughtUp'),
};

/** Every call's handler, given at once: tsc refuses a call left out. @param {Calls} calls */
export function connect(calls) {
  Object.assign(bus, calls);
}
