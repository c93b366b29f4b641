// This run's metrics against their own past: one verdict per series (runner fingerprint x benchmark x metric
// x environment x distribution). The history is read through the store's interface
// (src/history/store.js: listSeries, readSeries); the statistics are the pure functions in ../stats/verdicts.js.
import { ruleFor, defaultConfig, thresholdOf } from './config.js';
import { pastWindow } from '../stats/verdicts.js';
import { judgeSeries } from '../reading/history.js';
import { isDecision } from '../history/decisions.js';
import { innerEngineOf } from '../model/environments.js';

export class SeriesMismatchError extends Error {}

/**
 * @typedef {{ key: string, benchmark: string, metric: string, environmentKey: string, distro: string, unit: string, better: 'higher' | 'lower' }} SeriesInfo
 * @typedef {{
 *   listSeries(): SeriesInfo[] | Promise<SeriesInfo[]>,
 *   readSeries(key: string, opts: { limit: number }): Promise<Array<{ runId: string, time: string, samples: number[], unit: string, better: string, engines: { outer: string, inner: string | null } }>>,
 * }} HistoryReader
 * @typedef {(parts: { fingerprint: string, benchmark: string, metric: string, environmentKey: string, distro: string }) => string} SeriesKeyFn
 * @typedef {import('../reading/history.js').HistoryVerdict & {
 *   key: string, benchmark: string, metric: string, environmentKey: string, distro: string, unit: string, better: 'higher' | 'lower',
 *   decision: boolean,
 * }} SeriesVerdict
 * `detectable`: the smallest change a run like this one could be flagged for against this history (the
 * rule's alpha, power 0.8, never below minChange) and the iterations per run that would make 5% detectable.
 * `decision`: the metric is a decision metric of its benchmark (../history/decisions.js), one of the family
 * the verdict's false-alarm rate is stated for; the others are described with their verdict, outside it.
 */

/**
 * @param {import('#model/results.js').Results} results a valid results document (the candidate run)
 * @param {HistoryReader} history
 * @param {{ seriesKey: SeriesKeyFn, config?: import('./config.js').CompareConfig, definitions?: Readonly<Record<string, { decisions?: readonly string[] }>> }} opts
 *   definitions: the benchmark registry whose `decisions` lists name the decision metrics (else those
 *   ../history/decisions.js knows)
 * @returns {Promise<SeriesVerdict[]>}
 */
export async function compareWithHistory(results, history, { seriesKey, config = defaultConfig(), definitions }) {
  const known = new Map((await history.listSeries()).map((s) => [s.key, s]));
  const engineOf = engineVersions(results);
  /** @type {SeriesVerdict[]} */
  const out = [];
  for (const cell of results.cells.filter((c) => c.status === 'ok')) {
    for (const m of cell.metrics) {
      const id = {
        fingerprint: results.host.fingerprint,
        benchmark: cell.benchmark,
        metric: m.metric,
        environmentKey: cell.environmentKey,
        distro: cell.distro,
      };
      const key = seriesKey(id);
      const rule = ruleFor(config, cell.benchmark, m.metric);
      const series = known.get(key);
      if (series && (series.unit !== m.unit || series.better !== m.better)) {
        throw new SeriesMismatchError(
          `series ${cell.benchmark}/${m.metric} on ${cell.environmentKey}/${cell.distro} (${key}): this run has unit "${m.unit}", ${m.better} is better; ` +
            `the history has unit "${series.unit}", ${series.better} is better. Compare runs of the same benchmark version, or start a new history folder.`,
        );
      }
      const past = series ? await pastRuns(history, key, results.run.id, rule) : [];
      const threshold = thresholdOf(config)(cell.benchmark, m.metric);
      const verdict = judgeSeries(past, { samples: m.samples, engines: engineOf(cell) }, m.better, rule, threshold);
      const decision = isDecision(cell.benchmark, m.metric, definitions);
      out.push({ key, ...id, unit: m.unit, better: m.better, decision, ...verdict });
    }
  }
  return out;
}

/**
 * The engines a cell ran on, as the history records them (../history/points.js asks the same function): the
 * outer engine's version, and for an environment with an engine of its own (every DinD variant, sysbox,
 * podman) that engine's actual version.
 * @param {import('#model/results.js').Results} results
 */
function engineVersions(results) {
  const outer = results.engines.outer.version;
  const inner = new Map(results.environments.map((e) => [e.key, innerEngineOf(e.name, e.facts, e.engine)]));
  return (/** @type {{environmentKey: string}} */ cell) => ({ outer, inner: inner.get(cell.environmentKey) ?? null });
}

/**
 * The series' earlier runs the verdict reads (pastWindow: those with enough samples, the newest `window`),
 * leaving out this very run if the history already holds it (published before compare). Read back from
 * the newest, more at a time, until the window is full or the series has no more.
 * @param {HistoryReader} history @param {string} key @param {string} runId @param {import('../stats/verdicts.js').Rule} rule
 */
async function pastRuns(history, key, runId, rule) {
  for (let limit = rule.window + 1; ; limit *= 2) {
    const read = await history.readSeries(key, { limit });
    const past = pastWindow(
      read.filter((p) => p.runId !== runId),
      rule,
    );
    if (past.length >= rule.window || read.length < limit) return past;
  }
}
