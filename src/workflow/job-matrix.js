// The job matrix of .github/workflows/bench.yml, from the workflow's inputs and the image matrix.
// Pure, so it is tested as a table of inputs -> jobs, and the workflow's prepare job only prints it.
//
// One job per runner label set x host Engine x layout:
//   separate    two jobs, `docker` (native, docker) and `dind` (the DinD environments): the way most CI
//               fleets actually use them, each job on a machine of its own;
//   interleaved one job with native, docker and DinD taking turns step by step (the suite's default), so
//               drift on the machine hits every environment alike;
//   both        all three.
// A host Engine version becomes the runner label `docker-<version>`, which runners/ put on every runner,
// so a fleet mid-upgrade runs the suite on the old and the new Engine and the history shows the change.
//
// Shards: with a job time budget (maxMinutes), a job whose estimated time (plan's estimates, through the
// `estimate` callback) is over it is split into shard jobs of the same `group`, by benchmark first and, for
// a benchmark too long alone, by environment group (native+docker apart from each DinD environment, which
// gives up interleaving for that benchmark only; one environment per part if even that is over). `dind-bench
// merge` makes each group one run again. A run split into more jobs than maxShards is refused, naming the
// benchmarks that fit (src/workflow/workload-shards.js places a workload, which splits by samples instead).
import { namesIn, splitList } from '../text/lists.js';
import { comparedWithDocker } from '../model/environments.js';

export const LAYOUTS = ['separate', 'interleaved', 'both'];
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Environments per job mode. */
export const MODE_ENVIRONMENTS = {
  docker: ['native', 'docker'],
  dind: ['dind'],
  interleaved: ['native', 'docker', 'dind'],
};

export class MatrixInputError extends Error {}

/**
 * @typedef {{
 *   id: string, name: string, runsOn: string[], mode: keyof typeof MODE_ENVIRONMENTS, environments: string,
 *   benchmarks: string, distributions: string, engines: string, hostEngine: string,
 *   group: string, shard: string, estimateMinutes?: number,
 * }} Job
 *   group: the run this job's results belong to (the id of the unsharded job); shard: "k/n" within it
 * @typedef {(part: {benchmarks: string[], environments: string[]}) => number} Estimate
 *   estimated seconds for one job running these benchmarks in these environments (setup included)
 */

/**
 * @param {unknown} value @param {readonly string[]} valid @param {string} input the workflow input's name
 * @returns {string[]}
 */
function listInput(value, valid, input) {
  return namesIn(value, valid, {
    empty: `input ${input} is empty`,
    unknown: (names) => `input ${input}: unknown ${names.join(', ')}`,
    ErrorClass: MatrixInputError,
  });
}

/**
 * Runner label sets: `self-hosted,linux,gce; self-hosted,linux,lab` (sets separated by `;`, labels by `,`).
 * @param {string} value
 */
