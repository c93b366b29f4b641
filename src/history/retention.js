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
          const to = await archivePlace(dir, shardPath(seriesDir(s), period));
          if (to) {
            tx.move(shardPath(seriesDir(s), period), to);
            moved++;
          }
        }
        if (old.length) {
          s.periods = s.periods.filter((p) => p >= cutoff);
          s.archived = [...new Set([...(s.archived ?? []), ...old])].sort();
        }
      }
      for (const period of index.periods.filter((p) => p < cutoff)) {
        const to = await archivePlace(dir, `runs/${period}`);
        if (to) tx.move(`runs/${period}`, to);
      }
      if (moved) await tx.put(INDEX_FILE, { ...index, updatedAt: new Date().toISOString() });
    });
    return moved;
  });
}

/**
 * Where `rel` goes in archive/, or null when it is not there to move. Its own place, or, when a month was
 * archived before and a late run (its start in that month) was published since, a free place beside it:
 * ARCHIVE/REL.late-N. Nothing is overwritten and nothing merged, and retention goes on (it used to refuse
 * here, and then every later retention refused again). The late file is kept for whoever restores the
 * month, as every archived file is.
 * @param {string} dir @param {string} rel @returns {Promise<string | null>}
 */
async function archivePlace(dir, rel) {
  await refuseLinks(dir, rel);
  const there = (/** @type {string} */ p) =>
    fs.lstat(path.join(dir, p)).then(
      () => true,
      () => false,
    );
  if (!(await there(rel))) return null;
  for (let n = 0; n <= MAX_LATE; n++) {
    const to = n === 0 ? `${ARCHIVE_DIR}/${rel}` : `${ARCHIVE_DIR}/${rel}.late-${n}`;
    await refuseLinks(dir, to);
    if (!(await there(to))) return to;
  }
  throw new HistoryError(
    path.join(dir, ARCHIVE_DIR, rel),
    `already archived ${MAX_LATE + 1} times (late runs of that month); move the .late-N copies aside by hand`,
  );
}

/** How many late copies of one archived month are kept beside it before retention asks for a hand. */
const MAX_LATE = 99;
