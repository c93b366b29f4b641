// github-action-benchmark data.js: export a history, import it into a new one (same series, same
// medians), import the data.js that action itself wrote (test/fixtures/gab, see its README), names of
// another tool's benchmarks, and refuse malformed files.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { exportGab, formatDataJs, importGab, parseDataJs } from '../../src/history/gab.js';
import { halfWidth, roundToInterval } from '../../src/stats/display.js';
import { openHistory } from '../../src/history/store.js';
import { tmpDir, variant } from './helpers.js';

test('export to data.js and import back: the same series and medians', async () => {
  const dir = tmpDir('hist');
  const runs = tmpDir('runs');
  await publishRun(dir, variant(runs, { id: 'a', startedAt: '2026-11-01T02:00:00.000Z' }));
  await publishRun(dir, variant(runs, { id: 'b', startedAt: '2026-11-02T02:00:00.000Z', scale: 1.1 }));
  const data = await exportGab(dir, { repoUrl: 'https://example.invalid/repo' });
  const file = path.join(tmpDir('gab'), 'data.js');
  writeFileSync(file, formatDataJs(data));
  const suites = Object.keys(data.entries);
  assert.equal(suites.length, 2, 'one suite per direction');
  assert.ok(suites.some((s) => s.endsWith('smaller is better')));

  const back = tmpDir('hist2');
  assert.deepEqual(await importGab(back, file), { added: 4, skipped: 0 });
  assert.deepEqual(await importGab(back, file), { added: 0, skipped: 4 }, 're-importing adds nothing');
  const h1 = await openHistory(dir);
  const h2 = await openHistory(back);
  const name = (/** @type {any} */ s) => `${s.benchmark}|${s.metric}|${s.environmentKey}|${s.distro}|${s.better}`;
  assert.deepEqual(h2.listSeries().map(name).sort(), h1.listSeries().map(name).sort());
  const s1 = h1.listSeries().find((s) => s.metric === 'cpu.events_per_second' && s.environmentKey === 'docker');
  const s2 = h2.listSeries().find((s) => s.metric === 'cpu.events_per_second' && s.environmentKey === 'docker');
  const med1 = (await h1.readSeries(s1?.key ?? '')).map((p) => p.summary?.median);
  const med2 = (await h2.readSeries(s2?.key ?? '')).map((p) => p.samples[0]);
  // Exported medians are rounded to what their interval supports, never to fewer than 3 significant digits.
  assert.equal(med2.length, med1.length);
  med2.forEach((m, i) =>
    assert.ok(Math.abs(m - Number(med1[i])) <= Math.abs(Number(med1[i])) * 0.005, `${m} vs ${med1[i]}`),
  );
});

// Written by github-action-benchmark v1.22.0's own code from `compare --export-gab` of the quick run.
const REAL_DATA_JS = new URL('../fixtures/gab/data.js.txt', import.meta.url).pathname;

test('the data.js github-action-benchmark wrote from our export: every bench back in its series, both commits', async () => {
  const dir = tmpDir('hist');
  // Two suites (smaller and bigger is better), two commits each.
  assert.deepEqual(await importGab(dir, REAL_DATA_JS), { added: 4, skipped: 0 });
  assert.deepEqual(await importGab(dir, REAL_DATA_JS), { added: 0, skipped: 4 }, 're-importing adds nothing');
  const h = await openHistory(dir);
  const series = h.listSeries();
  assert.equal(series.length, 79 + 39, 'one series per bench name');
  assert.ok(
    series.every((s) => s.environmentKey !== 'imported'),
    'every name is one dind-bench exported',
  );
  // The metric that action raised its alert on: 1.7 ms, then 5.1 ms with commit 2222...
  const latency = series.find(
    (s) => s.benchmark === 'sysbench' && s.metric === 'cpu.latency_avg_ms' && s.environmentKey === 'docker',
  );
  assert.deepEqual(
    { distro: latency?.distro, unit: latency?.unit, better: latency?.better },
    { distro: 'debian', unit: 'ms', better: 'lower' },
  );
  const points = await h.readSeries(String(latency?.key));
  assert.deepEqual(
    points.map((p) => [p.commit?.slice(0, 4), p.samples]),
    [
      ['1111', [1.7]],
      ['2222', [5.1]],
    ],
  );
  const events = series.find((s) => s.metric === 'cpu.events_total' && s.environmentKey === 'docker');
  assert.equal(events?.better, 'higher');
  assert.deepEqual(
    (await h.readSeries(String(events?.key))).map((p) => p.samples),
    [[603], [201]],
  );
  assert.equal(Object.keys((await h.latest()).runners).length, 2, 'each suite has an overview for the site');
});

