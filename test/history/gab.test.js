// github-action-benchmark data.js: export a history, import it into a new one (same series, same
// medians), import a file written by that action for another tool, and refuse malformed files.
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { exportGab, formatDataJs, importGab } from '../../src/history/gab.js';
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
  assert.deepEqual(med2, med1);
});

test("a data.js of another tool is imported as series of environment 'imported'; the site has an overview", async () => {
  const file = path.join(tmpDir('gab'), 'data.js');
  const entry = (/** @type {number} */ date, /** @type {number} */ v) => ({
    commit: { author: { name: 'a' }, id: `c0ffee${date}`, message: 'm', timestamp: new Date(date).toISOString(), url: '' },
    date, tool: 'go', benches: [{ name: 'BenchmarkFib20', value: v, unit: 'ns/op', extra: '10000 times' }],
  });
  writeFileSync(file, `window.BENCHMARK_DATA = ${JSON.stringify({ lastUpdate: 1, repoUrl: '', entries: { 'Go Benchmark': [entry(1763700000000, 25000), entry(1763786400000, 26000)] } })}`);
  const dir = tmpDir('hist');
  assert.deepEqual(await importGab(dir, file), { added: 2, skipped: 0 });
  const h = await openHistory(dir);
  const [s] = h.listSeries();
  assert.deepEqual({ benchmark: s.benchmark, metric: s.metric, env: s.environmentKey, better: s.better, unit: s.unit },
    { benchmark: 'Go Benchmark', metric: 'BenchmarkFib20', env: 'imported', better: 'lower', unit: 'ns/op' });
  assert.deepEqual((await h.readSeries(s.key)).map((p) => p.samples), [[25000], [26000]]);
  assert.equal(Object.keys((await h.latest()).runners).length, 1);
});

test('a malformed data.js is refused with the file and the problem, and nothing is written', async () => {
  const dir = tmpDir('hist');
  const cases = [
    ['var x = {}', /does not start with `window.BENCHMARK_DATA =`/],
    ['window.BENCHMARK_DATA = {"entries": ', /not valid JSON/],
    ['window.BENCHMARK_DATA = {"entries": {"s": [{"date": 1, "commit": {"id": "x"}, "benches": [{"name": "n", "value": "fast"}]}]}}', /entries\["s"\]\[0\]\.benches\[0\] lacks a name or a numeric value/],
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
