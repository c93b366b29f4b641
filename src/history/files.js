// The few file operations the history needs, each with the guarantee the store relies on:
// reads that name the file and the problem, writes that are all-or-nothing (temp file + rename, so a
// reader or a crash never sees half a file), and a lock so two publishes never interleave.
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readJsonFile } from '../results/read-json.js';
import { logText } from '../text/escape.js';

/** A history that cannot be read or written safely. `file` is the offending file. */
export class HistoryError extends Error {
  /** @param {string} file @param {string} problem */
  constructor(file, problem) {
    // Both may quote data (a path, a name, a value): control characters are written as escapes so the
    // message stays one line in a log and starts no workflow command (logText).
    super(`${logText(file)}: ${logText(problem)}`);
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
    return await readJsonFile(file, { what, noFollow: true });
  } catch (e) {
    const err = /** @type {{cause?: {code?: string}, problem?: string}} */ (e);
    if (err.cause?.code === 'ENOENT' && 'fallback' in options) return options.fallback;
    throw Object.assign(new HistoryError(file, `${err.problem}; ${LEFT_UNTOUCHED}`), { cause: err.cause });
  }
}

// Said of every history file that cannot be read: nothing was changed, and how to get it back.
const LEFT_UNTOUCHED =
  'nothing was changed; restore the file from the branch or copy the history lives in (e.g. gh-pages)';

// -- paths inside a history: never outside its folder, never through a link --

// What a relative path in a history may contain: the segments ./names.js makes, months, fixed names.
const SEGMENT = /^[A-Za-z0-9_@~-][A-Za-z0-9._@~-]*$/;

/**
 * The absolute path of `rel` inside the history `root`. `rel` comes from code or from a (checked)
 * history file; anything that could leave the folder (absolute, `..`, empty or odd segments) is refused.
 * @param {string} root @param {string} rel
 */
export function inStore(root, rel) {
  const parts = typeof rel === 'string' ? rel.split('/') : [];
  if (!parts.length || parts.some((p) => !SEGMENT.test(p) && p !== '.publish')) {
    throw new HistoryError(
      path.join(root, String(rel).slice(0, 300)),
      'not a path this history can hold (outside its folder, or a name it never writes); the history was edited by hand or tampered with. Nothing was changed',
    );
  }
  return path.join(root, ...parts);
}

/**
 * Refuses when any existing component of `rel` under `root` is a symbolic link: a history holds only
 * plain files and folders, and following a link would read or write outside it.
 * @param {string} root @param {string} rel
 */
export async function refuseLinks(root, rel) {
  let p = root;
  for (const part of rel.split('/')) {
    p = path.join(p, part);
    const st = await fs.lstat(p).catch((e) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
      throw e;
    });
    if (!st) return;
    if (st.isSymbolicLink()) throw new HistoryError(p, LINK_PROBLEM);
  }
}

export const LINK_PROBLEM =
  'is a symbolic link; a history holds only plain files and folders, so it was tampered with. Nothing was changed; remove the link (and check what it pointed to)';

/**
 * `readJson` of a file inside a history, through `inStore` and `refuseLinks` (the file itself is opened
 * with O_NOFOLLOW).
 * @template T @param {string} root @param {string} rel @param {string} what @param {{ fallback?: T }} [options]
 */
export async function readJsonIn(root, rel, what, options = {}) {
  const file = inStore(root, rel);
  await refuseLinks(root, rel);
  return readJson(file, what, options);
}

