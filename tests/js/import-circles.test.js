// The circle check of the pages' modules (bin/import-circles.mjs, run by bin/test): it names a circle when
// there is one (a fixture knot a → b → c → a, and a module importing itself), finds none in the layered
// way (a lower module calls a higher one through a bus), and none in static/ today.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { basename } from 'node:path';
import { check, circles, importGraph, importsOf } from '../../bin/import-circles.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const SCRIPT = here('../../bin/import-circles.mjs');

test('an import is a statement at a line\'s start, or import() in code; a comment or a string is not', () => {
  assert.deepEqual(importsOf([
    "import { a } from './a.js';",
    "import {\n  b,\n} from './b.js';",
    "import './c.js';",
    "export { d } from './d.js';",
    "export * from '../e.js';",
    "const f = await import('./f.js'); // import('./not.js')",
    "/** @type {import('./types.js').Hand} */",
    "/* import { x } from './comment.js'; */",
    "// import { y } from './line-comment.js';",
    "export const word = 'import z from \"./string.js\"';",
    "export const SYMBOL = { clubs: '♣' };",
  ].join('\n')), ['./a.js', './b.js', './c.js', './d.js', '../e.js', './f.js']);
});

test('a circle is named, file by file, back to where it began', () => {
  const found = circles(importGraph([here('./fixtures/circles/knot')]));
  const said = found.map((c) => c.path.map((f) => basename(f)));
  assert.deepEqual(said, [['a.js', 'b.js', 'c.js', 'a.js'], ['self.js', 'self.js']]);
  assert.deepEqual(found[0].knot.map((f) => basename(f)), ['a.js', 'b.js', 'c.js']);
});

test('the check fails on a circle and says it; the layered way passes', () => {
  const lines = [];
  assert.equal(check([here('./fixtures/circles/knot')], (line) => lines.push(line)), 1);
  assert.match(lines[0], /^import circle: \S*knot\/a\.js → \S*knot\/b\.js → \S*knot\/c\.js → \S*knot\/a\.js$/);
  assert.match(lines[1], /^import circle: \S*knot\/self\.js → \S*knot\/self\.js$/);
  assert.match(lines[2], /^2 import circle\(s\) among 4 scripts/);
  const quiet = [];
  assert.equal(check([here('./fixtures/circles/layered')], (line) => quiet.push(line)), 0);
  assert.deepEqual(quiet, []);
});

test('run as bin/test runs it: exit 1 and the circle on stderr; static/ has none', () => {
  const bad = spawnSync(process.execPath, [SCRIPT, here('./fixtures/circles/knot')], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /import circle: .*a\.js → .*b\.js → .*c\.js → .*a\.js/);
  const good = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', cwd: here('../..') });
  assert.equal(good.stderr, '');
  assert.equal(good.status, 0);
});
