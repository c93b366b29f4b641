// The gate: what a pipeline decides on. It reads the outcomes of the metrics it gates (all, or those the
// caller names) and fails closed: `--fail-on regression` fails on a regression, `--fail-on inconclusive`
// also on a metric that could not be judged, so a gate never passes on what it could not see.
// The workflow outputs (actions/compare) are this object, as written by `compare --json`. Every exit code
// of a command comes from one function here, exitCodeOf: from the Reading, or from why there is none.
import { isDecisionMetric } from '../model/decisions.js';
import { metricsOf } from './index.js';

/** Exit codes of `compare` with --fail-on (run uses 3 for failed cells, 1 for usage). */
export const EXIT_REGRESSION = 4;
export const EXIT_INCONCLUSIVE = 8;
/** Exit codes of `run` once its results are read: cells failed; default cells left out for the budget. */
export const EXIT_CELLS_FAILED = 3;
export const EXIT_LESS_THAN_ASKED = 6;
/** Exit codes of a `run` that stopped before it had results to read: an engine lost; over a strict budget. */
export const EXIT_ENGINE_LOST = 5;
export const EXIT_OVER_BUDGET = 7;

/**
 * Why a command ended without a Reading to exit on: an engine went away (5); a strict budget could not hold
 * the run, or `plan` found that it would not fit a limit (7); `merge` wrote the groups it could and left out
 * those with a shard missing (3, as cells that failed); `doctor` found a check that failed (1).
 * @typedef {'engine lost' | 'over budget' | 'does not fit' | 'shards left out' | 'checks failed'} Stopped
 */
/** @type {Record<Stopped, number>} */
const STOPPED_EXIT = {
  'engine lost': EXIT_ENGINE_LOST,
  'over budget': EXIT_OVER_BUDGET,
  'does not fit': EXIT_OVER_BUDGET,
  'shards left out': EXIT_CELLS_FAILED,
  'checks failed': 1,
};

/**
 * The exit code of every command (but a usage error, 1, which commander decides before any command runs),
 * from its Reading: `run` fails on cells that failed (3), then says it measured
 * less than its profile plans (6); `compare` exits as its gate decided (4 a regression, 8 inconclusive with
 * --fail-on inconclusive: it fails closed on what it could not see). A command that ended with no Reading
 * says why (Stopped above).
 * @param {{ gate: { exitCode: number }, complete: boolean, leftOutCells: number } | { stopped: Stopped }} reading
 * @param {'run' | 'compare' | 'plan' | 'merge' | 'doctor'} command
 */
export function exitCodeOf(reading, command) {
  if ('stopped' in reading) return STOPPED_EXIT[reading.stopped];
  if (command === 'compare') return reading.gate.exitCode;
  return !reading.complete ? EXIT_CELLS_FAILED : reading.leftOutCells ? EXIT_LESS_THAN_ASKED : 0;
}

/** What a gate fails on. */
export const FAIL_ON = Object.freeze(/** @type {const} */ (['regression', 'inconclusive']));

/**
 * @typedef {import('#model/reading.js').GateItem} GateItem
 * `where`: the environment (and distribution) judged; `sees`: the smallest change it could have seen
 * (null: none, too few samples).
 * @typedef {import('#model/reading.js').Gate} Gate
 * `unseen`: the largest change the gate could not have seen, over its inconclusive metrics (the largest
 * `sees`; 'any' when one could not have seen a change of any size); null when every gated metric was decided.
 */

/**
 * "benchmark/metric" patterns, * matching anything (the same as `--config` keys).
 * @param {string} pattern
 */
export function patternToRegExp(pattern) {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

/**
 * What a gate judges when the caller names nothing: what a job pays, the start-up before its images (from
 * the start call to the first container's output, less the image's load) for the built-in suite and the
 * job's time for a workload. A run with
 * neither is gated on every metric.
 */
export const DEFAULT_GATE = Object.freeze(['lifecycle/startup.without_image_ms', 'workload.*/job.total_ms']);

/**
 * The gate's metrics: the patterns given, else DEFAULT_GATE where the run has such a metric, else all.
 * @param {string[]} patterns @param {Array<{ benchmark: string, metric: string }>} metrics the run's
 * @returns {{ patterns: string[], gated: (benchmark: string, metric: string) => boolean }}
 */
export function gateFor(patterns, metrics) {
  if (patterns.length) return { patterns, gated: gatedBy(patterns) };
  const byDefault = gatedBy([...DEFAULT_GATE]);
  if (metrics.some((m) => byDefault(m.benchmark, m.metric))) return { patterns: [...DEFAULT_GATE], gated: byDefault };
  return { patterns: [], gated: gatedBy([]) };
}

/**
 * Which metrics a gate judges: every one when `patterns` is empty, else those matching one of them.
 * @param {string[]} patterns
 * @returns {(benchmark: string, metric: string) => boolean}
 */
export function gatedBy(patterns) {
  const res = patterns.map(patternToRegExp);
  return (benchmark, metric) => res.length === 0 || res.some((re) => re.test(`${benchmark}/${metric}`));
}

/**
 * @param {GateItem[]} items the gated metrics' outcomes
 * @param {typeof FAIL_ON[number] | null} failOn
 * @param {string | null} [why] why nothing could be gated (e.g. no history), when that is known
 * @returns {Gate}
 */
export function gateOf(items, failOn, why = null) {
  const regressed = items.filter((i) => i.outcome === 'regression').sort((a, b) => (b.change ?? 0) - (a.change ?? 0));
  const inconclusive = items.filter((i) => i.outcome === 'inconclusive');
  /** @type {Gate['verdict']} */
  const verdict = !items.length
    ? 'nothing gated'
    : regressed.length
      ? 'regression'
      : inconclusive.length
        ? 'inconclusive'
        : items.some((i) => i.outcome === 'improvement')
          ? 'improvement'
          : 'equivalent';
  // 'any': some inconclusive metric could not have seen a change of any size (no test possible, or a
  // median of 0), so there is no largest number to give.
  const unseen = !inconclusive.length
    ? null
    : inconclusive.some((i) => i.sees === null || !Number.isFinite(i.sees))
      ? /** @type {const} */ ('any')
      : Math.max(...inconclusive.map((i) => /** @type {number} */ (i.sees)));
  const fails =
    failOn === null
      ? 0
      : regressed.length
        ? EXIT_REGRESSION
        : failOn === 'inconclusive' && (inconclusive.length || !items.length)
          ? EXIT_INCONCLUSIVE
          : 0;
  const gate = {
    verdict,
    failOn,
    gated: items.length,
    regressed,
    inconclusive,
    worst: regressed[0] ?? null,
    unseen,
    exitCode: fails,
  };
  return { ...gate, sentence: gateSentence(gate, why) };
}

/** +12.3% @param {number | null} x */
const signed = (x) => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);
/** @param {number | 'any' | null} x */
const seesText = (x) =>
  typeof x !== 'number'
    ? 'a change of any size in some of them (too few samples or runs for a test, or a median of 0)'
    : `changes under ${(x * 100).toFixed(0)}%`;
