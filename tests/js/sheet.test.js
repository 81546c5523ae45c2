// The sheets the page asks the server to settle: the form's deal where it would go (a new deal after
// the recorded and waiting ones, a fixed one in its place, an amended one instead of the recorded), and
// a conflicting deal in place of the other phone's. The page computes no payment: it only builds these.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conflictSheet, previewSheet } from '../../static/clubscore/scorer/sheet.js';

const A = { bid: 'six' }, B = { bid: 'seven' }, C = { bid: 'pass' };
const SHEET = { variant: 'american', rules: {}, close: { at: 'x' }, hands: [A, B] };

test('a new deal goes after the recorded and the waiting ones, numbers dropped, the session not closed', () => {
  const { sheet, position } = previewSheet(SHEET, [{ ...C, number: 3 }], 'new', null, { bid: 'mine' });
  assert.deepEqual(sheet.hands, [A, B, C, { bid: 'mine' }]);
  assert.equal(position, 4);
  assert.equal('close' in sheet, false);
  assert.deepEqual(SHEET.hands, [A, B]); // the session's sheet is left as it is
});

test('a fixed waiting deal takes its place before the others; an amended one replaces the recorded', () => {
  const waiting = [{ ...C, number: 3 }, { bid: 'next', number: 4 }];
  const fixed = previewSheet(SHEET, waiting, 'fix', null, { bid: 'fixed' });
  assert.deepEqual([fixed.sheet.hands, fixed.position], [[A, B, { bid: 'fixed' }, { bid: 'next' }], 3]);
  const amended = previewSheet(SHEET, waiting, 'amend', 1, { bid: 'amended' });
  assert.deepEqual([amended.sheet.hands, amended.position], [[{ bid: 'amended' }, B, C, { bid: 'next' }], 1]);
});

test('a conflicting deal is settled in place of the other phone\'s, after the deals before it', () => {
  const sheet = conflictSheet(SHEET, { bid: 'mine', number: 2 });
  assert.deepEqual(sheet.hands, [A, { bid: 'mine' }]);
  assert.equal('close' in sheet, false);
});
