// github-action-benchmark's `data.js` (`window.BENCHMARK_DATA = {...}`), both ways, so a user can move
// their history in, or keep that action's page fed from a dind-bench history.
// Its shape: { lastUpdate, repoUrl, entries: { <suite>: [ { commit: { id, message, timestamp, url, ... },
// date /* ms */, tool, benches: [ { name, value, unit, range?, extra? } ] } ] } }.
// Bench names are written `<benchmark> <metric> [<environment>/<distro>]` (as `compare --export-gab`
// does), and read back into the same series; other names become series of environment `imported`.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { appendRun } from './append.js';
import { HistoryError, writeJsonAtomic } from './files.js';
import { periodOf } from './layout.js';
import { overviewOf } from './overview.js';
import { seriesKey } from './points.js';
import { openHistory } from './store.js';

const PREFIX = /^\s*window\.BENCHMARK_DATA\s*=\s*/;
/** github-action-benchmark tools whose values are better when higher; every other tool's are better lower. */
const HIGHER_TOOLS = new Set(['customBiggerIsBetter', 'benchmarkjs', 'pytest', 'benchmarkluau', 'catch2-throughput']);
const NAME = /^(\S+) (\S+) \[([^/\]]+)\/([^\]]+)\]$/;

/** @param {string} text @param {string} file @returns {any} */
export function parseDataJs(text, file) {
  if (!PREFIX.test(text)) throw new HistoryError(file, 'does not start with `window.BENCHMARK_DATA =`: not a github-action-benchmark data.js');
  let data;
  try {
    data = JSON.parse(text.replace(PREFIX, '').trim().replace(/;$/, ''));
  } catch (e) {
    throw new HistoryError(file, `its BENCHMARK_DATA is not valid JSON: ${/** @type {Error} */ (e).message}`);
  }
  if (typeof data?.entries !== 'object' || data.entries === null) throw new HistoryError(file, 'BENCHMARK_DATA has no `entries` object');
  for (const [suite, list] of Object.entries(data.entries)) {
    if (!Array.isArray(list)) throw new HistoryError(file, `entries[${JSON.stringify(suite)}] is not an array`);
    for (const [i, e] of list.entries()) {
      const where = `entries[${JSON.stringify(suite)}][${i}]`;
      if (typeof e?.date !== 'number' || typeof e?.commit?.id !== 'string' || !Array.isArray(e?.benches)) {
        throw new HistoryError(file, `${where} lacks date (number), commit.id or benches`);
      }
      for (const [j, b] of e.benches.entries()) {
        if (typeof b?.name !== 'string' || typeof b?.value !== 'number' || !Number.isFinite(b.value)) {
          throw new HistoryError(file, `${where}.benches[${j}] lacks a name or a numeric value`);
        }
      }
    }
  }
  return data;
}

/**
 * Imports every entry of a data.js into the history in `dir`; entries already imported are skipped.
 * @param {string} dir @param {string} file
 */
export async function importGab(dir, file) {
  const data = parseDataJs(await fs.readFile(file, 'utf8'), file);
  let added = 0;
  let skipped = 0;
  for (const [suite, list] of Object.entries(data.entries)) {
    // One suite of that action is one machine and job as far as anyone can tell: it gets a fingerprint of its own.
    const fingerprint = `gab-${createHash('sha256').update(suite).digest('hex').slice(0, 10)}`;
    for (const e of /** @type {any[]} */ (list)) {
      const time = new Date(e.date).toISOString();
      const runId = `gab-${createHash('sha256').update(`${suite}|${e.commit.id}|${e.date}`).digest('hex').slice(0, 16)}`;
      const better = HIGHER_TOOLS.has(e.tool) ? 'higher' : 'lower';
      const run = { runId, time, period: periodOf(time), commit: e.commit.id, runner: suite, fingerprint, profile: 'imported', complete: true, outerEngine: 'unknown' };
      const points = e.benches.map((/** @type {any} */ b) => {
        const m = NAME.exec(b.name);
        const s = m
          ? { benchmark: m[1], metric: m[2], environmentKey: m[3], distro: m[4] }
          : { benchmark: suite, metric: b.name, environmentKey: 'imported', distro: 'n/a' };
        const series = { fingerprint, runner: suite, ...s, unit: b.unit ?? '', better: /** @type {'higher'|'lower'} */ (better) };
        return {
          series: { key: seriesKey(series), ...series },
          point: { runId, time, commit: e.commit.id, samples: [b.value], engines: { outer: 'unknown', inner: null }, storageDriver: null, runner: suite },
        };
      });
      const asResults = {
        run: { id: runId, startedAt: time, endedAt: time, profile: 'imported', iterations: 1, complete: true },
        suite: { commit: e.commit.id },
        runner: { name: suite, labels: ['imported from github-action-benchmark'], machineType: null },
        host: { cpuModel: 'unknown (imported from github-action-benchmark)', cores: 0, memoryBytes: 0, distribution: 'unknown', cgroupVersion: '?', fingerprint },
        engines: { outer: { version: 'unknown', storageDriver: 'unknown' } },
        environments: [],
        cells: [],
      };
      const r = await appendRun(dir, {
        run,
        points,
        overview: (pts, prev) => overviewOf(asResults, pts, prev),
        writeProvenance: (to) => writeJsonAtomic(to, { source: 'github-action-benchmark', file, suite, entry: e }),
      });
      if (r.duplicate) skipped++;
      else added++;
    }
  }
  return { added, skipped };
}

/**
 * The history as github-action-benchmark data: one suite per runner hardware and direction, one entry
 * per run, each bench the median of the run's samples with its interval as `range`.
 * @param {string} dir
 */
export async function exportGab(dir, { repoUrl = '' } = {}) {
  const h = await openHistory(dir);
  /** @type {Record<string, Map<string, any>>} */
  const suites = {};
  for (const s of h.listSeries()) {
    const suite = `dind-bench ${s.runner} (${s.fingerprint.slice(0, 8)}), ${s.better === 'higher' ? 'bigger' : 'smaller'} is better`;
    const runs = (suites[suite] ??= new Map());
    for (const p of await h.readSeries(s.key)) {
      if (!runs.has(p.runId)) {
        runs.set(p.runId, {
          commit: { id: p.commit ?? 'unknown', message: `dind-bench run ${p.runId}`, timestamp: p.time, url: repoUrl && p.commit ? `${repoUrl}/commit/${p.commit}` : '' },
          date: Date.parse(p.time),
          tool: s.better === 'higher' ? 'customBiggerIsBetter' : 'customSmallerIsBetter',
          benches: [],
        });
      }
      const sum = p.summary;
      runs.get(p.runId).benches.push({
        name: `${s.benchmark} ${s.metric} [${s.environmentKey}/${s.distro}]`,
        value: sum?.median ?? p.samples[0],
        unit: s.unit,
        ...(sum ? { range: `${round(sum.low)} .. ${round(sum.high)} (95% CI)` } : {}),
        extra: `median of ${p.samples.length} samples; Engine ${p.engines.outer}${p.engines.inner ? `, inner ${p.engines.inner}` : ''}`,
      });
    }
  }
  /** @type {Record<string, any[]>} */
  const entries = {};
  for (const [suite, runs] of Object.entries(suites)) entries[suite] = [...runs.values()].sort((a, b) => a.date - b.date);
  return { lastUpdate: Date.now(), repoUrl, entries };
}

/** @param {any} data */
export const formatDataJs = (data) => `window.BENCHMARK_DATA = ${JSON.stringify(data, null, 2)}\n`;

const round = (/** @type {number} */ x) => Number(x.toPrecision(6));
