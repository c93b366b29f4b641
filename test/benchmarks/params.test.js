// Benchmark parameters as a config file sets them (`run --config`): fio's subset of jobs and locations and
// a ramp run but not counted, iperf3's loopback and latency tests left to the standard profile. Names
// reach a shell script, so only known names pass; the estimate follows what runs. No engine: the runs
// themselves are in tools.test.js and network.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, referenceArgs } from '../../src/benchmarks/build.js';
import { FIO_JOBS, fio, selection } from '../../src/benchmarks/fio.js';
import { clientFlags, iperf3 } from '../../src/benchmarks/iperf3.js';
import { iozone, iozoneCommand, medianMetrics, repeatsOf } from '../../src/benchmarks/iozone.js';
import { lifecycle, medianTimeline, startsOf } from '../../src/benchmarks/lifecycle.js';
import { benchmarkCmd, medianRuns, redis } from '../../src/benchmarks/redis.js';
import { validateParamOverrides } from '../../src/run/params.js';

const estimate = (/** @type {import('../../src/benchmarks/fio.js').FioParams} */ p) => {
  if (!fio.estimateSeconds) throw new Error('fio has no estimate');
  return fio.estimateSeconds(p);
};

test('fio runs every job in both locations unless a config names fewer', () => {
  const all = selection(fio.params.quick);
  assert.deepEqual(
    all.jobs.map((j) => j.name),
    FIO_JOBS.map((j) => j.name),
  );
  assert.deepEqual(all.locations, ['layer', 'volume']);
  const one = selection({ jobs: 'randwrite', locations: 'layer' });
  assert.deepEqual(
    one.jobs.map((j) => j.name),
    ['randwrite'],
  );
  assert.deepEqual(one.locations, ['layer']);
});

test('a job or location fio does not know is refused, naming the choices; nothing else reaches the shell', () => {
  for (const jobs of ['randwrite;touch x', 'seqwrite,$(id)', 'nope', '', ' , ']) {
    assert.throws(() => selection({ jobs }), /fio jobs .*a comma-separated list of seqwrite, seqread/, jobs);
  }
  assert.throws(
    () => selection({ locations: 'tmpfs' }),
    /fio locations "tmpfs": a comma-separated list of layer, volume/,
  );
});

test('a config may set jobs, locations and the ramp; the estimate counts the ramp and only what runs', () => {
  const overrides = validateParamOverrides(
    { fio: { jobs: 'randwrite', locations: 'layer', seconds: 2, rampSeconds: 0.5, size: '64M' } },
    'disk.json',
  );
  const p = { ...fio.params.quick, ...overrides.fio };
  // one job, one location: its ramp and its 2 s, plus laying out 64 MiB at about 100 MiB/s, plus 0.5 s
  assert.equal(estimate(p), 2.5 + 0.64 + 0.5);
  // every job in both locations, each with the same ramp and seconds
  assert.equal(estimate({ ...p, jobs: fio.params.quick.jobs, locations: 'layer,volume' }), 2 * (5 * 2.5 + 0.64) + 0.5);
  assert.throws(
    () => validateParamOverrides({ fio: { rampSeconds: '1' } }, 'disk.json'),
    /"fio.rampSeconds" must be a non-negative number/,
  );
});

test("iperf3's quick step measures the bridge's throughput and its MTU, the study's loopback and latency in standard", () => {
  assert.equal(iperf3.params.quick.loopback, false);
  assert.equal(iperf3.params.quick.latencySeconds, 0);
  assert.equal(iperf3.params.standard.loopback, true);
  const est = (/** @type {import('../../src/benchmarks/iperf3.js').Iperf3Params} */ p) => {
    if (!iperf3.estimateSeconds) throw new Error('iperf3 has no estimate');
    return iperf3.estimateSeconds(p);
  };
  // the bridge's 1 + 2 s, the server's start, three pings
  assert.equal(est(iperf3.params.quick), 3 + 1.5 + 0.6);
  // with the loopback test (3 s) and sockperf (1 s and its own 2 s) back
  assert.equal(est({ ...iperf3.params.quick, loopback: true, latencySeconds: 1 }), 3 + 3 + 3 + 1.5 + 0.6);
});

