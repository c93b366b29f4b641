// What a failing step said, and what a step is given (issue 37, item 6), on the real engine: a step that
// fails after printing lines longer than a results file may hold fails its cell with the end of its output,
// cut to a bound and saying so (the run goes on and exits 3, not 1), its whole output kept in raw/; a step
// gets the run's registry as DIND_BENCH_REGISTRY and runs in the job's folder (a copy of the workload's);
// its docker config holds the registry logins only when the file gives it `registries: true`, and the run's
// own environment is not in the /proc it sees (issue 43, item 3).
// npm test: alone: it compares every image name and ID on the engine before and after
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { validateResults } from '../../src/results/schema.js';
import { imageState, onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-step-output-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** @param {string} name @param {string[]} lines */
function workload(name, lines) {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  writeFileSync(path.join(dir, 'marker.txt'), `${name}\n`);
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, ['version: 1', `name: ${name}`, ...lines, ''].join('\n'));
  return file;
}

/** @param {string} file @param {string} out @param {string} envs */
const run = (file, out, envs) =>
  runCli(['run', '--workload', file, '--env', envs, '--iterations', '1', '--out', out], { timeout: 400_000 });

/** @param {string} out */
const resultsOf = (out) =>
  validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');

test('a failing step whose last lines hold more than 64 KiB fails its cell with a bounded tail; the run exits 3', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  // Lines of 20,000 characters each: the last ten are 200 KB, more than a results text field takes.
  const file = workload('noisy', [
    'steps:',
    '  - name: noisy',
    "    run: \"for i in 1 2 3 4 5 6 7 8 9 10 11 12; do head -c 20000 /dev/zero | tr '\\\\0' x; echo; done; echo 'error: the build broke' >&2; exit 4\"",
  ]);
  const out = path.join(work, 'noisy-out');
  const r = run(file, out, 'docker');
  assert.equal(
    r.status,
    3,
    `exit 3: a cell failed, results written\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`,
  );
  const [cell] = resultsOf(out).cells.filter((/** @type {any} */ c) => c.benchmark === 'workload.noisy');
  assert.equal(cell.status, 'failed');
  assert.match(cell.reason ?? '', /step step-noisy: .* exited 4: error: the build broke/);
  const tail = cell.logTail ?? '';
  assert.ok(tail.length < 16_384, `the kept tail is bounded: ${tail.length} characters`);
  assert.match(tail, /cut/, 'and says it was cut');
  assert.match(tail, /raw\//, 'naming where the whole output is');
  const raw = readdirSync(path.join(out, 'raw'), { recursive: true, encoding: 'utf8' }).find((f) =>
    f.endsWith('step-noisy.txt'),
  );
  assert.ok(raw, 'the raw output is kept');
  assert.ok(readFileSync(path.join(out, 'raw', raw), 'utf8').length > 240_000, 'whole');
  await setup.leftAsFound();
});

test("a step gets the run's registry (DIND_BENCH_REGISTRY), pushes to it only with registries: true, and never reads the run's environment; it runs in the job's folder", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const images = await imageState(outer);
  const file = workload('pusher', [
    'images:',
    '  - { name: team/tools:1, source: pull, seed: dind-bench/lifecycle:debian }',
    'steps:',
    '  - name: unlogged',
    '    run: |',
    '      set -e',
    '      ! grep -q auths "$DOCKER_CONFIG/config.json" 2>/dev/null',
    '      ! cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" | grep -q "^DIND_BENCH_STEP_TEST_SECRET="',
    '      docker tag team/tools:1 "$DIND_BENCH_REGISTRY/team/unlogged:1"',
    '      ! docker push --quiet "$DIND_BENCH_REGISTRY/team/unlogged:1"',
    '      docker rmi "$DIND_BENCH_REGISTRY/team/unlogged:1"',
    '  - name: push',
    '    registries: true',
    '    run: |',
    '      set -e',
    '      grep -q auths "$DOCKER_CONFIG/config.json"',
    '      test "$(cat marker.txt)" = pusher',
    '      test -n "$DIND_BENCH_REGISTRY"',
    '      docker tag team/tools:1 "$DIND_BENCH_REGISTRY/team/result:1"',
    '      docker push --quiet "$DIND_BENCH_REGISTRY/team/result:1"',
    '      docker rmi "$DIND_BENCH_REGISTRY/team/result:1"',
    '      docker pull --quiet "$DIND_BENCH_REGISTRY/team/result:1"',
    '      docker rmi "$DIND_BENCH_REGISTRY/team/result:1"',
  ]);
  const out = path.join(work, 'pusher-out');
  // A variable of the run's own environment: no step finds it, in its environment or any /proc/*/environ.
  const r = runCli(['run', '--workload', file, '--env', 'docker,dind', '--iterations', '1', '--out', out], {
    timeout: 400_000,
    env: { ...process.env, DIND_BENCH_STEP_TEST_SECRET: 'not-for-steps' },
  });
  assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  assert.deepEqual(
    resultsOf(out)
      .cells.filter((/** @type {any} */ c) => c.benchmark === 'workload.pusher')
      .map((/** @type {any} */ c) => [c.environmentKey, c.status, c.reason ?? '']),
    [
      ['docker', 'ok', ''],
      ['dind@20.10', 'ok', ''],
    ],
  );
  assert.deepEqual(await imageState(outer), images, "the runner's image names and IDs are as found");
  await setup.leftAsFound();
});
