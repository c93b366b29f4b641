// The network benchmarks against the real engine, lean (quick parameters, Debian, docker and dind):
// each yields its metrics with unit, direction and a sample; a server that never becomes ready, or a
// server tool that is missing, fails its cell with the benchmark, environment, step and the server's
// own words while the run goes on; and nothing is left running or behind.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { BENCHMARKS } from '../../src/benchmarks/index.js';
import { withService } from '../../src/benchmarks/benchmark.js';
import { makePlan } from '../../src/run/plan.js';
import { executePlan } from '../../src/run/runner.js';
import { onEngine } from '../helpers/engine.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-net-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** metric -> [unit, better], per benchmark: what each must yield in docker and dind. */
const EXPECTED = {
  iperf3: {
    'loopback.throughput': ['Mbit/s', 'higher'],
    'bridge.throughput': ['Mbit/s', 'higher'],
    'bridge.throughput_interval_median': ['Mbit/s', 'higher'],
    'host.throughput': ['Mbit/s', 'higher'],
    'bridge.retransmits': ['count', 'lower'],
    'bridge.latency_p50': ['us (half round trip)', 'lower'],
    'host.latency_p99': ['us (half round trip)', 'lower'],
    'bridge.path_mtu': ['bytes', 'higher'],
  },
  redis: {
    'bridge.set.requests_per_second': ['req/s', 'higher'],
    'host.get.requests_per_second': ['req/s', 'higher'],
    'bridge.get.latency_p99': ['ms', 'lower'],
    'host.set.latency_p50': ['ms', 'lower'],
  },
  pgbench: {
    'bridge.tps': ['tx/s', 'higher'],
    'host.tps': ['tx/s', 'higher'],
    'bridge.latency_p95': ['ms', 'lower'],
    'host.latency_p99': ['ms', 'lower'],
  },
};

test('iperf3, redis and pgbench in docker and dind: every metric with unit, direction and a sample; engine as found', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const plan = makePlan({
    benchmarks: Object.keys(EXPECTED),
    environments: ['docker', 'dind'],
    distros: ['debian'],
    engines: ['20.10'],
    iterations: 1,
    warmup: 0,
  });
  const res = await executePlan({
    outer,
    plan,
    profile: { name: 'quick', stepTimeoutMs: 120_000 },
    // Quick measures the bridge only (networksOf); both networks here, as in standard.
    paramOverrides: {
      // -i 0.5: four counted intervals in quick's 2 s, so their median is a metric too.
      iperf3: { networks: 2, loopback: true, latencySeconds: 1, intervalSeconds: 0.5 },
      redis: { networks: 2 },
      pgbench: { networks: 2 },
    },
    outDir: path.join(work, 'ok'),
    unavailableImages: {},
    log: () => {},
  });
  for (const [bench, metrics] of Object.entries(EXPECTED)) {
    for (const env of ['docker', 'dind@20.10']) {
      const cell = res.cells.find((c) => c.benchmark === bench && c.environmentKey === env);
      assert.equal(cell?.status, 'ok', `${bench}/${env}: ${cell?.reason}\n${cell?.logTail ?? ''}`);
      for (const [metric, [unit, better]] of Object.entries(metrics)) {
        const m = cell?.metrics.find((x) => x.metric === metric);
        assert.ok(m, `${bench}/${env}: ${metric} present`);
        assert.deepEqual([m.unit, m.better], [unit, better], `${bench}/${env}: ${metric}`);
        assert.equal(m.samples.length, 1);
        assert.ok(Number.isFinite(m.samples[0]) && m.samples[0] >= 0, `${bench}/${env}: ${metric} = ${m.samples[0]}`);
      }
    }
  }
  const mtu = res.cells
    .find((c) => c.benchmark === 'iperf3' && c.environmentKey === 'dind@20.10')
    ?.metrics.find((m) => m.metric === 'bridge.path_mtu');
  assert.ok(/** @type {number} */ (mtu?.samples[0]) >= 1280, 'a full-size packet crossed the inner bridge');
  await setup.leftAsFound();
});

test('a server that never becomes ready, or whose tool is missing, fails its cell with the step and its last log lines; nothing is left running', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  /** @type {number[]} */
  const nativePids = [];
  /** @param {string} name @param {(ports: number[]) => string[]} cmd */
  const serverBench = (name, cmd) => ({
    name,
    image: 'iperf3',
    description: 'test only',
    params: { quick: {} },
    /** @param {any} env @param {any} ctx */
    async measure(env, ctx) {
      return withService(
        env,
        {
          name: `${name}-server`,
          image: ctx.image,
          network: env.networkModes[0],
          cmd: ({ ports }) => cmd(ports),
          readiness: () => ['false'], // never answers
          readyTimeoutMs: 1500,
        },
        async () => [],
      );
    },
  });
  const benchmarks = {
    ...BENCHMARKS,
    'never-ready': serverBench('never-ready', () => ['sh', '-c', 'echo "server pid $$ starting"; exec sleep 600']),
    'missing-tool': serverBench('missing-tool', () => ['no-such-server', '--port', '1']),
  };
  const plan = makePlan({
    benchmarks: ['never-ready', 'missing-tool', 'lifecycle'],
    environments: ['native', 'docker', 'dind'],
    distros: ['debian'],
    engines: ['20.10'],
    iterations: 1,
    warmup: 0,
  });
  const res = await executePlan({
    outer,
    plan,
    profile: { name: 'quick', stepTimeoutMs: 60_000 },
    outDir: path.join(work, 'bad'),
    unavailableImages: {},
    log: () => {},
    benchmarks,
  });
  for (const env of ['native', 'docker', 'dind@20.10']) {
    const net = env === 'native' ? 'host' : 'bridge';
    const never = res.cells.find((c) => c.benchmark === 'never-ready' && c.environmentKey === env);
    assert.equal(never?.status, 'failed', env);
    assert.equal(never?.step, `start never-ready-server (${net})`);
    assert.match(
      String(never?.reason),
      new RegExp(
        `^never-ready in ${env} .*step start never-ready-server \\(${net}\\): server never-ready-server never became ready \\(${net} network, ${env.split('@')[0]}\\): no answer within 2 s`,
      ),
    );
    const pid = String(never?.logTail).match(/server pid (\d+) starting/);
    assert.ok(pid, `the server's last log line is in the failure: ${never?.logTail}`);
    if (env === 'native') nativePids.push(Number(pid[1]));

    const missing = res.cells.find((c) => c.benchmark === 'missing-tool' && c.environmentKey === env);
    assert.equal(missing?.status, 'failed', env);
    assert.equal(missing?.step, `start missing-tool-server (${net})`);
    assert.match(String(missing?.reason), /no-such-server/, String(missing?.reason));

    assert.equal(
      res.cells.find((c) => c.benchmark === 'lifecycle' && c.environmentKey === env)?.status,
      'ok',
      'the run went on',
    );
  }
  for (const pid of nativePids)
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `native server ${pid} was stopped`);
  await setup.leftAsFound();
});
