// One publish (or one retention pass) is one transaction, so readers never see half of it:
//   1. every new file is written whole into .publish/<id>/ (staging; readers never look there);
//   2. the journal .publish/journal.json, listing what goes where, is written by an atomic rename:
//      THE commit point. Killed before it, the history is unchanged (the staging is thrown away);
//   3. the staged files are renamed into place and moves are done, then .publish/ is removed.
// Killed during 3, the next publish, retention or site build completes it from the journal first
// (`recoverHistory`), and a reader that finds a journal reads the staged (new) version of each file it
// lists (`pendingPuts`), so from the commit point on every reader sees the new state.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  HistoryError,
  exists,
  LINK_PROBLEM,
  faultPoint,
  inStore,
  mkdirIn,
  readJsonIn,
  refuseLinks,
  syncDir,
  writeDurable,
  writeJsonAtomic,
} from './files.js';
import { ARCHIVE_DIR } from './layout.js';

export const JOURNAL_DIR = '.publish';
const JOURNAL = `${JOURNAL_DIR}/journal.json`;
const JOURNAL_FORMAT = 'dind-bench-journal';
const STAGED = /^\.publish\/[0-9a-f]{12}\/\d{1,6}$/;

/**
 * @typedef {{ op: 'put', from: string, to: string } | { op: 'move', from: string, to: string }} Op
 */

export class Transaction {
  /** @param {string} root the history folder */
  constructor(root) {
    this.root = root;
    this.id = randomBytes(6).toString('hex');
    /** @type {Op[]} */
    this.ops = [];
  }

  /** Stages `data` as the new content of `rel`. @param {string} rel @param {unknown} data */
  async put(rel, data, { pretty = false } = {}) {
    checkTarget(this.root, rel);
    const from = `${JOURNAL_DIR}/${this.id}/${this.ops.length}`;
    if (!this.ops.some((o) => o.op === 'put')) await mkdirIn(this.root, `${JOURNAL_DIR}/${this.id}`);
    faultPoint(`stage ${rel}`);
    await writeDurable(inStore(this.root, from), JSON.stringify(data, null, pretty ? 2 : undefined) + '\n');
    this.ops.push({ op: 'put', from, to: rel });
  }

  /**
   * Moves `rel` (a shard or a month of runs) to the same path under archive/, or beside it (REL.late-N, a
   * late run's month archived before: ./retention.js).
   * @param {string} rel @param {string} [to]
   */
  move(rel, to = `${ARCHIVE_DIR}/${rel}`) {
    checkTarget(this.root, rel);
    if (!isArchivePlace(rel, to)) throw new HistoryError(path.join(this.root, to), `not an archive place of ${rel}`);
    this.ops.push({ op: 'move', from: rel, to });
  }

  /** Writes the journal (the commit point), then applies it. Nothing staged: nothing happens. */
  async commit() {
    if (!this.ops.length) return;
    // The staged files and their folder's entries are on the disk before the journal names them.
    if (this.ops.some((o) => o.op === 'put')) await syncDir(inStore(this.root, `${JOURNAL_DIR}/${this.id}`));
    await writeJsonAtomic(inStore(this.root, JOURNAL), { format: JOURNAL_FORMAT, id: this.id, ops: this.ops });
    await recoverHistory(this.root);
  }

  /**
   * After a failure: throws away what this transaction staged (a full disk must not stay full of it), unless
   * it reached its commit point, whose journal the next publish completes. Never throws: the failure that
   * brought it here is the one to report.
   */
  async abort() {
    try {
      // A journal there is this one's commit point (any older one was applied before staging began).
      if (await exists(inStore(this.root, JOURNAL))) return;
      await fs.rm(inStore(this.root, `${JOURNAL_DIR}/${this.id}`), { recursive: true, force: true });
      await fs.rmdir(path.join(this.root, JOURNAL_DIR)).catch(() => {}); // only when nothing else is in it
    } catch {
      // the next publish's recovery throws away what is left
    }
  }
}

/**
 * Stages with `stage` and commits; on any failure before the commit point, what was staged is removed.
 * @param {string} root @param {(tx: Transaction) => Promise<void>} stage
 */
export async function transact(root, stage) {
  const tx = new Transaction(root);
  try {
    await stage(tx);
    await tx.commit();
  } catch (e) {
    await tx.abort();
    throw e;
  }
}

/**
 * A move's only targets: the same path under archive/, or beside it as a late copy (.late-1 to .late-99).
 * @param {string} from @param {unknown} to
 */
