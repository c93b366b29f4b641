// The engine workloads against the real engine (lean: quick parameters, one iteration, Debian, docker
// and dind): memory series per scope, docker build cold/warm, results that validate, native recorded
// as unavailable (not failed), a build that really fails, and nothing left behind (built images too).
// npm test: alone: a warm build must beat a cold one, and the cold build's disk writes are read host-wide
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { BUILD_CONTEXT } from '../../src/benchmarks/build.js';
import { BENCHMARKS } from '../../src/benchmarks/index.js';
import { validateResults } from '../../src/results/schema.js';
import { makePlan } from '../../src/run/plan.js';
import { executePlan } from '../../src/run/runner.js';
import { onEngine, the } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-engineload-'));
after(() => rmSync(work, { recursive: true, force: true }));

/**
 * The build's metrics that are a difference of two host-wide used-space figures (src/engine/disk.js), with
 * the least each can be whatever else runs: the peak growth is clamped at 0, what is left can be negative.
 * @type {Record<string, number>}
 */
const HOST_WIDE_DIFFERENCES = { cold_disk_peak_mib: 0, cold_disk_left_mib: -Infinity };

/** Images the build benchmark makes carry this name; none may outlive a run. @param {import('dockerode')} outer */
const builtImages = async (outer) =>
  (await outer.listImages()).filter((i) => (i.RepoTags ?? []).some((t) => t.startsWith('dind-bench-work/')));

test('memory and build in docker and dind: metrics, time series per scope, schema-valid, native unavailable, engine as found', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const out = path.join(work, 'run');
  const r = runCli(
    [
      'run',
      '--profile',
      'quick',
      '--iterations',
      '1',
      '--bench',
      'memory,build',
      '--env',
      'native,docker,dind',
      '--distro',
      'debian',
      '--out',
      out,
    ],
    { timeout: 300_000 },
  );
  assert.equal(r.status, 0, r.stderr.slice(-3000));
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');

  for (const bench of ['memory', 'build']) {
    const native = the(
      results.cells.find((/** @type {any} */ c) => c.benchmark === bench && c.environment === 'native'),
      `${bench}/native`,
    );
    assert.equal(native.status, 'unavailable');
    assert.match(native.reason ?? '', /does not apply in native: native has no engine/);
    for (const env of ['docker', 'dind@20.10']) {
      const cell = the(
        results.cells.find((/** @type {any} */ c) => c.benchmark === bench && c.environmentKey === env),
        `${bench}/${env}`,
      );
      assert.equal(cell.status, 'ok', `${bench}/${env}: ${cell.reason}`);
      for (const m of cell.metrics) {
        assert.ok(m.unit && ['higher', 'lower'].includes(m.better), `${bench}/${env} ${m.metric}`);
        assert.equal(m.samples.length, 1, `${bench}/${env} ${m.metric} samples`);
        // What a build left on the disk and the peak growth of used space are differences of host-wide
        // figures: another process freeing space meanwhile can make the first negative and hide the second (0).
        // The device's written bytes only grow, whoever writes: the cold build must show there.
        if (m.metric in HOST_WIDE_DIFFERENCES)
          assert.ok(
            Number.isFinite(m.samples[0]) && m.samples[0] >= HOST_WIDE_DIFFERENCES[m.metric],
            `${bench}/${env} ${m.metric} = ${m.samples[0]}`,
          );
        else assert.ok(m.samples[0] > 0, `${bench}/${env} ${m.metric} = ${m.samples[0]}`);
      }
    }
  }
  const metric = (/** @type {string} */ bench, /** @type {string} */ env, /** @type {string} */ name) =>
    the(
      the(
        results.cells.find((/** @type {any} */ c) => c.benchmark === bench && c.environmentKey === env),
        `${bench}/${env}`,
      ).metrics.find((/** @type {any} */ m) => m.metric === name),
      `${bench}/${env} ${name}`,
    );
  for (const env of ['docker', 'dind@20.10']) {
    // The workload allocates 4 x 32 MiB: its peak working set must show it, whichever engine reports it.
    assert.ok(metric('memory', env, 'workload.peak_mib').samples[0] >= 128, `${env} workload peak`);
    assert.ok(metric('memory', env, 'environment.idle_mib').samples[0] > 0, `${env} environment idle`);
    assert.ok(
      metric('build', env, 'warm_ms').samples[0] < metric('build', env, 'cold_ms').samples[0],
      `${env}: a warm build beats a cold one`,
    );
    // The disk under the data-root is visible here (the engine is local): the cold build wrote to it.
    for (const name of ['cold_disk_written_mib', 'cold_disk_peak_mib', 'cold_disk_left_mib'])
      assert.ok(metric('build', env, name), `${env}: ${name}`);
    const cell = the(
      results.cells.find((/** @type {any} */ c) => c.benchmark === 'memory' && c.environmentKey === env),
      `memory/${env}`,
    );
    const scopes = the(cell.timeseries, 'timeseries')
      .map((/** @type {any} */ s) => s.scope)
      .sort();
    assert.deepEqual(scopes, ['environment', 'workload']);
    for (const s of the(cell.timeseries, 'timeseries')) {
      assert.equal(s.t.length, s.v.length);
      assert.ok(s.t.length >= 2 && s.unit === 'MiB' && s.iteration === 0 && s.intervalMs === 1000);
    }
  }
  assert.match(
    readFileSync(path.join(out, 'report.md'), 'utf8'),
    /Time series: 4 sampled series .*memory\/dind@\u2060?20\.10 \(workload \+ environment\)/,
  );
  assert.deepEqual(await builtImages(outer), []);
  await setup.leftAsFound();
});

