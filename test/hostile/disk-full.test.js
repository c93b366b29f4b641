// A full disk during publish (a real one: a small tmpfs under the history): the publish is refused with
// the system's own error, nothing already recorded changes, and nothing staged is left filling the disk.
// Mounting needs root, as .ci/run has; elsewhere the test is skipped with that reason (under CI=true it fails).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { FIXTURE, tmpDir, variant } from '../history/helpers.js';
import { readerView, snapshot } from './helpers.js';

const asRoot = process.getuid?.() === 0;
const skip = asRoot ? false : 'mounting a tmpfs needs root (run the tests as root, as .ci/run does)';
if (skip && process.env.CI) throw new Error(`CI=true but ${skip}`);

test('ENOSPC in publish: refused with the error, the history unchanged, nothing staged left', { skip }, async (t) => {
  const history = tmpDir('full-history');
  await publishRun(history, FIXTURE); // about 1.2 MB, 124 files
  const mount = path.join(tmpDir('full-disk'), 'fs');
  mkdirSync(mount);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount]);
  t.after(() => execFileSync('umount', [mount]));
  const dir = path.join(mount, 'history');
  cpSync(history, dir, { recursive: true });
  // Fill what is left, but for a few KiB: the next publish's staging cannot fit.
  const free = () => Number(execFileSync('df', ['--output=avail', '-B1', mount], { encoding: 'utf8' }).split('\n')[1]);
  writeFileSync(path.join(mount, 'filler'), Buffer.alloc(Math.max(0, free() - 16 * 1024)));
  const before = snapshot(dir);
  const view = await readerView(dir);
  await assert.rejects(
    publishRun(dir, variant(tmpDir('runs'), { id: 'no-room', startedAt: '2026-11-22T02:00:00.000Z' })),
    /ENOSPC/,
  );
  assert.deepEqual(snapshot(dir), before, 'nothing recorded changed');
  assert.deepEqual(await readerView(dir), view);
  assert.ok(
    !existsSync(path.join(dir, '.publish')),
    `.publish left behind: ${existsSync(path.join(dir, '.publish')) && readdirSync(path.join(dir, '.publish'))}`,
  );
  assert.ok(!existsSync(path.join(dir, '.publish.lock')), 'the lock is released');
});
