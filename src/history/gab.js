// github-action-benchmark's `data.js` (`window.BENCHMARK_DATA = {...}`), both ways, so a user can move
// their history in, or keep that action's page fed from a dind-bench history.
// Its shape: { lastUpdate, repoUrl, entries: { <suite>: [ { commit: { id, message, timestamp, url, ... },
// date /* ms */, tool, benches: [ { name, value, unit, range?, extra? } ] } ] } }.
// Bench names are written `<benchmark> <metric> [<environment>/<distro>]` (as `compare --export-gab`
// and `history export-gab` do), or `<job>: <benchmark> <metric> [<environment>/<distro>]` (as the workflow's
// actions/publish/gab-input.sh does, one suite holding every job), and read back into the same series:
// each job its own runner; other names become series of environment `imported`.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MAX_JSON_BYTES, MAX_JSON_DEPTH, nestingDepth } from '../results/read-json.js';
import { halfWidth, roundToInterval } from '../stats/display.js';
import { appendRun, checkAppend } from './append.js';
import { HistoryError, readJson } from './files.js';
import { periodOf, runCatalogPath } from './layout.js';
import { checkRunTime } from './names.js';
import { overviewOf } from './overview.js';
import { seriesKey } from './points.js';
import { openHistory } from './store.js';

/**
 * That action's data as parseDataJs checks it: every entry a date, a commit id and benches with names and
 * finite values. The rest is as the file gives it: a unit is checked where it becomes a series
 * (checkAppend), a commit's people where they are read (gabPerson).
 * @typedef {{ name: string, value: number, unit?: string, range?: string, extra?: string }} GabBench
 * @typedef {{ id: string, message?: string, timestamp?: string, url?: string, author?: unknown, committer?: unknown }} GabCommit
 * @typedef {{ commit: GabCommit, date: number, tool?: string, benches: GabBench[] }} GabEntry
 * @typedef {{ lastUpdate?: number, repoUrl?: string, entries: Record<string, GabEntry[]> }} GabData
 */
/**
 * An entry as exportGab writes it: its people and each bench's `extra` always there.
 * @typedef {{ name: string, email: string, username: string }} GabUser
 * @typedef {GabEntry & { commit: { author: GabUser, committer: GabUser }, benches: (GabBench & { extra: string })[] }} GabExportEntry
 */
/** @typedef {NonNullable<import('#model/results.js').Results['caller']>} Caller */

const PREFIX = /^\s*window\.BENCHMARK_DATA\s*=\s*/;
/** github-action-benchmark tools whose values are better when higher; every other tool's are better lower. */
const HIGHER_TOOLS = new Set(['customBiggerIsBetter', 'benchmarkjs', 'pytest', 'benchmarkluau', 'catch2-throughput']);
const NAME = /^(?:([A-Za-z0-9][A-Za-z0-9._-]{0,99}): )?(\S+) (\S+) \[([^/\]]+)\/([^\]]+)\]$/;

/**
 * A bench name as the workflow and the exports write it, or null for another tool's name.
 * @param {string} name @returns {{job: string | null, benchmark: string, metric: string, environmentKey: string,
 *   distro: string} | null}
 */
export function parseBenchName(name) {
  const m = NAME.exec(name);
  return m ? { job: m[1] ?? null, benchmark: m[2], metric: m[3], environmentKey: m[4], distro: m[5] } : null;
}

/** @param {string} text @param {string} file @returns {GabData} */
export function parseDataJs(text, file) {
  if (!PREFIX.test(text))
    throw new HistoryError(
      file,
      'does not start with `window.BENCHMARK_DATA =`: not a github-action-benchmark data.js',
    );
  let data;
  const json = text.replace(PREFIX, '').trim().replace(/;$/, '');
  if (nestingDepth(json, MAX_JSON_DEPTH) !== null)
    throw new HistoryError(
      file,
      `its BENCHMARK_DATA nests more than ${MAX_JSON_DEPTH} deep: not a data.js that action writes`,
    );
  try {
    data = JSON.parse(json);
  } catch (e) {
    throw new HistoryError(file, `its BENCHMARK_DATA is not valid JSON: ${/** @type {Error} */ (e).message}`);
  }
  if (typeof data?.entries !== 'object' || data.entries === null)
    throw new HistoryError(file, 'BENCHMARK_DATA has no `entries` object');
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
      // A date of 1e20 would otherwise fail later as just "Invalid time value".
      checkRunTime(file, `${where}.date`, e.date);
    }
  }
  return data;
}

/**
 * Imports every entry of a data.js into the history in `dir`; entries already imported are skipped.
 * @param {string} dir @param {string} file
 */
