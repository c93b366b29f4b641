// Table rows shared by the terminal, Markdown and PR-comment renderers: one place decides how a comparison
// or a verdict reads (numbers: ../text/numbers.js; a comparison's phrase: ../model/change.js).
import { details, reading } from '../model/change.js';
import { versusTitle } from '../reading/index.js';
import { HISTORY_STATUSES } from '../reading/history.js';
import { num, pValue, shortPct } from '../model/numbers.js';

/**
 * Within-run comparisons grouped into tables: one per kind and benchmark.
 * @param {import('../reading/index.js').Comparison[]} comparisons
 * @returns {Array<{ title: string, header: string[], rows: string[][] }>}
 */
export function comparisonTables(comparisons) {
  /** @type {Map<string, import('../reading/index.js').Comparison[]>} */
  const groups = new Map();
  for (const c of comparisons) {
    const distro =
      c.candidate.distro === c.baseline.distro || c.baseline.distro === 'host' ? ` (${c.candidate.distro})` : '';
    const key = `${versusTitle(c)}, ${c.benchmark}${distro}: ${label(c.candidate)} vs ${label(c.baseline)}`;
    if (!groups.has(key)) groups.set(key, []);
    /** @type {any[]} */ (groups.get(key)).push(c);
  }
  return [...groups].map(([title, cs]) => ({
    title,
    header: ['metric', ...sideNames(cs[0]), 'outcome', 'ratio [interval], p, δ'],
    rows: cs.map((c) => [
      `${c.metric} (${c.unit})`,
      num(c.baseline.median),
      num(c.candidate.median),
      reading(c),
      details(c),
    ]),
  }));
}

/** Column names of the two sides: environments, or distributions when they are what differs. @param {import('../reading/index.js').Comparison} c */
const sideNames = (c) =>
  c.baseline.env === c.candidate.env ? [c.baseline.distro, c.candidate.distro] : [c.baseline.env, c.candidate.env];
/** @param {import('../reading/index.js').Side} s */
const label = (s) => (s.distro === 'host' ? s.env : `${s.env}/${s.distro}`);

/**
 * Verdicts against history, regressions first, one compact row per series with the smallest change this
 * history lets a run detect (`detectable`, see src/stats/detectable.js); series with insufficient data
 * are left to `groupedInsufficient` (their reason is the same for many, so it is said once). The full
 * reason of every verdict is in `compare --json`.
 * @param {import('./against-history.js').SeriesVerdict[]} verdicts
 */
export function verdictTable(verdicts) {
  const sorted = verdicts
    .filter((v) => v.status !== 'insufficient data')
    .sort((a, b) => HISTORY_STATUSES.indexOf(a.status) - HISTORY_STATUSES.indexOf(b.status));
  return {
    header: ['verdict', 'metric', 'where', 'median', 'past', 'change', 'p', 'detectable'],
    rows: sorted.map((v) => [
      v.status === 'regression'
        ? '▲ regression'
        : v.status === 'improvement'
          ? '▼ improvement'
          : v.status === 'inconclusive'
            ? `inconclusive (${v.detectable.change === null ? 'too few' : `sees ≥ ${shortPct(v.detectable.change).slice(1)}`})`
            : v.status === 'equivalent'
              ? `equivalent (±${shortPct(v.threshold).slice(1)})`
              : v.status,
      `${v.benchmark} ${v.metric}`,
      `${v.environmentKey}/${v.distro}`,
      num(v.median),
      v.pastMedian === null ? '–' : num(v.pastMedian),
      v.change === null ? '–' : shortPct(v.change),
      v.p === null ? '–' : pValue(v.p),
      v.detectable?.change == null ? '–' : shortPct(v.detectable.change).slice(1),
    ]),
  };
}

/**
 * Series without a verdict, grouped by why (e.g. "this run has 3 samples; a verdict needs at least 5").
 * @param {import('./against-history.js').SeriesVerdict[]} verdicts
 * @returns {Array<{ reason: string, count: number }>}
 */
export function groupedInsufficient(verdicts) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const v of verdicts.filter((x) => x.status === 'insufficient data'))
    counts.set(v.reason, (counts.get(v.reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count }));
}

/** @param {import('./against-history.js').SeriesVerdict[]} verdicts */
export function verdictCounts(verdicts) {
  /** @type {Record<string, number>} */
  const counts = Object.fromEntries(HISTORY_STATUSES.map((s) => [s, 0]));
  for (const v of verdicts) counts[v.status]++;
  return counts;
}
