// Checks the page's modules (web/**/*.js): each starts with `// @ts-check`, the imports
// (static and dynamic) form no cycle, no module imports the router (js/app.js), and none but
// js/storage.js names the browser's storage (`localStorage`, `sessionStorage`).
// Run by `npm run check` after the type check; exits 1 with the problems found.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), 'web');
const router = join(web, 'js', 'app.js');
const storage = join(web, 'js', 'storage.js');

/** @param {string} dir @returns {string[]} */
function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return path.endsWith('.js') ? [path] : [];
  });
}

const problems = [];
/** @type {Map<string, string[]>} */
const graph = new Map();
const files = modules(web);
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith('// @ts-check\n')) problems.push(`${relative(web, file)}: does not start with // @ts-check`);
  if (file !== storage && /\b(?:local|session)Storage\b/.test(text)) {
    problems.push(`${relative(web, file)}: uses the browser's storage, which only js/storage.js may`);
  }
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  // Only the page's own files: `/api/catalog` is the server's answer.
  const local = specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s));
  graph.set(file, local);
  for (const target of local) {
    if (target === router) problems.push(`${relative(web, file)}: imports the router (js/app.js)`);
    else if (!files.includes(target)) problems.push(`${relative(web, file)}: imports a missing ${relative(web, target)}`);
  }
}

// Depth-first search: a module met again while still on the path closes a cycle.
const state = new Map(); // file → 'open' | 'done'
/** @param {string} file @param {string[]} path */
function visit(file, path) {
  if (state.get(file) === 'done') return;
  if (state.get(file) === 'open') {
    const cycle = path.slice(path.indexOf(file)).concat(file).map((f) => relative(web, f));
    problems.push(`import cycle: ${cycle.join(' → ')}`);
    return;
  }
  state.set(file, 'open');
  for (const next of graph.get(file) || []) visit(next, [...path, file]);
  state.set(file, 'done');
}
for (const file of graph.keys()) visit(file, []);

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const edges = [...graph.values()].reduce((n, list) => n + list.length, 0);
console.log(`${graph.size} modules, ${edges} imports: every module checked, no cycle, none imports the router, only storage.js the storage`);