function isArchivePlace(from, to) {
  if (typeof to !== 'string') return false;
  const own = `${ARCHIVE_DIR}/${from}`;
  return to === own || (to.startsWith(`${own}.late-`) && /^[1-9]\d?$/.test(to.slice(own.length + '.late-'.length)));
}

/** Refuses a target outside the history's data (hidden files, the staging itself). @param {string} root @param {string} rel */
function checkTarget(root, rel) {
  inStore(root, rel);
  if (rel.startsWith('.')) throw new HistoryError(path.join(root, rel), 'not a file a publish writes');
}

/**
 * Completes a committed transaction left by a killed publish, and throws away the staging of one that
 * never reached its commit point. Call with the history's lock held. Returns true when a journal was
 * applied.
 * @param {string} root
 */
export async function recoverHistory(root) {
  const dir = path.join(root, JOURNAL_DIR);
  const st = await fs.lstat(dir).catch(() => null);
  if (!st) return false;
  if (!st.isDirectory())
    throw new HistoryError(dir, st.isSymbolicLink() ? LINK_PROBLEM : 'is not a folder; move it aside');
  const journal = await readJournal(root);
  if (journal) for (const op of journal.ops) await apply(root, op);
  // The renames are on the disk before the journal that would redo them goes.
  for (const folder of foldersOf(root, journal?.ops ?? [])) await syncDir(folder);
  faultPoint('remove the journal');
  await fs.rm(path.join(root, JOURNAL), { force: true });
  faultPoint('remove the staging folder');
  await fs.rm(dir, { recursive: true, force: true });
  return journal !== null;
}

/**
 * The files a committed but unfinished transaction replaces, as target -> staged file, for readers.
 * Empty when there is no journal (the normal case).
 * @param {string} root @returns {Promise<Map<string, string>>}
 */
export async function pendingPuts(root) {
  const journal = await readJournal(root);
  return new Map((journal?.ops ?? []).filter((o) => o.op === 'put').map((o) => [o.to, o.from]));
}

/** The journal, checked op by op, or null. @param {string} root @returns {Promise<{ ops: Op[] } | null>} */
async function readJournal(root) {
  const journal = await readJsonIn(root, JOURNAL, 'publish journal', { fallback: null });
  if (journal === null) return null;
  const file = path.join(root, JOURNAL);
  if (journal?.format !== JOURNAL_FORMAT || !Array.isArray(journal.ops))
    throw new HistoryError(file, 'not a publish journal; move the .publish folder aside');
  for (const [i, op] of journal.ops.entries()) {
    const ok =
      (op?.op === 'put' &&
        typeof op.from === 'string' &&
        STAGED.test(op.from) &&
        typeof op.to === 'string' &&
        !op.to.startsWith('.')) ||
      (op?.op === 'move' &&
        typeof op.from === 'string' &&
        !op.from.startsWith('.') &&
        !op.from.startsWith(`${ARCHIVE_DIR}/`) &&
        isArchivePlace(op.from, op.to));
    if (!ok)
      throw new HistoryError(
        file,
        `operation ${i} is not one a publish makes (the journal was tampered with); nothing was changed. Move the .publish folder aside`,
      );
    inStore(root, op.from);
    inStore(root, op.to);
  }
  return journal;
}

/** The folders a journal's renames changed (targets, and a move's source). @param {string} root @param {Op[]} ops */
function foldersOf(root, ops) {
  const dirs = new Set();
  for (const op of ops) {
    dirs.add(path.dirname(inStore(root, op.to)));
    if (op.op === 'move') dirs.add(path.dirname(inStore(root, op.from)));
  }
  return [...dirs].filter((d) => d.startsWith(root));
}

/** Does one operation, or nothing if it was done before the process was killed. @param {string} root @param {Op} op */
async function apply(root, op) {
  await refuseLinks(root, op.from);
  await refuseLinks(root, op.to);
  const from = inStore(root, op.from);
  const to = inStore(root, op.to);
  const source = await fs.lstat(from).catch(() => null);
  if (!source) {
    if (op.op === 'put' && !(await fs.lstat(to).catch(() => null))) {
      throw new HistoryError(
        from,
        `staged for ${op.to} but missing, and ${op.to} is missing too; restore the history from its branch`,
      );
    }
    return; // done before the kill (or, for a move, nothing there to move)
  }
  if (op.op === 'move' && (await fs.lstat(to).catch(() => null))) {
    throw new HistoryError(
      to,
      `already archived, and ${from} exists too; move one aside by hand (nothing was overwritten)`,
    );
  }
  const parent = path.posix.dirname(op.to);
  if (parent !== '.') await mkdirIn(root, parent);
  faultPoint(`${op.op} ${op.to}`);
  await fs.rename(from, to);
}
