// The --out folder's lock (src/run/out-lock.js): a live holder refuses a second run, naming it; a holder
// whose process is gone and an unparsable lock older than 30 s are taken over, said in the log; a lock
// that is a link or a folder is refused and never followed; the lock goes when its run releases it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { OUT_LOCK, lockOut } from '../../src/run/out-lock.js';
import { tmpDir } from '../history/helpers.js';

/** @param {string} name */
const folder = (name) => {
  const dir = path.join(tmpDir('out-lock'), name);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const holder = (/** @type {number} */ pid) =>
  JSON.stringify({ pid, host: os.hostname(), since: new Date().toISOString() });

test('a live holder refuses a second run, naming its PID; released, the folder is free again', async (t) => {
  const dir = folder('live');
  /** @type {string[]} */
  const log = [];
  const release = await lockOut(dir, (s) => log.push(s));
  assert.equal(JSON.parse(readFileSync(path.join(dir, OUT_LOCK), 'utf8')).pid, process.pid);
  // Another process (a real one, alive) holding it:
  const sleeper = spawn('sleep', ['30']);
  t.after(() => sleeper.kill());
  release();
  assert.ok(!existsSync(path.join(dir, OUT_LOCK)));
  writeFileSync(path.join(dir, OUT_LOCK), holder(/** @type {number} */ (sleeper.pid)));
  await assert.rejects(
    lockOut(dir, () => {}),
    new RegExp(`is in use by another dind-bench run \\(pid ${sleeper.pid} on `),
  );
  assert.deepEqual(log, []);
});

test('a holder whose process is gone is taken over, said in the log', async () => {
  const dir = folder('dead');
  const dead = spawn('true');
  await new Promise((r) => dead.on('close', r));
  writeFileSync(path.join(dir, OUT_LOCK), holder(/** @type {number} */ (dead.pid)));
  /** @type {string[]} */
  const log = [];
  const release = await lockOut(dir, (s) => log.push(s));
  assert.match(log.join('\n'), new RegExp(`taking over a stale lock \\(pid ${dead.pid} is gone\\)`));
  assert.equal(JSON.parse(readFileSync(path.join(dir, OUT_LOCK), 'utf8')).pid, process.pid);
  release();
});

test('an unparsable lock: being written while young, stale once 30 s old', async () => {
  const dir = folder('garbage');
  const file = path.join(dir, OUT_LOCK);
  writeFileSync(file, '\u0000garbage');
  await assert.rejects(
    lockOut(dir, () => {}),
    /is being written by another dind-bench run/,
  );
  const old = new Date(Date.now() - 60_000);
  utimesSync(file, old, old);
  /** @type {string[]} */
  const log = [];
  const release = await lockOut(dir, (s) => log.push(s));
  assert.match(log.join('\n'), /taking over a stale lock \(unreadable\)/);
  release();
});

test('a lock that is a link or a folder is refused and never followed', async () => {
  const target = path.join(folder('target'), 'victim');
  writeFileSync(target, 'keep');
  const linked = folder('link');
  symlinkSync(target, path.join(linked, OUT_LOCK));
  await assert.rejects(
    lockOut(linked, () => {}),
    /is not a regular file \(a link, a folder or a device\)/,
  );
  assert.equal(readFileSync(target, 'utf8'), 'keep', 'the link target is untouched');
  const dir = folder('dir');
  mkdirSync(path.join(dir, OUT_LOCK));
  await assert.rejects(
    lockOut(dir, () => {}),
    /is not a regular file/,
  );
});