export function parseRunnerSets(value) {
  const sets = String(value ?? '')
    .split(';')
    .map((set) => [
      ...new Set(
        set
          .split(',')
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    ])
    .filter((set) => set.length);
  if (!sets.length)
    throw new MatrixInputError(
      'input runners is empty; give label sets such as "self-hosted,linux,gce; self-hosted,linux,lab"',
    );
  for (const set of sets) {
    const bad = set.filter((l) => !LABEL.test(l));
    if (bad.length)
      throw new MatrixInputError(
        `input runners: label ${JSON.stringify(bad[0])} is not a runner label (letters, digits, . _ - only)`,
      );
  }
  return sets;
}

/** @param {string[]} labels */
const slug = (labels) => labels.filter((l) => l !== 'self-hosted' && l !== 'linux').join('-') || labels.join('-');

/**
 * @param {{
 *   bake: {distros: string[], engines: string[]},
 *   benchmarkNames: readonly string[],
 *   inputs: {benchmarks: string | string[], distributions: string | string[], engines: string | string[], runners: string, hostEngines?: string,
 *     layout?: string, maxMinutes?: number, maxShards?: number},
 *   estimate?: Estimate,
 * }} args
 * @returns {{include: Job[]}}
 */
export function jobMatrix({ bake, benchmarkNames, inputs, estimate }) {
  const benchmarks = listInput(inputs.benchmarks, benchmarkNames, 'benchmarks');
  const distributions = listInput(inputs.distributions, bake.distros, 'distributions');
  const engines = listInput(inputs.engines, bake.engines, 'engines');
  const layout = inputs.layout || 'both';
  if (!LAYOUTS.includes(layout))
    throw new MatrixInputError(`input layout: unknown ${layout}; valid: ${LAYOUTS.join(', ')}`);
  const hostEngines = splitList(inputs.hostEngines);
  for (const v of hostEngines) {
    if (!/^\d+\.\d+(\.\d+)?$/.test(v))
      throw new MatrixInputError(
        `input host-engines: ${JSON.stringify(v)} is not an Engine version such as 27.5 or 28.2.1`,
      );
  }
  /** @type {(keyof typeof MODE_ENVIRONMENTS)[]} */
  const modes =
    layout === 'separate'
      ? ['docker', 'dind']
      : layout === 'interleaved'
        ? ['interleaved']
        : ['docker', 'dind', 'interleaved'];

  /** @type {Job[]} */
  const include = [];
  for (const set of parseRunnerSets(inputs.runners)) {
    for (const hostEngine of hostEngines.length ? hostEngines : ['']) {
      const runsOn = hostEngine ? [...set, `docker-${hostEngine}`] : set;
      for (const mode of modes) {
        const id = `${slug(runsOn)}-${mode}`;
        if (include.some((j) => j.group === id)) {
          throw new MatrixInputError(`input runners: two label sets give the same job ${id}; list each set once`);
        }
        const environments = MODE_ENVIRONMENTS[mode];
        const parts =
          inputs.maxMinutes && estimate
            ? shardJob({ benchmarks, environments, estimate, maxSeconds: inputs.maxMinutes * 60, job: id })
            : [{ benchmarks, environments }];
        if (inputs.maxShards && parts.length > inputs.maxShards)
          throw tooManyShards({
            job: id,
            parts,
            benchmarks,
            maxShards: inputs.maxShards,
            maxMinutes: inputs.maxMinutes,
          });
        for (const [k, part] of parts.entries()) {
          const shard = parts.length > 1 ? `${k + 1}/${parts.length}` : '1/1';
          include.push({
            id: parts.length > 1 ? `${id}-${k + 1}` : id,
            name: `${slug(runsOn)} · ${mode}${parts.length > 1 ? ` · ${shard}` : ''}`,
            runsOn,
            mode,
            environments: part.environments.join(','),
            benchmarks: part.benchmarks.join(','),
            distributions: distributions.join(','),
            engines: engines.join(','),
            hostEngine,
            group: id,
            shard,
            ...(estimate ? { estimateMinutes: Math.ceil(estimate(part) / 60) } : {}),
          });
        }
      }
    }
  }
  return { include };
}

/**
 * Splits one job into parts whose estimate stays under maxSeconds: units are benchmarks (all of the job's
 * environments, interleaved), a benchmark over the budget alone becomes one unit per environment group;
 * units are packed first-fit, longest first, and each part is estimated whole (each pays its own setup).
 * @param {{benchmarks: string[], environments: string[], estimate: Estimate, maxSeconds: number, job: string}} args
 * @returns {{benchmarks: string[], environments: string[]}[]}
 */
export function shardJob({ benchmarks, environments, estimate, maxSeconds, job }) {
  if (!(maxSeconds > 0)) throw new MatrixInputError(`input max-minutes must be a positive number of minutes`);
  /** @type {{benchmarks: string[], environments: string[], seconds: number}[]} */
  const units = [];
  for (const b of benchmarks) {
    const whole = { benchmarks: [b], environments };
    if (estimate(whole) <= maxSeconds) {
      units.push({ ...whole, seconds: estimate(whole) });
      continue;
    }
    for (const group of environmentGroups(environments)) {
      // A group still over the budget is split once more: one environment per part.
      const tooLong = estimate({ benchmarks: [b], environments: group }) > maxSeconds;
      for (const envs of tooLong ? group.map((e) => [e]) : [group]) {
        const part = { benchmarks: [b], environments: envs };
        const seconds = estimate(part);
        if (seconds > maxSeconds) {
          throw new MatrixInputError(
            `job ${job}: ${b} in ${envs.join(',')} alone is estimated at ${Math.ceil(seconds / 60)} min, ` +
              `over max-minutes ` +
              `${Math.round(maxSeconds / 60)}: raise max-minutes (and the job timeout), or lower the iterations`,
          );
        }
        units.push({ ...part, seconds });
      }
    }
  }
  units.sort((a, b) => b.seconds - a.seconds);
  /** @type {{benchmarks: string[], environments: string[]}[]} */
  const parts = [];
  for (const u of units) {
    const together = (/** @type {{benchmarks: string[], environments: string[]}} */ p) =>
      estimate({ ...p, benchmarks: [...p.benchmarks, ...u.benchmarks] });
    const fits = parts.find((p) => sameList(p.environments, u.environments) && together(p) <= maxSeconds);
    if (fits) fits.benchmarks.push(...u.benchmarks);
    else parts.push({ benchmarks: [...u.benchmarks], environments: u.environments });
  }
  // Benchmarks in the order the user gave them, within each part and across parts.
  const order = (/** @type {string} */ b) => benchmarks.indexOf(b);
  for (const p of parts) p.benchmarks.sort((a, b) => order(a) - order(b));
  const envOrder = (/** @type {string} */ e) => environments.indexOf(e);
  return parts.sort(
    (a, b) =>
      order(a.benchmarks[0]) - order(b.benchmarks[0]) || envOrder(a.environments[0]) - envOrder(b.environments[0]),
  );
}

/**
 * A run whose budget makes more jobs than max-shards: refused, naming the plans that fit and their inputs
 * (the benchmarks the first max-shards jobs hold whole; more shards; fewer iterations).
 * @param {{ job: string, parts: {benchmarks: string[]}[], benchmarks: string[], maxShards: number, maxMinutes?: number }} a
 */
function tooManyShards({ job, parts, benchmarks, maxShards, maxMinutes }) {
  const kept = parts.slice(0, maxShards);
  const whole = benchmarks.filter((b) => parts.every((p) => !p.benchmarks.includes(b) || kept.includes(p)));
  const fits = [
    ...(whole.length ? [`\`benchmarks: ${whole.join(',')}\` (what ${maxShards} job(s) hold)`] : []),
    `\`max-shards: ${parts.length}\``,
    "fewer `iterations:` than the profile's (`dind-bench plan` sizes them)",
  ];
  return new MatrixInputError(
    `job ${job}: the plan needs ${parts.length} shard jobs of at most max-minutes ${maxMinutes}, and max-shards ` +
      `${maxShards} allows no more. What fits (write one under the caller's with:): ${fits.join('; or ')}`,
  );
}

/**
 * The baselines together (native and docker: one machine's, by their descriptors); each environment compared
 * with Docker apart. @param {string[]} envs
 */
function environmentGroups(envs) {
  const base = envs.filter((e) => !comparedWithDocker(e));
  return [...(base.length ? [base] : []), ...envs.filter((e) => !base.includes(e)).map((e) => [e])];
}

/** @param {string[]} a @param {string[]} b */
const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
