// The history store through its public surface: publish real results, read series back, refuse
// corrupt or foreign histories without touching them, store a re-published run once, and never lose a
// run to a concurrent publish (real child processes).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, promises as fs, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { durability } from '../../src/history/files.js';
import { runPath } from '../../src/history/layout.js';
import { archiveOldShards } from '../../src/history/retention.js';
import { HistoryError, openHistory, seriesKey } from '../../src/history/store.js';
import { BIN, FIXTURE, fixture, tmpDir, variant } from './helpers.js';

/** Every file under `dir` with a hash of its content: "nothing changed" is this map staying equal. @param {string} dir */
function snapshotFiles(dir) {
  /** @type {Record<string, string>} */
  const out = {};
  const walk = (/** @type {string} */ d) => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out[path.relative(dir, p)] = createHash('sha1').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

test('publish a real run, then read every series back with its samples and provenance', async () => {
  const dir = path.join(tmpDir('hist'), 'history');
  const run = fixture();
  const r = await publishRun(dir, FIXTURE);
  assert.equal(r.duplicate, false);
  const okMetrics = run.cells
    .filter((/** @type {any} */ c) => c.status === 'ok')
    .reduce((n, /** @type {any} */ c) => n + c.metrics.length, 0);
  assert.equal(r.points, okMetrics);

  const h = await openHistory(dir);
  const series = h.listSeries();
  assert.equal(series.length, okMetrics);
  const key = seriesKey({
    fingerprint: run.host.fingerprint,
    benchmark: 'lifecycle',
    metric: 'daemon.start_to_ready_ms',
    environmentKey: 'dind@20.10',
    distro: 'debian',
  });
  const info = series.find((s) => s.key === key);
  assert.ok(info, 'the DinD daemon start series is listed');
  assert.deepEqual(
    { unit: info.unit, better: info.better, runner: info.runner },
    { unit: 'ms', better: 'lower', runner: run.runner.name },
  );
  const points = await h.readSeries(key);
  const cell = run.cells.find(
    (/** @type {any} */ c) => c.benchmark === 'lifecycle' && c.environmentKey === 'dind@20.10',
  );
  assert.deepEqual(
    points[0].samples,
    cell.metrics.find((/** @type {any} */ m) => m.metric === 'daemon.start_to_ready_ms').samples,
  );
  assert.equal(points[0].runId, run.run.id);
  assert.equal(points[0].commit, run.suite.commit);
  assert.equal(points[0].engines.outer, run.engines.outer.version);
  assert.equal(points[0].engines.inner, '20.10.24+dfsg1');
  assert.equal(points[0].storageDriver, 'overlay2');
  // The full results.json is kept for provenance, but for the runner's own paths: the file and folder
  // options of run.args are published by their last part (the local results file keeps them for --resume).
  const kept = JSON.parse(readFileSync(path.join(dir, runPath(run.run.startedAt.slice(0, 7), run.run.id)), 'utf8'));
  assert.equal(kept.run.args.out, path.basename(run.run.args.out));
  assert.deepEqual(kept, { ...run, run: { ...run.run, args: { ...run.run.args, out: kept.run.args.out } } });
});

test('the same run published twice is stored once', async () => {
  const dir = tmpDir('hist');
  await publishRun(dir, FIXTURE);
  const before = snapshotFiles(dir);
  const again = await publishRun(dir, FIXTURE);
  assert.equal(again.duplicate, true);
  assert.deepEqual(snapshotFiles(dir), before);
});

test('readSeries returns the latest points oldest first, across monthly shards, and honours limit', async () => {
  const dir = tmpDir('hist');
  const runs = tmpDir('runs');
  const times = [
    '2026-09-28T02:00:00.000Z',
    '2026-10-02T02:00:00.000Z',
    '2026-10-30T02:00:00.000Z',
    '2026-11-01T02:00:00.000Z',
  ];
  // Published out of order: the store keeps time order anyway.
  for (const i of [2, 0, 3, 1])
    await publishRun(dir, variant(runs, { id: `night-${i}`, startedAt: times[i], scale: 1 + i / 10 }));
  const h = await openHistory(dir);
  const key =
    h.listSeries().find((s) => s.metric === 'cpu.events_per_second' && s.environmentKey === 'docker')?.key ?? '';
  assert.deepEqual(
    (await h.readSeries(key)).map((p) => p.runId),
    ['night-0', 'night-1', 'night-2', 'night-3'],
  );
  assert.deepEqual(
    (await h.readSeries(key, { limit: 2 })).map((p) => p.runId),
    ['night-2', 'night-3'],
  );
  const shards = h.index.series[key].periods;
  assert.deepEqual(shards, ['2026-09', '2026-10', '2026-11']);
});

test('a corrupt shard is refused with its name, and nothing is written', async () => {
  const dir = tmpDir('hist');
  const runs = tmpDir('runs');
  await publishRun(dir, variant(runs, { id: 'a', startedAt: '2026-11-01T02:00:00.000Z' }));
  const h = await openHistory(dir);
  const s = h.index.series[h.listSeries()[0].key];
  const shard = path.join(dir, s.dir, '2026-11.json');
  writeFileSync(shard, '{"format": "dind-bench-series", "points": [');
  const before = snapshotFiles(dir);
  await assert.rejects(publishRun(dir, variant(runs, { id: 'b', startedAt: '2026-11-02T02:00:00.000Z' })), (e) => {
    assert.ok(e instanceof HistoryError);
    assert.equal(/** @type {HistoryError} */ (e).file, shard);
    assert.ok(
      /** @type {Error} */ (e).message.startsWith(
        `${shard}: the series shard is not valid JSON at line 1, column 44 (`,
      ),
      /** @type {Error} */ (e).message,
    );
    assert.match(
      /** @type {Error} */ (e).message,
      /; nothing was changed; restore the file from the branch or copy the history lives in/,
    );
    return true;
  });
  assert.deepEqual(snapshotFiles(dir), before);
  await assert.rejects(h.readSeries(h.listSeries()[0].key), /series shard is not valid JSON/);
  // An emptied index (e.g. a disk that filled up) is named as such.
  writeFileSync(path.join(dir, 'index.json'), '');
  await assert.rejects(openHistory(dir), {
    message: `${path.join(dir, 'index.json')}: the history index is empty; nothing was changed; restore the file from the branch or copy the history lives in (e.g. gh-pages)`,
  });
});

test('a foreign folder, a missing history and a newer format are refused with what to do', async () => {
  const foreign = tmpDir('foreign');
  writeFileSync(path.join(foreign, 'index.html'), '<p>someone else</p>');
  await assert.rejects(publishRun(foreign, FIXTURE), /not a dind-bench history; nothing was written/);
  assert.deepEqual(readdirSync(foreign), ['index.html']);
  await assert.rejects(
    openHistory(path.join(foreign, 'nope')),
    /no history here; `dind-bench publish RESULTS --history/,
  );
  await assert.rejects(openHistory(foreign), /dind-bench-history.json: missing/);

  const newer = tmpDir('hist');
  await publishRun(newer, FIXTURE);
  writeFileSync(
    path.join(newer, 'dind-bench-history.json'),
    JSON.stringify({ format: 'dind-bench-history', version: 99 }),
  );
  await assert.rejects(openHistory(newer), /history format version 99; this dind-bench reads version 1/);
});

test('results that fail the schema are refused before the history is touched', async () => {
  const dir = tmpDir('hist');
  const bad = path.join(tmpDir('bad'), 'results.json');
  const doc = fixture();
  delete doc.host;
  writeFileSync(bad, JSON.stringify(doc));
  await assert.rejects(publishRun(dir, bad), /not a valid results document:[\s\S]*host/);
  writeFileSync(bad, '{"schemaVersion": 1,');
  await assert.rejects(publishRun(dir, bad), (e) => {
    assert.ok(
      /** @type {Error} */ (e).message.startsWith(`${bad}: the results file is not valid JSON at line 1, column 21 (`),
      /** @type {Error} */ (e).message,
    );
    return true;
  });
  const missing = path.join(path.dirname(bad), 'nope.json');
  await assert.rejects(publishRun(dir, missing), {
    message: `${missing}: cannot read the results file: no such file; pass the results.json that \`dind-bench run --out DIR\` wrote`,
  });
  assert.deepEqual(readdirSync(dir), []);
});

test('two publishes at once (separate processes) both land', async () => {
  const dir = tmpDir('hist');
  const runs = tmpDir('runs');
  const files = [0, 1, 2, 3].map((i) =>
    variant(runs, { id: `concurrent-${i}`, startedAt: `2026-11-0${i + 1}T02:00:00.000Z` }),
  );
  const publish = (/** @type {string} */ f) =>
    new Promise((resolve, reject) => {
      const p = spawn(process.execPath, [BIN, 'publish', f, '--history', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr.on('data', (d) => (err += d));
      p.on('exit', (code) => (code === 0 ? resolve(err) : reject(new Error(`publish exited ${code}: ${err}`))));
    });
  await Promise.all(files.map(publish));
  const h = await openHistory(dir);
  assert.equal(h.index.runs, 4);
  for (const s of h.listSeries()) {
    assert.deepEqual(
      (await h.readSeries(s.key)).map((p) => p.runId),
      ['concurrent-0', 'concurrent-1', 'concurrent-2', 'concurrent-3'],
      s.key,
    );
  }
  assert.ok(!readdirSync(dir).some((e) => e.startsWith('.publish.lock')), 'the lock is released');
});

test('a stale lock (its process is gone) does not block publishing', async () => {
  const dir = tmpDir('hist');
  await publishRun(dir, FIXTURE);
  writeFileSync(
    path.join(dir, '.publish.lock'),
    JSON.stringify({ pid: 2 ** 22 + 7, host: (await import('node:os')).hostname(), since: new Date().toISOString() }),
  );
  const r = await publishRun(
    dir,
    variant(tmpDir('runs'), { id: 'after-crash', startedAt: '2026-11-22T02:00:00.000Z' }),
  );
  assert.equal(r.duplicate, false);
});

test('an empty lock left by a killed publish is taken over once it is old', async () => {
  const dir = tmpDir('hist');
  await publishRun(dir, FIXTURE);
  const lock = path.join(dir, '.publish.lock');
  writeFileSync(lock, '');
  const old = new Date(Date.now() - 60_000);
  await fs.utimes(lock, old, old);
  const r = await publishRun(
    dir,
    variant(tmpDir('runs'), { id: 'after-empty-lock', startedAt: '2026-11-23T02:00:00.000Z' }),
  );
  assert.equal(r.duplicate, false);
});

test('retention moves old shards to archive/ and deletes nothing', async () => {
  const dir = tmpDir('hist');
  const runs = tmpDir('runs');
  await publishRun(dir, variant(runs, { id: 'old', startedAt: '2026-01-10T02:00:00.000Z' }));
  await publishRun(dir, variant(runs, { id: 'new', startedAt: '2026-11-10T02:00:00.000Z' }));
  const files = Object.keys(snapshotFiles(dir)).filter((f) => !f.startsWith('latest') && f !== 'index.json');
  const moved = await archiveOldShards(dir, { keepMonths: 3, now: new Date('2026-11-21T00:00:00Z') });
  assert.ok(moved > 0);
  const after = Object.keys(snapshotFiles(dir));
  for (const f of files) assert.ok(after.includes(f) || after.includes(`archive/${f}`), `${f} kept or archived`);
  const h = await openHistory(dir);
  const key = h.listSeries()[0].key;
  assert.deepEqual(
    (await h.readSeries(key)).map((p) => p.runId),
    ['new'],
  );
  assert.deepEqual(h.index.series[key].archived, ['2026-01']);
  await fs.access(path.join(dir, 'archive', h.index.series[key].dir, '2026-01.json'));
});

test('a late run into an archived month no longer wedges retention: its month is archived beside the first, nothing overwritten', async () => {
  const dir = tmpDir('hist');
  const runs = tmpDir('runs');
  const now = new Date('2026-11-21T00:00:00Z');
  await publishRun(dir, variant(runs, { id: 'old', startedAt: '2026-01-10T02:00:00.000Z' }));
  await publishRun(dir, variant(runs, { id: 'new', startedAt: '2026-11-10T02:00:00.000Z' }));
  assert.ok((await archiveOldShards(dir, { keepMonths: 3, now })) > 0);
  const h0 = await openHistory(dir);
  const key = h0.listSeries()[0].key;
  const archived = path.join(dir, 'archive', h0.index.series[key].dir, '2026-01.json');
  const first = readFileSync(archived, 'utf8');
  // A run that started in the archived month, published after it was archived (a late upload).
  await publishRun(dir, variant(runs, { id: 'late', startedAt: '2026-01-20T02:00:00.000Z' }));
  assert.ok((await archiveOldShards(dir, { keepMonths: 3, now })) > 0, 'retention goes on');
  assert.equal(readFileSync(archived, 'utf8'), first, 'the archived month is not overwritten');
  assert.match(readFileSync(`${archived}.late-1`, 'utf8'), /"late"/);
  // ... and keeps going: another late run, another retention, another publish.
  await publishRun(dir, variant(runs, { id: 'later', startedAt: '2026-01-25T02:00:00.000Z' }));
  await archiveOldShards(dir, { keepMonths: 3, now });
  assert.match(readFileSync(`${archived}.late-2`, 'utf8'), /"later"/);
  await publishRun(dir, variant(runs, { id: 'newer', startedAt: '2026-11-12T02:00:00.000Z' }));
  const h = await openHistory(dir);
  assert.deepEqual(
    (await h.readSeries(key)).map((p) => p.runId),
    ['new', 'newer'],
  );
});

test('a publish flushes what it staged before its commit point, and what it renamed before the journal goes', async () => {
  const dir = tmpDir('hist');
  const runs = tmpDir('runs');
  await publishRun(dir, variant(runs, { id: 'first', startedAt: '2026-11-10T02:00:00.000Z' }));
  const journal = path.join(dir, '.publish', 'journal.json');
  /** @type {{what: string, journal: boolean}[]} */
  const seen = [];
  durability.onSync = (what) =>
    seen.push({ what: path.relative(dir, what) + (what.endsWith('/') ? '/' : ''), journal: existsSync(journal) });
  try {
    await publishRun(dir, variant(runs, { id: 'second', startedAt: '2026-11-11T02:00:00.000Z' }));
  } finally {
    durability.onSync = null;
  }
  const staged = seen.filter((s) => /^\.publish\/[0-9a-f]{12}\/\d+$/.test(s.what));
  assert.ok(staged.length > 5, `every staged file is flushed: ${staged.length}`);
  assert.ok(
    staged.every((s) => !s.journal),
    'staged files are flushed before the journal exists',
  );
  const stagingDir = seen.findIndex((s) => /^\.publish\/[0-9a-f]{12}\/$/.test(s.what));
  const journalTmp = seen.findIndex((s) => /^\.publish\/journal\.json\.\d+\.[0-9a-f]+\.tmp$/.test(s.what));
  const journalDir = seen.findIndex((s, i) => i > journalTmp && s.what === '.publish/');
  assert.ok(
    stagingDir >= 0 && journalTmp > stagingDir && journalDir > journalTmp,
    JSON.stringify(seen.map((s) => s.what)),
  );
  const targets = seen.slice(journalDir + 1).filter((s) => s.what.endsWith('/'));
  assert.ok(targets.length > 0, 'the folders the renames changed are flushed');
  assert.ok(
    targets.every((s) => s.journal),
    'before the journal is removed',
  );
  assert.ok(!existsSync(journal));
});
