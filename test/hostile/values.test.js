// Bad values in input files: numbers JSON cannot hold, nesting built to overflow a stack, arrays and
// files built to exhaust time or memory, dates far in the future. Each is refused before parsing or
// before anything is written, with the file, the place in it and what is wrong.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkAppend, publishRun } from '../../src/history/append.js';
import { pointsOf, runInfo } from '../../src/history/points.js';
import { importGab } from '../../src/history/gab.js';
import { cli, fixture, smallRun, snapshot, tmpDir } from './helpers.js';

test('1e999 is refused with its place (JSON would write it back as null)', async () => {
  const dir = tmpDir('values');
  const file = path.join(tmpDir('runs'), 'inf.json');
  const r = fixture();
  writeFileSync(file, JSON.stringify(r).replace(/"samples":\[[^\]]*\]/, '"samples":[1e999]'));
  await assert.rejects(
    publishRun(dir, file),
    /inf\.json: the results file holds a number too large for a double at \/cells\/0\/metrics\/0\/samples\/0/,
  );
  assert.deepEqual(readdirSync(dir), []);
});

test('100,000-deep nesting is refused before parsing, quickly', async () => {
  const dir = tmpDir('values');
  const file = path.join(tmpDir('runs'), 'deep.json');
  writeFileSync(file, `{"schemaVersion": 1, "x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
  const t0 = performance.now();
  await assert.rejects(
    publishRun(dir, file),
    /deep\.json: the results file nests arrays and objects more than 64 deep \(at character 89\)/,
  );
  assert.ok(performance.now() - t0 < 2000);
  assert.deepEqual(readdirSync(dir), []);
});

test('a million samples are refused by the schema in well under the 3 minutes they took', async () => {
  const dir = tmpDir('values');
  const file = smallRun(tmpDir('runs'), 'huge', {
    edit: (r) => (r.cells[0].metrics[0].samples = new Array(1_000_000).fill(1.5)),
  });
  const t0 = performance.now();
  await assert.rejects(publishRun(dir, file), /\/cells\/0\/metrics\/0\/samples must NOT have more than 10000 items/);
  assert.ok(performance.now() - t0 < 10_000, `${performance.now() - t0} ms`);
  assert.deepEqual(readdirSync(dir), []);
});

test('a file over 64 MiB is refused by its size, unread', async () => {
  const file = path.join(tmpDir('runs'), 'big.json');
  writeFileSync(file, '');
  truncateSync(file, 65 * 1024 * 1024); // sparse: costs no disk
  await assert.rejects(
    publishRun(tmpDir('values'), file),
    /big\.json: the results file is 68157440 bytes; at most 67108864 are read/,
  );
});

test('a run dated 2999 is refused (it would stay "latest" forever), the history unchanged', async () => {
  const dir = tmpDir('values');
  const runs = tmpDir('runs');
  await publishRun(dir, smallRun(runs, 'now', { startedAt: new Date(Date.now() - 3600_000).toISOString() }));
  const before = snapshot(dir);
  const future = smallRun(runs, 'future', { startedAt: '2999-01-01T00:00:00.000Z' });
  await assert.rejects(
    publishRun(dir, future),
    /future\.json: the run start time "2999-01-01T00:00:00.000Z" is more than a day after this machine's clock .*check the clock/,
  );
  assert.deepEqual(snapshot(dir), before);
  const ancient = smallRun(runs, 'ancient', { startedAt: '1970-01-01T00:00:00.000Z' });
  await assert.rejects(publishRun(dir, ancient), /is before 2000/);
});

test('import-gab: a date of 1e20 is named with its entry, nothing imported (also not the good entries before it)', async () => {
  const dir = tmpDir('values');
  const file = path.join(tmpDir('gab'), 'data.js');
  const entry = (/** @type {number} */ date) => ({
    commit: { id: `c${date}` },
    date,
    tool: 'go',
    benches: [{ name: 'B', value: 1, unit: 'ns' }],
  });
  writeFileSync(
    file,
    `window.BENCHMARK_DATA = ${JSON.stringify({ entries: { s: [entry(1763700000000), entry(1e20)] } })}`,
  );
  await assert.rejects(
    importGab(dir, file),
    /data\.js: entries\["s"\]\[1\]\.date 100000000000000000000 is not a date; nothing was written/,
  );
  assert.deepEqual(readdirSync(dir), []);
  assert.ok(readFileSync(file, 'utf8').length > 0);
});

/**
 * A small file that fans out: `cells` copies of the first cell, each with `metrics` one-sample metrics,
 * every (cell, metric) a series of its own.
 * @param {string} name @param {number} cells @param {number} metrics
 */
function fanOut(name, cells, metrics) {
  return smallRun(tmpDir('runs'), name, {
    edit: (r) => {
      const [cell] = r.cells;
      const [metric] = cell.metrics;
      r.cells = Array.from({ length: cells }, (_, i) => ({
        ...cell,
        benchmark: `b${i}`,
        metrics: Array.from({ length: metrics }, (_, j) => ({ ...metric, metric: `m${j}`, samples: [1] })),
      }));
    },
  });
}

test('amplification: a small file with thousands of tiny series is refused by its size in series, cells and metrics', async () => {
  const dir = tmpDir('values');
  await publishRun(dir, smallRun(tmpDir('runs'), 'real'));
  const before = snapshot(dir);
  const cases = [
    // 100 x 60 = 6,000 series of one sample: about 2 MB of JSON, 6,000 shards and 30,000 folders.
    [fanOut('series', 100, 60), /6000 series in one run \(each a file in the history\); at most 5000 per publish/],
    [fanOut('cells', 2001, 1), /2001 cells; at most 2000 per publish/],
    [fanOut('metrics', 1, 201), /cell 0 has 201 metrics; at most 200 per cell/],
  ];
  for (const [file, message] of cases) {
    const t0 = performance.now();
    await assert.rejects(publishRun(dir, /** @type {string} */ (file)), (e) => {
      assert.match(String(e), /** @type {RegExp} */ (message));
      assert.match(String(e), /nothing was written\. .*published in parts/);
      return true;
    });
    assert.ok(performance.now() - t0 < 10_000, `${performance.now() - t0} ms`);
  }
  assert.deepEqual(snapshot(dir), before, 'the history is unchanged');
  // At the bound a run passes every check (publishing its 5,000 files would take the test 20 s).
  const results = JSON.parse(readFileSync(fanOut('ok', 100, 50), 'utf8'));
  const points = pointsOf(results);
  assert.equal(points.length, 5000);
  checkAppend({ where: 'ok.json', run: runInfo(results), points, provenance: results });
});

test('--retain-months out of range is refused before publishing, naming the range', async () => {
  const dir = tmpDir('values');
  const file = smallRun(tmpDir('runs'), 'r');
  for (const n of ['100000000000', '1201', '0', '1.5']) {
    const r = await cli(['publish', file, '--history', dir, '--retain-months', n]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /--retain-months|retain-months/, r.stderr);
    assert.match(r.stderr, /1 to 1200|at least 1/, r.stderr);
    assert.doesNotMatch(r.stderr, /Invalid time value/);
    assert.deepEqual(readdirSync(dir), [], `${n}: nothing published`);
  }
  const ok = await cli(['publish', file, '--history', dir, '--retain-months', '1200']);
  assert.equal(ok.code, 0, ok.stderr);
});
