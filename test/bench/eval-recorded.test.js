// The evaluation's recorded noise models (bench/eval/noise-models.js) and the tool that extracts them from
// real results (bench/eval/extract-recorded.js): a series needs runs enough to measure its between-run
// spread, and a set can gain runs without losing those it has.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MIN_RECORDED_RUNS, recordedModels, recordedTooFew } from '../../bench/eval/noise-models.js';
import { median, seededRandom } from '../../src/stats/index.js';

/** A run of set `set` holding series `metric` (container.create_ms of docker) with these samples. */
const run = (/** @type {string} */ set, /** @type {string} */ metric, /** @type {number[]} */ samples) => ({
  set,
  runId: `${set}-${metric}-${samples[0]}`,
  series: [{ benchmark: 'lifecycle', environmentKey: 'docker', distro: 'debian', metric, better: 'lower', samples }],
});

test('recorded models: a series recorded once has no model and is named; the others get their measured spread', () => {
  assert.equal(MIN_RECORDED_RUNS, 2);
  const recorded = {
    runs: [
      run('loaded', 'container.create_ms', [10, 20, 30]),
      run('quiet', 'container.create_ms', [9, 10, 11]),
      run('quiet', 'container.create_ms', [18, 20, 22]),
      run('quiet', 'container.start_ms', [100, 101, 102]),
      run('quiet', 'container.start_ms', [100.5, 101, 101.5]),
    ],
  };
  assert.deepEqual(recordedTooFew(recorded), ['loaded: lifecycle container.create_ms docker']);
  const models = recordedModels(recorded);
  assert.deepEqual(
    models.map((m) => m.name),
    ['recorded, quiet: lifecycle container.create_ms docker', 'recorded, quiet: lifecycle container.start_ms docker'],
  );
  // medians 10 and 20: the sd of their logs is ln(2) / sqrt(2), 49.0%; equal medians get the 1% floor
  assert.match(models[0].description, /^2 recorded run\(s\) of 3 samples, resampled; between-run sd 49\.0%$/);
  assert.match(models[1].description, /between-run sd 1\.0%$/);
  // a run of the model is a resample of one recorded run's shape around a level between the two medians
  const random = seededRandom(7);
  const levels = Array.from({ length: 4000 }, () => Math.log(median(models[0].run(random, 3))));
  const mean = levels.reduce((a, b) => a + b, 0) / levels.length;
  assert.ok(Math.abs(mean - Math.log(Math.sqrt(10 * 20))) < 0.05, `mean log level ${mean}`);
});

test('extract-recorded --append: a set gains runs and keeps those it had; without it the set is replaced', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-extract-'));
  const results = (/** @type {string} */ id, /** @type {number[]} */ samples) => {
    const file = path.join(dir, `${id}.json`);
    const cell = {
      benchmark: 'lifecycle',
      environmentKey: 'docker',
      distro: 'debian',
      status: 'ok',
      metrics: [{ metric: 'container.create_ms', unit: 'ms', better: 'lower', samples }],
    };
    const doc = {
      run: {
        id,
        startedAt: '2026-11-27T09:00:00.000Z',
        args: { bench: ['lifecycle'], iterations: 20, config: { lifecycle: { image: 'x' } }, out: 'o' },
      },
      host: { cpuModel: 'cpu', cores: 2, kernel: 'k', fingerprint: 'f' },
      engines: { outer: { version: '20.10.24' } },
      cells: [cell],
    };
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };
  const script = new URL('../../bench/eval/extract-recorded.js', import.meta.url).pathname;
  const extract = (/** @type {string[]} */ args) =>
    JSON.parse(
      execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    );
  const into = path.join(dir, 'recorded.json');
  writeFileSync(into, JSON.stringify(extract(['--set', 'busy', '--note', 'first', results('a', [1, 2, 3])])));
  const appended = extract(['--set', 'busy', '--note', 'two runs', '--into', into, '--append', results('b', [4, 5])]);
  assert.deepEqual(
    appended.runs.map((/** @type {any} */ r) => r.runId),
    ['a', 'b'],
  );
  assert.equal(appended.sets.busy, 'two runs');
  // the options as given, an object of parameter overrides as JSON, the output folder left out
  assert.equal(
    appended.runs[1].command,
    'dind-bench run --bench lifecycle --iterations 20 --config {"lifecycle":{"image":"x"}}',
  );
  const replaced = extract(['--set', 'busy', '--note', 'again', '--into', into, results('c', [6])]);
  assert.deepEqual(
    replaced.runs.map((/** @type {any} */ r) => r.runId),
    ['c'],
  );
  // --append needs a file to append to
  assert.throws(
    () => extract(['--set', 'busy', '--note', 'x', '--append', results('d', [7])]),
    /usage: node bench\/eval\/extract-recorded\.js/,
  );
});
