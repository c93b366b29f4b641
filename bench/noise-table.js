// The arithmetic of `npm run bench:noise` (./noise.js), kept apart so that it is tested without an engine:
// per decision metric, its per-sample spread over an A/A (one environment's samples of one run, taken in
// interleaved rounds, split into odd and even rounds as two sides of the same environment) and what that
// spread costs in samples at the quick run's own decision level, read with the project's own functions.
import { DECISIONS, looksUpTo } from '../src/model/decisions.js';
import { decisionLevel, samplesToDecide } from '../src/reading/index.js';
import { isAsked, withinRunPairs } from '../src/reading/pairs.js';
import { PROFILES } from '../src/run/profiles.js';
import { logRatioInterval } from '../src/stats/log-interval.js';

/**
 * The quick profile's own decision level: its questions (each environment against Docker and the next
 * Engine line against the default, by the reading's one rule, src/reading/pairs.js) and the looks its
 * sampling design allows.
 * @returns {{ decisions: number, looks: number, alpha: number, level: number }}
 */
export function quickDecisionLevel() {
  const q = PROFILES.quick;
  const benches = q.benchmarks ?? [];
  const cells = [];
  for (const environment of q.environments ?? [])
    for (const benchmark of benches.filter((b) => !q.only?.[environment] || q.only[environment].includes(b)))
      cells.push(cellOf(benchmark, environment, environment === 'docker' ? null : '20.10'));
  if (q.nextEngine) cells.push(cellOf('lifecycle', 'dind', q.nextEngine));
  const decisions = withinRunPairs(cells)
    .filter((p) => isAsked(p.kind))
    .filter((p) => (DECISIONS[p.candidate.benchmark]?.metrics.length ?? 0) > 0).length;
  const looks = looksUpTo(q.iterations, q.maxIterations ?? q.iterations).length;
  return { decisions, looks, ...decisionLevel(decisions, looks) };
}

/** @param {string} benchmark @param {string} environment @param {string | null} engine */
const cellOf = (benchmark, environment, engine) => ({
  benchmark,
  environment,
  environmentKey: engine ? `${environment}@${engine}` : environment,
  distro: 'debian',
  engine,
});

/** @param {number[]} xs */
export function cv(xs) {
  if (xs.length < 2) return NaN;
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
  return sd / mean;
}

/**
 * One environment's samples of one metric read as an A/A: odd rounds against even rounds (both sides
 * interleaved with every other cell of the run, so drift and load reach both). The interval is the
 * decision's own (src/stats/log-interval.js) at `level`; an A/A's true change is 0, so the samples a side
 * that would decide ±T are read from an interval of the same width centred on no change (samplesToDecide,
 * the figure a run prints as "about N samples a side would decide it").
 * @param {number[]} samples in the order they were taken
 * @param {'higher' | 'lower'} better
 * @param {number} level
 * @returns {{ n: number, cv: number, ratio: number | null, low: number | null, high: number | null,
 *   toDecide5: number | null, toDecide10: number | null }}
 */
export function aaOf(samples, better, level) {
  const a = samples.filter((_, i) => i % 2 === 0);
  const b = samples.filter((_, i) => i % 2 === 1);
  const interval = logRatioInterval(a, b, level);
  const none = { ratio: null, low: null, high: null, toDecide5: null, toDecide10: null };
  if (!interval) return { n: samples.length, cv: cv(samples), ...none };
  const half = (Math.log(interval.high) - Math.log(interval.low)) / 2;
  const toDecide = (/** @type {number} */ threshold) =>
    half === 0
      ? Math.max(5, Math.min(a.length, b.length))
      : samplesToDecide({
          ratio: { ratio: 1, low: Math.exp(-half), high: Math.exp(half) },
          better,
          threshold,
          baseline: { n: a.length },
          candidate: { n: b.length },
        });
  return {
    n: samples.length,
    cv: cv(samples),
    ratio: interval.ratio,
    low: interval.low,
    high: interval.high,
    toDecide5: toDecide(0.05),
    toDecide10: toDecide(0.1),
  };
}

/**
 * @typedef {{ variant: string, benchmark: string, metric: string, environment: string, n: number, cv: number,
 *   ratio: number | null, low: number | null, high: number | null, toDecide5: number | null,
 *   toDecide10: number | null, secondsPerSample: number | null, loadBefore: number[], loadAfter: number[],
 *   params: Record<string, unknown> | null, mean: number, unit: string }} NoiseRow
 */

/** @param {number | null} n */
const count = (n) => (n === null ? '> 10,000' : n.toLocaleString('en'));
/** @param {number} x */
const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : 'n/a');
/** @param {number[]} l */
const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
/** Markdown table cells must not break the table. @param {string | number} s */
const cell = (s) => String(s).replace(/[|\r\n]/g, ' ');

/**
 * The Markdown table of one bench:noise run: one row per variant, benchmark and environment.
 * @param {NoiseRow[]} rows
 */
export function noiseTable(rows) {
  const out = [
    '| variant | benchmark | decision metric | environment | samples | mean | per-sample CV | A/A ratio [interval] | samples a side for ±5% | for ±10% | s per sample | load before → after |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows)
    out.push(
      `| ${[
        r.variant,
        r.benchmark,
        `\`${r.metric}\``,
        r.environment,
        r.n,
        `${r.mean.toPrecision(4)} ${r.unit}`,
        pct(r.cv),
        r.ratio === null
          ? 'n/a'
          : `${r.ratio.toFixed(3)} [${/** @type {number} */ (r.low).toFixed(3)}, ${/** @type {number} */ (r.high).toFixed(3)}]`,
        count(r.toDecide5),
        count(r.toDecide10),
        r.secondsPerSample === null ? 'n/a' : r.secondsPerSample.toFixed(2),
        `${load(r.loadBefore)} → ${load(r.loadAfter)}`,
      ]
        .map(cell)
        .join(' | ')} |`,
    );
  return out.join('\n');
}

/**
 * Replaces (or appends) the section of `doc` between `<!-- noise:NAME -->` and `<!-- /noise:NAME -->`, so
 * that one document keeps several generated tables (quiet, loaded, before/after) and the prose around them.
 * Other bench scripts keep their sections under a prefix of their own (`plan-accuracy`).
 * @param {string} doc @param {string} name @param {string} body @param {string} [prefix]
 */
export function replaceSection(doc, name, body, prefix = 'noise') {
  const open = `<!-- ${prefix}:${name} -->`;
  const close = `<!-- /${prefix}:${name} -->`;
  const block = `${open}\n${body.trim()}\n${close}`;
  const i = doc.indexOf(open);
  const j = doc.indexOf(close);
  if (i >= 0 && j > i) return doc.slice(0, i) + block + doc.slice(j + close.length);
  return `${doc.trimEnd()}\n\n${block}\n`;
}
