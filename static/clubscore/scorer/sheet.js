// @ts-check
/* The score sheets the page asks the server to settle (POST /api/v1/settle/, stateless): the session's
 * sheet with the form's deal where it would go. The server settles; the page only shows its answer. */

/**
 * A score sheet as the API takes it: the session's rules and players, its hands in order.
 * @typedef {{ hands: Record<string, any>[], close?: unknown } & Record<string, any>} Sheet
 */

/**
 * The sheet a preview settles, and the deal's position in it: a new deal after the recorded and the
 * waiting ones; a waiting deal being fixed in its place, before the others waiting; an amended deal in
 * place of the recorded one, the waiting ones after. The session is never closed in it.
 * @param {Sheet} sheet the session's (the API's)
 * @param {Record<string, any>[]} waiting the deals waiting on this phone, in order (their numbers are dropped)
 * @param {'new' | 'amend' | 'fix'} mode
 * @param {number | null} amending the deal amended
 * @param {Record<string, any>} hand the form's
 * @returns {{ sheet: Sheet, position: number }}
 */
export function previewSheet(sheet, waiting, mode, amending, hand) {
  const out = Object.assign({}, sheet);
  delete out.close;
  const rest = waiting.map(function (h) { const copy = Object.assign({}, h); delete copy.number; return copy; });
  if (mode === 'amend' && amending !== null) {
    out.hands = sheet.hands.slice();
    out.hands[amending - 1] = hand;
    out.hands = out.hands.concat(rest);
    return { sheet: out, position: amending };
  }
  if (mode === 'fix') {
    out.hands = sheet.hands.concat([hand], rest.slice(1));
    return { sheet: out, position: sheet.hands.length + 1 };
  }
  out.hands = sheet.hands.concat(rest, [hand]);
  return { sheet: out, position: out.hands.length };
}

/**
 * The sheet that says what a conflicting deal would pay: the deals recorded before its number, then it,
 * in place of the other phone's deal under that number.
 * @param {Sheet} sheet the session's (the API's)
 * @param {Record<string, any>} hand the waiting deal, with its number
 * @returns {Sheet}
 */
export function conflictSheet(sheet, hand) {
  const out = Object.assign({}, sheet);
  delete out.close;
  const mine = Object.assign({}, hand);
  delete mine.number;
  out.hands = sheet.hands.slice(0, hand.number - 1).concat([mine]);
  return out;
}
