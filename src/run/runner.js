// Executes a run plan against real environments and returns the results document.
//
// Failure handling: an environment that cannot start makes its cells "unavailable" with the engine's
// own message; a step that fails or times out makes its cell "failed" with the reason, the step and the
// tail of the tool's output, and the run goes on. Whatever happens, teardown removes every container,
// volume and network the run created, also on SIGINT/SIGTERM.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CellTimeoutError, withTimeout } from '../engine/containers.js';
import { ResourceTracker, cleanupOnSignals } from '../engine/resources.js';
import { createEnvironment } from '../environments/index.js';
import { BENCHMARKS } from '../benchmarks/index.js';
import { UnavailableError } from '../benchmarks/benchmark.js';
import { benchImage } from '../images/catalog.js';
import { ParseError } from '../parsers/parse-error.js';
import { paramsFor } from './params.js';

/**
 * @typedef {{metric: string, unit: string, better: 'higher' | 'lower', samples: number[], warmup: number[]}} MetricSeries
 * @typedef {{
 *   benchmark: string, environment: string, environmentKey: string, distro: string, engine: string | null,
 *   image: string | null, status: 'ok' | 'failed' | 'unavailable' | 'pending', reason?: string, step?: string,
 *   logTail?: string, metrics: MetricSeries[], raw: string[],
 *   timeseries?: (import('../benchmarks/benchmark.js').Series & {iteration: number})[],
 * }} CellResult
 */

/**
 * @param {{
 *   outer: import('dockerode'),
 *   plan: ReturnType<typeof import('./plan.js').makePlan>,
 *   profile: {name: string, stepTimeoutMs: number},
 *   outDir: string,
 *   unavailableImages: Record<string, string>,
 *   log: (msg: string) => void,
 *   paramOverrides?: import('./params.js').ParamOverrides,
 * }} args
 *   unavailableImages: image ref -> why it cannot be had here (e.g. Alpine offline)
 */
