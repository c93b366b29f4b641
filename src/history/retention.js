// Retention: shards (and run files) older than N months move to archive/ under the same relative path.
// Nothing is deleted: the site and `readSeries` stop loading them, and moving them back restores them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HistoryError, exists, withLock, writeJsonAtomic } from './files.js';
import { ARCHIVE_DIR, INDEX_FILE, LOCK_FILE, shardPath } from './layout.js';
import { checkMarker, readIndex } from './store.js';

/** The first month kept: `keepMonths` months back from `now`, this month included. @param {number} keepMonths */
export function cutoffPeriod(keepMonths, now = new Date()) {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (keepMonths - 1), 1));
  return d.toISOString().slice(0, 7);
}

/**
 * Moves shards and run folders of months before the cutoff into archive/. Returns how many shards moved.
 * @param {string} dir @param {{ keepMonths: number, now?: Date }} opts
 */
export async function archiveOldShards(dir, { keepMonths, now = new Date() }) {
  return withLock(path.join(dir, LOCK_FILE), async () => {
    await checkMarker(dir);
    const index = await readIndex(dir);
    const cutoff = cutoffPeriod(keepMonths, now);
    let moved = 0;
    for (const s of Object.values(index.series)) {
      const old = s.periods.filter((p) => p < cutoff);
      for (const period of old) {
        await moveToArchive(dir, shardPath(s.dir, period));
        moved++;
      }
      if (old.length) {
        s.periods = s.periods.filter((p) => p >= cutoff);
        s.archived = [...new Set([...(s.archived ?? []), ...old])].sort();
      }
    }
    for (const period of index.periods.filter((p) => p < cutoff)) {
      if (await exists(path.join(dir, 'runs', period))) await moveToArchive(dir, `runs/${period}`);
    }
    // The index is written after the moves: if a move fails, the index still lists the shard where a
    // later retention run finds and moves it.
    if (moved) await writeJsonAtomic(path.join(dir, INDEX_FILE), { ...index, updatedAt: new Date().toISOString() });
    return moved;
  });
}

/** @param {string} dir @param {string} rel */
async function moveToArchive(dir, rel) {
  const from = path.join(dir, rel);
  const to = path.join(dir, ARCHIVE_DIR, rel);
  if (!(await exists(from))) return;
  if (await exists(to)) throw new HistoryError(to, `already archived, and ${from} exists too; move one aside by hand (nothing was overwritten)`);
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.rename(from, to);
}
