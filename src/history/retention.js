// Retention: shards (and run files) older than N months move to archive/ under the same relative path.
// Nothing is deleted: the site and `readSeries` stop loading them, and moving them back restores them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HistoryError, refuseLinks, withLock } from './files.js';
import { Transaction, recoverHistory } from './journal.js';
import { ARCHIVE_DIR, INDEX_FILE, LOCK_FILE, seriesDir, shardPath } from './layout.js';
import { checkMarker, readIndex } from './store.js';

/** The first month kept: `keepMonths` months back from `now`, this month included. @param {number} keepMonths */
export function cutoffPeriod(keepMonths, now = new Date()) {
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
    const tx = new Transaction(dir);
    let moved = 0;
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
    await tx.commit();
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