/** @param {GateItem} i */
const nameOf = (i) => `${i.benchmark} ${i.metric} on ${i.where}`;

/**
 * The gate in one sentence: what it found, what it could not see, and whether it passes.
 * @param {Omit<Gate, 'sentence'>} g @param {string | null} [why]
 */
export function gateSentence(g, why = null) {
  const passes = g.exitCode === 0;
  const end = g.failOn === null ? '' : passes ? ' The gate passes.' : ` The gate fails (exit ${g.exitCode}).`;
  if (g.verdict === 'nothing gated') return `Nothing was judged: ${why ?? 'no metric matched the gate'}.${end}`;
  if (g.verdict === 'regression') {
    const w = /** @type {GateItem} */ (g.worst);
    return `Regression in ${g.regressed.length} of ${g.gated} gated metrics; the worst: ${nameOf(w)} ${signed(w.change)}.${end}`;
  }
  if (g.verdict === 'inconclusive') {
    const names = g.inconclusive.slice(0, 3).map(nameOf).join(', ');
    const more = g.inconclusive.length > 3 ? ` and ${g.inconclusive.length - 3} more` : '';
    return (
      `Inconclusive: ${g.inconclusive.length} of ${g.gated} gated metrics could not be judged (${names}${more}); ` +
      `it could not have seen ${seesText(g.unseen)}.${end}`
    );
  }
  return `${g.verdict === 'improvement' ? 'Improvement or equivalent' : 'Equivalent'}: every one of ${g.gated} gated metrics was decided, none regressed.${end}`;
}

/** "lifecycle/*,workload/*" as patterns; none: every metric. @param {string | undefined} list */
const gatePatterns = (list) =>
  (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * What the gate of a run judges: the metrics `--gate` names (each pattern must match a metric the run
 * measured: a gate on what was not measured would pass on nothing, so it is refused, naming the run's
 * decision metrics); without --gate, what a job pays where measured (DEFAULT_GATE), else the run's
 * decisions. `named`: the metrics --gate made decisions of, for the reading (undefined without --gate).
 * @param {string | undefined} list @param {import('#model/results.js').Results} results
 */
export function gateOfRun(list, results) {
  const patterns = gatePatterns(list);
  const metrics = metricsOf(results);
  for (const p of patterns) {
    const re = patternToRegExp(p);
    if (!metrics.some((m) => re.test(`${m.benchmark}/${m.metric}`))) {
      const decisions = [
        ...new Set(
          metrics.filter((m) => isDecisionMetric(m.benchmark, m.metric)).map((m) => `${m.benchmark}/${m.metric}`),
        ),
      ];
      throw new Error(
        `--gate ${JSON.stringify(p)}: no metric of this run matches it, so the gate would judge nothing; the run's decision metrics: ${decisions.join(', ') || 'none'} (benchmark/metric, * for any part)`,
      );
    }
  }
  const gate = gateFor(patterns, metrics);
  const gated = gate.patterns.length ? gate.gated : isDecisionMetric;
  return { gated, named: patterns.length ? gate.gated : undefined };
}

/**
 * The gate's items from an A/B's comparisons: no number to read (a median of 0) is not a pass, so it
 * counts as not judged.
 * @param {import('./index.js').Comparison[]} comparisons @returns {GateItem[]}
 */
export const gateItemsOf = (comparisons) =>
  comparisons.map((c) => ({
    benchmark: c.benchmark,
    metric: c.metric,
    where: `${c.candidate.env}/${c.candidate.distro}`,
    outcome: c.outcome ?? /** @type {const} */ ('inconclusive'),
    change: Number.isFinite(c.worse) ? c.worse : null,
    sees: c.detectable.change,
    samplesToDecide: c.samplesToDecide,
  }));
