// `npm run bench:compare`: how long does `dind-bench compare --history` take against a history of 10,000
// runs? Target: 1 s or less.
//
// The history is written in the store's on-disk format (marker, index, one shard per series and month,
// from src/history/layout.js) straight from generated points: 10,000 runs of the fixture run's 118 series,
// twelve runs a day. Publishing 10,000 runs one by one would take hours, and `compare` only reads the
// files, so writing them directly measures exactly what compare does: openHistory, readSeries per series
// (the newest shards only), the verdicts, the within-run comparisons and the rendering.
//   node bench/compare-history.js [--runs N] [--repeat R] [--keep]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compareCommand } from '../src/compare/command.js';
import {
  FORMAT,
  FORMAT_VERSION,
  INDEX_FILE,
  MARKER_FILE,
  periodOf,
  seriesDir,
  shardPath,
} from '../src/history/layout.js';
import { pointsOf } from '../src/history/points.js';
import { SHARD_FORMAT } from '../src/history/store.js';
import { loadResults } from '../src/compare/load-results.js';
import { median, normalDeviate, seededRandom } from '../src/stats/index.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    repeat: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const FIXTURE = new URL('../test/fixtures/results/quick-debian.json', import.meta.url).pathname;
const TARGET_MS = 1000;

const results = await loadResults(FIXTURE);
const template = pointsOf(results);
const dir = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-compare-bench-'));
const hist = path.join(dir, 'history');

// -- generate: each run is the fixture's samples scaled by a between-run factor --
let t0 = performance.now();
const random = seededRandom(1);
const start = Date.parse('2024-01-01T00:00:00Z');
/** @type {Map<string, Map<string, any[]>>} series key -> period -> points */
const shards = new Map();
for (let i = 0; i < RUNS; i++) {
  const time = new Date(start + i * 2 * 3600_000).toISOString();
  const period = periodOf(time);
  const scale = Math.exp(0.02 * normalDeviate(random));
  for (const { series, point } of template) {
    if (!shards.has(series.key)) shards.set(series.key, new Map());
    const byPeriod = /** @type {Map<string, any[]>} */ (shards.get(series.key));
    if (!byPeriod.has(period)) byPeriod.set(period, []);
    /** @type {any[]} */ (byPeriod.get(period)).push({
      ...point,
      runId: `gen-${i}`,
      time,
      samples: point.samples.map((x) => x * scale),
    });
  }
}
/** @type {Record<string, any>} */
const indexSeries = {};
let files = 0;
for (const { series } of template) {
  const byPeriod = /** @type {Map<string, any[]>} */ (shards.get(series.key));
  const sdir = seriesDir(series);
  for (const [period, points] of byPeriod) {
    const file = path.join(hist, shardPath(sdir, period));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ format: SHARD_FORMAT, key: series.key, period, points }));
    files++;
  }
  const periods = [...byPeriod.keys()].sort();
  indexSeries[series.key] = {
    ...series,
    dir: sdir,
    periods,
    archived: [],
    points: RUNS,
    last: /** @type {any[]} */ (byPeriod.get(periods.at(-1) ?? '')).at(-1).time,
  };
}
const allPeriods = [...new Set([...shards.values()].flatMap((m) => [...m.keys()]))].sort();
writeFileSync(
  path.join(hist, MARKER_FILE),
  JSON.stringify({ format: FORMAT, version: FORMAT_VERSION, created: new Date().toISOString() }),
);
writeFileSync(
  path.join(hist, INDEX_FILE),
  JSON.stringify({
    format: FORMAT,
    version: FORMAT_VERSION,
    updatedAt: new Date().toISOString(),
    runs: RUNS,
    periods: allPeriods,
    series: indexSeries,
  }),
);
const generateMs = performance.now() - t0;

// -- measure: the whole compare command, in-process, printing discarded --
// CPU time is reported too: on a shared machine wall time includes waiting for a core.
const times = [];
const cpu = [];
let outcome;
for (let r = 0; r < Number(values.repeat); r++) {
  t0 = performance.now();
  const c0 = process.cpuUsage();
  ({ outcome } = await compareCommand({ results: FIXTURE, history: hist, githubActions: false, print: () => {} }));
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  times.push(performance.now() - t0);
}
const ms = median(times);
const load = os.loadavg()[0].toFixed(1);
const verdicts = outcome?.verdicts ?? [];
console.log(
  `history: ${RUNS} runs x ${template.length} series = ${RUNS * template.length} points in ${files} shard files (generated in ${(generateMs / 1000).toFixed(1)} s)`,
);
console.log(
  `compare --history: median ${ms.toFixed(0)} ms wall, ${median(cpu).toFixed(0)} ms CPU over ${times.length} repetitions (wall ${times.map((x) => x.toFixed(0)).join(', ')} ms; load average ${load} on ${os.cpus().length} cores); ${verdicts.length} verdicts, ${outcome?.reading.comparisons.length} within-run comparisons`,
);
console.log(`target <= ${TARGET_MS} ms: ${ms <= TARGET_MS ? 'met' : 'NOT met'}`);
if (values.keep) console.log(`history kept in ${hist}`);
else rmSync(dir, { recursive: true, force: true });
process.exitCode = ms <= TARGET_MS ? 0 : 1;
