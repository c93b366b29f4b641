// `dind-bench merge`: the shards of one sharded run (each a results.json from a job that ran some of the
// benchmarks and environment groups) made into one run that `compare` and `publish` read like any other.
// Shards are one run only if they could have been one: the same hardware (host fingerprint), the same
// suite (version and commit), the same profile, iterations and warm-ups, the same outer Engine, the same
// caller commit, every shard finished, and no cell measured twice. Anything else is refused, naming the
// two shards and what differs, before anything is written. `mergeGroups` does it for every group of a job
// matrix at once (the workflow's merge job), leaving out a group whose shards are not all there and finished.
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readJsonFile } from './read-json.js';
import { htmlReport } from './report-html.js';
import { markdownReport } from './report.js';
import { readRun } from '../reading/read-run.js';
import { validateResults } from './schema.js';
import { withoutSecrets } from '../redact/secrets.js';
import { poolCells, sameCells } from './pool-cells.js';

export class MergeError extends Error {}

/** More shards than this is not a job matrix but a mistake (GitHub allows 256 jobs per matrix). */
const MAX_SHARDS = 256;

/**
 * @typedef {{file: string, results: any}} Shard
 */

/**
 * What must be equal in every shard, each with how to say it.
 * @type {{what: string, of: (r: any) => unknown, hint: string}[]}
 */
const SAME = [
  {
    what: 'hardware (host fingerprint)',
    of: (r) => r.host.fingerprint,
    hint: 'merge only shards from runners of one machine kind (one runner label set)',
  },
  {
    what: 'suite version',
    of: (r) => `${r.suite.version} ${r.suite.commit ?? '(no commit)'}`,
    hint: 'every shard must run the same dind-bench version and commit',
  },
  {
    what: 'profile',
    of: (r) => `${r.run.profile}, ${r.run.iterations} iterations, ${r.run.warmup} warm-up`,
    hint: 'give every shard the same --profile and --iterations',
  },
  {
    what: 'outer Engine',
    of: (r) => `${r.engines.outer.version} (${r.engines.outer.storageDriver})`,
    hint: 'merge only shards from runners with the same Engine (one host-engine label)',
  },
  { what: 'caller commit', of: (r) => r.caller?.commit ?? null, hint: 'merge only the shards of one workflow run' },
];

/**
 * The merged results document. Pure: shards in, document out (validated), or MergeError.
 * @param {Shard[]} shards in the order their cells should appear
 * @param {{ pool?: boolean }} [o] pool: sample shards (each the same cells, a share of the samples: a workload
 *   split over jobs), whose cells are pooled (./pool-cells.js) instead of refused as measured twice
 */