test("iperf3's timing and placement flags reach the shell only as numbers iperf3 takes", () => {
  const q = iperf3.params.quick;
  assert.equal(clientFlags(q), '-t 2 -O 1 -i 1');
  assert.equal(clientFlags({ ...q, intervalSeconds: 0.2, affinity: '0,1' }), '-t 2 -O 1 -i 0.2 -A 0,1');
  assert.equal(clientFlags({ ...q, intervalSeconds: 0, affinity: '1' }), '-t 2 -O 1 -i 0 -A 1');
  for (const affinity of ['0;id', '0,1,2', '$(id)', ' 0', '-1', 'a,b'])
    assert.throws(() => clientFlags({ ...q, affinity }), /iperf3 affinity .*"client,server" like "0,1"/, affinity);
  for (const intervalSeconds of [0.05, 61, NaN, Infinity])
    assert.throws(() => clientFlags({ ...q, intervalSeconds }), /iperf3 intervalSeconds .*0\.1 to 60/);
  assert.throws(() => clientFlags({ ...q, seconds: 1.5 }), /iperf3 seconds 1\.5: a whole number/);
  assert.throws(() => clientFlags({ ...q, seconds: 0 }), /at least 1 s must be counted/);
  assert.throws(() => clientFlags({ ...q, omitSeconds: 0.5 }), /iperf3 omitSeconds 0\.5/);
  // a config file may set them; the type is checked there, the range here
  const o = validateParamOverrides({ iperf3: { intervalSeconds: 0.2, affinity: '0,1' } }, 'net.json');
  assert.equal(clientFlags({ ...q, ...o.iperf3 }), '-t 2 -O 1 -i 0.2 -A 0,1');
  assert.throws(
    () => validateParamOverrides({ iperf3: { affinity: 0 } }, 'net.json'),
    /"iperf3.affinity" must be a string/,
  );
});

test("iperf3's parallel streams and zero-copy send reach the shell only as iperf3 takes them", () => {
  const q = iperf3.params.quick;
  assert.equal(clientFlags({ ...q, streams: 1, zerocopy: false }), '-t 2 -O 1 -i 1');
  assert.equal(clientFlags({ ...q, streams: 4, zerocopy: true }), '-t 2 -O 1 -i 1 -P 4 -Z');
  for (const streams of [0, 1.5, 129, NaN, '2'])
    assert.throws(
      () => clientFlags({ ...q, streams: /** @type {number} */ (streams) }),
      /iperf3 streams .*from 1 to 128/,
    );
  assert.throws(
    () => clientFlags({ ...q, zerocopy: /** @type {boolean} */ (/** @type {unknown} */ ('yes')) }),
    /zerocopy/,
  );
  const o = validateParamOverrides({ iperf3: { streams: 2, zerocopy: true } }, 'net.json');
  assert.equal(clientFlags({ ...q, ...o.iperf3 }), '-t 2 -O 1 -i 1 -P 2 -Z');
});

test("redis-benchmark's command: counts checked, repeats as a loop whose arguments are never shell text", () => {
  const q = redis.params.quick;
  const server = { host: '172.18.0.2', port: 6379 };
  const once = benchmarkCmd({ ...q, repeats: 1 }, server);
  assert.equal(once[0], 'redis-benchmark');
  assert.deepEqual(once.slice(once.indexOf('-P'), once.indexOf('-P') + 2), ['-P', String(q.pipeline)]);
  const hostile = '$(touch /tmp/x);set';
  const thrice = benchmarkCmd({ ...q, repeats: 3, tests: hostile }, server);
  assert.deepEqual(thrice.slice(0, 2), ['sh', '-c']);
  assert.equal(thrice[2], 'for i in $(seq 3); do redis-benchmark "$@" || exit $?; done');
  assert.ok(!thrice[2].includes(hostile), 'the tests reach the loop as a positional parameter');
  assert.equal(thrice[thrice.indexOf('-t') + 1], hostile);
  for (const [key, value] of /** @type {const} */ ([
    ['repeats', 0],
    ['repeats', 10],
    ['pipeline', 0],
    ['pipeline', 1.5],
    ['requests', 0],
    ['clients', 0.5],
  ]))
    assert.throws(() => benchmarkCmd({ ...q, [key]: value }, server), new RegExp(`redis ${key} .*a whole number`));
  // per test, the run of median requests/s, its own latencies with it
  const row = (/** @type {string} */ test, /** @type {number} */ rps, /** @type {number} */ p50) => ({
    test,
    rps,
    avg_ms: p50,
    p50_ms: p50,
    p95_ms: p50,
    p99_ms: p50,
    max_ms: p50,
  });
  const runs = [
    [row('SET', 30_000, 0.3), row('GET', 50_000, 0.2)],
    [row('SET', 10_000, 0.9), row('GET', 40_000, 0.25)],
    [row('SET', 29_000, 0.31), row('GET', 60_000, 0.18)],
  ];
  assert.deepEqual(medianRuns(runs), [row('SET', 29_000, 0.31), row('GET', 50_000, 0.2)]);
  assert.deepEqual(medianRuns([runs[0]]), runs[0]);
});