test("another tool's bench names (the same real file, names changed) become series of environment 'imported'", async () => {
  const real = readFileSync(REAL_DATA_JS, 'utf8');
  const doc = JSON.parse(real.replace(/^window\.BENCHMARK_DATA = /, ''));
  const suite = doc.entries['dind-bench smaller'];
  for (const e of suite)
    e.benches = e.benches.slice(0, 1).map((/** @type {any} */ b) => ({ ...b, name: 'BenchmarkFib20', unit: 'ns/op' }));
  const file = path.join(tmpDir('gab'), 'data.js');
  writeFileSync(file, `window.BENCHMARK_DATA = ${JSON.stringify({ ...doc, entries: { 'Go Benchmark': suite } })}`);
  const dir = tmpDir('hist');
  assert.deepEqual(await importGab(dir, file), { added: 2, skipped: 0 });
  const h = await openHistory(dir);
  const [s] = h.listSeries();
  assert.deepEqual(
    { benchmark: s.benchmark, metric: s.metric, env: s.environmentKey, better: s.better, unit: s.unit },
    { benchmark: 'Go Benchmark', metric: 'BenchmarkFib20', env: 'imported', better: 'lower', unit: 'ns/op' },
  );
  assert.deepEqual(
    (await h.readSeries(s.key)).map((p) => p.samples),
    suite.map((/** @type {any} */ e) => [e.benches[0].value]),
  );
  assert.equal(Object.keys((await h.latest()).runners).length, 1);
});

