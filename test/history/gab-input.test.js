// The workflow's github-action-benchmark input (actions/publish/gab-input.sh, names `<job>: <bench>`) and
// `history import-gab` agree: the input of two jobs, put into a data.js the way that action stores it
// (one suite per `name:` input, one entry per commit, the file's benches as they are), imports back into
// one series per job and cell, each job a runner of its own, with the exported values. No engine needed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { formatDataJs, importGab, parseBenchName } from '../../src/history/gab.js';
import { openHistory } from '../../src/history/store.js';
import { FIXTURE, fixture, tmpDir } from './helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const JOBS = ['local-docker', 'local-interleaved'];

/** gab-input.sh on the fixture run as two jobs' results; returns its two files' entries. */
function workflowInput() {
  const results = tmpDir('gab-results');
  for (const job of JOBS) {
    mkdirSync(path.join(results, job));
    copyFileSync(FIXTURE, path.join(results, job, 'results.json'));
  }
  const out = tmpDir('gab-out');
  const r = spawnSync('bash', [path.join(ROOT, 'actions/publish/gab-input.sh')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DIND_BENCH_SUITE: ROOT, RESULTS: results, OUT: out },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  const read = (/** @type {string} */ kind) =>
    JSON.parse(readFileSync(path.join(out, `${kind}-is-better.json`), 'utf8'));
  return { smaller: read('smaller'), bigger: read('bigger') };
}

/** A data.js as github-action-benchmark writes it after one run of each of its two steps (bench.yml). */
function dataJs(/** @type {{smaller: any[], bigger: any[]}} */ input) {
  const commit = {
    id: 'c'.repeat(40),
    message: 'a commit',
    timestamp: '2026-11-20T10:00:00Z',
    url: `https://example.invalid/commit/${'c'.repeat(40)}`,
    author: { name: 'A', email: 'a@example.invalid', username: 'a' },
    committer: { name: 'A', email: 'a@example.invalid', username: 'a' },
  };
  const entry = (/** @type {string} */ tool, /** @type {any[]} */ benches) => [
    { commit, date: Date.parse('2026-11-20T11:00:00Z'), tool, benches },
  ];
  return {
    lastUpdate: Date.parse('2026-11-20T11:00:00Z'),
    repoUrl: 'https://example.invalid',
    entries: {
      'dind-bench (smaller is better)': entry('customSmallerIsBetter', input.smaller),
      'dind-bench (bigger is better)': entry('customBiggerIsBetter', input.bigger),
    },
  };
}

test('bench names: with or without a job, and names of other tools', () => {
  assert.deepEqual(parseBenchName('local-docker: sysbench cpu.events_per_second [dind@20.10/debian]'), {
    job: 'local-docker',
    benchmark: 'sysbench',
    metric: 'cpu.events_per_second',
    environmentKey: 'dind@20.10',
    distro: 'debian',
  });
  assert.equal(parseBenchName('lifecycle run.total_ms [docker/debian]')?.job, null);
  assert.equal(parseBenchName('BenchmarkFib20'), null);
  assert.equal(parseBenchName('two words: lifecycle run.total_ms [docker/debian]'), null, 'a job is one word');
});

test('gab-input.sh -> github-action-benchmark data.js -> import-gab: every bench back in its job and series', async () => {
  const input = workflowInput();
  const file = path.join(tmpDir('gab-data'), 'data.js');
  writeFileSync(file, formatDataJs(dataJs(input)));
  const dir = tmpDir('gab-hist');
  // One run per job and direction.
  assert.deepEqual(await importGab(dir, file), { added: 4, skipped: 0 });
  assert.deepEqual(await importGab(dir, file), { added: 0, skipped: 4 }, 're-importing adds nothing');

  const h = await openHistory(dir);
  const series = h.listSeries();
  assert.ok(
    series.every((s) => s.environmentKey !== 'imported'),
    'no bench of the workflow is filed as another tool',
  );
  assert.deepEqual([...new Set(series.map((s) => s.runner))].sort(), JOBS);
  const fingerprints = new Set(series.map((s) => s.fingerprint));
  assert.equal(fingerprints.size, 2, 'one machine per job, both directions on it');

  // Each job has every exported value, in the series of its cell.
  const ok = fixture().cells.filter((/** @type {any} */ c) => c.status === 'ok');
  for (const job of JOBS) {
    for (const [kind, better] of /** @type {const} */ ([
      ['smaller', 'lower'],
      ['bigger', 'higher'],
    ])) {
      const exported = input[kind].filter((/** @type {any} */ b) => b.name.startsWith(`${job}: `));
      assert.ok(exported.length > 0, `${job} ${kind}`);
      for (const b of exported) {
        const n = /** @type {NonNullable<ReturnType<typeof parseBenchName>>} */ (parseBenchName(b.name));
        const s = series.find(
          (x) =>
            x.runner === job &&
            x.benchmark === n.benchmark &&
            x.metric === n.metric &&
            x.environmentKey === n.environmentKey &&
            x.distro === n.distro,
        );
        assert.ok(s, `${b.name} has a series`);
        assert.equal(s.better, better);
        assert.equal(s.unit, b.unit);
        assert.deepEqual(
          (await h.readSeries(s.key)).map((p) => p.samples),
          [[b.value]],
        );
        assert.ok(
          ok.some(
            (/** @type {any} */ c) =>
              c.benchmark === n.benchmark && c.environmentKey === n.environmentKey && c.distro === n.distro,
          ),
          `${b.name} is a cell of the run`,
        );
      }
    }
  }
  assert.equal(series.length, input.smaller.length + input.bigger.length, 'one series per exported bench');
});
