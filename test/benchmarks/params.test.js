// Benchmark parameters as a config file sets them (`run --config`): fio's subset of jobs and locations and
// a ramp run but not counted, iperf3's loopback and latency tests left to the standard profile. Names
// reach a shell script, so only known names pass; the estimate follows what runs. No engine: the runs
// themselves are in tools.test.js and network.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIO_JOBS, fio, selection } from '../../src/benchmarks/fio.js';
import { iperf3 } from '../../src/benchmarks/iperf3.js';
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
