// The live channel's apply-or-read rule (static/clubscore/live.js): a change that carries its page's
// fragment and follows the page's tag is applied with no read; one the page is already past is skipped;
// after a gap (a lost change, a reconnect, a poll) the page reads once.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = globalThis;
await import('../../static/clubscore/live.js');
const { decide, decideVersion, parseTag } = globalThis.CS.live;

const change = (tag, prev, html = '<div id="follow-rows"></div>') => ({ tag, prev, html, version: parseTag(tag)[0], checks: parseTag(tag)[1] });

test('the next change, carrying its fragment, is applied', () => {
  assert.equal(decide('7.2', change('8.2', '7.2')), 'apply'); // a deal
  assert.equal(decide('7.2', change('7.3', '7.2')), 'apply'); // a seat's ✓
});

test('a change the page already shows, or is past, is skipped', () => {
  assert.equal(decide('8.2', change('8.2', '7.2')), 'skip'); // its own write's echo
  assert.equal(decide('9.0', change('8.2', '7.2')), 'skip'); // late: a read already brought more
  assert.equal(decide('8.3', change('8.2', '7.2')), 'skip');
  assert.equal(decide('8.2', { tag: 'not a tag' }), 'skip');
  assert.equal(decide('8.2', null), 'skip');
});

test('after a gap the page reads once', () => {
  assert.equal(decide('7.2', change('9.2', '8.2')), 'read'); // change 8.2 was lost
  assert.equal(decide('7.2', { tag: '9.2' }), 'read'); // a stream's first event (a reconnect): no prev
  assert.equal(decide('7.2', { tag: '9.2', polled: true }), 'read'); // the poll while the stream was down
  assert.equal(decide('7.2', change('8.2', '7.2', null)), 'read'); // too big to carry, or a close
  assert.equal(decide('', change('8.2', '7.2')), 'read'); // a page that does not know where it is
});

test('the sheet follows the deals only: a seat\'s word alone leaves it as it is', () => {
  assert.equal(decideVersion(7, change('7.3', '7.2')), 'skip');
  assert.equal(decideVersion(7, change('8.3', '7.3')), 'apply');
  assert.equal(decideVersion(7, change('8.0', '7.5')), 'apply'); // checks it never showed moved meanwhile
  assert.equal(decideVersion(7, change('9.0', '8.0')), 'read'); // deal 8's change was lost
  assert.equal(decideVersion(8, change('8.0', '7.0')), 'skip');
  assert.equal(decideVersion(7, { tag: '8.0' }), 'read');
});

/* A page on the stream through an evening: each change applied as it comes, and one read (which brings
 * the server's state) for each change that did not reach it. */
function evening(changes, lost) {
  let tag = '1.0';
  let reads = 0;
  changes.forEach(function (c, i) {
    if (lost.has(i)) return;
    const how = decide(tag, c);
    if (how === 'apply') tag = c.tag;
    if (how === 'read') { reads += 1; tag = c.tag; }
  });
  return { tag, reads };
}

test('32 deals and a ✓ after each: no read while every change arrives, one per gap', () => {
  const changes = [];
  let version = 1;
  let checks = 0;
  for (let deal = 1; deal <= 32; deal += 1) {
    changes.push(change(`${version + 1}.${checks}`, `${version}.${checks}`));
    version += 1;
    changes.push(change(`${version}.${checks + 1}`, `${version}.${checks}`));
    checks += 1;
  }
  const last = changes[changes.length - 1].tag;
  assert.deepEqual(evening(changes, new Set()), { tag: last, reads: 0 });
  assert.deepEqual(evening(changes, new Set([10])), { tag: last, reads: 1 });
  assert.deepEqual(evening(changes, new Set([10, 11, 12])), { tag: last, reads: 1 }); // one gap, one read
  assert.deepEqual(evening(changes, new Set([3, 40])), { tag: last, reads: 2 });
});
