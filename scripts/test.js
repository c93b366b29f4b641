#!/usr/bin/env node
// `npm test`: node's test runner over test/ (or the files and folders given), in three parts. First the test
// files that need no engine, side by side (one per core): most of the files, a small part of the time.
// Then those that use the engine (scripts/test-files.js tells them by their import of the engine helpers),
// two at a time: each counts only what it made when it checks that it left the engine as found
// (test/helpers/left-as-found.js), and this script checks the part as a whole for unlabelled objects it
// left, which no file can tell apart beside another. Last, one at a time, the engine files marked
// `// npm test: alone: WHY`: they start and stop engines, fill disks, compare all the engine's images
// before and after, or judge what an engine does (a throttled Engine line must read as a regression), so a
// neighbour's images or noise would change what they see. Every part runs whatever the others' outcome;
// the exit code fails when any failed. `--no-engine` runs the first part only: the loop to keep running
// while working on anything but the engine (it says how many files it left out). The long end-to-end
// scenarios (files marked `// npm run test:e2e: WHY`: whole runs on the real engine, minutes each) are left
// to `npm run test:e2e` (this script with --e2e, the same parts over those files only), which .ci/run runs
// after npm test; npm test's files still reach every module of src/ (test/scripts/test-files.test.js).
//
// Within a part, the files that took longest last time start first (their times are kept in
// node_modules/.cache/dind-bench/test-times.json), so no long file starts last and holds the part open
// alone; the slowest files are named at the end. TMPDIR points at a folder of its own, removed when the
// tests end, however they end: not every test removes its temporary folders on every path, and a test run
// leaves nothing behind in the machine's temp folder. Engine sockets stay under /tmp (a unix socket path
// must stay short) and are removed by their runs.
//
//   npm test                                every test
//   npm test -- --no-engine                 the tests that need no engine
//   npm run test:e2e                        the long end-to-end scenarios npm test leaves out
//   npm test -- test/stats/ test/run/plan.test.js     those files, and those under the folders
//   npm test -- --test-name-pattern=verdict            also --test-only, --test-reporter=spec|tap|dot,
//                                                      --test-concurrency=N (the first part), --test-timeout=MS
import { setMaxListeners } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { run } from 'node:test';
import * as reporters from 'node:test/reporters';
import { fileURLToPath } from 'node:url';
import { BESIDE, forCommand, parseTestArgs, slowestFirst, splitByEngine, testFiles } from './test-files.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIMES = path.join(ROOT, 'node_modules/.cache/dind-bench/test-times.json');

/** @type {ReturnType<typeof parseTestArgs>} */
let o;
try {
  o = parseTestArgs(process.argv.slice(2), { cores: availableParallelism(), tty: Boolean(process.stdout.isTTY) });
} catch (e) {
  process.stderr.write(`npm test: ${/** @type {Error} */ (e).message}\n`);
  process.exit(1);
}
// A file named on the command line runs whichever command names it; those found in folders run under the
// command their text says (npm test, or npm run test:e2e: --e2e).
const named = new Set(o.paths.filter((p) => !statSync(p).isDirectory()).map((p) => path.normalize(p)));
const found = testFiles(o.paths.length ? o.paths : [path.join(ROOT, 'test')]);
const mine = new Set([...forCommand(found, o.e2e), ...found.filter((f) => named.has(f))]);
const leftOut = found.length - mine.size;
const { free, beside, alone } = splitByEngine(found.filter((f) => mine.has(f)));

/** @returns {Record<string, number>} seconds per file (relative to the project) as last measured */
function lastTimes() {
  try {
    const times = JSON.parse(readFileSync(TIMES, 'utf8'));
    return times && typeof times === 'object' ? times : {};
  } catch {
    return {};
  }
}
const before = lastTimes();
const rel = (/** @type {string} */ f) => path.relative(ROOT, path.resolve(f));

const tmp = mkdtempSync(path.join(tmpdir(), 'dind-bench-tests-'));
process.env.TMPDIR = tmp;
const controller = new AbortController();
// The runner listens on the signal once per file.
setMaxListeners(free.length + beside.length + alone.length + 10, controller.signal);
// Each engine test file tags what it makes with an owner of its own (test/helpers/engine.js): one given
// from outside would make every file's objects look like every other's.
delete process.env.DIND_BENCH_OWNER;
// Ctrl-C reaches the test files through the terminal's process group; here it stops starting new ones.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => controller.abort());

/** @type {Record<string, number>} seconds per file, this run */
const took = {};

/**
 * One part: the files, `concurrency` at a time, reported on stdout as they end.
 * @param {string[]} files @param {number} concurrency
 * @returns {Promise<boolean>} whether every test passed
 */
