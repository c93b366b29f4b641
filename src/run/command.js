// `dind-bench run`: builds what is missing, runs the plan, writes DIR/results.json, DIR/report.md and
// DIR/raw/, and prints the report.
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
import { hostFacts, runnerFacts, suiteFacts } from '../results/provenance.js';
import { htmlReport } from '../results/report-html.js';
import { markdownReport, problems, summaryTables, textTable } from '../results/report.js';
import { SCHEMA_VERSION, validateResults } from '../results/schema.js';
import { makePlan } from './plan.js';
import { executePlan } from './runner.js';
import { PROFILES } from './profiles.js';
import { startPeakRss } from './memory.js';

export const EXIT = { OK: 0, CELLS_FAILED: 3 };

/**
 * @param {{
 *   outer: import('dockerode'), profile: string, benchmarks: string[], environments: string[], distros: string[],
 *   engines: string[], iterations?: number, out: string, build: boolean, runnerLabels?: string[], args: object,
 *   log: (s: string) => void, paramOverrides?: import('./params.js').ParamOverrides,
 * }} o
 * @returns {Promise<{exitCode: number, results: any, file: string}>}
 */
export async function runCommand(o) {
  const startedAt = new Date();
  const peakRss = startPeakRss();
  const outDir = path.resolve(o.out);
  const file = path.join(outDir, 'results.json');
  // Never overwrite a recorded run.
  if (existsSync(file)) throw new Error(`${file} already exists: choose another --out folder (a run never overwrites one).`);
  await requireEngine(o.outer);
  const profile = PROFILES[o.profile];
  const iterations = o.iterations ?? profile.iterations;
  const containerEnvs = o.environments.filter((e) => e !== 'native');
  const dindEngines = o.environments.some(isDind) ? o.engines : [];

  // Images: the benchmark images for each distro, the DinD image for each inner engine.
  const wantBench = containerEnvs.length ? o.distros.flatMap((d) => o.benchmarks.map((b) => benchImage(BENCHMARKS[b].image, d))) : [];
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
      benchImages: [...new Set(o.benchmarks.map((b) => BENCHMARKS[b].image))],
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

  const plan = makePlan({
    benchmarks: o.benchmarks,
    environments: o.environments,
    distros: o.distros,
    engines: dindEngines,
    iterations,
    warmup: profile.warmup,
  });
  o.log(`plan: ${plan.cells.length} cells, ${plan.steps.length} steps (${profile.warmup} warm-up + ${iterations} iterations each, interleaved)`);
  const executed = await executePlan({
    outer: o.outer,
    plan,
    profile: { name: o.profile, stepTimeoutMs: profile.stepTimeoutMs },
    outDir,
    unavailableImages: unavailable,
    log: o.log,
    paramOverrides: o.paramOverrides,
  });

  // Provenance. Images are described with a short container each, cleaned up like the run's own.
  const info = await o.outer.info();
  const version = await o.outer.version();
  const tracker = new ResourceTracker(`${executed.runId}-describe`);
  // Ctrl-C here (after the run's own cleanup) must still remove the describing containers.
  const removeSignalHandlers = cleanupOnSignals(() => tracker.cleanup(o.outer), o.log);
  const images = [];
  try {
    for (const ref of wanted) {
      if (unavailable[ref]) images.push({ ref, status: 'unavailable', reason: unavailable[ref] });
      else images.push({ status: 'ok', ...(await describeImage(o.outer, ref, tracker)) });
    }
  } finally {
    await tracker.cleanup(o.outer);
    removeSignalHandlers();
  }
  const endedAt = new Date();
  const results = {
    schemaVersion: SCHEMA_VERSION,
    suite: await suiteFacts(),
    run: {
      id: executed.runId,
      profile: o.profile,
      iterations,
      warmup: profile.warmup,
      startedAt: startedAt.toISOString(),
      endedAt: endedAt.toISOString(),
      args: o.args,
      order: 'interleaved',
      complete: executed.cells.every((c) => c.status !== 'failed'),
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
    harness: { peakRssBytes: peakRss.stop(), wallSeconds: Math.round((endedAt.getTime() - startedAt.getTime()) / 100) / 10 },
  };
  validateResults(JSON.parse(JSON.stringify(results)), file);
  await mkdir(outDir, { recursive: true });
  // Write-then-rename: a reader never sees half a file.
  await writeFile(`${file}.tmp`, JSON.stringify(results, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
  await writeFile(path.join(outDir, 'report.md'), markdownReport(results));
  await writeFile(path.join(outDir, 'report.html'), htmlReport(results));

  for (const t of summaryTables(results)) o.log(`\n${t.benchmark} (medians)\n${textTable(t.header, t.rows)}`);
  for (const p of problems(results)) o.log(`\n${p}`);
  o.log(`\nresults: ${file}\nreport:  ${path.join(outDir, 'report.md')} and report.html\nwall time ${results.harness.wallSeconds} s, harness peak RSS ${Math.round(results.harness.peakRssBytes / 2 ** 20)} MiB`);
  return { exitCode: results.run.complete ? EXIT.OK : EXIT.CELLS_FAILED, results, file };
}