test('a malformed data.js is refused with the file and the problem, and nothing is written', async () => {
  const dir = tmpDir('hist');
  const cases = [
    ['var x = {}', /does not start with `window.BENCHMARK_DATA =`/],
    ['window.BENCHMARK_DATA = {"entries": ', /not valid JSON/],
    [
      'window.BENCHMARK_DATA = {"entries": {"s": [{"date": 1, "commit": {"id": "x"}, "benches": [{"name": "n", "value": "fast"}]}]}}',
      /entries\["s"\]\[0\]\.benches\[0\] lacks a name or a numeric value/,
    ],
  ];
  for (const [text, message] of cases) {
    const file = path.join(tmpDir('gab'), 'data.js');
    writeFileSync(file, /** @type {string} */ (text));
    await assert.rejects(importGab(dir, file), (e) => {
      assert.match(/** @type {Error} */ (e).message, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `));
      assert.match(/** @type {Error} */ (e).message, /** @type {RegExp} */ (message));
      return true;
    });
  }
  assert.deepEqual(readdirSync(dir), []);
});

/** Every leaf path of an object with its type: "author.username:string". @param {any} o @param {string} [at] @returns {string[]} */
const shape = (o, at = '') =>
  Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? shape(v, `${at}${k}.`) : [`${at}${k}:${typeof v}`],
  );

test("export-gab commits have every field that action's own data.js has, people included; values rounded, range '± x'", async () => {
  const real = parseDataJs(readFileSync(REAL_DATA_JS, 'utf8'), REAL_DATA_JS);
  const realEntry = Object.values(real.entries)[0][0];
  const dir = tmpDir('hist');
  const runs = tmpDir('runs');
  const withCaller = JSON.parse(
    readFileSync(variant(runs, { id: 'a', startedAt: '2026-11-01T02:00:00.000Z' }), 'utf8'),
  );
  withCaller.caller = {
    repository: 'acme/app',
    commit: 'a'.repeat(40),
    ref: 'refs/heads/main',
    author: { name: 'Ada', email: 'ada@example.com', username: 'ada' },
    committer: null,
  };
  const file = path.join(runs, 'with-caller.json');
  writeFileSync(file, JSON.stringify(withCaller));
  await publishRun(dir, file);
  await publishRun(dir, variant(runs, { id: 'b', startedAt: '2026-11-02T02:00:00.000Z', scale: 1.0001 }));
  const data = await exportGab(dir, { repoUrl: 'https://example.invalid/repo' });
  // What that action's page reads in every tooltip (commit.committer.username) and what its own file holds.
  const wanted = shape(realEntry.commit).filter((k) => !/^(distinct|tree_id):/.test(k));
  for (const entries of Object.values(data.entries)) {
    for (const e of entries) {
      const have = shape(e.commit);
      for (const k of wanted) assert.ok(have.includes(k), `commit lacks ${k}: ${JSON.stringify(e.commit)}`);
      assert.equal(typeof e.commit.committer.username, 'string');
      for (const b of e.benches) {
        assert.ok(Number(b.value.toPrecision(6)) === b.value, `${b.name}: ${b.value} has float noise`);
        if (b.range) assert.match(b.range, /^± \d+(\.\d+)?(e[-+]\d+)?$/, b.name);
        assert.match(b.extra, /^95% CI \S+ \.\. \S+; median of \d+ samples/);
      }
    }
  }
  const [first] = Object.values(data.entries);
  assert.deepEqual(first[0].commit.author, { name: 'Ada', email: 'ada@example.com', username: 'ada' });
  assert.deepEqual(first[0].commit.committer, first[0].commit.author, 'no committer recorded: the author stands in');
  assert.equal(first[1].commit.committer.username, 'unknown', 'a run without a recorded caller still has a committer');
  // Every bench of the real file carries a range in the `± x` form or none, and so do ours.
  assert.ok(
    Object.values(data.entries)
      .flat()
      .some((e) => e.benches.some((/** @type {any} */ b) => b.range)),
  );
});

test("import of that action's own data.js and export again: its commits' people survive", async () => {
  const dir = tmpDir('hist');
  const r = await importGab(dir, REAL_DATA_JS);
  assert.ok(r.added >= 2);
  const data = await exportGab(dir);
  const commits = Object.values(data.entries)
    .flat()
    .map((e) => e.commit);
  assert.ok(commits.length >= 2);
  for (const c of commits) {
    assert.deepEqual(c.committer, {
      name: 'Example Committer',
      email: 'committer@example.com',
      username: 'example-committer',
    });
    assert.equal(c.author.username, 'example-committer');
  }
});

test('halfWidth and roundToInterval: the digits an interval supports, 3 to 6 significant digits', () => {
  const cases = [
    [855.2189999999999, 843, 867.5, 12, 855],
    [4.386, 3.957, 6.808, 2.4, 4.39],
    [285.073, 200.474, 357.707, 85, 285],
    [0.4271234, 0.4270001, 0.4272999, 0.00018, 0.42712],
    [123456.789, 123456.789, 123456.789, 0, 123457],
    [1e-7 * 1.23456789, 1e-7, 1.5e-7, 2.7e-8, 1.23e-7],
  ];
  for (const [v, lo, hi, half, rounded] of cases) {
    assert.equal(halfWidth(v, lo, hi), half, `halfWidth(${v})`);
    assert.equal(roundToInterval(v, halfWidth(v, lo, hi)), rounded, `roundToInterval(${v})`);
  }
});
