// The results document (schema/results.schema.json) of a run: assembled once at the end, and as a
// partial document for each state while the run goes on (./checkpoint.js writes it). A resumed run keeps
// what the attempt it continues recorded.
import { backingFilesystem } from '../engine/client.js';
import * as pidns from '../engine/step-pidns.js';
import { callerFacts, hostFacts, runnerFacts, suiteFacts } from '../results/provenance.js';
import { SCHEMA_VERSION } from '../results/schema.js';

/** @typedef {import('./command.js').RunOptions} RunOptions */

/**
 * The partial results document for a state of the run: everything known before the run ends. The images
 * are described at the end (it takes a container each), so a partial file lists none.
 * @param {RunOptions} o @param {{runId: string, startedAt: Date, iterations: number, warmup: number, budgetMs?: number}} run
 * @returns {Promise<(state: import('./checkpoint.js').RunState) => import('./checkpoint.js').PartialResults>}
 */
export async function partialDocument(o, { runId, startedAt, iterations, warmup, budgetMs }) {
  const base = await assembleResults(o, {
    startedAt,
    iterations,
    warmup,
    budgetMs,
    images: [],
    peakRss: { stop: () => process.memoryUsage.rss() },
    executed: { runId, environments: [], cells: [], interrupted: false, engineEvents: [], lost: null },
  });
  if (o.resumed) resumedFacts(base, o.resumed, []);
  return (state) => {
    const now = new Date();
    const wallSeconds = (now.getTime() - startedAt.getTime()) / 1000 + (o.resumed?.harness.wallSeconds ?? 0);
    const peakRssBytes = Math.max(base.harness.peakRssBytes, process.memoryUsage.rss());
    return {
      ...base,
      run: { ...base.run, endedAt: now.toISOString(), ...engineEventsOf(state.engineEvents) },
      environments: state.environments,
      cells: state.cells,
      harness: { peakRssBytes, wallSeconds: Math.round(wallSeconds * 10) / 10 },
    };
  };
}

/**
 * What a resumed run keeps of the attempt it continues: its start, its suite and caller, its wall time
 * so far, and a record of this resumption.
 * @param {import('#model/results.js').Results} results the document being assembled @param {import('#model/results.js').Results} resumed the partial one read back
 * @param {import('./runner.js').CellResult[]} cells
 */
export function resumedFacts(results, resumed, cells) {
  results.suite = resumed.suite;
  if (resumed.caller !== undefined) results.caller = resumed.caller;
  results.run.startedAt = resumed.run.startedAt;
  results.run.args = resumed.run.args;
  const done = resumed.cells.reduce((n, c) => n + (c.stepsDone ?? 0), 0);
  results.run.resumed = [...(resumed.run.resumed ?? []), { at: new Date().toISOString(), stepsDone: done }];
  if (cells.length) {
    results.harness.wallSeconds = Math.round((results.harness.wallSeconds + resumed.harness.wallSeconds) * 10) / 10;
  }
}

/**
 * The results document (schema/results.schema.json): the run, the host, the runner, the engines, the
 * images, the environments and the cells.
 * @param {RunOptions} o
 * @param {{
 *   startedAt: Date, iterations: number, warmup: number, budgetMs: number | undefined, lookSizes?: number[], images: object[], peakRss: {stop: () => number},
 *   executed: Awaited<ReturnType<typeof import('./runner.js').executePlan>>,
 *   calibration?: import('./calibrate.js').Calibration | null,
 * }} run
 *   calibration: how this machine compared with the estimates' (./calibrate.js), when the run had a budget
 * @returns {Promise<import('#model/results.js').Results>}
 */
export async function assembleResults(
  o,
  { startedAt, iterations, warmup, budgetMs, lookSizes, executed, images, peakRss, calibration },
) {
  const info = await o.outer.info();
  const version = await o.outer.version();
  const endedAt = new Date();
  return {
    schemaVersion: SCHEMA_VERSION,
    suite: await suiteFacts(),
    caller: callerFacts(),
    run: {
      id: executed.runId,
      profile: o.profile,
      iterations,
      // with a budget, `iterations` is the planned minimum; each cell's `sampling` says what it got
      ...(budgetMs ? { budgetMs } : {}),
      // how many times the sampling design could look at the decisions, and at how many samples a side: the
      // reading spends its rate over them (src/reading/decide.js lookLevels)
      looks: lookSizes?.length ?? 1,
      ...(lookSizes?.length ? { lookSizes: /** @type {[number, ...number[]]} */ (lookSizes) } : {}),
      warmup,
      startedAt: startedAt.toISOString(),
      endedAt: endedAt.toISOString(),
      args: o.args,
      order: 'interleaved',
      complete: executed.cells.every((c) => c.status !== 'failed'),
      state: 'finished',
      ...engineEventsOf(executed.engineEvents),
      ...planningOf(calibration, executed),
      // A run whose workload steps ran says how they were held (a PID namespace, or only a process group).
      ...(pidns.asked() ? { stepIsolation: pidns.stepIsolation() } : {}),
    },
    host: hostFacts(),
    runner: await runnerFacts({ labels: o.runnerLabels }),
    engines: {
      outer: {
        version: info.ServerVersion,
        apiVersion: version.ApiVersion,
        storageDriver: info.Driver,
        backingFilesystem: backingFilesystem(info),
        cgroupVersion: info.CgroupVersion ?? null,
        cgroupDriver: info.CgroupDriver ?? null,
        operatingSystem: info.OperatingSystem,
      },
    },
    images,
    environments: executed.environments,
    cells: executed.cells,
    harness: {
      peakRssBytes: peakRss.stop(),
      wallSeconds: Math.round((endedAt.getTime() - startedAt.getTime()) / 100) / 10,
    },
  };
}

/**
 * An engine lost and recovered (or not) during the run, when it happened (./engine-watch.js).
 * @param {import('./engine-watch.js').EngineEvent[] | undefined} events
 */
function engineEventsOf(events) {
  return events?.length ? { engineEvents: events } : {};
}

/**
 * What the plan knew of this machine and how it was re-made (./calibrate.js, ./replan.js), and each
 * decision's sampling (./adaptive-rounds.js): each only when there is something to say.
 * @param {import('./calibrate.js').Calibration | null | undefined} calibration
 * @param {{ replans?: import('./adaptive-rounds.js').Replanned[], remadeS?: number, questions?: import('./adaptive.js').QuestionRecord[] }} executed
 */
function planningOf(calibration, { replans, remadeS, questions }) {
  return {
    ...(calibration ? { calibration } : {}),
    ...(replans?.length ? { replans } : {}),
    ...(remadeS !== undefined ? { replannedS: remadeS } : {}),
    ...(questions?.length ? { questions } : {}),
  };
}