export async function importGab(dir, file) {
  const size = (await fs.stat(file)).size;
  if (size > MAX_JSON_BYTES)
    throw new HistoryError(file, `${size} bytes; at most ${MAX_JSON_BYTES} are read. Nothing was imported`);
  const data = parseDataJs(await fs.readFile(file, 'utf8'), file);
  /** @type {import('./append.js').Append[]} */
  const appends = [];
  for (const [suite, list] of Object.entries(data.entries)) {
    for (const e of list) {
      // One run per job of the entry: benches named with a job (the workflow's gab-input.sh) came from that
      // job's machine; the others from the suite's one machine and job, as far as anyone can tell.
      /** @type {Map<string | null, GabBench[]>} */
      const byJob = new Map();
      for (const b of e.benches) {
        const job = parseBenchName(b.name)?.job ?? null;
        byJob.set(job, [...(byJob.get(job) ?? []), b]);
      }
      for (const [job, benches] of byJob) appends.push(importedRun({ file, suite, job, entry: e, benches }));
    }
  }
  // Every entry is checked before the first is imported: a bad one leaves the history as it was.
  for (const a of appends) checkAppend(a);
  let added = 0;
  let skipped = 0;
  for (const a of appends) {
    const r = await appendRun(dir, a);
    if (r.duplicate) skipped++;
    else added++;
  }
  return { added, skipped };
}

/**
 * One entry's benches of one job (or of the suite, job null) as a run to append.
 * @param {{file: string, suite: string, job: string | null, entry: GabEntry, benches: GabBench[]}} args
 * @returns {import('./append.js').Append}
 */
function importedRun({ file, suite, job, entry: e, benches }) {
  // Without a job, one suite of that action is one machine: it gets a fingerprint of its own. A job is one
  // machine kind whatever the suite (the workflow writes each direction as a suite of its own), so both
  // directions of one job land on one runner.
  const fingerprint = `gab-${createHash('sha256')
    .update(job === null ? suite : `job|${job}`)
    .digest('hex')
    .slice(0, 10)}`;
  const runner = job ?? suite;
  const time = new Date(e.date).toISOString();
  const idOf = job === null ? `${suite}|${e.commit.id}|${e.date}` : `${suite}|${job}|${e.commit.id}|${e.date}`;
  const runId = `gab-${createHash('sha256').update(idOf).digest('hex').slice(0, 16)}`;
  const better = HIGHER_TOOLS.has(e.tool ?? '') ? 'higher' : 'lower';
  // The commit's people travel with the run, so an export gives that action's page its tooltips back.
  const people = { author: gabPerson(e.commit.author), committer: gabPerson(e.commit.committer) };
  const caller = { repository: null, commit: e.commit.id, ref: null, ...people };
  const run = {
    runId,
    time,
    period: periodOf(time),
    commit: e.commit.id,
    caller,
    runner,
    fingerprint,
    profile: 'imported',
    complete: true,
    outerEngine: 'unknown',
  };
  const points = benches.map((b) => {
    const parsed = parseBenchName(b.name);
    const s = parsed
      ? {
          benchmark: parsed.benchmark,
          metric: parsed.metric,
          environmentKey: parsed.environmentKey,
          distro: parsed.distro,
        }
      : { benchmark: suite, metric: b.name, environmentKey: 'imported', distro: 'n/a' };
    const series = {
      fingerprint,
      runner,
      ...s,
      unit: b.unit ?? '',
      better: /** @type {'higher'|'lower'} */ (better),
    };
    return {
      series: { key: seriesKey(series), ...series },
      point: {
        runId,
        time,
        commit: e.commit.id,
        samples: [b.value],
        engines: { outer: 'unknown', inner: null },
        storageDriver: null,
        runner,
      },
    };
  });
  const asResults = {
    run: { id: runId, startedAt: time, endedAt: time, profile: 'imported', iterations: 1, complete: true },
    suite: { commit: e.commit.id },
    runner: { name: runner, labels: ['imported from github-action-benchmark'], machineType: null },
    host: {
      cpuModel: 'unknown (imported from github-action-benchmark)',
      cores: 0,
      memoryBytes: 0,
      distribution: 'unknown',
      cgroupVersion: '?',
      fingerprint,
    },
    engines: { outer: { version: 'unknown', storageDriver: 'unknown' } },
    environments: [],
    cells: [],
  };
  return {
    where: file,
    run,
    points,
    // An imported entry has only the parts of a results document that overviewOf reads (run, runner, host,
    // engines): typed as one on purpose.
    overview: (pts, prev) =>
      overviewOf(/** @type {import('#model/results.js').Results} */ (/** @type {unknown} */ (asResults)), pts, prev),
    // This run's benches only: an entry of several jobs is several runs.
    provenance: {
      source: 'github-action-benchmark',
      file,
      suite,
      ...(job === null ? {} : { job }),
      entry: { ...e, benches },
    },
  };
}