export function mergeShards(shards, o = {}) {
  if (shards.length === 0) {
    throw new MergeError('no shards to merge: give the results.json files (or folders holding them) of the shard jobs');
  }
  if (shards.length > MAX_SHARDS) throw new MergeError(`${shards.length} shards: at most ${MAX_SHARDS}`);
  const [first] = shards;
  for (const s of shards) {
    const state = s.results.run.state ?? 'finished';
    if (state !== 'finished') {
      const resume = `dind-bench run --resume ${path.dirname(s.file)}`;
      throw new MergeError(`${s.file}: a partial run (state ${state}); finish it with \`${resume}\` before merging`);
    }
    for (const rule of SAME) {
      const a = JSON.stringify(rule.of(first.results));
      const b = JSON.stringify(rule.of(s.results));
      if (a !== b) {
        throw new MergeError(`shards differ in ${rule.what}: ${first.file} has ${a}, ${s.file} has ${b}; ${rule.hint}`);
      }
    }
  }
  if (o.pool && !sameCells(shards))
    throw new MergeError('sample shards must each hold the same cells (every environment, a share of the samples)');
  const cells = o.pool ? poolCells(shards) : mergeCells(shards);
  const runs = shards.map((s) => s.results.run);
  const startedAt = runs.map((r) => r.startedAt).sort()[0];
  const endedAt = runs
    .map((r) => r.endedAt)
    .sort()
    .at(-1);
  // Deterministic: merging the same shards again gives the same run, which publish then skips as a duplicate.
  const hash = createHash('sha256')
    .update(
      runs
        .map((r) => r.id)
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 8);
  const runnerNames = [...new Set(shards.map((s) => s.results.runner.name))];
  const merged = {
    schemaVersion: first.results.schemaVersion,
    suite: first.results.suite,
    ...(first.results.caller !== undefined ? { caller: first.results.caller } : {}),
    run: {
      id: `${startedAt.replace(/[:.]/g, '-')}-merged-${hash}`,
      profile: first.results.run.profile,
      // Pooled, each cell has every shard's samples.
      iterations: o.pool ? runs.reduce((n, r) => n + r.iterations, 0) : first.results.run.iterations,
      warmup: first.results.run.warmup,
      startedAt,
      endedAt,
      args: { merged: runs.map((r) => r.id) },
      order: o.pool ? 'interleaved' : orderOf(shards),
      ...(o.pool ? { pooled: true } : {}),
      complete: runs.every((r) => r.complete),
      state: 'finished',
      ...weakestIsolation(shards),
      shards: shards.map((s) => ({
        id: s.results.run.id,
        runner: s.results.runner.name,
        hostname: s.results.host.hostname,
        startedAt: s.results.run.startedAt,
        endedAt: s.results.run.endedAt,
        cells: s.results.cells.length,
      })),
    },
    host: first.results.host,
    runner: {
      ...first.results.runner,
      name: runnerNames.join(' + '),
      labels: [...new Set(shards.flatMap((s) => s.results.runner.labels))],
      githubActions: shards.some((s) => s.results.runner.githubActions),
    },
    engines: first.results.engines,
    images: unionBy(
      shards.flatMap((s) => s.results.images),
      (i) => i.ref,
      (i) => i.status === 'ok',
    ),
    environments: unionBy(
      shards.flatMap((s) => s.results.environments),
      (e) => e.key,
      (e) => e.status === 'ok',
    ),
    cells,
    harness: {
      peakRssBytes: Math.max(...shards.map((s) => s.results.harness.peakRssBytes)),
      // Runner time spent on the run, all shards together (they ran side by side).
      wallSeconds: Math.round(shards.reduce((sum, s) => sum + s.results.harness.wallSeconds, 0) * 10) / 10,
    },
  };
  return validateResults(JSON.parse(JSON.stringify(merged)), 'the merged results');
}

/**
 * What the merged run can say of its order: `interleaved` when every benchmark ran whole in one shard (its
 * environments took turns there, as in any run), `split` when some benchmark's environment groups ran in
 * different shards (workflow matrix splits a benchmark too long for one job that way): its DinD vs
 * Docker comparison then spans two jobs, and the run must not claim otherwise.
 * @param {Shard[]} shards @returns {'interleaved' | 'split'}
 */
export function orderOf(shards) {
  /** @type {Map<string, Set<number>>} */
  const where = new Map();
  shards.forEach((s, i) => {
    for (const c of s.results.cells) where.set(c.benchmark, (where.get(c.benchmark) ?? new Set()).add(i));
  });
  const interleaved = shards.every((s) => (s.results.run.order ?? 'interleaved') === 'interleaved');
  return interleaved && [...where.values()].every((set) => set.size === 1) ? 'interleaved' : 'split';
}

/**
 * Every shard's cells; a cell in two shards is refused (it would be measured twice, in two places).
 * @param {Shard[]} shards
 */
function mergeCells(shards) {
  /** @type {Map<string, string>} */
  const seen = new Map();
  const out = [];
  for (const s of shards) {
    for (const c of s.results.cells) {
      const key = `${c.benchmark}/${c.environmentKey}/${c.distro}`;
      const other = seen.get(key);
      if (other) {
        throw new MergeError(
          `cell ${key} is in two shards (${other} and ${s.file}): ` +
            'split shards by benchmark and environment group, each cell in one shard',
        );
      }
      seen.set(key, s.file);
      out.push(c);
    }
  }
  return out;
}

/**
 * One entry per key, the first that is `preferred`, else the first.
 * @template T @param {T[]} items @param {(x: T) => string} key @param {(x: T) => boolean} preferred @returns {T[]}
 */
function unionBy(items, key, preferred) {
  /** @type {Map<string, T>} */
  const out = new Map();
  for (const x of items) {
    const k = key(x);
    const have = out.get(k);
    if (!have || (!preferred(have) && preferred(x))) out.set(k, x);
  }
  return [...out.values()];
}

