// The four outcomes on a real quick run (test/fixtures/results/decide-quick-5.json: lifecycle and sysbench,
// docker, dind@20.10 and dind@26.1, 5 samples a side, 2026-11-27 on a 2-core VM with other work running),
// the run docs/method.md quotes its examples from. The first "done when": no gated comparison whose
// interval reaches beyond ±T is called equivalent, and `--fail-on inconclusive` exits non-zero naming the
// inconclusive metrics and what they could have seen.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { equivalenceBand, reading, worseInterval } from '../../src/model/change.js';
import { readAb, readWithinRun } from '../../src/reading/index.js';
import { EXIT_INCONCLUSIVE } from '../../src/reading/gate.js';
import { BIN } from '../history/helpers.js';

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
  const startup = within.find((c) => c.metric === 'startup.total_ms' && c.candidate.env === 'dind@20.10');
  assert.equal(startup && reading(startup), '+1,253% ▲ regression');
  const p50 = within.find((c) => c.metric === 'cpu.latency_p50_ms' && c.candidate.env === 'dind@20.10');
  assert.equal(p50 && reading(p50), '+0.0% ±3 equivalent (±5%)');
  const upgrade = readAb(r, 'dind@20.10', 'dind@26.1').find((c) => c.metric === 'startup.total_ms');
  assert.equal(upgrade && reading(upgrade), '+20% ±70 inconclusive (sees ≥ 88%)');
  assert.equal(upgrade?.samplesToDecide, 47);
});

test('--fail-on inconclusive on the real run: exit 8, naming the metric and what it could have seen', () => {
  const args = [
    BIN,
    'compare',
    FILE,
    '--baseline',
    'dind@20.10',
    '--candidate',
    'dind@26.1',
    '--fail-on',
    'inconclusive',
  ];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  assert.equal(r.status, EXIT_INCONCLUSIVE, r.stderr);
  assert.match(
    r.stdout.replace(/\n {2}/g, ' '),
    /Gate: Inconclusive: 1 of 1 gated metrics could not be judged \(lifecycle startup\.total_ms on dind@26\.1\/debian\); it could not have seen changes under 88%\. The gate fails \(exit 8\)\./,
  );
  // Against Docker the same run's start-up is decided: a regression, exit 4 when asked to fail on it.
  const dind = spawnSync(
    process.execPath,
    [BIN, 'compare', FILE, '--baseline', 'docker', '--candidate', 'dind@20.10', '--fail-on', 'inconclusive'],
    { encoding: 'utf8' },
  );
  assert.equal(dind.status, 4, dind.stderr);
  assert.match(
    dind.stdout.split('\n')[0],
    /^dind@20\.10 costs a job \+7\.1 s \[\+3\.5 s, \+16\.3 s\] to start against docker \(7\.7 s vs 0\.57 s, regression\)/,
  );
});
