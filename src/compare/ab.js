// A/B of any two environments of one run (`compare RESULTS --baseline KEY --candidate KEY`): two inner
// Engine lines (dind@20.10 against dind@26.1), dind against dind-rootless, dind against dind-mirror. The
// two were interleaved in the same run on the same machine (the cleanest A/B there is), so their samples
// are compared directly by the within-run rule (../results/within-run.js compareSampleSets): ratio of
// medians with its interval, Mann-Whitney p, Cliff's delta, and the word it reads as. A metric is a
// regression when the candidate is significantly worse; the gate stops on any (EXIT_REGRESSION).
import { compareSampleSets, reading, withinRunWord } from '../results/within-run.js';
import { costChange } from '../model/change.js';
import { num } from '../model/numbers.js';

export class AbError extends Error {}

/**
 * @typedef {{
 *   benchmark: string, metric: string, unit: string, distro: string, better: 'higher' | 'lower',
 *   baseline: { env: string, n: number, median: number }, candidate: { env: string, n: number, median: number },
 *   comparison: ReturnType<typeof compareSampleSets>, change: number,
 *   verdict: 'regression' | 'improvement' | 'no change' | 'insufficient data',
 * }} AbRow
 */

/** The environment keys a run has cells for. @param {import('#model/results.js').Results} results */
const keysOf = (results) => [...new Set(results.cells.map((/** @type {any} */ c) => c.environmentKey))];

/**
 * Every metric both environments measured (cells ok), candidate against baseline.
 * @param {import('#model/results.js').Results} results a valid results document @param {string} baseline @param {string} candidate
 * @returns {AbRow[]}
 */
export function compareEnvironments(results, baseline, candidate) {
  const keys = keysOf(results);
  for (const k of [baseline, candidate])
    if (!keys.includes(k))
      throw new AbError(`no environment ${JSON.stringify(k)} in this run; its environments: ${keys.join(', ')}`);
  if (baseline === candidate) throw new AbError('--baseline and --candidate name the same environment');
  const ok = results.cells.filter((/** @type {any} */ c) => c.status === 'ok');
  /** @type {AbRow[]} */
  const rows = [];
  for (const cand of ok.filter((/** @type {any} */ c) => c.environmentKey === candidate)) {
    const base = ok.find(
      (/** @type {any} */ c) =>
        c.environmentKey === baseline &&
        c.benchmark === cand.benchmark &&
        (c.distro === cand.distro || c.distro === 'host'),
    );
    if (!base) continue;
    for (const m of cand.metrics) {
      const b = base.metrics.find((/** @type {any} */ x) => x.metric === m.metric);
      if (!b?.samples.length || !m.samples.length) continue;
      const comparison = compareSampleSets(b.samples, m.samples, m.better);
      const word = withinRunWord(comparison);
      rows.push({
        benchmark: cand.benchmark,
        metric: m.metric,
        unit: m.unit,
        distro: cand.distro,
        better: m.better,
        baseline: { env: baseline, n: b.samples.length, median: median(b.samples) },
        candidate: { env: candidate, n: m.samples.length, median: median(m.samples) },
        comparison,
        change: costChange(comparison.ratio.ratio, m.better),
        verdict:
          word === 'worse'
            ? 'regression'
            : word === 'better'
              ? 'improvement'
              : word === 'too few'
                ? 'insufficient data'
                : 'no change',
      });
    }
  }
  return rows;
}

/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * The answer first, with magnitudes: "dind@26.1 against dind@20.10: worse in 2 of 14 metrics (most:
 * lifecycle container.create_ms +38% ▲ worse), better in 1; no verdict in 3 (too few samples)."
 * @param {AbRow[]} rows @param {string} baseline @param {string} candidate
 */
export function abAnswer(rows, baseline, candidate) {
  if (!rows.length) return `${candidate} against ${baseline}: no metric measured in both in this run.`;
  const worse = rows.filter((r) => r.verdict === 'regression').sort((a, b) => b.change - a.change);
  const better = rows.filter((r) => r.verdict === 'improvement');
  const few = rows.filter((r) => r.verdict === 'insufficient data');
  const top = worse.slice(0, 3).map((r) => `${r.benchmark} ${r.metric} ${reading({ ...r.comparison })}`);
  return (
    `${candidate} against ${baseline}: worse in ${worse.length} of ${rows.length} metrics` +
    (top.length ? ` (most: ${top.join(', ')})` : '') +
    `, better in ${better.length}` +
    (few.length ? `; no verdict in ${few.length} (too few samples: run more iterations)` : '') +
    '.'
  );
}

/** The table of an A/B: header and rows (strings; callers escape for their format). @param {AbRow[]} rows */
export function abTable(rows) {
  return {
    header: ['benchmark', 'metric', 'distro', 'baseline median', 'candidate median', 'change', 'verdict'],
    rows: rows.map((r) => [
      r.benchmark,
      `${r.metric} (${r.unit})`,
      r.distro,
      `${num(r.baseline.median)} (n=${r.baseline.n})`,
      `${num(r.candidate.median)} (n=${r.candidate.n})`,
      reading({ ...r.comparison }),
      r.verdict,
    ]),
  };
}