/** Creates the folders of `rel` under `root` one by one, refusing links. @param {string} root @param {string} rel */
export async function mkdirIn(root, rel) {
  let p = root;
  for (const part of rel.split('/')) {
    p = path.join(p, part);
    const st = await fs.lstat(p).catch((e) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
    if (st?.isSymbolicLink()) throw new HistoryError(p, LINK_PROBLEM);
    if (st && !st.isDirectory())
      throw new HistoryError(p, 'is a file where the history needs a folder; nothing was changed. Move it aside');
    if (!st) {
      faultPoint(`mkdir ${path.relative(root, p)}`);
      await fs.mkdir(p);
    }
  }
}

// -- fault injection, for the test that kills a publish at every write point --

let writePoints = 0;

/**
 * Called before every change a publish makes on disk. DIND_BENCH_FAULT_AT=N kills this process
 * (SIGKILL, as a power cut or `kill -9` would) just before the Nth change; DIND_BENCH_FAULT_TRACE=1 lists
 * the changes on stderr. Unset (always, outside tests), it only counts.
 * @param {string} what
 */
export function faultPoint(what) {
  writePoints++;
  if (process.env.DIND_BENCH_FAULT_TRACE) process.stderr.write(`write point ${writePoints}: ${what}\n`);
  if (writePoints === Number(process.env.DIND_BENCH_FAULT_AT)) process.kill(process.pid, 'SIGKILL');
}

/**
 * Durability: what a publish writes reaches the disk before the step that relies on it, so a power cut
 * after the commit point cannot leave a journal pointing at empty files. `onSync` lets a test see each
 * flush (a file, or a folder whose entries changed), in order.
 * @type {{ onSync: ((what: string) => void) | null }}
 */
export const durability = { onSync: null };

/** Writes a new file (never replacing one) and flushes it to the disk. @param {string} file @param {string} text */
export async function writeDurable(file, text) {
  const fh = await fs.open(file, 'wx');
  try {
    await fh.writeFile(text);
    await fh.sync();
    durability.onSync?.(file);
  } finally {
    await fh.close();
  }
}

/** Flushes a folder's entries (files created or renamed in it) to the disk. @param {string} dir */
export async function syncDir(dir) {
  const fh = await fs.open(dir, 'r');
  try {
    await fh.sync();
    durability.onSync?.(`${dir}/`);
  } finally {
    await fh.close();
  }
}

/**
 * Writes `data` as JSON to `file` through a temporary sibling, flushed, and a rename, then flushes the
 * folder so the rename itself is on the disk.
 * @param {string} file @param {unknown} data
 */
export async function writeJsonAtomic(file, data, { pretty = false } = {}) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    faultPoint(`write ${path.basename(tmp)}`);
    await writeDurable(tmp, JSON.stringify(data, null, pretty ? 2 : undefined) + '\n');
    faultPoint(`rename to ${path.basename(file)}`);
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
  await syncDir(path.dirname(file));
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
    if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

export const exists = (/** @type {string} */ p) =>
  fs.access(p, constants.F_OK).then(
    () => true,
    () => false,
  );

const STALE_AFTER_MS = 10 * 60 * 1000;
/** How far ahead of this clock a holder's may run (hosts' clocks differ a little); beyond it, stale. */
export const CLOCK_SKEW_MS = 60 * 1000;

/** @param {number} pid */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

/**
 * Holds `lockFile` (created exclusively) while `fn` runs. Waits for another holder up to `timeoutMs`.
 * A lock whose process is gone (same host), older than 10 minutes or dated more than a minute ahead of
 * this clock (no holder's clock runs that far ahead: a planted or damaged date, which would otherwise
 * block every publish until that time) is stale and taken over: a publish killed with -9 does not block
 * the history forever. So is an empty or unparsable one once it is
 * 30 s old (no publish writes garbage, so it is damage, not a holder). A lock that is not a regular file
 * (a link planted on the history branch, a folder, a device) is never followed or read: refused.
 * @template T @param {string} lockFile @param {() => Promise<T>} fn @returns {Promise<T>}
 */
export async function withLock(lockFile, fn, { timeoutMs = 60_000 } = {}) {
  const me = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() });
  const deadline = Date.now() + timeoutMs;
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    try {
      faultPoint('take the lock');
      await fs.writeFile(lockFile, me, { flag: 'wx' });
      break;
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
    }
    const holder = await readLock(lockFile);
    // An empty lock is one being written, or left by a process killed between creating and writing it;
    // an unparsable one is damage. Either is stale once it is old enough not to be a lock being written.
    const parsed = parseHolder(holder);
    const stale = parsed ? isStale(parsed) : await olderThan(lockFile, 30_000);
    if (stale) {
      // Move the stale lock aside (atomic: only one waiter wins), then check that what moved is the
      // stale one and not a fresh lock taken meanwhile; a fresh one is put back.
      const aside = `${lockFile}.stale.${process.pid}`;
      if (
        await fs.rename(lockFile, aside).then(
          () => true,
          () => false,
        )
      ) {
        const moved = await fs.readFile(aside, 'utf8').catch(() => '');
        if (moved !== holder) await fs.link(aside, lockFile).catch(() => {});
        await fs.rm(aside, { force: true });
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new HistoryError(
        lockFile,
        `another publish holds the lock (${holder || 'unknown holder'}); try again when it ends, or remove the file if no publish is running`,
      );
    }
    await new Promise((r) => setTimeout(r, wait));
  }
  try {
    return await fn();
  } finally {
    faultPoint('release the lock');
    await fs.rm(lockFile, { force: true });
  }
}

/** @param {string} file @param {number} ms */
export const olderThan = (file, ms) =>
  fs.stat(file).then(
    (st) => Date.now() - st.mtimeMs > ms,
    () => false,
  );

/** What a lock says of its holder, or null when it says nothing usable. @param {string} text */
export function parseHolder(text) {
  try {
    const h = JSON.parse(text);
    if (h && typeof h.since === 'string' && typeof h.host === 'string' && Number.isInteger(h.pid)) return h;
  } catch {
    // empty (being written) or garbage: the caller goes by its age
  }
  return null;
}

/** @param {{pid: number, host: string, since: string}} h the lock's holder */
function isStale(h) {
  const age = Date.now() - Date.parse(h.since);
  // Old, dated in the future beyond the clocks' skew, or an unreadable time (NaN fails both bounds).
  if (!(age <= STALE_AFTER_MS && age >= -CLOCK_SKEW_MS)) return true;
  return h.host === os.hostname() && !alive(h.pid);
}

/**
 * The lock's content, at most 1 KiB, read without following a link; '' when it is gone. A lock that is
 * not a regular file is refused with what to do.
 * @param {string} lockFile
 */
export async function readLock(lockFile) {
  const st = await fs.lstat(lockFile).catch(() => null);
  if (!st) return '';
  if (!st.isFile())
    throw new HistoryError(
      lockFile,
      'the publish lock is not a regular file (a link, a folder or a device): no publish makes one, so it was planted or damaged; remove it and publish again',
    );
  const fh = await fs.open(lockFile, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!fh) return '';
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}
