// Two processes never run in one --out folder at once (two re-runs of one job on one runner could, and
// their checkpoints would overwrite each other): DIR/.dind-bench.lock, created exclusively, names its owner
// (PID, host, start). The lock is held for the whole run. One whose process is gone (same host) is stale
// and taken over, said in the log; so is an unparsable one once it is 30 s old. A lock that is not a
// regular file is never followed: refused (../history/files.js reads it).
import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { alive, olderThan, parseHolder, readLock } from '../history/files.js';

export const OUT_LOCK = '.dind-bench.lock';

/**
 * Takes DIR's lock, or fails saying who holds it.
 * @param {string} dir @param {(msg: string) => void} log
 * @returns {Promise<() => void>} releases it (also done when the process exits)
 */
export async function lockOut(dir, log) {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, OUT_LOCK);
  const me = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() });
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.writeFile(file, me, { flag: 'wx' });
      break;
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST' || attempt > 2) throw e;
    }
    const st = await fs.lstat(file).catch(() => null);
    if (st && !st.isFile()) {
      throw new Error(`${file} is not a regular file (a link, a folder or a device): no run makes one; remove it`);
    }
    const text = await readLock(file);
    const holder = parseHolder(text);
    if (holder && (holder.host !== os.hostname() || alive(holder.pid))) {
      throw new Error(
        `${dir} is in use by another dind-bench run (pid ${holder.pid} on ${holder.host}, since ${holder.since}): ` +
          'wait for it to end, or choose another --out folder',
      );
    }
    if (!holder && !(await olderThan(file, 30_000))) {
      throw new Error(`${file} is being written by another dind-bench run: try again in a minute`);
    }
    log(`${dir}: taking over a stale lock (${holder ? `pid ${holder.pid} is gone` : 'unreadable'})`);
    await moveAsideIfSame(file, text);
  }
  const release = () => rmSync(file, { force: true });
  process.once('exit', release);
  return () => {
    process.off('exit', release);
    release();
  };
}

/**
 * Removes the stale lock, unless another run took it over meanwhile: it is moved aside atomically first,
 * and put back when what moved is not what was read.
 * @param {string} file @param {string} seen
 */
async function moveAsideIfSame(file, seen) {
  const aside = `${file}.stale.${process.pid}`;
  if (
    !(await fs.rename(file, aside).then(
      () => true,
      () => false,
    ))
  )
    return;
  const moved = await fs.readFile(aside, 'utf8').catch(() => '');
  if (moved !== seen) await fs.link(aside, file).catch(() => {});
  await fs.rm(aside, { force: true });
}