/**
 * The results.json files named: files as given, folders searched (a downloaded artifact per job).
 * @param {string[]} paths @returns {Promise<string[]>}
 */
export async function findShardFiles(paths) {
  const files = [];
  for (const p of paths) {
    const st = await stat(p).catch(() => null);
    if (!st) throw new MergeError(`${p}: no such file or folder`);
    if (st.isFile()) files.push(p);
    else files.push(...(await findResults(p)).sort());
  }
  return [...new Set(files.map((f) => path.resolve(f)))];
}

/** @param {string} dir @returns {Promise<string[]>} */
async function findResults(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'raw') out.push(...(await findResults(p)));
    else if (e.isFile() && e.name === 'results.json') out.push(p);
  }
  return out;
}

/**
 * Reads and validates each shard, merges them, and writes OUT/results.json (never over an existing one),
 * the reports, and every shard's raw/ output (cells are disjoint, so their raw folders are too).
 * @param {{shards: string[], out: string, log: (s: string) => void, pool?: boolean}} o
 */
export async function mergeCommand({ shards: paths, out, log, pool = false }) {
  const files = await findShardFiles(paths);
  if (files.length === 0) {
    throw new MergeError(`no results.json under ${paths.join(', ')}: did the shard jobs upload their results?`);
  }
  const outDir = path.resolve(out);
  const file = path.join(outDir, 'results.json');
  if (existsSync(file)) {
    throw new MergeError(`${file} already exists: choose another --out folder (a merge never overwrites a run)`);
  }
  /** @type {Shard[]} */
  const shards = [];
  for (const f of files) shards.push(await readShard(f));
  // The shards were written without their runs' secrets; what is shaped like one is not merged either.
  const merged = withoutSecrets(mergeShards(shards, { pool }));
  await mkdir(outDir, { recursive: true });
  for (const s of shards) {
    const raw = path.join(path.dirname(s.file), 'raw');
    if (!existsSync(raw)) continue;
    await cp(raw, path.join(outDir, 'raw'), { recursive: true, force: false, errorOnExist: false });
  }
  const reading = readRun(merged);
  await writeFile(path.join(outDir, 'report.md'), markdownReport(reading, merged));
  await writeFile(path.join(outDir, 'report.html'), htmlReport(reading, merged));
  // Write-then-rename, last: a results.json present means a finished merge.
  await writeFile(`${file}.tmp`, JSON.stringify(merged, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
  log(`merge: ${shards.length} shard(s), ${merged.cells.length} cells, into ${file} (run ${merged.run.id})`);
  return { file, results: merged };
}

/** One shard's results.json, read within bounds and validated. @param {string} file @returns {Promise<Shard>} */
async function readShard(file) {
  const advice = 'pass the results.json files the shard jobs wrote';
  const doc = await readJsonFile(file, { what: 'results file', advice, ErrorClass: MergeError });
  try {
    return { file, results: validateResults(doc, file) };
  } catch (e) {
    throw new MergeError(/** @type {Error} */ (e).message);
  }
}

// Job ids and groups become folder names: letters, digits, . _ - only (as `workflow matrix` makes them).
const JOB_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * The groups of a job matrix (`workflow matrix` output): group -> the ids of its shard jobs, in matrix order.
 * @param {unknown} matrix @returns {Map<string, string[]>}
 */
export function groupsOf(matrix) {
  const include = /** @type {{include?: unknown} | null | undefined} */ (matrix)?.include;
  if (!Array.isArray(include) || include.length === 0) {
    throw new MergeError('the job matrix has no jobs: give the `workflow matrix` output the bench jobs ran from');
  }
  if (include.length > MAX_SHARDS)
    throw new MergeError(`the job matrix has ${include.length} jobs: at most ${MAX_SHARDS}`);
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const job of include) {
    const id = job?.id;
    const group = job?.group ?? id;
    for (const [what, v] of [
      ['id', id],
      ['group', group],
    ]) {
      if (typeof v !== 'string' || !JOB_NAME.test(v)) {
        throw new MergeError(
          `a job of the matrix has ${what} ${JSON.stringify(String(v).slice(0, 80))}: not a job name`,
        );
      }
    }
    const ids = groups.get(group) ?? [];
    if (ids.includes(id)) throw new MergeError(`job ${id} is twice in the matrix`);
    groups.set(group, [...ids, id]);
  }
  return groups;
}

/** The start of a shard job's folder (and artifact) name, before its job id: bench.yml's SHARD_PREFIX. */
export const SHARD_PREFIX = 'shard-';
const SHARD_PREFIX_FORM = /^[A-Za-z0-9_.-]+$/;

/**
 * The workflow's merge job: each group of the job matrix made one run in OUT/<group>/, from the shard
 * folders `SHARDS/<prefix><job id>/` (as the bench jobs upload them and the merge job downloads them; the
 * prefix is `shard-`, or `shard.<suffix>.` for a call of the workflow given an artifact-suffix). A
 * group of one job is copied as it is (its run id unchanged); a group of several is merged (mergeCommand).
 * A group with a shard missing or stopped before its end is left out, saying which and what to do, and
 * the other groups are still written: each is a whole run on its own.
 * @param {{matrix: unknown, shardsDir: string, out: string, log: (s: string) => void, prefix?: string}} o
 * @returns {Promise<{merged: string[], skipped: {group: string, reason: string}[]}>}
 */
export async function mergeGroups({ matrix, shardsDir, out, log, prefix = SHARD_PREFIX }) {
  if (!SHARD_PREFIX_FORM.test(prefix))
    throw new Error(`shard prefix ${JSON.stringify(prefix)}: letters, digits, . _ - only (a folder name's start)`);
  const groups = groupsOf(matrix);
  // A workload's sample shards (src/workflow/workload-shards.js): their cells are pooled.
  const include = /** @type {{ include: { group?: unknown, split?: unknown }[] }} */ (matrix).include;
  const pooled = new Set(include.filter((j) => j?.split === 'samples').map((j) => j.group));
  const merged = [];
  const skipped = [];
  for (const [group, ids] of groups) {
    try {
      const to = path.join(path.resolve(out), group);
      await mergeGroup({ group, ids, shardsDir, out: to, log, prefix, pool: pooled.has(group) });
      merged.push(group);
    } catch (e) {
      if (!(e instanceof MergeError)) throw e;
      skipped.push({ group, reason: e.message });
      log(`merge: run ${group} left out: ${e.message}`);
    }
  }
  return { merged, skipped };
}

/**
 * @param {{group: string, ids: string[], shardsDir: string, out: string, log: (s: string) => void, prefix: string,
 *   pool: boolean}} o
 */
async function mergeGroup({ group, ids, shardsDir, out, log, prefix, pool }) {
  if (existsSync(out)) throw new MergeError(`${out} already exists: merge into an empty folder`);
  const files = [];
  for (const id of ids) {
    const file = path.join(shardsDir, `${prefix}${id}`, 'results.json');
    if (!existsSync(file)) {
      throw new MergeError(
        `job ${id} left no results (${file}): it failed before its first step, or its upload failed; re-run that job`,
      );
    }
    const shard = await readShard(file);
    const state = shard.results.run.state ?? 'finished';
    if (state !== 'finished') {
      throw new MergeError(
        `job ${id} stopped before its end (state ${state}, ${shard.results.cells.length} cells): re-run that ` +
          'job, which resumes from its uploaded partial results (docs/long-runs.md)',
      );
    }
    files.push(file);
  }
  if (files.length > 1) {
    await mergeCommand({ shards: files, out, log, pool });
    return;
  }
  await mkdir(path.dirname(out), { recursive: true });
  await cp(path.dirname(files[0]), out, { recursive: true, errorOnExist: true, force: false });
  log(`merge: run ${group}: one job, copied as it is`);
}

/**
 * The merged run's step isolation: the weakest any shard had (a process group before a PID namespace), so
 * the merged file never claims more than every shard's steps got; none when no shard ran steps.
 * @param {{ results: import('#model/results.js').Results }[]} shards
 */
function weakestIsolation(shards) {
  const had = shards.map((s) => s.results.run.stepIsolation).filter((x) => x !== undefined);
  const weakest = had.find((x) => x.kind === 'process-group') ?? had[0];
  return weakest ? { stepIsolation: weakest } : {};
}
