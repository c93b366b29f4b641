// From one results.json to the points it adds to the history: one per series (runner hardware x
// benchmark x metric x environment x distro) for every metric of every cell that ran.
import { innerEngineOf, ownsEngine } from '../model/environments.js';
import { periodOf } from './layout.js';

/**
 * The stable id of a series. Same hardware fingerprint (the hardware and the runner kind: an ARC pod and a
 * VM of one machine type differ, src/results/provenance.js hardwareFingerprint), benchmark, metric, environment key (such as
 * `dind@20.10`) and distribution: the same series, whichever runner name it ran under. The series'
 * identity is those five fields (stored beside the key in the index, which checks the key against them);
 * the key is their injective text form: joined by `|`, with `\` and `|` inside a field escaped by `\`,
 * so `a|b` + `c` and `a` + `b|c` never share a key. Names without those characters keep the key they
 * always had.
 * @param {{fingerprint: string, benchmark: string, metric: string, environmentKey: string, distro: string}} s
 */
export function seriesKey({ fingerprint, benchmark, metric, environmentKey, distro }) {
  return [fingerprint, benchmark, environmentKey, distro, metric]
    .map((x) => String(x).replace(/[\\|]/g, '\\$&'))
    .join('|');
}

/**
 * @typedef {import('#model/history.js').Engines} Engines
 * @typedef {import('#model/history.js').Summary} Summary
 * @typedef {import('#model/history.js').StoredPoint} StoredPoint
 * @typedef {import('#model/history.js').SeriesInfo} SeriesInfo
 * @typedef {{ series: SeriesInfo, point: StoredPoint }} SeriesPoint
 */

/**
 * The run's identity as the history records it.
 * @param {import('#model/results.js').Results} results a valid results document
 */
export function runInfo(results) {
  return {
    runId: String(results.run.id),
    time: results.run.startedAt,
    period: periodOf(results.run.startedAt),
    // The commit being measured is the caller's (its repository ran the workflow); files from before
    // the caller was recorded kept that in suite.commit.
    commit: results.caller?.commit ?? results.suite.commit ?? null,
    caller: results.caller ?? null,
    runner: results.runner.name,
    fingerprint: results.host.fingerprint,
    // a string, not the schema's three: a run imported from github-action-benchmark says 'imported'
    profile: /** @type {string} */ (results.run.profile),
    complete: results.run.complete,
    outerEngine: results.engines.outer.version,
  };
}

/**
 * Every point the run adds, one per (cell, metric) of the cells that ran and have samples.
 * @param {import('#model/results.js').Results} results a valid results document
 * @returns {SeriesPoint[]}
 */
export function pointsOf(results) {
  const run = runInfo(results);
  const envs = new Map((results.environments || []).map((e) => [e.key, e]));
  /** @type {SeriesPoint[]} */
  const out = [];
  for (const cell of results.cells) {
    if (cell.status !== 'ok') continue;
    const facts = envs.get(cell.environmentKey)?.facts;
    // An engine of its own (its descriptor's: every DinD variant, sysbox, podman), whose version is the
    // cell's inner engine; `compare --history` asks the same function (../compare/against-history.js).
    const inner = innerEngineOf(cell.environment, facts, cell.engine);
    const ownEngine = ownsEngine(cell.environment, facts);
    for (const m of cell.metrics) {
      if (!m.samples.length) continue;
      const series = {
        fingerprint: run.fingerprint,
        runner: run.runner,
        benchmark: cell.benchmark,
        metric: m.metric,
        environmentKey: cell.environmentKey,
        distro: cell.distro,
        unit: m.unit,
        better: m.better,
      };
      out.push({
        series: { key: seriesKey(series), ...series },
        point: {
          runId: run.runId,
          time: run.time,
          commit: run.commit,
          samples: m.samples,
          engines: { outer: run.outerEngine, inner },
          // The storage driver the cell's containers actually used: the inner one for DinD (vfs when the
          // inner daemon fell back), the outer one for docker, none for native.
          storageDriver:
            cell.environment === 'native'
              ? null
              : (facts?.storageDriver ?? (ownEngine ? null : results.engines.outer.storageDriver)),
          runner: run.runner,
        },
      });
    }
  }
  return out;
}
