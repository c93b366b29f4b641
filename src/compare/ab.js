// A/B of any two environments of one run (`compare RESULTS --baseline KEY --candidate KEY`): two inner
// Engine lines (dind@20.10 against dind@26.1), dind against dind-rootless, dind against dind-mirror. The
// two were interleaved in the same run on the same machine (the cleanest A/B there is), so the reading
// layer compares their samples directly (../reading/: ratio of medians with its interval, Mann-Whitney p
// under the run's false-alarm control, the four outcomes against each metric's threshold T).
import { readAb } from '../reading/index.js';
import { reading } from '../model/change.js';
import { num } from '../model/numbers.js';

export class AbError extends Error {}

/** @typedef {import('../reading/index.js').Comparison} AbRow */

/** The environment keys a run has cells for. @param {import('#model/results.js').Results} results */
const keysOf = (results) => [...new Set(results.cells.map((c) => c.environmentKey))];

/**
 * The two environments of an A/B must both be in the run, and differ: else an error naming the run's.
 * @param {import('#model/results.js').Results} results @param {string} baseline @param {string} candidate
 */
export function checkPair(results, baseline, candidate) {
  const keys = keysOf(results);
  for (const k of [baseline, candidate])
    if (!keys.includes(k))
      throw new AbError(`no environment ${JSON.stringify(k)} in this run; its environments: ${keys.join(', ')}`);
  if (baseline === candidate) throw new AbError('--baseline and --candidate name the same environment');
}

/**
 * Every metric both environments measured (cells ok), candidate against baseline.
 * @param {import('#model/results.js').Results} results a valid results document @param {string} baseline @param {string} candidate
 * @param {import('../reading/index.js').ReadOptions} [opts]
 * @returns {AbRow[]}
 */
export function compareEnvironments(results, baseline, candidate, opts = {}) {
  checkPair(results, baseline, candidate);
  return readAb(results, baseline, candidate, opts);
}

/** The table of an A/B: header and rows (strings; callers escape for their format). @param {AbRow[]} rows */
export function abTable(rows) {
  return {
    header: ['benchmark', 'metric', 'distro', 'baseline median', 'candidate median', 'change', 'outcome'],
    rows: rows.map((r) => [
      r.benchmark,
      `${r.metric} (${r.unit})`,
      r.candidate.distro,
      `${num(r.baseline.median)} (n=${r.baseline.n})`,
      `${num(r.candidate.median)} (n=${r.candidate.n})`,
      reading(r),
      r.outcome ?? '–',
    ]),
  };
}
