#!/usr/bin/env node
/* No circle among the pages' ES modules (issue 40, item 8): every static/**.js file's imports are read and
 * a circle (a.js imports b.js, which imports a.js, however far round) fails, named module by module.
 * The scorer's modules are layered (static/clubscore/scorer/bus.js draws the layers): a lower module
 * calls a higher one through the bus, never by importing it.
 *
 *   node bin/import-circles.mjs [folder ...]   (default: static) exit 0, or 1 and each circle on stderr
 *
 * What counts as an import: `import … from './x.js'`, `import './x.js'` and `export … from './x.js'` at a
 * line's start (where the scripts write them: a module's imports are its top level), and `import('./x.js')`
 * in code. JSDoc's `import('./x.js').T` is a type, read by tsc only: comments are left out first. Only
 * relative specifiers are followed (a bare name or a URL is not a file of static/). No dependency: node's
 * own fs and path. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const STATIC_IMPORT = /^(?:import\s*|(?:import|export)\b[^;'"]*?\bfrom\s*)['"]([^'"\n]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** The specifiers a module's source imports. @param {string} source @returns {string[]} */
export function importsOf(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  const found = [];
  for (const m of code.matchAll(STATIC_IMPORT)) found.push(m[1]);
  for (const m of code.matchAll(DYNAMIC_IMPORT)) found.push(m[1]);
  return found;
}

/** Every .js file under `folder`, sorted. @param {string} folder @returns {string[]} */
function jsFiles(folder) {
  const out = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (name.endsWith('.js') || name.endsWith('.mjs')) out.push(path);
  }
  return out;
}

/** The import graph of the files under `folders`: file -> the files it imports (relative ones only).
 * @param {string[]} folders @returns {Map<string, string[]>} */
export function importGraph(folders) {
  const graph = new Map();
  for (const folder of folders) {
    for (const file of jsFiles(resolve(folder))) {
      const targets = importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('./') || spec.startsWith('../'))
        .map((spec) => resolve(dirname(file), spec));
      graph.set(file, targets);
    }
  }
  return graph;
}

/** Each knot of the graph (Tarjan's strongly connected components: two or more files that reach each other
 * by their imports, or a file importing itself), with one path round it, the first file again at its end.
 * @param {Map<string, string[]>} graph @returns {{ path: string[], knot: string[] }[]} */
export function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  /** @param {string} v */
  function connect(v) {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) || []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1 || (graph.get(v) || []).includes(v)) components.push(new Set(component));
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((component) => ({ path: pathRound(graph, component), knot: [...component].sort() }));
}

/** One circle inside a strongly connected component: from its first file (sorted), a shortest way back.
 * @param {Map<string, string[]>} graph @param {Set<string>} component @returns {string[]} */
function pathRound(graph, component) {
  const start = [...component].sort()[0];
  const came = new Map([[start, null]]);
  const todo = [start];
  while (todo.length) {
    const v = todo.shift();
    for (const w of graph.get(v) || []) {
      if (w === start) {
        const path = [start];
        for (let at = v; at !== null && at !== start; at = came.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (component.has(w) && !came.has(w)) { came.set(w, v); todo.push(w); }
    }
  }
  return [start, start];
}

/** The check: 0 when no circle, else 1 with each circle said on `say`. @param {string[]} folders @param {(line: string) => void} say */
export function check(folders, say) {
  const graph = importGraph(folders);
  const found = circles(graph);
  const name = (/** @type {string} */ f) => relative(process.cwd(), f);
  for (const { path, knot } of found) {
    say('import circle: ' + path.map(name).join(' → ')
      + (knot.length > path.length - 1 ? ` (one of the circles among ${knot.map(name).join(', ')})` : ''));
  }
  if (found.length) say(`${found.length} import circle(s) among ${graph.size} scripts: a lower module calls a higher one through a bus (static/clubscore/scorer/bus.js), never by importing it`);
  return found.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  process.exitCode = check(folders.length ? folders : ['static'], (line) => console.error(line));
}
