// Which test files `npm test` runs, and which of them need a Docker engine. A test file needs one when it
// imports the engine helpers (test/helpers/engine.js: engineOrSkip, or test/helpers/own-engine.js): that
// import is how a test says so, so the split follows the tests as they change and no list is kept by hand.
// The files that need no engine run side by side, one per core. Those that use the engine run two at a time
// on it, each checking only what it made (its own owner label: test/helpers/engine.js), except the files
// that say `// npm test: alone: WHY` on a line of their own: they restart or fill an engine, judge a timing
// or a memory figure that a neighbour's work would move, or compare every image of the engine, so they run
// one at a time, with nothing else on the engine (scripts/test.js). A file that says
// `// npm run test:e2e: WHY` is a long end-to-end scenario (whole runs on the real engine, for minutes): npm
// test leaves it to `npm run test:e2e`, which .ci/run runs after it, and npm test still reaches every module
// of src/ without it (`unreached`, tested in test/scripts/test-files.test.js).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A test file: its name ends in .test.js (helpers and fixtures beside them are not tests). */
export const TEST_FILE = /\.test\.js$/;

/** An import of an engine helper: `from '../helpers/engine.js'`, `import '../helpers/engine.js'`, `import('../helpers/own-engine.js')`. */
const ENGINE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](?:\.{1,2}\/)+helpers\/(?:engine|own-engine)\.js['"]/;

/** Whether a test file's text imports an engine helper. @param {string} text */
export const needsEngine = (text) => ENGINE_IMPORT.test(text);

/** The line by which an engine test asks to run alone, with its reason: `// npm test: alone: it restarts an engine`. */
const ALONE = /^\/\/ npm test: alone: (\S.{9,})$/m;

/**
 * Why an engine test file must run with no other on the engine, or null when it can run beside another.
 * @param {string} text @returns {string | null}
 */
export const aloneBecause = (text) => ALONE.exec(text)?.[1] ?? null;

/** The line by which a test file goes to `npm run test:e2e`, with its reason. */
const E2E = /^\/\/ npm run test:e2e: (\S.{9,})$/m;

/**
 * Why a test file is left to `npm run test:e2e`, or null when `npm test` runs it.
 * @param {string} text @returns {string | null}
 */
export const e2eBecause = (text) => E2E.exec(text)?.[1] ?? null;

/**
 * The files of one command: `npm run test:e2e`'s (e2e) or `npm test`'s (every other).
 * @param {string[]} files @param {boolean} e2e @param {(file: string) => string} [read]
 */
export const forCommand = (files, e2e, read = (f) => readFileSync(f, 'utf8')) =>
  files.filter((f) => (e2eBecause(read(f)) !== null) === e2e);

/** How many engine test files run at once on the engine, those marked alone apart. */
export const BESIDE = 2;

/**
 * The test files under the paths given (files as they are, folders searched through), sorted, each once.
 * @param {string[]} paths files or folders
 * @returns {string[]}
 */
export function testFiles(paths) {
  /** @type {Set<string>} */
  const found = new Set();
  /** @param {string} p */
  const walk = (p) => {
    if (!statSync(p).isDirectory()) return void found.add(path.normalize(p));
    for (const e of readdirSync(p, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const child = path.join(p, e.name);
      if (e.isDirectory()) walk(child);
      else if (TEST_FILE.test(e.name)) found.add(child);
    }
  };
  for (const p of paths) walk(p);
  return [...found].sort();
}

/**
 * The files split by whether they need an engine, and those that do by whether they must run alone on it.
 * @param {string[]} files @param {(file: string) => string} [read]
 * @returns {{ free: string[], beside: string[], alone: string[] }}
 */
export function splitByEngine(files, read = (f) => readFileSync(f, 'utf8')) {
  /** @type {{ free: string[], beside: string[], alone: string[] }} */
  const out = { free: [], beside: [], alone: [] };
  for (const f of files) {
    const text = read(f);
    out[!needsEngine(text) ? 'free' : aloneBecause(text) ? 'alone' : 'beside'].push(f);
  }
  return out;
}

/**
 * The files in the order to start them: those with no time yet first (a new file may be slow, and is
 * worth hearing from early), then by last time, longest first, so that no long file starts last.
 * @param {string[]} files @param {Record<string, number>} seconds last time per file
 */
export function slowestFirst(files, seconds) {
  const known = (/** @type {string} */ f) => Number.isFinite(seconds[f]);
  return [
    ...files.filter((f) => !known(f)),
    ...files.filter(known).sort((a, b) => seconds[b] - seconds[a] || a.localeCompare(b)),
  ];
}

const REPORTERS = /** @type {const} */ (['spec', 'tap', 'dot']);
const OPTIONS =
  '--no-engine, --e2e, --test-name-pattern=RE, --test-only, --test-reporter=spec|tap|dot, --test-concurrency=N, --test-timeout=MS';

/**
 * `npm test`'s arguments: files and folders, and the options it knows; anything else is refused, naming
 * what it knows (`node --test FILE` takes every option of node's own).
 * @param {string[]} args @param {{ cores: number, tty: boolean }} here
 * @returns {{ paths: string[], noEngine: boolean, e2e: boolean, namePatterns: string[], only: boolean,
 *   reporter: typeof REPORTERS[number], concurrency: number, timeout: number | null }}
 */
export function parseTestArgs(args, { cores, tty }) {
  /** @type {ReturnType<typeof parseTestArgs>} */
  const o = {
    paths: [],
    noEngine: false,
    e2e: false,
    namePatterns: [],
    only: false,
    reporter: tty ? 'spec' : 'tap',
    concurrency: Math.max(1, cores),
    timeout: null,
  };
  /** @param {string} what @param {string} value @param {number} max */
  const whole = (what, value, max) => {
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1 || Number(value) > max)
      throw new Error(`${what}=${value.slice(0, 40)}: a whole number from 1 to ${max}`);
    return Number(value);
  };
  for (const a of args) {
    const [flag, value] =
      a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, null];
    if (!a.startsWith('-')) {
      if (!existsSync(a)) throw new Error(`${a.slice(0, 200)}: no such test file or folder`);
      o.paths.push(a);
    } else if (a === '--no-engine') o.noEngine = true;
    else if (a === '--e2e') o.e2e = true;
    else if (a === '--test-only') o.only = true;
    else if (flag === '--test-name-pattern' && value) o.namePatterns.push(value);
    else if (flag === '--test-reporter' && REPORTERS.includes(/** @type {any} */ (value)))
      o.reporter = /** @type {typeof REPORTERS[number]} */ (value);
    else if (flag === '--test-concurrency' && value !== null) o.concurrency = whole(flag, value, 64);
    else if (flag === '--test-timeout' && value !== null) o.timeout = whole(flag, value, 86_400_000);
    else
      throw new Error(
        `${a.slice(0, 80)}: not an option of npm test; it knows ${OPTIONS} (node --test FILE takes all of node's)`,
      );
  }
  return o;
}

