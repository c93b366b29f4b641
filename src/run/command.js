// `dind-bench run` as a pipeline: prepare images (build what is missing), make the plan, execute it,
// describe the images, assemble the results document, write DIR/results.json, DIR/report.md,
// DIR/report.html (and DIR/raw/ while running), and print the report. DIR/results.json is written as the
// run goes, partial until the end (src/run/checkpoint.js); `--resume DIR` continues such a run.
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BENCHMARKS } from '../benchmarks/index.js';
import { backingFilesystem, requireEngine } from '../engine/client.js';
import { ResourceTracker, cleanupOnSignals } from '../engine/resources.js';
import { isDind } from '../environments/index.js';
import { buildImages } from '../images/build.js';
import { benchImage, dindImage } from '../images/catalog.js';
import { describeImage, imageExists } from '../images/describe.js';
import { callerFacts, hostFacts, runnerFacts, suiteFacts } from '../results/provenance.js';
import { htmlReport } from '../results/report-html.js';
import { answers, markdownReport, problems, summaryTables } from '../results/report.js';
import { SCHEMA_VERSION, validateResults } from '../results/schema.js';
import { Checkpoint, ResumeError, readPartial, resumedOptions } from './checkpoint.js';
import { stepEstimates } from './estimate.js';
import { validateParamOverrides } from './params.js';
import { textTable, wrap } from '../text/tables.js';
import { makePlan } from './plan.js';
import { duration } from './progress.js';
import { DEFAULT_MAX_ITERATIONS } from './adaptive.js';
import { executePlan } from './runner.js';
import { PROFILES } from './profiles.js';
import { startPeakRss } from './memory.js';

export const EXIT = { OK: 0, CELLS_FAILED: 3 };

/** The change adaptive sampling aims to make detectable DinD vs Docker: the verdicts' default minChange. */
export const ADAPTIVE_MIN_CHANGE = 0.05;

/**
 * @typedef {{
 *   outer: import('dockerode'), profile: string, benchmarks: string[], environments: string[], distros: string[],
 *   engines: string[], iterations?: number, out: string, build: boolean, runnerLabels?: string[], args: object,
 *   log: (s: string) => void, paramOverrides?: import('./params.js').ParamOverrides,
 *   registry?: Record<string, import('../benchmarks/benchmark.js').Benchmark>, resumed?: any, budgetMs?: number,
 * }} RunOptions
 *   registry: where benchmark names are looked up (default: every benchmark)
 *   resumed: the partial results of the run being continued (see resumeCommand)
 *   budgetMs: the run's wall-time budget: after the planned iterations, add iterations where they pay
 *   while it lasts (src/run/adaptive.js); without it the plan is all
 * @typedef {{wanted: string[], unavailable: Record<string, string>, dindEngines: string[]}} PreparedImages
 *   wanted: every image the run uses; unavailable: ref -> why it cannot be had here
 */

/**
 * @param {RunOptions} o
 * @returns {Promise<{exitCode: number, results: any, file: string}>}
 */