/**
 * The history as github-action-benchmark data: one suite per runner hardware and direction, one entry
 * per run, each bench the median of the run's samples rounded to what its interval supports, with
 * the interval as `range` in the `± x` form that action's own tools write, and exactly in `extra`.
 * Every commit has `author` and `committer` with name, email and username: that action's page reads
 * `commit.committer.username` in every tooltip and throws without it.
 * @param {string} dir
 */
export async function exportGab(dir, { repoUrl = '' } = {}) {
  const h = await openHistory(dir);
  const callers = await runCallers(dir, h.index.periods ?? []);
  /** @type {Record<string, Map<string, GabExportEntry>>} */
  const suites = {};
  for (const s of h.listSeries()) {
    const suite = `dind-bench ${s.runner} (${s.fingerprint.slice(0, 8)}), ${s.better === 'higher' ? 'bigger' : 'smaller'} is better`;
    const runs = (suites[suite] ??= new Map());
    for (const p of await h.readSeries(s.key)) {
      if (!runs.has(p.runId)) {
        const caller = callers.get(p.runId);
        runs.set(p.runId, {
          commit: {
            id: p.commit ?? 'unknown',
            message: `dind-bench run ${p.runId}`,
            timestamp: p.time,
            url: repoUrl && p.commit ? `${repoUrl}/commit/${p.commit}` : '',
            author: gabUser(caller?.author ?? caller?.committer),
            committer: gabUser(caller?.committer ?? caller?.author),
          },
          date: Date.parse(p.time),
          tool: s.better === 'higher' ? 'customBiggerIsBetter' : 'customSmallerIsBetter',
          benches: [],
        });
      }
      const sum = p.summary;
      const half = sum ? halfWidth(sum.median, sum.low, sum.high) : 0;
      const interval = sum ? `95% CI ${round(sum.low)} .. ${round(sum.high)}; ` : '';
      const inner = p.engines.inner ? `, inner ${p.engines.inner}` : '';
      /** @type {GabExportEntry} */ (runs.get(p.runId)).benches.push({
        name: `${s.benchmark} ${s.metric} [${s.environmentKey}/${s.distro}]`,
        value: roundToInterval(sum?.median ?? p.samples[0], half),
        unit: s.unit,
        ...(half > 0 ? { range: `± ${half}` } : {}),
        extra: `${interval}median of ${p.samples.length} samples; Engine ${p.engines.outer}${inner}`,
      });
    }
  }
  /** @type {Record<string, GabExportEntry[]>} */
  const entries = {};
  for (const [suite, runs] of Object.entries(suites))
    entries[suite] = [...runs.values()].sort((a, b) => a.date - b.date);
  return { lastUpdate: Date.now(), repoUrl, entries };
}

/**
 * runId -> the caller recorded in the run catalogs (absent for runs published before it was recorded).
 * @param {string} dir @param {string[]} periods
 */
async function runCallers(dir, periods) {
  /** @type {Map<string, Caller>} */
  const out = new Map();
  for (const period of periods.filter((p) => /^\d{4}-\d{2}$/.test(p))) {
    const file = path.join(dir, runCatalogPath(period));
    const catalog = await readJson(file, 'run catalog', { fallback: { runs: [] } });
    for (const r of Array.isArray(catalog?.runs) ? catalog.runs : []) if (r?.caller) out.set(r.runId, r.caller);
  }
  return out;
}

/**
 * A person as that action writes one: three strings; "unknown" where nothing was recorded.
 * @param {import('#model/results.js').Person | undefined} p from a run catalog: each field is read only as a string when it is one
 */
function gabUser(p) {
  const s = (/** @type {unknown} */ v) => (typeof v === 'string' ? v : '');
  const username = s(p?.username) || s(p?.name) || 'unknown';
  return { name: s(p?.name) || username, email: s(p?.email), username };
}

/**
 * A person read from a data.js: bounded strings or null.
 * @param {unknown} value from an untrusted file: each field is read only as a string when it is one
 */
function gabPerson(value) {
  if (!value || typeof value !== 'object') return null;
  const p = /** @type {Record<string, unknown>} */ (value);
  const s = (/** @type {unknown} */ v) => (typeof v === 'string' && v ? v.replace(CONTROL, ' ').slice(0, 100) : null);
  const out = { name: s(p.name), email: s(p.email), username: s(p.username) };
  return out.name || out.username ? out : null;
}

/** @param {unknown} data */
export const formatDataJs = (data) => `window.BENCHMARK_DATA = ${JSON.stringify(data, null, 2)}\n`;

const round = (/** @type {number} */ x) => Number(x.toPrecision(6));

// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROL = /[\u0000-\u001f\u007f]/g;
