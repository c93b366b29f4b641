// The few file operations the history needs, each with the guarantee the store relies on:
// reads that name the file and the problem, writes that are all-or-nothing (temp file + rename, so a
// reader or a crash never sees half a file), and a lock so two publishes never interleave.
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readJsonFile } from '../results/read-json.js';

/** A history that cannot be read or written safely. `file` is the offending file. */
export class HistoryError extends Error {
  /** @param {string} file @param {string} problem */
  constructor(file, problem) {
    super(`${file}: ${problem}`);
    this.name = 'HistoryError';
    this.file = file;
    this.problem = problem;
  }
}

/**
 * Parsed JSON of `file` (`what` names it in errors, e.g. "history index"), or `fallback` when the file
 * does not exist (only if a fallback is given: files a history starts without).
 * @template T @param {string} file @param {string} what @param {{ fallback?: T }} [options] @returns {Promise<any | T>}
 */
export async function readJson(file, what, options = {}) {
  try {
    return await readJsonFile(file, { what });
  } catch (e) {
    const err = /** @type {any} */ (e);
    if (err.cause?.code === 'ENOENT' && 'fallback' in options) return options.fallback;
    throw new HistoryError(file, `${err.problem}; ${LEFT_UNTOUCHED}`);
  }
}

// Said of every history file that cannot be read: nothing was changed, and how to get it back.
const LEFT_UNTOUCHED = 'nothing was changed; restore the file from the branch or copy the history lives in (e.g. gh-pages)';

/** Writes `data` as JSON to `file` through a temporary sibling and a rename. @param {string} file @param {unknown} data */
export async function writeJsonAtomic(file, data, { pretty = false } = {}) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(tmp, JSON.stringify(data, null, pretty ? 2 : undefined) + '\n');
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

/** Copies `from` to `to` unless `to` exists (provenance files are written once). @param {string} from @param {string} to */
export async function copyOnce(from, to) {
  await fs.mkdir(path.dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.copyFile(from, tmp);
  try {
    // link() fails when `to` exists, so an existing file is never replaced.
    await fs.link(tmp, to);
  } catch (e) {
    if (/** @type {any} */ (e).code !== 'EEXIST') throw e;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

export const exists = (/** @type {string} */ p) => fs.access(p, constants.F_OK).then(() => true, () => false);

const STALE_AFTER_MS = 10 * 60 * 1000;

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {any} */ (e).code === 'EPERM';
  }
}

/**
 * Holds `lockFile` (created exclusively) while `fn` runs. Waits for another holder up to `timeoutMs`.
 * A lock whose process is gone (same host) or older than 10 minutes is stale and taken over: a
 * publish killed with -9 does not block the history forever.
 * @template T @param {string} lockFile @param {() => Promise<T>} fn @returns {Promise<T>}
 */
export async function withLock(lockFile, fn, { timeoutMs = 60_000 } = {}) {
  const me = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() });
  const deadline = Date.now() + timeoutMs;
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    try {
      await fs.writeFile(lockFile, me, { flag: 'wx' });
      break;
    } catch (e) {
      if (/** @type {any} */ (e).code !== 'EEXIST') throw e;
    }
    const holder = await fs.readFile(lockFile, 'utf8').catch(() => '');
    // An empty lock is one being written, or left by a process killed between creating and writing it.
    const stale = holder ? isStale(holder) : await olderThan(lockFile, 30_000);
    if (stale) {
      // Move the stale lock aside (atomic: only one waiter wins), then check that what moved is the
      // stale one and not a fresh lock taken meanwhile; a fresh one is put back.
      const aside = `${lockFile}.stale.${process.pid}`;
      if (await fs.rename(lockFile, aside).then(() => true, () => false)) {
        const moved = await fs.readFile(aside, 'utf8').catch(() => '');
        if (moved !== holder) await fs.link(aside, lockFile).catch(() => {});
        await fs.rm(aside, { force: true });
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new HistoryError(lockFile, `another publish holds the lock (${holder || 'unknown holder'}); try again when it ends, or remove the file if no publish is running`);
    }
    await new Promise((r) => setTimeout(r, wait));
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lockFile, { force: true });
  }
}

/** @param {string} file @param {number} ms */
const olderThan = (file, ms) => fs.stat(file).then((st) => Date.now() - st.mtimeMs > ms, () => false);

/** @param {string} holder the lock file's content */
function isStale(holder) {
  try {
    const h = JSON.parse(holder);
    if (Date.now() - Date.parse(h.since) > STALE_AFTER_MS) return true;
    return h.host === os.hostname() && !alive(h.pid);
  } catch {
    return false; // being written right now: not stale
  }
}
