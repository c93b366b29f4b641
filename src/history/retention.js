// Retention: shards (and run files) older than N months move to archive/ under the same relative path.
// Nothing is deleted: the site and `readSeries` stop loading them, and moving them back restores them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HistoryError, refuseLinks, withLock } from './files.js';
import { recoverHistory, transact } from './journal.js';
import { ARCHIVE_DIR, INDEX_FILE, LOCK_FILE, seriesDir, shardPath } from './layout.js';
import { checkMarker, readIndex } from './store.js';

/** The longest retention accepted: 100 years. More is not a retention, and past about 10^5 years the
 * cutoff month is not a date at all ("Invalid time value"). */
export const MAX_KEEP_MONTHS = 1200;

/**
 * `keepMonths`, checked: a whole number from 1 to MAX_KEEP_MONTHS, else a RangeError that says so.
 * `what` names it as the user gave it (`--retain-months`). Call it before anything is written.
 * @param {unknown} keepMonths @param {string} [what]
 */
export function checkKeepMonths(keepMonths, what = 'keepMonths') {
  if (
    !Number.isInteger(keepMonths) ||
    /** @type {number} */ (keepMonths) < 1 ||
    /** @type {number} */ (keepMonths) > MAX_KEEP_MONTHS
  ) {
    throw new RangeError(
      `${what} ${String(keepMonths).slice(0, 40)} is out of range: a whole number of months from 1 to ${MAX_KEEP_MONTHS} (100 years); nothing was changed`,
    );
  }
  return /** @type {number} */ (keepMonths);
}

/** The first month kept: `keepMonths` months back from `now`, this month included. @param {number} keepMonths */
export function cutoffPeriod(keepMonths, now = new Date()) {
  checkKeepMonths(keepMonths);
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (keepMonths - 1), 1));
  return d.toISOString().slice(0, 7);
}

/**
 * Moves shards and run folders of months before the cutoff into archive/. Returns how many shards moved.
 * Only paths this code derives from the (checked) index move, never a folder named in a file, and the
 * moves and the new index are one transaction (./journal.js).
 * @param {string} dir @param {{ keepMonths: number, now?: Date }} opts
 */
export async function archiveOldShards(dir, { keepMonths, now = new Date() }) {
  return withLock(path.join(dir, LOCK_FILE), async () => {
    await recoverHistory(dir);
    await checkMarker(dir);
    const index = await readIndex(dir);
    const cutoff = cutoffPeriod(keepMonths, now);
    let moved = 0;
    await transact(dir, async (tx) => {
      for (const s of Object.values(index.series)) {
        const old = s.periods.filter((p) => p < cutoff);
        for (const period of old) {
          if (await movable(dir, shardPath(seriesDir(s), period))) {
            tx.move(shardPath(seriesDir(s), period));
            moved++;
          }
        }
        if (old.length) {
          s.periods = s.periods.filter((p) => p >= cutoff);
          s.archived = [...new Set([...(s.archived ?? []), ...old])].sort();
        }
      }
      for (const period of index.periods.filter((p) => p < cutoff)) {
        if (await movable(dir, `runs/${period}`)) tx.move(`runs/${period}`);
      }
      if (moved) await tx.put(INDEX_FILE, { ...index, updatedAt: new Date().toISOString() });
    });
    return moved;
  });
}

/** True when `rel` is there to move and its archive place is free. @param {string} dir @param {string} rel */
async function movable(dir, rel) {
  await refuseLinks(dir, rel);
  await refuseLinks(dir, `${ARCHIVE_DIR}/${rel}`);
  const from = path.join(dir, rel);
  const to = path.join(dir, ARCHIVE_DIR, rel);
  const there = (/** @type {string} */ p) =>
    fs.lstat(p).then(
      () => true,
      () => false,
    );
  if (!(await there(from))) return false;
  if (await there(to))
    throw new HistoryError(
      to,
      `already archived, and ${from} exists too; move one aside by hand (nothing was overwritten)`,
    );
  return true;
}