export async function runCommand(o) {
  const startedAt = new Date();
  const t0 = performance.now();
  const peakRss = startPeakRss();
  const outDir = path.resolve(o.out);
  const file = path.join(outDir, 'results.json');
  // Never overwrite a recorded run (a resumed one is continued, not overwritten).
  if (!o.resumed && existsSync(file)) {
    throw new Error(`${file} already exists: choose another --out folder (a run never overwrites one).`);
  }
  await requireEngine(o.outer);
  const profile = PROFILES[o.profile];
  const iterations = o.iterations ?? profile.iterations;
  // An explicit --iterations is a fixed design: the profile's budget applies only without it.
  const budgetMs = o.budgetMs ?? (o.iterations === undefined ? profile.budgetMs : undefined);
  const registry = o.registry ?? BENCHMARKS;

  const images = await prepareImages(o, registry);
  const plan = makePlan({
    benchmarks: o.benchmarks,
    environments: o.environments,
    distros: o.distros,
    engines: images.dindEngines,
    iterations,
    warmup: profile.warmup,
  });
  const estimates = stepEstimates({ plan, profile: o.profile, paramOverrides: o.paramOverrides, registry });
  const estimate = estimates.setupS + estimates.steps.reduce((a, b) => a + b, 0);
  const each = `${profile.warmup} warm-up + ${iterations} iterations each, interleaved`;
  const more = budgetMs ? `, then more where they pay within a budget of ${Math.round(budgetMs / 1000)} s` : '';
  o.log(
    `plan: ${plan.cells.length} cells, ${plan.steps.length} steps (${each}), estimated ${duration(estimate)}${more}`,
  );
  const runId = o.resumed?.run.id ?? `${startedAt.toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const partial = await partialDocument(o, { runId, startedAt, iterations, warmup: profile.warmup, budgetMs });
  const executed = await executePlan({
    outer: o.outer,
    plan,
    profile: { name: o.profile, stepTimeoutMs: profile.stepTimeoutMs },
    outDir,
    unavailableImages: images.unavailable,
    log: o.log,
    paramOverrides: o.paramOverrides,
    benchmarks: registry,
    runId,
    resume: o.resumed ? { cells: o.resumed.cells, environments: o.resumed.environments } : undefined,
    checkpoint: new Checkpoint(file, partial),
    estimates: estimates.steps,
    // Teardown, image facts and the reports come after the last round: kept out of the budget.
    adaptive: budgetMs
      ? {
          budgetMs,
          minChange: ADAPTIVE_MIN_CHANGE,
          maxIterations: profile.maxIterations ?? DEFAULT_MAX_ITERATIONS,
          reserveMs: 45_000,
          startedAt: t0,
        }
      : undefined,
  });
  // Interrupted: the signal handler removes what the run created and exits; nothing more may start
  // (a container describing an image, created after that cleanup, would be left behind).
  if (executed.interrupted)
    throw new Error('interrupted: the run stopped and removed what it created; nothing was written');
  const described = await describeImages(o.outer, images, executed.runId, o.log);
  const results = await assembleResults(o, {
    startedAt,
    iterations,
    warmup: profile.warmup,
    budgetMs,
    executed,
    images: described,
    peakRss,
  });
  if (o.resumed) resumedFacts(results, o.resumed, executed.cells);
  await writeOutputs(outDir, file, results);
  printReport(results, outDir, file, o.log);
  return { exitCode: results.run.complete ? EXIT.OK : EXIT.CELLS_FAILED, results, file };
}

/**
 * `dind-bench run --resume DIR`: the interrupted run in DIR continued with the options it recorded, on
 * the same hardware, suite version and Engine; steps it finished are not run again.
 * @param {{outer: import('dockerode'), dir: string, log: (s: string) => void,
 *   registry?: Record<string, import('../benchmarks/benchmark.js').Benchmark>}} o
 */
export async function resumeCommand(o) {
  const here = { fingerprint: hostFacts().fingerprint, suite: await suiteFacts() };
  const resumed = await readPartial(o.dir, here);
  await requireEngine(o.outer);
  const engine = (await o.outer.info()).ServerVersion;
  if (engine !== resumed.engines.outer.version) {
    const was = resumed.engines.outer.version;
    throw new ResumeError(`${o.dir}: recorded on Engine ${was}, this engine is ${engine}: resume on the same Engine`);
  }
  const opts = resumedOptions(resumed);
  const registry = o.registry ?? BENCHMARKS;
  const unknown = opts.benchmarks.filter((b) => !(b in registry));
  if (unknown.length) {
    throw new ResumeError(`${o.dir}: unknown benchmarks ${unknown.join(', ')}: not resumable by this dind-bench`);
  }
  const paramOverrides = validateParamOverrides(opts.paramOverrides, `${o.dir} (run.args.paramOverrides)`, registry);
  const done = resumed.cells.reduce((n, /** @type {any} */ c) => n + (c.stepsDone ?? 0), 0);
  const finished = resumed.cells.filter((/** @type {any} */ c) => c.status !== 'pending').length;
  const id = `${resumed.run.id} (${resumed.run.state})`;
  o.log(`resuming run ${id}: ${done} step(s) of pending cells done, ${finished} cell(s) finished`);
  return runCommand({ ...opts, outer: o.outer, out: o.dir, log: o.log, paramOverrides, registry, resumed });
}

/**
 * The partial results document for a state of the run: everything known before the run ends. The images
 * are described at the end (it takes a container each), so a partial file lists none.
 * @param {RunOptions} o @param {{runId: string, startedAt: Date, iterations: number, warmup: number, budgetMs?: number}} run
 * @returns {Promise<(state: import('./checkpoint.js').RunState) => any>}
 */
async function partialDocument(o, { runId, startedAt, iterations, warmup, budgetMs }) {
  const base = await assembleResults(o, {
    startedAt,
    iterations,
    warmup,
    budgetMs,
    images: [],
    peakRss: { stop: () => process.memoryUsage.rss() },
    executed: { runId, environments: [], cells: [], interrupted: false },
  });
  if (o.resumed) resumedFacts(base, o.resumed, []);
  return (state) => {
    const now = new Date();
    const wallSeconds = (now.getTime() - startedAt.getTime()) / 1000 + (o.resumed?.harness.wallSeconds ?? 0);
    const peakRssBytes = Math.max(base.harness.peakRssBytes, process.memoryUsage.rss());
    return {
      ...base,
      run: { ...base.run, endedAt: now.toISOString() },
      environments: state.environments,
      cells: state.cells,
      harness: { peakRssBytes, wallSeconds: Math.round(wallSeconds * 10) / 10 },
    };
  };
}

/**
 * What a resumed run keeps of the attempt it continues: its start, its suite and caller, its wall time
 * so far, and a record of this resumption.
 * @param {any} results the document being assembled @param {any} resumed the partial one read back
 * @param {import('./runner.js').CellResult[]} cells
 */
function resumedFacts(results, resumed, cells) {
  results.suite = resumed.suite;
  if (resumed.caller !== undefined) results.caller = resumed.caller;
  results.run.startedAt = resumed.run.startedAt;
  results.run.args = resumed.run.args;
  const done = resumed.cells.reduce((n, /** @type {any} */ c) => n + (c.stepsDone ?? 0), 0);
  results.run.resumed = [...(resumed.run.resumed ?? []), { at: new Date().toISOString(), stepsDone: done }];
  if (cells.length) {
    results.harness.wallSeconds = Math.round((results.harness.wallSeconds + resumed.harness.wallSeconds) * 10) / 10;
  }
}

/**
 * Step 1: the benchmark images for each distro and the DinD image for each inner engine; those missing
 * are built (unless --no-build) or recorded as unavailable. A DinD image that cannot be had ends the run.
 * @param {RunOptions} o @param {Record<string, import('../benchmarks/benchmark.js').Benchmark>} registry
 * @returns {Promise<PreparedImages>}
 */
export async function prepareImages(o, registry) {
  const containerEnvs = o.environments.filter((e) => e !== 'native');
  const dindEngines = o.environments.some(isDind) ? o.engines : [];
  const wantBench = containerEnvs.length
    ? o.distros.flatMap((d) => o.benchmarks.map((b) => benchImage(registry[b].image, d)))
    : [];
  const wanted = [...new Set([...wantBench, ...dindEngines.map(dindImage)])];
  /** @type {Record<string, string>} */
  let unavailable = {};
  const missing = [];
  for (const ref of wanted) if (!(await imageExists(o.outer, ref))) missing.push(ref);
  if (missing.length && o.build) {
    o.log(`building missing images: ${missing.join(', ')}`);
    const built = await buildImages({
      outer: o.outer,
      distros: containerEnvs.length ? o.distros : [],
      engines: dindEngines,
      benchImages: [...new Set(o.benchmarks.map((b) => registry[b].image))],
      onlyMissing: true,
      log: o.log,
    });
    unavailable = built.unavailable;
  } else if (missing.length) {
    for (const ref of missing) unavailable[ref] = 'not built (run `dind-bench images build`, or drop --no-build)';
  }
  for (const ref of dindEngines.map(dindImage)) {
    if (unavailable[ref]) throw new Error(`the DinD image ${ref} cannot be built here: ${unavailable[ref]}`);
  }
  return { wanted, unavailable, dindEngines };
}

/**
 * Provenance of every image the run used. Each is described with a short container, cleaned up like the
 * run's own, also on Ctrl-C here (after the run's own cleanup).
 * @param {import('dockerode')} outer @param {PreparedImages} images @param {string} runId @param {(s: string) => void} log
 */
async function describeImages(outer, { wanted, unavailable }, runId, log) {
  const tracker = new ResourceTracker(`${runId}-describe`);
  const removeSignalHandlers = cleanupOnSignals(() => tracker.cleanup(outer), log);
  const described = [];
  try {
    for (const ref of wanted) {
      if (unavailable[ref]) described.push({ ref, status: 'unavailable', reason: unavailable[ref] });
      else described.push({ status: 'ok', ...(await describeImage(outer, ref, tracker)) });
    }
  } finally {
    await tracker.cleanup(outer);
    removeSignalHandlers();
  }
  return described;
}

/**
 * The results document (schema/results.schema.json): the run, the host, the runner, the engines, the
 * images, the environments and the cells.
 * @param {RunOptions} o
 * @param {{
 *   startedAt: Date, iterations: number, warmup: number, budgetMs: number | undefined, images: object[], peakRss: {stop: () => number},
 *   executed: Awaited<ReturnType<typeof executePlan>>,
 * }} run
 */
async function assembleResults(o, { startedAt, iterations, warmup, budgetMs, executed, images, peakRss }) {
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
      warmup,
      startedAt: startedAt.toISOString(),
      endedAt: endedAt.toISOString(),
      args: o.args,
      order: 'interleaved',
      complete: executed.cells.every((c) => c.status !== 'failed'),
      state: 'finished',
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
 * Validates the document, then writes results.json (write-then-rename: a reader never sees half a file)
 * and the Markdown and HTML reports next to it.
 * @param {string} outDir @param {string} file @param {Awaited<ReturnType<typeof assembleResults>>} results
 */
async function writeOutputs(outDir, file, results) {
  validateResults(JSON.parse(JSON.stringify(results)), file);
  await mkdir(outDir, { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(results, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
  await writeFile(path.join(outDir, 'report.md'), markdownReport(results));
  await writeFile(path.join(outDir, 'report.html'), htmlReport(results));
}

/**
 * The medians and verdicts per benchmark, the cells that did not run (each reason once), the answer per
 * DinD environment, and where the files are.
 * @param {Awaited<ReturnType<typeof assembleResults>>} results @param {string} outDir @param {string} file
 * @param {(s: string) => void} log
 */
function printReport(results, outDir, file, log) {
  for (const t of summaryTables(results)) log(`\n${t.title}\n${textTable(t.header, t.rows)}`);
  for (const p of problems(results)) log(`\n${wrap(p)}`);
  for (const a of answers(results)) log(`\n${wrap(a)}`);
  const rssMib = Math.round(results.harness.peakRssBytes / 2 ** 20);
  log(
    `\nresults: ${file}\nreport:  ${path.join(outDir, 'report.md')} and report.html\nwall time ${results.harness.wallSeconds} s, harness peak RSS ${rssMib} MiB`,
  );
}