async function part(files, concurrency) {
  if (!files.length || controller.signal.aborted) return true;
  const ordered = slowestFirst(files.map(rel), before).map((f) => path.join(ROOT, f));
  const stream = run({
    files: ordered,
    concurrency,
    signal: controller.signal,
    only: o.only,
    ...(o.namePatterns.length ? { testNamePatterns: o.namePatterns } : {}),
    ...(o.timeout ? { timeout: o.timeout } : {}),
  });
  let ok = true;
  // A file's time: its tests' own durations, as the file's process measured them (node 20 reports no end
  // of a file as such, and holds a file's events back while an earlier file is still running).
  const count = (
    /** @type {{ file?: string, name: string, nesting: number, details?: { duration_ms?: number } }} */ d,
  ) => {
    if (d.nesting !== 0 || !d.file || d.name === d.file) return;
    const f = rel(d.file);
    // Only the project's own files: a test may run npm test on a folder of its own elsewhere.
    if (!f.startsWith('..')) took[f] = (took[f] ?? 0) + (d.details?.duration_ms ?? 0) / 1000;
  };
  stream.on('test:pass', count);
  stream.on('test:fail', (d) => {
    count(d);
    if (!d.todo) ok = false;
  });
  const reporter = o.reporter === 'spec' ? new reporters.spec() : reporters[o.reporter];
  for await (const chunk of stream.compose(reporter)) process.stdout.write(chunk);
  return ok;
}

/**
 * The engine files that can share the engine, BESIDE at a time; fails when an unlabelled container,
 * volume or network made during the part is still there at its end (a file beside another counts only its
 * own labels). The engine client is imported only here: --no-engine has no use for it. Not through
 * test/helpers/engine.js, which would tag this process, and so every file, with one owner.
 * @param {string[]} files
 */
async function besidePart(files) {
  if (files.length < 2) return part(files, 1);
  const { outerEngine } = await import('../src/engine/client.js');
  const { added, unlabelled } = await import('../test/helpers/left-as-found.js');
  const outer = outerEngine();
  const before = await unlabelled(outer).catch(() => null);
  process.env.DIND_BENCH_TEST_BESIDE = '1';
  const ok = await part(files, BESIDE);
  delete process.env.DIND_BENCH_TEST_BESIDE;
  // No engine answering: the files themselves said so (skipped, or failed under CI).
  if (!before) return ok;
  const left = added(before, await unlabelled(outer));
  if (!Object.keys(left).length) return ok;
  process.stderr.write(
    `npm test: the engine files run ${BESIDE} at a time left unlabelled objects on the engine (made without a run's labels): ${JSON.stringify(left)}\n`,
  );
  return false;
}

const t0 = Date.now();
const freeOk = await part(free, o.concurrency);
const t1 = Date.now();
const besideOk = o.noEngine ? true : await besidePart(beside);
const t2 = Date.now();
const aloneOk = o.noEngine ? true : await part(alone, 1);
const t3 = Date.now();

try {
  rmSync(tmp, { recursive: true, force: true });
} catch (e) {
  // Files a container wrote as another user cannot always be removed: say where, do not fail the run.
  process.stderr.write(`npm test: could not remove ${tmp}: ${/** @type {Error} */ (e).message}\n`);
}
try {
  mkdirSync(path.dirname(TIMES), { recursive: true });
  writeFileSync(TIMES, `${JSON.stringify({ ...before, ...took }, null, 1)}\n`);
} catch {
  // Only the order of the next run depends on it.
}

const s = (/** @type {number} */ ms) => `${Math.round(ms / 1000)} s`;
const files = (/** @type {number} */ n) => `${n} ${n === 1 ? 'file' : 'files'}`;
const lines = [`npm test: ${files(free.length)} without an engine, ${o.concurrency} at a time: ${s(t1 - t0)}`];
const engine = beside.length + alone.length;
if (o.noEngine && engine) lines.push(`npm test: --no-engine left out ${files(engine)} with the engine`);
else {
  const together = Math.min(BESIDE, beside.length);
  if (beside.length)
    lines.push(
      `npm test: ${files(beside.length)} with the engine, ${together === 1 ? 'one' : together} at a time: ${s(t2 - t1)}`,
    );
  if (alone.length) lines.push(`npm test: ${files(alone.length)} with the engine, alone on it: ${s(t3 - t2)}`);
}
if (leftOut)
  lines.push(
    o.e2e
      ? `npm run test:e2e: ${files(leftOut)} of npm test left to it`
      : `npm test: ${files(leftOut)} of long end-to-end scenarios left to npm run test:e2e`,
  );
const slowest = Object.entries(took)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 5)
  .map(([f, sec]) => `${f} ${Math.round(sec)} s`);
if (slowest.length) lines.push(`npm test: the slowest files: ${slowest.join(', ')}`);
process.stderr.write(`${lines.join('\n')}\n`);
process.exit(freeOk && besideOk && aloneOk && !controller.signal.aborted ? 0 : 1);
