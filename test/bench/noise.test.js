// bench:noise's arithmetic (bench/noise-table.js): the quick run's decision level from its own profile, an
// A/A read from one environment's samples, and the generated sections of docs/noise.md.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aaOf, cv, noiseTable, quickDecisionLevel, replaceSection } from '../../bench/noise-table.js';
import { decisionLevel } from '../../src/reading/index.js';

test("the quick run's level: its 11 questions (7 resources, 4 start-ups) over its 4 looks", () => {
  const l = quickDecisionLevel();
  assert.equal(l.decisions, 11);
  assert.equal(l.looks, 4);
  assert.deepEqual({ alpha: l.alpha, level: l.level }, decisionLevel(11, 4));
});

test('CV: sample standard deviation over the mean', () => {
  assert.equal(cv([1, 1, 1]), 0);
  assert.ok(Math.abs(cv([90, 110]) - (Math.SQRT2 * 10) / 100) < 1e-12);
  assert.ok(Number.isNaN(cv([5])));
});

test('an A/A: odd rounds against even rounds; quieter samples need fewer samples a side', () => {
  const level = quickDecisionLevel().level;
  const quiet = aaOf([100, 101, 99, 100, 102, 98, 100, 101], 'higher', level);
  const noisy = aaOf([100, 130, 80, 115, 90, 120, 70, 105], 'higher', level);
  assert.equal(quiet.n, 8);
  assert.ok(quiet.low !== null && quiet.high !== null && quiet.low < 1 && quiet.high > 1);
  assert.equal(quiet.toDecide5, 5, 'at 1% per sample the first look decides ±5%');
  assert.ok(noisy.toDecide5 !== null && noisy.toDecide5 > 100, `noisy: ${noisy.toDecide5}`);
  assert.ok(/** @type {number} */ (noisy.toDecide10) < /** @type {number} */ (noisy.toDecide5));
  // Too few to read an interval: the CV still, no samples figure.
  const few = aaOf([1, 2, 3], 'lower', level);
  assert.equal(few.toDecide5, null);
  assert.equal(few.ratio, null);
});

test("the table escapes what it prints; a section is replaced in place, others' text kept", () => {
  const table = noiseTable([
    {
      variant: 'a|b',
      benchmark: 'iozone',
      metric: 'write_mib_per_s',
      environment: 'docker',
      n: 8,
      cv: 0.031,
      ratio: 1.01,
      low: 0.97,
      high: 1.05,
      toDecide5: 9,
      toDecide10: null,
      secondsPerSample: 1.234,
      loadBefore: [1, 2, 3],
      loadAfter: [0.5, 1, 2],
      params: null,
      mean: 512.3,
      unit: 'MiB/s',
    },
  ]);
  const row = table.split('\n')[2];
  assert.match(row, /^\| a b \| iozone \| `write_mib_per_s` \| docker \| 8 \| 512\.3 MiB\/s \| 3\.1% \|/);
  assert.match(
    row,
    /\| 1\.010 \[0\.970, 1\.050\] \| 9 \| > 10,000 \| 1\.23 \| 1\.00 2\.00 3\.00 → 0\.50 1\.00 2\.00 \|$/,
  );
  const doc = replaceSection('# T\n\nprose\n', 'quiet', 'one');
  assert.equal(doc, '# T\n\nprose\n\n<!-- noise:quiet -->\none\n<!-- /noise:quiet -->\n');
  const again = replaceSection(`${doc}\nmore prose\n`, 'quiet', 'two');
  assert.equal(again, '# T\n\nprose\n\n<!-- noise:quiet -->\ntwo\n<!-- /noise:quiet -->\n\nmore prose\n');
});
