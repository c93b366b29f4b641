// A workload's sample shards merged (`dind-bench merge`, pooled): each shard ran every environment with a
// share of the samples, and the merged run holds each cell once with every shard's samples in shard order,
// says it came from that many runners, and is read from all of them. No engine: the fixture run as two shards.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { MergeError, mergeShards } from '../../src/results/merge.js';
import { readRun } from '../../src/reading/read-run.js';
import { fixture, tmpDir } from '../history/helpers.js';
import { runCli } from '../helpers/run-cli.js';

/** The fixture run as two sample shards: the same cells, ids and runners of their own. */
function sampleShards() {
  return ['shard-a', 'shard-b'].map((id, i) => {
    const r = fixture();
    r.run.id = id;
    r.runner.name = `runner-${i + 1}`;
    // The second shard measured otherwise: its samples told apart from the first's.
    for (const c of r.cells)
      for (const m of c.metrics) m.samples = m.samples.map((/** @type {number} */ x) => x + i * 1000);
    return { file: `/shards/${id}/results.json`, results: r };
  });
}

test('sample shards pooled: each cell once, its samples every shard’s in shard order, said in the reading', () => {
  const shards = sampleShards();
  assert.throws(() => mergeShards(sampleShards()), MergeError, 'unpooled, a cell in two shards is refused');
  const m = mergeShards(shards, { pool: true });
  assert.equal(m.cells.length, fixture().cells.length);
  const f = fixture();
  for (const [i, c] of m.cells.entries()) {
    for (const [k, metric] of c.metrics.entries()) {
      const one = f.cells[i].metrics[k].samples;
      assert.deepEqual(metric.samples, [...one, ...one.map((/** @type {number} */ x) => x + 1000)]);
      assert.deepEqual(metric.warmup, [...f.cells[i].metrics[k].warmup, ...f.cells[i].metrics[k].warmup]);
    }
  }
  assert.equal(m.run.pooled, true);
  assert.equal(m.run.iterations, 2 * f.run.iterations);
  assert.equal(m.run.order, 'interleaved', 'each shard interleaved every environment');
  assert.deepEqual(
    m.run.shards?.map((s) => s.runner),
    ['runner-1', 'runner-2'],
  );
  const reading = readRun(m);
  assert.ok(
    reading.caveats.some((c) => /^Samples came from 2 runners .*every interval pools them all\.$/.test(c)),
    reading.caveats.join('\n'),
  );
  const q = reading.questions.find((x) => x.change);
  assert.ok(q);
  assert.equal(q.samples.candidate, 2 * f.run.iterations, 'the interval is read from every sample');
  assert.ok(!readRun(mergeShards([shards[0]], { pool: true })).caveats.some((c) => /runners/.test(c)));
  // Shards that do not hold the same cells are not sample shards.
  const fewer = sampleShards();
  fewer[1].results.cells = fewer[1].results.cells.slice(1);
  assert.throws(() => mergeShards(fewer, { pool: true }), /sample shards must each hold the same cells/);
});

test('merge --matrix pools the groups of sample shards only (split: samples)', () => {
  const dir = tmpDir('pool');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const shards = sampleShards();
  for (const [i, s] of shards.entries()) {
    const d = path.join(dir, 'shards', `shard-lab-workload-${i + 1}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'results.json'), JSON.stringify(s.results));
  }
  const job = (/** @type {number} */ k) => ({ id: `lab-workload-${k}`, group: 'lab-workload', split: 'samples' });
  const out = path.join(dir, 'results');
  const r = runCli(
    ['merge', '--matrix', JSON.stringify({ include: [job(1), job(2)] }), '--out', out, path.join(dir, 'shards')],
    {
      env: { ...process.env, GITHUB_ACTIONS: '' },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  const merged = JSON.parse(readFileSync(path.join(out, 'lab-workload', 'results.json'), 'utf8'));
  assert.equal(merged.run.pooled, true);
  assert.equal(merged.cells[0].metrics[0].samples.length, 2 * fixture().run.iterations);
  assert.match(readFileSync(path.join(out, 'lab-workload', 'report.md'), 'utf8'), /Samples came from 2 runners/);
  // The same shards as a group of benchmark shards: refused as a cell measured twice.
  const plain = runCli(
    [
      'merge',
      '--matrix',
      JSON.stringify({ include: [1, 2].map((k) => ({ ...job(k), split: undefined })) }),
      '--out',
      path.join(dir, 'plain'),
      path.join(dir, 'shards'),
    ],
    { env: { ...process.env, GITHUB_ACTIONS: '' } },
  );
  assert.equal(plain.status, 1);
  assert.match(plain.stderr, /is in two shards/);
});
