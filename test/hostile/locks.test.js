// The publish lock lives in the history folder, which anyone who can push to the history branch can write.
// A planted link must never be followed (it could point at a device that never ends, or a file elsewhere),
// and a garbage lock must not block every later publish.
import assert from 'node:assert/strict';
import { promises as fs, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { FIXTURE, tmpDir, variant } from '../history/helpers.js';
import { readerView, snapshot } from './helpers.js';

test('a lock that is a link is refused, never followed: its target and the history unchanged', async () => {
  const dir = tmpDir('linked-lock');
  await publishRun(dir, FIXTURE);
  const target = path.join(tmpDir('lock-target'), 'precious.txt');
  writeFileSync(target, 'not yours');
  symlinkSync(target, path.join(dir, '.publish.lock'));
  const before = snapshot(dir);
  const view = await readerView(dir);
  await assert.rejects(
    publishRun(dir, variant(tmpDir('runs'), { id: 'after-link', startedAt: '2026-11-22T02:00:00.000Z' })),
    /\.publish\.lock: the publish lock is not a regular file \(a link, a folder or a device\).*remove it and publish again/,
  );
  assert.equal(readFileSync(target, 'utf8'), 'not yours', 'the link target is untouched');
  assert.deepEqual(snapshot(dir), before, 'nothing in the history changed');
  assert.deepEqual(await readerView(dir), view);
});

test('a garbage lock (not a holder any publish writes) is taken over once it is old', async () => {
  const dir = tmpDir('garbage-lock');
  await publishRun(dir, FIXTURE);
  const lock = path.join(dir, '.publish.lock');
  writeFileSync(lock, '\u0000\u00ffnot json at all{{{');
  const old = new Date(Date.now() - 60_000);
  await fs.utimes(lock, old, old);
  const r = await publishRun(
    dir,
    variant(tmpDir('runs'), { id: 'after-garbage', startedAt: '2026-11-22T02:00:00.000Z' }),
  );
  assert.equal(r.duplicate, false);
  assert.equal((await fs.stat(lock).catch(() => null)) === null, true, 'the lock is released after the publish');
});

test('a lock whose holder has an unreadable time is stale, not held forever', async () => {
  const dir = tmpDir('badtime-lock');
  await publishRun(dir, FIXTURE);
  writeFileSync(path.join(dir, '.publish.lock'), JSON.stringify({ pid: 1, host: 'elsewhere', since: 'never' }));
  const r = await publishRun(
    dir,
    variant(tmpDir('runs'), { id: 'after-badtime', startedAt: '2026-11-22T02:00:00.000Z' }),
  );
  assert.equal(r.duplicate, false);
});

test('a lock dated in the future beyond a minute of clock skew is stale; one within the skew is held', async () => {
  const dir = tmpDir('future-lock');
  await publishRun(dir, FIXTURE);
  const lock = path.join(dir, '.publish.lock');
  // A year ahead, by another host: without the bound it would block every publish for a year.
  const ahead = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
  writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', since: ahead }));
  const r = await publishRun(
    dir,
    variant(tmpDir('runs'), { id: 'after-future', startedAt: '2026-11-22T02:00:00.000Z' }),
  );
  assert.equal(r.duplicate, false);
  assert.equal((await fs.stat(lock).catch(() => null)) === null, true, 'the lock is released after the publish');

  // 30 s ahead is a clock that runs a little fast: a live holder, waited for (here until the timeout).
  const near = new Date(Date.now() + 30_000).toISOString();
  writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', since: near }));
  const { withLock } = await import('../../src/history/files.js');
  await assert.rejects(
    withLock(lock, async () => 'taken', { timeoutMs: 300 }),
    /another publish holds the lock/,
  );
});