/** A relative .js path in quotes: an import, a dynamic import, or a script a test runs (`new URL('../../bin/x.js', …)`). */
const JS_PATH = /['"`]((?:\.{1,2}\/)+[^'"`\s$]+\.js|#model\/[^'"`\s$]+\.js)['"`]/g;
/** A dynamic import of a folder's modules by name: import(`./${name}.js`). */
const BY_NAME = /\bimport\(\s*`((?:\.{1,2}\/)+)\$\{[^}]+\}\.js`\s*\)/g;

/**
 * The modules under `src` that the files given do not reach: through what they import or name as a script
 * to run (a relative path in quotes, outside comments), transitively. A file's JSDoc types are not a reach,
 * and a module of types only needs none.
 * @param {string[]} files @param {string} root the project's folder (for #model/)
 * @param {(file: string) => string} [read]
 * @returns {string[]} relative to root, sorted
 */
export function unreached(files, root, read = (f) => readFileSync(f, 'utf8')) {
  const src = path.join(root, 'src');
  /** @type {Set<string>} */
  const seen = new Set();
  /** @param {string} text */
  const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const todo = files.map((f) => path.resolve(f));
  while (todo.length) {
    const file = /** @type {string} */ (todo.pop());
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = code(read(file));
    for (const m of text.matchAll(JS_PATH))
      todo.push(
        m[1].startsWith('#model/')
          ? path.join(src, 'model', m[1].slice('#model/'.length))
          : path.resolve(path.dirname(file), m[1]),
      );
    for (const m of text.matchAll(BY_NAME)) {
      const dir = path.resolve(path.dirname(file), m[1]);
      for (const e of readdirSync(dir)) if (e.endsWith('.js')) todo.push(path.join(dir, e));
    }
  }
  // A module of types only (JSDoc typedefs and `export {}`) has nothing to run.
  return jsUnder(src)
    .filter((f) => !seen.has(f) && code(read(f)).trim() !== 'export {};')
    .map((f) => path.relative(root, f))
    .sort();
}

/** Every .js file under a folder. @param {string} dir @returns {string[]} */
function jsUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsUnder(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : [],
  );
}
