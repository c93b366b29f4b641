// The answer first, in job terms: what the candidate (DinD, an alternative, another Engine line) costs a
// job on this runner, in seconds with an interval and in dollars per 1,000 jobs, what that is made of, then
// the outcomes by benchmark. Every output opens with these sentences (plain text; callers escape them).
import { DEFAULT_PRICE_PER_MINUTE } from '../model/job-cost.js';
import { magnitude, unsignedPct } from '../model/numbers.js';
import { median } from '../stats/index.js';

/** The metric of the start-up a job pays: from the start call to the first container's output. */
export const STARTUP_METRIC = 'startup.total_ms';

/** Seconds as a sentence reads them: "7.9 s", "0.35 s". @param {number} ms */
const seconds = (ms) => `${Math.abs(ms) < 1000 ? (ms / 1000).toFixed(2) : magnitude(ms / 1000, 100)} s`;
/** @param {number} ms */
const signedSeconds = (ms) => `${ms < 0 ? '-' : '+'}${seconds(Math.abs(ms))}`;

/**
 * @typedef {import('./index.js').Comparison} Comparison
 * @typedef {{ price?: number, phases?: Record<string, number> }} AnswerOptions
 * price: dollars per runner-minute (occupancy: a self-hosted runner's price, or a hosted minute's);
 * phases: the candidate's median phase times (ms) by startup metric, for what the start-up is made of.
 */

/**
 * The start-up a job pays, the candidate against the baseline: "dind@20.10 costs a job +7.5 s
 * [+6.9 s, +8.1 s] to start against docker (7.9 s vs 0.40 s; regression), +$0.75 per 1,000 jobs at
 * $0.006 a runner-minute". Null without a start-up comparison. The interval is the ratio's, times the
 * baseline's median.
 * @param {Comparison} c the STARTUP_METRIC comparison @param {AnswerOptions} [opts]
 */
export function startupSentence(c, opts = {}) {
  const price = opts.price ?? DEFAULT_PRICE_PER_MINUTE;
  const base = c.baseline.median;
  const diff = c.candidate.median - base;
  const lo = base * (c.ratio.low - 1);
  const hi = base * (c.ratio.high - 1);
  const per1000 = (diff / 60_000) * price * 1000;
  const interval = Number.isFinite(lo) && Number.isFinite(hi) ? ` [${signedSeconds(lo)}, ${signedSeconds(hi)}]` : '';
  const money = `${per1000 < 0 ? '-' : '+'}$${Math.abs(per1000).toFixed(2)} per 1,000 jobs at $${price} a runner-minute`;
  const made = madeOf(opts.phases);
  return (
    `${c.candidate.env} costs a job ${signedSeconds(diff)}${interval} to start against ${c.baseline.env} ` +
    `(${seconds(c.candidate.median)} vs ${seconds(base)}, ${outcomeText(c)}), ${money}${made ? `; ${made}` : ''}.`
  );
}

/**
 * "of its 7.9 s: inner engine ready 0.80 s, image made available 7.0 s, first container 0.12 s".
 * @param {Record<string, number> | undefined} phases
 */
function madeOf(phases) {
  const total = phases?.[STARTUP_METRIC] ?? 0;
  if (!phases || !(total > 0)) return '';
  const image = phases['startup.image_load_ms'] ?? 0;
  const first = ['startup.first_create_ms', 'startup.first_attach_ms', 'startup.first_start_ms'].reduce(
    (a, k) => a + (phases[k] ?? 0),
    0,
  );
  const engine = Math.max(0, total - image - first);
  const parts = [
    ...(engine > 0 && image + first < total ? [`inner engine ready ${seconds(engine)}`] : []),
    ...(image > 0 ? [`image made available ${seconds(image)}`] : []),
    `first container ${seconds(first)}`,
  ];
  return `of its ${seconds(total)}: ${parts.join(', ')}`;
}

/** "regression", "equivalent within ±10%", "inconclusive, sees ≥ 39%". @param {Comparison} c */
export function outcomeText(c) {
  if (c.outcome === 'equivalent') return `equivalent within ±${unsignedPct(c.threshold)}`;
  if (c.outcome === 'inconclusive') {
    const sees =
      c.detectable.change === null
        ? 'inconclusive, too few samples for a test'
        : `inconclusive, sees ≥ ${unsignedPct(c.detectable.change)}`;
    return c.samplesToDecide
      ? `${sees}; about ${c.samplesToDecide.toLocaleString('en')} samples a side would decide it`
      : sees;
  }
  return c.outcome ?? 'no number';
}

