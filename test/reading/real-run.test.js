// The four outcomes on a real quick run (test/fixtures/results/decide-quick-5.json: lifecycle and sysbench,
// docker, dind@20.10 and dind@26.1, 5 samples a side, 2026-11-27 on a 2-core VM with other work running),
// the run docs/method.md quotes its examples from. The issue's first "done when": no gated comparison whose
// interval reaches beyond ±T is called equivalent, and `--fail-on inconclusive` exits non-zero naming the
// inconclusive metrics and what they could have seen.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { equivalenceBand, reading, worseInterval } from '../../src/model/change.js';
import { readAb, readWithinRun } from '../../src/reading/index.js';
import { EXIT_INCONCLUSIVE } from '../../src/reading/gate.js';
import { tmpDir } from '../history/helpers.js';
import { runCli } from '../helpers/run-cli.js';

const FILE = new URL('../fixtures/results/decide-quick-5.json', import.meta.url).pathname;
const results = () => JSON.parse(readFileSync(FILE, 'utf8'));

test('every comparison of a real 5-a-side run: equivalent only with its interval inside ±T', () => {
  const r = results();
  const all = [...readWithinRun(r), ...readAb(r, 'dind@20.10', 'dind@26.1')];
  assert.ok(all.length > 100, `${all.length} comparisons`);
  for (const c of all) {
    if (c.outcome !== 'equivalent') continue;
    const [lo, hi] = worseInterval(c.ratio, c.better);
    const [bandLow, bandHigh] = equivalenceBand(c.threshold);
    assert.ok(
      lo > bandLow && hi < bandHigh,
      `${c.benchmark} ${c.metric} ${c.candidate.env}: [${lo}, ${hi}] within ±${c.threshold}`,
    );
  }
  // The examples docs/method.md quotes.
  const within = readWithinRun(r);
  const startup = within.find((c) => c.metric === 'startup.without_image_ms' && c.candidate.env === 'dind@20.10');
  assert.equal(startup && reading(startup), '+287% ▲ regression');
  // Outside the run's questions: described, its change and 95% interval, no outcome.
  const p50 = within.find((c) => c.metric === 'cpu.latency_p50_ms' && c.candidate.env === 'dind@20.10');
  assert.equal(p50 && reading(p50), '+0.0% ±3 described');
  const upgrade = readAb(r, 'dind@20.10', 'dind@26.1').find((c) => c.metric === 'startup.without_image_ms');
  assert.equal(upgrade && reading(upgrade), '+62% ±84 inconclusive (sees ≥ 81%)');
  assert.equal(upgrade?.samplesToDecide, 9);
});

test('--fail-on inconclusive on the real run: exit 8, naming the metric and what it could have seen', () => {
  const args = ['compare', FILE, '--baseline', 'dind@20.10', '--candidate', 'dind@26.1', '--fail-on', 'inconclusive'];
  const r = runCli(args);
  assert.equal(r.status, EXIT_INCONCLUSIVE, r.stderr);
  assert.match(
    r.stdout.replace(/\n {2}/g, ' '),
    /Gate: Inconclusive: 1 of 1 gated metrics could not be judged \(lifecycle startup\.without_image_ms on dind@26\.1\/debian\); it could not have seen changes under 81%\. The gate fails \(exit 8\)\./,
  );
  // Against Docker the same run's start-up is decided: a regression, exit 4 when asked to fail on it.
  const dind = runCli([
    'compare',
    FILE,
    '--baseline',
    'docker',
    '--candidate',
    'dind@20.10',
    '--fail-on',
    'inconclusive',
  ]);
  assert.equal(dind.status, 4, dind.stderr);
  assert.match(
    dind.stdout.replace(/\n {2}/g, ' ').split('\n')[0],
    // 0.570 s x 286.6% = 1.6 s: the sentence's numbers add up (its medians, 2.3 s and 0.57 s, would not).
    /^dind@20\.10 costs a job \+1\.6 s \[\+0\.57 s, \+3\.7 s\] to start against docker, before its images: \+286\.6% \[\+99\.6%, \+648\.6%\] of docker's median start, 0\.570 s \(regression\)/,
  );
});

test('10 samples a side of sysbench on a quiet machine: decided where the data can decide, and said where not', () => {
  // test/fixtures/results/decide-sysbench-10.json: docker and dind@20.10, 10 samples a side, 2026-11-27, load
  // average 1.7 on 2 cores (the A/A benchmark ran beside it). cpu.events_per_second in DinD is 3.1% slower (ratio of
  // geometric means), its interval (the single decision's, 90%: 5% each side) from +0.0% to +6.3%: within ±10% it is
  // proven equivalent, within ±5% (sysbench's default T) it reaches past T, and about 29 a side would decide it.
  const file = new URL('../fixtures/results/decide-sysbench-10.json', import.meta.url).pathname;
  const dir = tmpDir('sysbench-10');
  const config = path.join(dir, 't10.json');
  writeFileSync(config, JSON.stringify({ metrics: { 'sysbench/cpu.events_per_second': { threshold: 0.1 } } }));
  const gate = (/** @type {string} */ metric, /** @type {string[]} */ more = []) =>
    runCli([
      'compare',
      file,
      '--baseline',
      'docker',
      '--candidate',
      'dind@20.10',
      '--gate',
      `sysbench/${metric}`,
      '--fail-on',
      'inconclusive',
      ...more,
    ]);
  const at5 = gate('cpu.events_per_second');
  assert.equal(at5.status, EXIT_INCONCLUSIVE, at5.stderr);
  const row = readAb(JSON.parse(readFileSync(file, 'utf8')), 'docker', 'dind@20.10').find(
    (c) => c.metric === 'cpu.events_per_second',
  );
  assert.ok(row && row.outcome === 'inconclusive' && row.worse > 0.02 && row.worse < 0.04, `${row?.worse}`);
  assert.equal(row?.samplesToDecide, 29);
  const at10 = gate('cpu.events_per_second', ['--config', config]);
  assert.equal(at10.status, 0, at10.stdout);
  assert.match(
    at10.stdout.replace(/\n {2}/g, ' '),
    /Gate: Equivalent: every one of 1 gated metrics was decided, none regressed\. The gate passes\./,
  );
  assert.equal(gate('cpu.latency_p50_ms').status, 0);
});