test('a build that fails: the cell says benchmark, environment, step and the offending line; the run goes on; no image left', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const imagesBefore = (await outer.listImages({ all: true })).map((i) => i.Id);
  // The shipped context with a last step that fails after two that succeeded (their layers must go too).
  const broken = mkdtempSync(path.join(work, 'broken-'));
  copyFileSync(path.join(BUILD_CONTEXT, 'generate.pl'), path.join(broken, 'generate.pl'));
  writeFileSync(
    path.join(broken, 'Dockerfile'),
    'ARG BASE\nFROM ${BASE}\nCOPY generate.pl /src/generate.pl\nRUN perl /src/generate.pl /src/gen 3\nRUN echo "no-such-compiler: command not found" >&2 && exit 3\n',
  );
  const benchmarks = {
    ...BENCHMARKS,
    'build-broken': { ...BENCHMARKS.build, name: 'build-broken', params: { quick: { context: broken } } },
  };
  const plan = makePlan({
    benchmarks: ['build-broken', 'build'],
    environments: ['docker'],
    distros: ['debian'],
    engines: ['20.10'],
    iterations: 1,
    warmup: 0,
  });
  const out = path.join(work, 'broken-run');
  const res = await executePlan({
    outer,
    plan,
    profile: { name: 'quick', stepTimeoutMs: 120_000 },
    outDir: out,
    unavailableImages: {},
    log: () => {},
    benchmarks,
  });
  const failed = res.cells.find((c) => c.benchmark === 'build-broken');
  assert.equal(failed?.status, 'failed');
  assert.equal(failed?.step, 'cold');
  assert.match(
    String(failed?.reason),
    /^build-broken in docker \(debian\), #1, step cold: the reference build failed: .*exit code: 3/,
  );
  assert.match(String(failed?.logTail), /no-such-compiler: command not found/);
  const raw = readFileSync(path.join(out, /** @type {string} */ (failed?.raw[0])), 'utf8');
  assert.match(raw, /no-such-compiler/);
  // The run went on: the real build after it ran.
  assert.equal(res.cells.find((c) => c.benchmark === 'build')?.status, 'ok');
  assert.deepEqual(await builtImages(outer), []);
  // Every image the failed build made (one per step that succeeded) is gone: none is new.
  const mine = (await outer.listImages({ all: true })).filter(
    (i) =>
      !imagesBefore.includes(i.Id) &&
      (i.RepoTags ?? ['<none>:<none>']).every((x) => x === '<none>:<none>') &&
      !i.Labels?.['dind-bench.kind'],
  );
  const leftovers = [];
  for (const i of mine) {
    const h = await outer
      .getImage(i.Id)
      .history()
      .catch(() => []);
    if (h.some((/** @type {any} */ x) => /generate\.pl|no-such-compiler/.test(x.CreatedBy))) leftovers.push(i.Id);
  }
  assert.deepEqual(leftovers, []);
  await setup.leftAsFound();
});

test("build in podman is Buildah's: cold and warm (the warm one from the cache), recorded so; engine as found", async (t) => {
  const setup = await onEngine(t, { engines: [], podman: ['4.3'] });
  if (!setup) return;
  const { outer } = setup;
  const out = path.join(work, 'podman-build');
  const args = ['run', '--profile', 'quick', '--iterations', '1', '--bench', 'build', '--env', 'podman', '--out', out];
  const r = runCli([...args, '--distro', 'debian'], { timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr.slice(-3000));
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  const cell = the(
    results.cells.find((/** @type {any} */ c) => c.benchmark === 'build' && c.environment === 'podman'),
    'the podman build cell',
  );
  assert.equal(cell.status, 'ok', cell.reason);
  for (const m of ['cold_ms', 'warm_ms']) {
    const metric = the(
      cell.metrics.find((/** @type {any} */ x) => x.metric === m),
      m,
    );
    assert.ok(metric.samples[0] > 0, `${m} = ${metric.samples[0]}`);
  }
  const env = the(
    results.environments.find((/** @type {any} */ e) => e.key === 'podman'),
    'the podman environment',
  );
  assert.equal(env.facts?.builder?.kind, 'Buildah');
  assert.equal(env.facts?.builder?.buildkit, null, 'no BuildKit on Podman');
  // Buildah's own step lines in the raw log: the classic build's output, not BuildKit's.
  const log = readFileSync(path.join(out, 'raw', 'build', 'podman', 'debian', '01-cold.txt'), 'utf8');
  assert.match(log, /STEP 1\/\d+: FROM /);
  await setup.leftAsFound();
  assert.deepEqual(await builtImages(outer), [], 'no built image left on the runner');
});
