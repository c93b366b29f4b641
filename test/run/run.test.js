// `dind-bench run` end to end against the real engine: results that validate, Alpine shown unavailable
// offline, raw output kept, a broken benchmark recorded as a failed cell while the run goes on, SIGINT
// cleaning up, and the engine left exactly as found every time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { BENCHMARKS } from '../../src/benchmarks/index.js';
import { runStep } from '../../src/benchmarks/benchmark.js';
import { RUN_LABEL } from '../../src/engine/resources.js';
import { validateResults } from '../../src/results/schema.js';
import { makePlan } from '../../src/run/plan.js';
import { executePlan } from '../../src/run/runner.js';
import { parseSysbench } from '../../src/parsers/sysbench.js';
import { onEngine, the } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const BIN = new URL('../../bin/dind-bench.js', import.meta.url).pathname;
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('run --profile quick: every environment, results valid, Alpine unavailable offline, engine as found', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const out = path.join(work, 'quick');
  const r = runCli(
    [
      'run',
      '--profile',
      'quick',
      '--bench',
      'lifecycle,sysbench',
      // every environment of the default run (the quick profile's own are docker, dind and dind-vfs)
      '--env',
      'native,docker,dind,dind-vfs',
      '--iterations',
      '2',
      '--distro',
      'debian,alpine',
      '--out',
      out,
      '--runner-labels',
      'self-hosted,test',
    ],
    { timeout: 480_000 },
  );
  assert.equal(r.status, 0, r.stderr.slice(-3000));
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');

  assert.equal(results.run.complete, true);
  assert.deepEqual(results.runner.labels, ['self-hosted', 'test']);
  assert.deepEqual(
    results.environments.map((/** @type {any} */ e) => [e.key, e.status]),
    [
      ['native', 'ok'],
      ['docker', 'ok'],
      ['dind@20.10', 'ok'],
      ['dind-vfs@20.10', 'ok'],
      // The quick profile's next Engine line, --engine not given: the start-up a job pays on it.
      ['dind@26.1', 'ok'],
    ],
  );
  const next = results.cells.filter((/** @type {any} */ c) => c.environmentKey === 'dind@26.1');
  assert.deepEqual(
    next.map((/** @type {any} */ c) => `${c.benchmark}/${c.distro}/${c.status}`),
    ['lifecycle/debian/ok', 'lifecycle/alpine/unavailable'],
    'lifecycle only, on every distribution',
  );
  assert.ok(next[0].metrics.find((/** @type {any} */ m) => m.metric === 'startup.total_ms')?.samples.length === 2);
  const vfs = the(
    results.environments.find((/** @type {any} */ e) => e.key === 'dind-vfs@20.10'),
    'dind-vfs@20.10',
  );
  assert.equal(vfs.facts?.storageDriver, 'vfs', 'the storage fallback is recorded as it happened');

  for (const bench of ['lifecycle', 'sysbench']) {
    for (const env of ['native', 'docker', 'dind@20.10', 'dind-vfs@20.10']) {
      const cell = the(
        results.cells.find(
          (/** @type {any} */ c) => c.benchmark === bench && c.environmentKey === env && c.distro !== 'alpine',
        ),
        `${bench}/${env}`,
      );
      assert.equal(cell.status, 'ok', `${bench}/${env}: ${cell.reason}`);
      assert.ok(cell.metrics.length > 0);
      for (const m of cell.metrics) {
        assert.equal(m.samples.length, 2, `${bench}/${env} ${m.metric} samples`);
        assert.equal(m.warmup.length, 0, `${bench}/${env} ${m.metric}: quick has no warm-up`);
      }
      for (const raw of cell.raw) assert.ok(existsSync(path.join(out, raw)), raw);
    }
  }
  const daemon = the(
    results.cells.find((/** @type {any} */ c) => c.benchmark === 'lifecycle' && c.environmentKey === 'dind@20.10'),
    'lifecycle/dind@20.10',
  );
  assert.ok(daemon.metrics.some((/** @type {any} */ m) => m.metric === 'daemon.start_to_ready_ms'));

  const alpine = results.cells.filter((/** @type {any} */ c) => c.distro === 'alpine');
  assert.equal(alpine.length, 7);
  for (const c of alpine) {
    assert.equal(c.status, 'unavailable');
    assert.match(c.reason ?? '', /alpine.*not in the local image store.*--pull/);
  }
  const debianImage = the(
    results.images.find((/** @type {any} */ i) => i.ref === 'dind-bench/sysbench:debian'),
    'the sysbench image',
  );
  assert.ok(
    (debianImage.packages ?? 0) > 50 &&
      (debianImage.sizeBytes ?? 0) > 0 &&
      String(debianImage.digest).startsWith('sha256:'),
  );
  assert.equal(results.engines.outer.storageDriver.length > 0, true);
  assert.ok(results.harness.peakRssBytes > 0);
  assert.ok(readFileSync(path.join(out, 'report.md'), 'utf8').includes('dind vs docker'));

  // A second run into the same folder refuses and leaves the first untouched.
  const again = runCli(['run', '--out', out, '--bench', 'lifecycle', '--env', 'docker']);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /results.json already exists: choose another --out/);
  assert.deepEqual(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), results);

  await setup.leftAsFound();
});

