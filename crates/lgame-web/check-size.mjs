// Checks that no function of the page (web/**/*.js) is longer than 120 lines, counted from
// the line of its first token to the line of its last, nested functions included (a view
// built as one long closure counts as long). The functions are found by TypeScript's own
// parser (npm's `typescript`, already pinned for the type check), so strings, template
// literals, regular expressions and comments cannot fool a brace count. Run by
// `npm run check`; exits 1 naming each long function. `node check-size.mjs --top` lists the
// longest function of every module instead.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const LIMIT = 120;
const web = join(dirname(fileURLToPath(import.meta.url)), 'web');

/** @param {string} dir @returns {string[]} */
function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return path.endsWith('.js') ? [path] : [];
  });
}

/**
 * A function's name as a person would look for it: its own, its variable's, its property's
 * or its method's; `(anonymous)` otherwise.
 * @param {import('typescript').Node} node
 */
function nameOf(node) {
  const own = /** @type {any} */ (node).name;
  if (own && ts.isIdentifier(own)) return own.text;
  if (own && (ts.isStringLiteral(own) || ts.isPrivateIdentifier(own))) return own.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return '(anonymous)';
}

/**
 * Every function of a module's text with its first line and length in lines.
 * @param {string} text
 * @param {string} [fileName]
 * @returns {{ name: string, line: number, lines: number }[]}
 */
export function functionsOf(text, fileName = 'module.js') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** @type {{ name: string, line: number, lines: number }[]} */
  const found = [];
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isFunctionLike(node) && /** @type {any} */ (node).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The check of the check, on every run: a function of LIMIT + 1 lines (with braces in its
 * strings, template literals, regular expressions and comments, which must not count) nested
 * in a method is found long, its neighbours of exactly LIMIT lines are not.
 */
function selfTest() {
  const filler = (/** @type {number} */ n) => Array.from({ length: n }, (_, i) => [
    "  const a = '}}}';", '  const b = `${"{"}{{`;', '  const c = /[{]}/;', '  // }', '  /* { */ f(() => 1);',
  ][i % 5]).join('\n');
  const text = [
    'export class C {',
    '  m() {',
    `    const long = () => {\n${filler(LIMIT - 1)}\n    };`,
    '  }',
    '}',
    `function exact() {\n${filler(LIMIT - 2)}\n}`,
    `const arrow = async (x) => {\n${filler(LIMIT - 2)}\n};`,
  ].join('\n');
  const long = functionsOf(text).filter((f) => f.lines > LIMIT).map((f) => `${f.name}:${f.lines}`);
  const expected = [`m:${LIMIT + 3}`, `long:${LIMIT + 1}`];
  if (long.join() !== expected.join()) {
    console.error(`check-size.mjs finds ${long.join() || 'nothing'} where it should find ${expected.join()}`);
    process.exit(2);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  selfTest();
  const top = process.argv.includes('--top');
  const problems = [];
  let count = 0;
  for (const file of modules(web).sort()) {
    const functions = functionsOf(readFileSync(file, 'utf8'), file);
    count += functions.length;
    const name = relative(web, file);
    if (top) {
      const longest = functions.reduce((a, b) => (b.lines > a.lines ? b : a), { name: '-', line: 0, lines: 0 });
      console.log(`${String(longest.lines).padStart(4)}  ${name}: ${longest.name} (line ${longest.line})`);
      continue;
    }
    for (const f of functions) {
      if (f.lines > LIMIT) problems.push(`${name}:${f.line}: ${f.name} is ${f.lines} lines (at most ${LIMIT})`);
    }
  }
  if (top) process.exit(0);
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`${count} functions: none longer than ${LIMIT} lines`);
}
