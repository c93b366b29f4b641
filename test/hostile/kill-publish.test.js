// A publish (with retention) killed with SIGKILL at EVERY point where it changes the disk, one run per
// point (DIND_BENCH_FAULT_AT=N, see src/history/files.js `faultPoint`): a reader then sees the history
// as it was before, after the publish, or after publish and retention, never a mix; and the next
// publish completes it to exactly the state an uninterrupted one leaves.
import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { archiveOldShards } from '../../src/history/retention.js';
import { openHistory } from '../../src/history/store.js';
import { cli, readerView, smallRun, snapshot, tmpDir } from './helpers.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The data files (series, archive, runs) and their content: what must come out the same. @param {string} dir */
const dataFiles = (dir) =>
  Object.fromEntries(Object.entries(snapshot(dir)).filter(([f]) => /^(series|archive|runs)\//.test(f)));

test(
  'publish killed at every write point: readers see before or after, the next publish completes it',
  { timeout: 600_000 },
  async () => {
    const runs = tmpDir('kill-runs');
    const base = path.join(tmpDir('kill'), 'base');
    const ago = (/** @type {number} */ ms) => new Date(Date.now() - ms).toISOString();
    // An old month for retention to archive, a run this month, then the run whose publish is killed.
    await publishRun(base, smallRun(runs, 'old', { startedAt: ago(95 * DAY) }));
    await publishRun(base, smallRun(runs, 'prev', { startedAt: ago(2 * HOUR) }));
    const next = smallRun(runs, 'next', { startedAt: ago(HOUR) });
    const args = (/** @type {string} */ dir) => ['publish', next, '--history', dir, '--retain-months', '2'];
    const copy = (/** @type {string} */ name) => {
      const dir = path.join(path.dirname(base), name);
      cpSync(base, dir, { recursive: true, verbatimSymlinks: true });
      return dir;
    };

    const before = await readerView(base);
    const publishedOnly = copy('published');
    await publishRun(publishedOnly, next);
    const published = await readerView(publishedOnly);
    const reference = copy('reference');
    const traced = await cli(args(reference), { DIND_BENCH_FAULT_TRACE: '1' });
    assert.equal(traced.code, 0, traced.stderr);
    const after = await readerView(reference);
    const points = (traced.stderr.match(/^write point \d+: /gm) ?? []).length;
    // Sanity: the three states differ, and the trace lists the publish's changes (3 series: >= 20).
    assert.notDeepEqual(before, published);
    assert.notDeepEqual(published, after);
    assert.ok(points >= 20, `only ${points} write points traced:\n${traced.stderr}`);

    const seen = { before: 0, published: 0, after: 0 };
    for (let n = 1; n <= points; n++) {
      const dir = copy(`killed-${n}`);
      const killed = await cli(args(dir), { DIND_BENCH_FAULT_AT: String(n) });
      assert.equal(
        killed.signal,
        'SIGKILL',
        `write point ${n}: the publish was not killed (exit ${killed.code}): ${killed.stderr}`,
      );

      const view = await readerView(dir);
      const state = isDeepStrictEqual(view, before)
        ? 'before'
        : isDeepStrictEqual(view, published)
          ? 'published'
          : isDeepStrictEqual(view, after)
            ? 'after'
            : null;
      assert.ok(
        state,
        `killed at write point ${n} (${traced.stderr.split('\n')[n - 1]}): a reader sees a mix:\n${JSON.stringify(view)}`,
      );
      seen[state]++;
      if (state !== 'after') {
        // The index's point counts agree with what the shards hold (the "index says 0, shards hold 1").
        const h = await openHistory(dir);
        for (const s of h.listSeries())
          assert.equal(h.index.series[s.key].points, (await h.readSeries(s.key)).length, `write point ${n}: ${s.key}`);
      }

      // The next publish (and retention) completes it: same view, same data files, nothing left over.
      await publishRun(dir, next);
      await archiveOldShards(dir, { keepMonths: 2 });
      assert.deepEqual(await readerView(dir), after, `write point ${n}: not completed`);
      assert.deepEqual(
        dataFiles(dir),
        dataFiles(reference),
        `write point ${n}: files differ from an uninterrupted publish`,
      );
      assert.ok(
        !existsSync(path.join(dir, '.publish')) && !existsSync(path.join(dir, '.publish.lock')),
        `write point ${n}: left over`,
      );
    }
    // Every state was hit: the kills fell before, between and after the two commit points.
    assert.ok(seen.before > 0 && seen.published > 0 && seen.after > 0, JSON.stringify(seen));
  },
);