test("the reference build's arguments: FILES always, WORK only when there is work, whole numbers in bounds", () => {
  assert.deepEqual(referenceArgs(build.params.quick), { FILES: '300' });
  assert.deepEqual(referenceArgs({ files: 300, work: 40_000 }), { FILES: '300', WORK: '40000' });
  assert.deepEqual(referenceArgs({}), {});
  for (const work of [1.5, -1, 1e9, NaN])
    assert.throws(
      () => referenceArgs({ files: 300, work }),
      /build work .*a whole number from 0 to 100000000/,
      String(work),
    );
  assert.throws(() => referenceArgs({ files: 2.5 }), /build files 2\.5: a whole number from 0 to 100000/);
  const o = validateParamOverrides({ build: { work: 40_000 } }, 'build.json');
  assert.deepEqual(referenceArgs({ ...build.params.quick, ...o.build }), { FILES: '300', WORK: '40000' });
});

test('lifecycle starts: 1 to 25 first-container starts, the sample is the one whose total is the median', () => {
  assert.equal(startsOf(lifecycle.params.quick), 1);
  assert.equal(startsOf({}), 1);
  assert.equal(startsOf({ starts: 3 }), 3);
  for (const starts of [0, 1.5, 26, NaN]) assert.throws(() => startsOf({ starts }), /lifecycle starts .*1 to 25/);
  const t = (/** @type {number} */ total_ms) => ({
    phases: [{ phase: 'first_start', ms: total_ms }],
    sum_ms: total_ms,
    total_ms,
    missing: [],
    clamped: [],
  });
  const three = [t(250), t(180), t(200)];
  assert.equal(medianTimeline(three), three[2]);
  // an even count takes the lower middle: a real start, not the mean of two
  assert.equal(medianTimeline([t(4), t(1), t(3), t(2)]).total_ms, 2);
  assert.equal(medianTimeline([t(7)]).total_ms, 7);
});

test("the build's estimate counts the cold build's work", () => {
  const est = (/** @type {import('../../src/benchmarks/build.js').BuildParams} */ p) => {
    if (!build.estimateSeconds) throw new Error('build has no estimate');
    return build.estimateSeconds(p);
  };
  assert.equal(est(build.params.quick), 1);
  // 300 files x 100,000 rounds at 25 million rounds a second
  assert.equal(est({ files: 300, work: 100_000 }), 2.2);
});

test('iozone repeats: 1 to 20 runs in one container, each metric the median of its runs; sizes checked before the shell', () => {
  assert.equal(repeatsOf(iozone.params.quick), 1);
  assert.equal(repeatsOf({ ...iozone.params.quick, repeats: undefined }), 1);
  assert.equal(repeatsOf({ ...iozone.params.quick, repeats: 5 }), 5);
  for (const repeats of [0, 2.5, 21, NaN])
    assert.throws(() => repeatsOf({ ...iozone.params.quick, repeats }), /iozone repeats .*1 to 20/, String(repeats));
  const o = validateParamOverrides({ iozone: { repeats: 3 } }, 'disk.json');
  assert.equal(repeatsOf({ ...iozone.params.quick, ...o.iozone }), 3);
  assert.equal(iozoneCommand(iozone.params.quick), 'iozone -e -I -i 0 -i 1 -r 64k -s 64m');
  assert.equal(iozoneCommand(iozone.params.standard), 'iozone -e -i 0 -i 1 -r 4k -s 1g');
  for (const fileSize of ['64m; reboot', '$(id)', '', '0m', '1.5m'])
    assert.throws(() => iozoneCommand({ ...iozone.params.quick, fileSize }), /iozone fileSize .*a size like/, fileSize);
  assert.throws(() => iozoneCommand({ ...iozone.params.quick, recordSize: '64k -t 9' }), /iozone recordSize/);
  // the estimate counts every run
  if (!iozone.estimateSeconds) throw new Error('iozone has no estimate');
  assert.equal(iozone.estimateSeconds({ ...iozone.params.quick, repeats: 3 }), 0.5 + (3 * 2 * 64) / 40);
  const run = (/** @type {number} */ write, /** @type {number} */ read) => [
    { metric: 'write_mib_per_s', unit: 'MiB/s', better: /** @type {const} */ ('higher'), value: write },
    { metric: 'read_mib_per_s', unit: 'MiB/s', better: /** @type {const} */ ('higher'), value: read },
  ];
  assert.deepEqual(
    medianMetrics([run(500, 900), run(300.333, 1000), run(520, 100)]).map((m) => [m.metric, m.value, m.unit]),
    [
      ['write_mib_per_s', 500, 'MiB/s'],
      ['read_mib_per_s', 900, 'MiB/s'],
    ],
  );
  // an even count: the mean of the middle two, rounded as the parser rounds
  assert.equal(medianMetrics([run(1, 0), run(2.005, 0)])[0].value, 1.5);
});
