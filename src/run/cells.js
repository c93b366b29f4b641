// The cells of a run and their state: one per planned cell, pending until it finishes; marked unavailable
// (it cannot run here), failed (with the reason, the step and the tool's output) or ok. A resumed run
// starts from the cells the interrupted attempt recorded.
import { CellTimeoutError } from '../engine/containers.js';
import { benchImage } from '../images/catalog.js';
import { ParseError } from '../parsers/parse-error.js';
import { descriptorOf } from '../environments/names.js';
import { scrubSecrets } from '../redact/secrets.js';

/**
 * @typedef {{metric: string, unit: string, better: 'higher' | 'lower', samples: number[], warmup: number[]}} MetricSeries
 * @typedef {{
 *   benchmark: string, environment: string, environmentKey: string, distro: string, engine: string | null,
 *   image: string | null, status: 'ok' | 'failed' | 'unavailable' | 'pending', reason?: string, step?: string,
 *   logTail?: string, metrics: MetricSeries[], raw: string[],
 *   timeseries?: (import('../benchmarks/benchmark.js').Series & {iteration: number})[], stepsDone?: number,
 *   facts?: import('../parsers/isolation.js').Fact[],
 *   sampling?: NonNullable<import('#model/results.js').Cell['sampling']>,
 *   killed?: {iteration: string, reason: string, outcome: 'measured' | 'killed again' | 'failed'}[],
 * }} CellResult
 *   stepsDone: while the run is under way, how many of the cell's planned steps finished
 *   killed: steps killed from outside (exit 137) while every engine answered, each run once more (./kills.js)
 *   sampling: with --budget, how many measured iterations the cell got and why it stopped taking more
 */

/**
 * One pending cell per planned cell; those that cannot run here (the benchmark does not apply in the
 * environment, or its image cannot be had) are marked unavailable before anything runs.
 * @param {ReturnType<typeof import('./plan.js').makePlan>} plan
 * @param {import('./params.js').BenchmarkRegistry} benchmarks
 * @param {Record<string, string>} unavailableImages
 * @returns {Map<string, CellResult>} by cell key
 */
export function planCells(plan, benchmarks, unavailableImages) {
  /** @type {Map<string, CellResult>} */
  const cells = new Map();
  for (const c of plan.cells) {
    const env = plan.environments.find((e) => e.key === c.env);
    const bench = benchmarks[c.benchmark];
    const hostTools = descriptorOf(env?.name ?? c.env)?.benchImages === 'host';
    const image = hostTools ? null : benchImage(bench.image, c.distro);
    /** @type {CellResult} */
    const cell = {
      benchmark: c.benchmark,
      environment: env?.name ?? c.env,
      environmentKey: c.env,
      distro: c.distro,
      engine: c.engine,
      image,
      status: 'pending',
      metrics: [],
      raw: [],
    };
    const notHere = bench.unavailableIn?.[cell.environment];
    if (notHere) markUnavailable(cell, `${cell.benchmark} does not apply in ${cell.environment}: ${notHere}`);
    else if (image && unavailableImages[image])
      markUnavailable(cell, `image ${image} is unavailable: ${unavailableImages[image]}`);
    cells.set(c.key, cell);
  }
  return cells;
}

/**
 * Takes over what the interrupted attempt recorded: finished cells as they are, pending cells with their
 * samples, raw files and steps done. A cell the plan does not have is a corrupt file, said so.
 * @param {Map<string, CellResult>} cells @param {CellResult[]} recorded
 */
export function resumeCells(cells, recorded) {
  for (const r of recorded) {
    const key = `${r.benchmark}/${r.environmentKey}/${r.distro}`;
    const planned = cells.get(key);
    if (!planned) {
      throw new Error(`the partial results have a cell ${key} that the run's own options do not plan: not resumable`);
    }
    // Unfinished, and cannot run here now (its image is gone): what it recorded stays, marked why.
    const blocked = planned.status !== 'pending' && (r.status === 'pending' || r.status === 'failed');
    const now = blocked ? { status: planned.status, reason: planned.reason } : {};
    const cell = { ...r, ...now, stepsDone: r.stepsDone ?? (r.status === 'failed' ? doneOf(r) : 0) };
    // A failed cell is tried again from the step that failed: its finished steps' samples stay.
    if (cell.status === 'failed') reopen(cell);
    cells.set(key, cell);
  }
}

/**
 * How many steps a finished cell got (its stepsDone is gone once the run ended): warm-ups and measured
 * iterations, counted from its first series.
 * @param {CellResult} cell
 */
function doneOf(cell) {
  const first = cell.metrics[0];
  // An iteration killed twice is done too, without samples.
  const lost = (cell.killed ?? []).filter((k) => k.outcome === 'killed again').length;
  return (first ? first.warmup.length + first.samples.length : 0) + lost;
}

