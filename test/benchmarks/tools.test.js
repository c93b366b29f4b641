// stress-ng, IOzone, fio and storage against the real engine, lean: quick parameters shrunk further by a
// config file, Debian, docker and dind, one iteration. Each must yield its metrics with unit, direction
// and samples; a tool missing from an image must fail its cell with the step and the tool's own words;
// the engine is left exactly as found (scratch volumes included).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { iozone } from '../../src/benchmarks/iozone.js';
import { ResourceTracker } from '../../src/engine/resources.js';
import { DockerEnvironment } from '../../src/environments/docker.js';
import { validateResults } from '../../src/results/schema.js';
import { onEngine, the } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-tools-'));
after(() => rmSync(work, { recursive: true, force: true }));

const EXPECT = {
  'stress-ng': [
    'cpu.bogo_ops_per_s',
    'vm.bogo_ops_per_cpu_s',
    'io.bogo_ops_per_s',
    'hdd.bogo_ops_per_s',
    'start_to_work_ms',
  ],
  iozone: ['write_mib_per_s', 'rewrite_mib_per_s', 'read_mib_per_s', 'reread_mib_per_s'],
  fio: [
    'layer.seqwrite.mib_per_s',
    'volume.seqread.mib_per_s',
    'layer.randread.iops',
    'volume.randwrite.iops',
    'volume.randrw.clat_p99_ms',
  ],
  storage: ['copy_up.layer_ms', 'copy_up.volume_ms', 'metadata.layer.create_per_s', 'metadata.volume.delete_per_s'],
};

test('stress-ng, iozone, fio, storage in docker and dind: metrics with unit, direction, samples; engine as found', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const config = path.join(work, 'small.json');
  writeFileSync(
    config,
    JSON.stringify({
      'stress-ng': { seconds: 1, vmBytes: '16M', hddBytes: '4M' },
      fio: { size: '8M', seconds: 0.2 },
      storage: { files: 300 },
    }),
  );
  const out = path.join(work, 'run');
  const r = runCli(
    [
      'run',
      '--bench',
      Object.keys(EXPECT).join(','),
      '--env',
      'docker,dind',
      '--distro',
      'debian',
      '--iterations',
      '1',
      '--config',
      config,
      '--out',
      out,
    ],
    { timeout: 900_000 },
  );
  assert.equal(r.status, 0, r.stderr.slice(-3000));
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  assert.deepEqual(
    /** @type {any} */ (results.run.args.paramOverrides).fio,
    { size: '8M', seconds: 0.2 },
    'the overrides are recorded',
  );
  for (const [bench, metrics] of Object.entries(EXPECT)) {
    for (const env of ['docker', 'dind@20.10']) {
      const cell = the(
        results.cells.find((/** @type {any} */ c) => c.benchmark === bench && c.environmentKey === env),
        `${bench}/${env}`,
      );
      assert.equal(cell.status, 'ok', `${bench}/${env}: ${cell.reason}`);
      for (const name of metrics) {
        const m = cell.metrics.find((/** @type {any} */ x) => x.metric === name);
        assert.ok(m, `${bench}/${env}: ${name}`);
        assert.ok(m.unit && ['higher', 'lower'].includes(m.better), `${bench}/${env}: ${name} unit and direction`);
        assert.equal(m.samples.length, 1);
        assert.ok(Number.isFinite(m.samples[0]) && m.samples[0] >= 0, `${bench}/${env}: ${name} = ${m.samples[0]}`);
      }
    }
  }
  const copyUp = the(
    results.cells.find((/** @type {any} */ c) => c.benchmark === 'storage' && c.environmentKey === 'docker'),
    'storage/docker',
  );
  const ms = (/** @type {string} */ n) =>
    the(
      copyUp.metrics.find((/** @type {any} */ m) => m.metric === n),
      n,
    ).samples[0];
  assert.ok(
    ms('copy_up.layer_ms') > ms('copy_up.volume_ms'),
    'on overlay2 the first write to a lower-layer file pays the copy-up',
  );
  await setup.leftAsFound();
});

test("a tool missing from the image: the step fails with the tool's own words, nothing left behind", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`tools-test-${process.pid}`);
  const env = new DockerEnvironment(outer);
  await env.setup({ tracker });
  try {
    // The lifecycle image has no iozone.
    const ctx = {
      image: 'dind-bench/lifecycle:debian',
      params: iozone.params.quick,
      timeoutMs: 60_000,
      saveRaw: async () => {},
    };
    await assert.rejects(iozone.measure(env, ctx), (e) => {
      const err = /** @type {Error & {step?: string}} */ (e);
      return err.step === 'iozone' && /exited 127/.test(err.message) && /iozone: not found/.test(err.message);
    });
  } finally {
    await tracker.cleanup(outer);
  }
  await setup.leftAsFound();
});
