// Table rows shared by the terminal, Markdown and PR-comment renderers: one place decides how a comparison
// or a verdict reads.

const KIND_TITLES = {
  'dind-vs-docker': 'DinD vs Docker',
  'docker-vs-native': 'Docker vs native',
  'alpine-vs-debian': 'Alpine vs Debian',
};

/** @param {number} x */
export const num = (x) => (!Number.isFinite(x) ? '–' : Math.abs(x) >= 1000 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));
/** @param {number} p */
export const pValue = (p) => (!Number.isFinite(p) ? '–' : p < 0.001 ? '<0.001' : p.toFixed(3));
/** @param {number} worse */
export const signedPct = (worse) => `${worse >= 0 ? '+' : '-'}${Math.abs(worse * 100).toFixed(1)}%`;

/**
 * How a comparison reads in one phrase: "+43.0% worse (large)" when the difference is significant,
 * "no clear difference" when a test could have found one and did not, and "too few samples to test"
 * when it never could (then the interval of the ratio is the answer).
 * @param {import('./within-run.js').Comparison} c
 */
export function reading(c) {
  if (!Number.isFinite(c.worse)) return '–';
  if (!c.significant && c.testable === false) return `${signedPct(c.worse)}, too few samples to test (${c.candidate.n} vs ${c.baseline.n}): read the interval`;
  if (!c.significant) return `no clear difference (${signedPct(c.worse)})`;
  return `${signedPct(c.worse)} ${c.worse > 0 ? 'worse' : 'better'} (${c.magnitude})`;
}

/**
 * Within-run comparisons grouped into tables: one per kind and benchmark.
 * @param {import('./within-run.js').Comparison[]} comparisons
 * @returns {Array<{ title: string, header: string[], rows: string[][] }>}
 */
export function comparisonTables(comparisons) {
  /** @type {Map<string, import('./within-run.js').Comparison[]>} */
  const groups = new Map();
  for (const c of comparisons) {
    const key = `${KIND_TITLES[c.kind]}, ${c.benchmark}: ${label(c.candidate)} vs ${label(c.baseline)}`;
    if (!groups.has(key)) groups.set(key, []);
    /** @type {any[]} */ (groups.get(key)).push(c);
  }
  return [...groups].map(([title, cs]) => ({
    title,
    header: ['metric', `${label(cs[0].baseline)} median [95% CI]`, `${label(cs[0].candidate)} median [95% CI]`, 'ratio [95% CI]', 'p', "Cliff's delta", 'reading'],
    rows: cs.map((c) => [
      `${c.metric} (${c.unit}, ${c.better === 'lower' ? 'lower' : 'higher'} is better)`,
      `${num(c.baseline.median)} [${num(c.baseline.low)}, ${num(c.baseline.high)}]`,
      `${num(c.candidate.median)} [${num(c.candidate.low)}, ${num(c.candidate.high)}]`,
      ratioText(c.ratio),
      pValue(c.p),
      `${c.cliffsDelta.toFixed(2)} ${c.magnitude}`,
      reading(c),
    ]),
  }));
}

/** @param {{ ratio: number, low: number, high: number }} r */
const ratioText = (r) => (Number.isFinite(r.ratio) ? `${r.ratio.toFixed(3)} [${r.low.toFixed(3)}, ${r.high.toFixed(3)}]` : '– (baseline median is 0)');

/** @param {import('./within-run.js').Side} s */
const label = (s) => (s.distro === 'host' ? s.env : `${s.env}/${s.distro}`);

/**
 * Verdicts against history, regressions first.
 * @param {import('./against-history.js').SeriesVerdict[]} verdicts
 */
export function verdictTable(verdicts) {
  const order = { regression: 0, improvement: 1, 'insufficient data': 2, 'no change': 3, baseline: 4 };
  const sorted = [...verdicts].sort((a, b) => order[a.status] - order[b.status]);
  return {
    header: ['verdict', 'benchmark', 'metric', 'environment', 'distro', 'median', 'past median', 'change', 'p', 'why'],
    rows: sorted.map((v) => [
      v.status,
      v.benchmark,
      `${v.metric} (${v.unit})`,
      v.environmentKey,
      v.distro,
      num(v.median),
      v.pastMedian === null ? '–' : num(v.pastMedian),
      v.change === null ? '–' : `${signedPct(v.change)} ${v.change >= 0 ? 'worse' : 'better'}`,
      v.p === null ? '–' : pValue(v.p),
      v.reason,
    ]),
  };
}

/** @param {import('./against-history.js').SeriesVerdict[]} verdicts */
export function verdictCounts(verdicts) {
  /** @type {Record<string, number>} */
  const counts = { regression: 0, improvement: 0, 'no change': 0, 'insufficient data': 0, baseline: 0 };
  for (const v of verdicts) counts[v.status]++;
  return counts;
}