export async function executePlan({ outer, plan, profile, outDir, unavailableImages, log, paramOverrides = {} }) {
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const tracker = new ResourceTracker(runId);
  const envs = new Map(plan.environments.map((e) => [e.key, createEnvironment(e.name, outer, e.engine)]));
  /** @type {Record<string, {key: string, name: string, engine: string | null, status: string, reason?: string, facts?: object}>} */
  const envResults = {};
  const cleanup = async () => {
    for (const env of envs.values()) await env.teardown().catch(() => {});
    const problems = await tracker.cleanup(outer);
    for (const p of problems) log(`cleanup: ${p}`);
  };
  const removeSignalHandlers = cleanupOnSignals(cleanup, log);

  /** @type {Map<string, CellResult>} */
  const cells = new Map();
  for (const c of plan.cells) {
    const env = plan.environments.find((e) => e.key === c.env);
    const bench = BENCHMARKS[c.benchmark];
    const image = env?.name === 'native' ? null : benchImage(bench.image, c.distro);
    const cell = /** @type {CellResult} */ ({
      benchmark: c.benchmark,
      environment: env?.name ?? c.env,
      environmentKey: c.env,
      distro: c.distro,
      engine: c.engine,
      image,
      status: 'pending',
      metrics: [],
      raw: [],
    });
    const notHere = bench.unavailableIn?.[cell.environment];
    if (notHere) markUnavailable(cell, `${cell.benchmark} does not apply in ${cell.environment}: ${notHere}`);
    else if (image && unavailableImages[image]) markUnavailable(cell, `image ${image} is unavailable: ${unavailableImages[image]}`);
    cells.set(c.key, cell);
  }

  try {
    for (const planned of plan.environments) {
      if (tracker.closing) break;
      const env = /** @type {any} */ (envs.get(planned.key));
      const mine = [...cells.values()].filter((c) => c.environmentKey === planned.key);
      const images = [...new Set(mine.filter((c) => c.status === 'pending' && c.image).map((c) => /** @type {string} */ (c.image)))];
      if (!mine.some((c) => c.status === 'pending')) {
        envResults[planned.key] = { ...planned, status: 'unavailable', reason: 'no runnable cells' };
        continue;
      }
      log(`setting up ${planned.key}${images.length ? ` (loading ${images.length} image(s))` : ''} ...`);
      try {
        const facts = await env.setup({ tracker, images });
        envResults[planned.key] = { ...planned, status: 'ok', facts };
        const f = /** @type {any} */ (facts);
        log(`  ${planned.key}: ${f.engineVersion ? `engine ${f.engineVersion}, storage ${f.storageDriver}` : 'host'}${f.dind ? `, started ${f.dind.mode}, ready in ${Math.round(f.dind.start_to_ready_ms)} ms` : ''}`);
      } catch (e) {
        const reason = /** @type {Error} */ (e).message;
        envResults[planned.key] = { ...planned, status: 'unavailable', reason };
        for (const c of mine) if (c.status === 'pending') markUnavailable(c, `${planned.key} could not start here: ${reason}`);
        log(`  ${planned.key}: unavailable: ${reason.split('\n')[0]}`);
        await env.teardown().catch(() => {});
      }
    }

    const total = plan.steps.length;
    let done = 0;
    for (const step of plan.steps) {
      if (tracker.closing) break; // interrupted: cleanup is under way, start nothing new
      done++;
      const cell = /** @type {CellResult} */ (cells.get(step.cell));
      if (cell.status !== 'pending') continue;
      const bench = BENCHMARKS[cell.benchmark];
      const env = envs.get(cell.environmentKey);
      const label = `${step.warmup ? 'warm-up' : `#${step.iteration + 1}`}`;
      const rawDir = path.join(outDir, 'raw', cell.benchmark, cell.environmentKey, cell.distro);
      const prefix = step.warmup ? 'warmup' : String(step.iteration + 1).padStart(2, '0');
      /** @type {string | undefined} */
      let currentStep;
      const ctx = {
        image: cell.image ?? '',
        params: paramsFor(cell.benchmark, profile.name, paramOverrides),
        timeoutMs: profile.stepTimeoutMs,
        saveRaw: async (/** @type {string} */ name, /** @type {string} */ text) => {
          currentStep = name;
          await mkdir(rawDir, { recursive: true });
          const file = path.join(rawDir, `${prefix}-${name}.txt`);
          await writeFile(file, text);
          cell.raw.push(path.relative(outDir, file));
        },
        // Series of measured iterations only: warm-ups are kept apart from the samples, and out of the file.
        recordSeries: (/** @type {import('../benchmarks/benchmark.js').Series} */ series) => {
          if (step.warmup) return;
          (cell.timeseries ??= []).push({ ...series, iteration: step.iteration });
        },
      };
      const t0 = performance.now();
      try {
        // Safety net over the per-step timeouts inside measure().
        const metrics = await withTimeout(bench.measure(env, ctx), profile.stepTimeoutMs * 10, `no result after ${profile.stepTimeoutMs * 10} ms`);
        record(cell, metrics, step.warmup);
        log(`[${done}/${total}] ${step.cell} ${label}: ${metrics.length} metrics in ${Math.round(performance.now() - t0)} ms`);
      } catch (e) {
        if (e instanceof UnavailableError) {
          markUnavailable(cell, `${cell.benchmark} in ${cell.environmentKey}: ${e.message}`);
          log(`[${done}/${total}] ${step.cell} ${label}: unavailable: ${e.message}`);
          continue;
        }
        const err = /** @type {Error & {step?: string}} */ (e);
        cell.status = 'failed';
        cell.step = err.step ?? currentStep;
        cell.reason = `${cell.benchmark} in ${cell.environmentKey} (${cell.distro}), ${label}${cell.step ? `, step ${cell.step}` : ''}: ${err.message.split('\n')[0]}`;
        cell.logTail = err.message.split('\n').slice(1).join('\n') || undefined;
        if (e instanceof ParseError) cell.reason += ` (raw output kept in ${cell.raw[cell.raw.length - 1] ?? 'raw/'})`;
        if (e instanceof CellTimeoutError) cell.reason = `${cell.reason} (per-step timeout ${profile.stepTimeoutMs} ms)`;
        log(`[${done}/${total}] ${step.cell} ${label}: FAILED: ${cell.reason}`);
      }
    }
    for (const c of cells.values()) if (c.status === 'pending') c.status = 'ok';
  } finally {
    log('tearing down ...');
    await cleanup();
    removeSignalHandlers();
  }
  return { runId, environments: Object.values(envResults), cells: [...cells.values()] };
}

/** @param {CellResult} cell @param {string} reason */
function markUnavailable(cell, reason) {
  cell.status = 'unavailable';
  cell.reason = reason;
}

/**
 * Adds one iteration's metrics to the cell's series. A metric that changes unit or direction between
 * iterations is a benchmark bug, reported as such rather than mixed.
 * @param {CellResult} cell @param {import('../benchmarks/benchmark.js').Metric[]} metrics @param {boolean} warmup
 */
function record(cell, metrics, warmup) {
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