test('malformed tool output fails its cell with the offending line, keeps the raw output, and the run goes on', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  // A benchmark whose "tool" prints something sysbench-like but broken, through the real environments,
  // in a registry of this test's own.
  /** @type {import('../../src/benchmarks/benchmark.js').Benchmark} */
  const garbled = {
    name: 'garbled',
    image: 'sysbench',
    description: 'test only',
    params: { quick: {} },
    async measure(env, ctx) {
      const { stdout } = await runStep(env, ctx, 'cpu', [
        'sh',
        '-c',
        'echo "sysbench 1.0.20"; echo "    total time:   soon"',
      ]);
      return parseSysbench(stdout, 'cpu');
    },
  };
  const benchmarks = { ...BENCHMARKS, garbled };
  const out = path.join(work, 'garbled');
  const plan = makePlan({
    benchmarks: ['garbled', 'lifecycle'],
    environments: ['docker', 'dind'],
    distros: ['debian'],
    engines: ['20.10'],
    iterations: 1,
    warmup: 0,
  });
  const res = await executePlan({
    outer,
    plan,
    profile: { name: 'quick', stepTimeoutMs: 60_000 },
    outDir: out,
    unavailableImages: {},
    log: () => {},
    benchmarks,
  });
  for (const env of ['docker', 'dind@20.10']) {
    const bad = res.cells.find((c) => c.benchmark === 'garbled' && c.environmentKey === env);
    assert.equal(bad?.status, 'failed');
    assert.match(
      String(bad?.reason),
      new RegExp(
        `garbled in ${env} \\(debian\\), #1, step cpu: sysbench output, line 2: expected a number: "    total time:   soon"`,
      ),
    );
    assert.match(readFileSync(path.join(out, String(bad?.raw[0])), 'utf8'), /total time: {3}soon/);
    const good = res.cells.find((c) => c.benchmark === 'lifecycle' && c.environmentKey === env);
    assert.equal(good?.status, 'ok', 'the run went on');
  }
  assert.equal(BENCHMARKS.garbled, undefined, 'the shared registry is untouched');
  await setup.leftAsFound();
});

test('SIGINT in the middle of a run removes everything the run created', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const child = spawn(
    process.execPath,
    [
      BIN,
      'run',
      '--profile',
      'standard',
      '--bench',
      'sysbench',
      '--env',
      'docker,dind',
      '--distro',
      'debian',
      '--out',
      path.join(work, 'interrupted'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  // Wait until the DinD container and at least one benchmark container of this run exist.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const mine = await outer.listContainers({ all: true, filters: { label: [RUN_LABEL] } });
    if (mine.length >= 2 && /\[\d+\/\d+\]|setting up dind/.test(stderr)) break;
    assert.ok(Date.now() < deadline, `the run never got going:\n${stderr}`);
    await delay(100);
  }
  child.kill('SIGINT');
  const { code } = /** @type {{code: number}} */ (await exited);
  assert.equal(code, 130, stderr.slice(-2000));
  assert.match(stderr, /SIGINT: removing what this run created/);
  await setup.leftAsFound();
});