/** The run is over: a cell still pending ran every step it was given. @param {Map<string, CellResult>} cells */
export function finishCells(cells) {
  for (const c of cells.values()) {
    if (c.status === 'pending') c.status = 'ok';
    // Every measured iteration killed twice (./kills.js): nothing measured is no result.
    const lost = c.killed?.filter((k) => k.outcome === 'killed again') ?? [];
    if (c.status === 'ok' && lost.length && !c.metrics.some((m) => m.samples.length)) {
      c.status = 'failed';
      c.reason = `every measured iteration was killed twice (exit 137); the last: ${lost[lost.length - 1].reason}`;
    }
    delete c.stepsDone;
  }
}

/**
 * A failed cell runs again: the step that failed was not the benchmark's fault (its engine was lost), or a
 * re-run retries it. The samples of the steps it finished stay; the failure's record goes.
 * @param {CellResult} cell
 */
export function reopen(cell) {
  cell.status = 'pending';
  delete cell.reason;
  delete cell.step;
  delete cell.logTail;
}

/**
 * A cell left out for the run's budget (./budget.js): unavailable, with why. At plan time it has no samples;
 * left out by the re-plan after its first iteration (./replan.js), it keeps the one it took.
 * @param {CellResult} cell @param {string} reason
 */
export function leaveOut(cell, reason) {
  markUnavailable(cell, reason);
  cell.sampling = { iterations: cell.metrics[0]?.samples.length ?? 0, stopped: 'left out for the budget' };
}

/** @param {CellResult} cell @param {string} reason */
export function markUnavailable(cell, reason) {
  cell.status = 'unavailable';
  cell.reason = reason;
}

/** A failure's words in the results (a text field there holds 64 KiB): its reason's line, and its log's end. */
const MAX_REASON = 4096;
const MAX_LOG_TAIL = 32_768;

/**
 * `text` at most `max` characters, keeping its start or its end, and saying what was cut: an error may
 * carry a tool's output of any length.
 * @param {string} text @param {number} max @param {'start' | 'end'} keep
 */
function bounded(text, max, keep) {
  if (text.length <= max) return text;
  const cut = `(${text.length - max} characters cut)`;
  return keep === 'start' ? `${text.slice(0, max)}… ${cut}` : `${cut} …${text.slice(-max)}`;
}

/**
 * A failed cell: the reason names the benchmark, environment, distribution, iteration and step, then the
 * error's first line; the rest of the error (the tool's output) is its log tail.
 * @param {CellResult} cell @param {unknown} e @param {string} label @param {string | undefined} lastStep
 * @param {{stepTimeoutMs: number}} profile
 */
export function markFailed(cell, e, label, lastStep, profile) {
  const err = /** @type {Error & {step?: string}} */ (e);
  cell.status = 'failed';
  cell.step = err.step ?? lastStep;
  const where = `${cell.benchmark} in ${cell.environmentKey} (${cell.distro}), ${label}${cell.step ? `, step ${cell.step}` : ''}`;
  // A line may end in \r\n (an engine's JSON stream): the reason is the first line without it.
  // The error carries what the tool printed, which may hold a secret of the run: scrubbed before it is
  // cut (a cut could leave part of a secret no rule recognizes), and before the run's log shows it.
  const lines = scrubSecrets(err.message).split(/\r?\n/);
  cell.reason = `${where}: ${bounded(lines[0], MAX_REASON, 'start')}`;
  cell.logTail = bounded(lines.slice(1).join('\n'), MAX_LOG_TAIL, 'end') || undefined;
  if (e instanceof ParseError) cell.reason += ` (raw output kept in ${cell.raw[cell.raw.length - 1] ?? 'raw/'})`;
  if (e instanceof CellTimeoutError) cell.reason = `${cell.reason} (per-step timeout ${profile.stepTimeoutMs} ms)`;
}

/**
 * Adds one iteration's metrics to the cell's series. A metric that changes unit or direction between
 * iterations is a benchmark bug, reported as such rather than mixed.
 * @param {CellResult} cell @param {import('../benchmarks/benchmark.js').Metric[]} metrics @param {boolean} warmup
 */
export function record(cell, metrics, warmup) {
  for (const m of metrics) {
    let series = cell.metrics.find((s) => s.metric === m.metric);
    if (!series) {
      series = { metric: m.metric, unit: m.unit, better: m.better, samples: [], warmup: [] };
      cell.metrics.push(series);
    } else if (series.unit !== m.unit || series.better !== m.better) {
      throw new Error(`metric ${m.metric} changed from ${series.unit}/${series.better} to ${m.unit}/${m.better}`);
    }
    (warmup ? series.warmup : series.samples).push(m.value);
  }
}