/**
 * The outcomes by benchmark: "lifecycle: regression in 6 of 11 (most: container.create_ms +75%),
 * inconclusive in 3 (sees ≥ 39%; about 14 samples a side would decide), equivalent in 2".
 * @param {Comparison[]} comparisons one candidate against one baseline
 */
export function familySentences(comparisons) {
  /** @type {Map<string, Comparison[]>} */
  const by = new Map();
  for (const c of comparisons) by.set(c.benchmark, [...(by.get(c.benchmark) ?? []), c]);
  return [...by].map(([benchmark, cs]) => {
    const of = (/** @type {string} */ o) => cs.filter((c) => c.outcome === o);
    const parts = [];
    const reg = of('regression').sort((a, b) => b.worse - a.worse);
    if (reg.length)
      parts.push(`regression in ${reg.length} of ${cs.length} (most: ${reg[0].metric} ${pct(reg[0].worse)})`);
    const inc = of('inconclusive');
    if (inc.length) {
      const sees = inc.map((c) => c.detectable.change).filter((x) => x !== null);
      const need = inc.map((c) => c.samplesToDecide).filter((x) => x !== null);
      const seesText =
        sees.length < inc.length ? 'some too few for a test' : `sees ≥ ${unsignedPct(Math.min(...sees))} at best`;
      // The median need: what would decide about half of them (a few noisy metrics need far more).
      const half = [...need].sort((a, b) => a - b)[Math.floor((need.length - 1) / 2)];
      const needText = need.length
        ? `; about ${half.toLocaleString('en')} samples a side would decide half of them`
        : '';
      parts.push(`inconclusive in ${inc.length} (${seesText}${needText})`);
    }
    const imp = of('improvement');
    if (imp.length) parts.push(`improvement in ${imp.length}`);
    const eq = of('equivalent');
    if (eq.length) parts.push(`equivalent in ${eq.length}`);
    return `${benchmark}: ${parts.join(', ') || 'no comparable metric'}`;
  });
}

/** +75% @param {number} x */
const pct = (x) => `${x >= 0 ? '+' : '-'}${unsignedPct(x)}`;

/**
 * The answer for one candidate against one baseline: the start-up a job pays (where the run measured it),
 * then the outcomes by benchmark.
 * @param {Comparison[]} comparisons @param {AnswerOptions} [opts]
 */
export function answerFor(comparisons, opts = {}) {
  if (!comparisons.length) return '';
  const { candidate, baseline } = comparisons[0];
  if (comparisons.every((c) => !c.testable)) {
    // Nothing can be decided, so say why and what is needed rather than a count of outcomes.
    const n = `${Math.min(...comparisons.map((c) => c.candidate.n))} vs ${Math.min(...comparisons.map((c) => c.baseline.n))}`;
    return (
      `${candidate.env} against ${baseline.env}: inconclusive in all ${comparisons.length} metrics: with ${n} samples a side ` +
      'no test can reach p < 0.05, so nothing can be shown worse, better or equivalent; at least 5 samples a side are ' +
      'needed (run 5 iterations or more, as the quick profile does).'
    );
  }
  const startup = comparisons.find((c) => c.benchmark === 'lifecycle' && c.metric === STARTUP_METRIC);
  const first = startup ? `${startupSentence(startup, opts)} ` : '';
  return `${first}${candidate.env} against ${baseline.env}, by benchmark: ${familySentences(comparisons).join('; ')}.`;
}

/**
 * The median of each start-up phase of one environment's lifecycle cell (for what its start-up is made of).
 * @param {import('#model/results.js').Results} results @param {string} envKey @param {string} [distro]
 * @returns {Record<string, number>}
 */
export function startupPhases(results, envKey, distro) {
  const cell = results.cells.find(
    (/** @type {any} */ c) =>
      c.status === 'ok' &&
      c.benchmark === 'lifecycle' &&
      c.environmentKey === envKey &&
      (!distro || c.distro === distro),
  );
  /** @type {Record<string, number>} */
  const out = {};
  for (const m of cell?.metrics ?? [])
    if (m.metric.startsWith('startup.') && m.samples.length) out[m.metric] = median(m.samples);
  return out;
}
