// A tampered history (a gh-pages branch anyone with push rights, or a poisoned artifact, could have
// changed): links are never followed or copied, paths in files are never trusted, and nothing outside
// the history is ever read, written or moved. Each refusal names the file and changes nothing.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { HistoryError } from '../../src/history/files.js';
import { seriesDir } from '../../src/history/layout.js';
import { archiveOldShards } from '../../src/history/retention.js';
import { openHistory } from '../../src/history/store.js';
import { buildSite } from '../../src/site/build.js';
import { smallRun, snapshot, tmpDir } from './helpers.js';

/** A history with one run, an outside folder holding a file, and what both hold. */
async function setup() {
  const dir = path.join(tmpDir('tamper'), 'history');
  const runs = tmpDir('runs');
  await publishRun(dir, smallRun(runs, 'first', { startedAt: '2026-11-01T02:00:00.000Z' }));
  const outside = tmpDir('outside');
  writeFileSync(path.join(outside, 'secret.txt'), 'do not touch');
  const next = smallRun(runs, 'second', { startedAt: '2026-11-02T02:00:00.000Z' });
  const h = await openHistory(dir);
  return {
    dir,
    outside,
    next,
    h,
    fpDir: path.join(dir, seriesDir(h.listSeries()[0]).split('/').slice(0, 2).join('/')),
  };
}

/** @param {RegExp} message */
const refused = (message) => (/** @type {any} */ e) => {
  assert.ok(e instanceof HistoryError, String(e));
  assert.match(e.message, message);
  return true;
};

test('a folder of the history replaced by a link to outside: publish refuses, nothing is written anywhere', async () => {
  const { dir, outside, next, fpDir } = await setup();
  // The attacker moves the series folder outside and links it back in.
  renameSync(fpDir, path.join(outside, 'moved'));
  symlinkSync(path.join(outside, 'moved'), fpDir);
  const [inBefore, outBefore] = [snapshot(dir), snapshot(outside)];
  await assert.rejects(
    publishRun(dir, next),
    refused(/is a symbolic link; a history holds only plain files and folders/),
  );
  assert.deepEqual(snapshot(dir), inBefore);
  assert.deepEqual(snapshot(outside), outBefore);
  await assert.rejects(
    async () => {
      const h = await openHistory(dir);
      for (const s of h.listSeries()) await h.readSeries(s.key);
    },
    refused(/symbolic link/),
  );
});

test('a shard or the index that is a link is never read through', async () => {
  const { dir, outside, next, h } = await setup();
  const shard = path.join(dir, seriesDir(h.listSeries()[0]), '2026-11.json');
  writeFileSync(path.join(outside, 'shard.json'), readFileSync(shard));
  rmSync(shard);
  symlinkSync(path.join(outside, 'shard.json'), shard);
  await assert.rejects(publishRun(dir, next), refused(/is a symbolic link/));
  const index = path.join(dir, 'index.json');
  renameSync(index, path.join(outside, 'index.json'));
  symlinkSync(path.join(outside, 'index.json'), index);
  await assert.rejects(openHistory(dir), refused(/index\.json: is a symbolic link/));
});

test('a folder path or period in index.json is never trusted', async () => {
  const { dir, outside, next } = await setup();
  const file = path.join(dir, 'index.json');
  const good = readFileSync(file, 'utf8');
  const index = JSON.parse(good);
  const key = Object.keys(index.series)[0];
  index.series[key].dir = path.relative(dir, outside);
  writeFileSync(file, JSON.stringify(index));
  const before = snapshot(outside);
  await assert.rejects(openHistory(dir), refused(/index\.json: series .*: its folder .* is not series\//));
  await assert.rejects(publishRun(dir, next), refused(/its folder/));
  await assert.rejects(
    archiveOldShards(dir, { keepMonths: 1, now: new Date('2027-06-01T00:00:00Z') }),
    refused(/its folder/),
  );
  assert.deepEqual(snapshot(outside), before, 'retention moved nothing from outside');

  index.series[key].dir = JSON.parse(good).series[key].dir;
  index.series[key].periods = ['../../..'];
  writeFileSync(file, JSON.stringify(index));
  await assert.rejects(openHistory(dir), refused(/"\.\.\/\.\.\/\.\." is not a month/));
  index.series[key].periods = ['2026-11'];
  index.periods = ['../x'];
  writeFileSync(file, JSON.stringify(index));
  await assert.rejects(archiveOldShards(dir, { keepMonths: 1 }), refused(/is not a month/));
  assert.deepEqual(snapshot(outside), before);
});

test('--retain-months never moves a linked folder, and never moves anything into the history from outside', async () => {
  const { dir, outside } = await setup();
  // runs/2026-11 replaced by a link to an outside folder: archiving it would pull the outside in.
  renameSync(path.join(dir, 'runs', '2026-11'), path.join(outside, 'runs-moved'));
  symlinkSync(path.join(outside, 'runs-moved'), path.join(dir, 'runs', '2026-11'));
  const before = snapshot(outside);
  await assert.rejects(
    archiveOldShards(dir, { keepMonths: 1, now: new Date('2027-06-01T00:00:00Z') }),
    refused(/symbolic link/),
  );
  assert.deepEqual(snapshot(outside), before);
  assert.ok(!readdirSync(dir).includes('archive'), 'nothing archived');
});

test('a tampered journal cannot move or write outside the history', async () => {
  const { dir, outside, next } = await setup();
  mkdirSync(path.join(dir, '.publish'));
  for (const ops of [
    [{ op: 'move', from: '../outside', to: 'archive/../outside' }],
    [{ op: 'put', from: '/etc/passwd', to: 'index.json' }],
    [{ op: 'move', from: 'index.json', to: '../elsewhere' }],
  ]) {
    writeFileSync(
      path.join(dir, '.publish', 'journal.json'),
      JSON.stringify({ format: 'dind-bench-journal', id: 'x', ops }),
    );
    await assert.rejects(publishRun(dir, next), refused(/not one a publish makes|not a path this history can hold/));
  }
  assert.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'do not touch');
});

test('site build never copies a link: it refuses, naming it, and builds nothing', async () => {
  const { dir, outside } = await setup();
  symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'latest', 'leak.json'));
  const out = path.join(tmpDir('site'), 'out');
  await assert.rejects(
    buildSite({ history: dir, out }),
    refused(/leak\.json: is a symbolic link.*The site was not built/),
  );
  assert.throws(() => readdirSync(out), /ENOENT/, 'nothing was written');
  // Without the link the same history builds, and the data has no link at all.
  rmSync(path.join(dir, 'latest', 'leak.json'));
  await buildSite({ history: dir, out });
  assert.ok(!Object.values(snapshot(out)).includes('link'));
});
