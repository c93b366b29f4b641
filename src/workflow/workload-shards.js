// Where a team's workload runs in the job matrix of .github/workflows/bench.yml (the prepare job's `workflow
// workload`): beside the benchmarks of its run's job when its plan fits what that job leaves of max-minutes;
// else in shard jobs of its own, each running every environment of the run (interleaved there, as in any
// run) with a share of the samples, merged back into one reading (`dind-bench merge` pools their samples);
// and when even max-shards of those do not fit, refused before any runner is taken, naming the smallest plan
// that fits and the input that sets it. Pure: the plan's estimate comes through the `need` callback.
import { MODE_ENVIRONMENTS } from './job-matrix.js';

/** More shard jobs than this for one workload is not a plan but a mistake (a matrix holds 256 jobs). */
export const MAX_SHARDS = 64;

/**
 * @typedef {import('./job-matrix.js').Job & { workload?: boolean, iterations?: string, split?: 'samples' }} PlacedJob
 *   workload: this job runs the workload; iterations: its own (a sample shard's share); split: its group's
 *   jobs hold the same cells, each a share of the samples (merge pools them)
 * @typedef {{ environments: string[], engines: string[], distributions: string[], iterations: number }} WorkloadPart
 * @typedef {(part: WorkloadPart) => number} NeedSeconds
 *   seconds the workload alone needs in these environments at these iterations: the plan's estimate and its
 *   own error (src/run/workload-plan.js), what a job's budget must hold
 * @typedef {{ group: string, jobs: string[], shards: number, perShard: number, needS: number, beside: boolean }} Placement
 * @typedef {{ input: string, value: string, text: string }} Fit one plan that fits: the input that sets it
 * @typedef {{ group: string, text: string, fits: Fit[] }} Refusal
 */

/**
 * @param {{ include: import('./job-matrix.js').Job[], iterations: number, maxMinutes: number, maxShards: number,
 *   need: NeedSeconds }} a
 *   include: `workflow matrix`'s jobs; iterations: the run's samples a side (the input, else the profile's)
 * @returns {{ include: PlacedJob[], placements: Placement[], refusals: Refusal[] }}
 */
export function placeWorkload({ include, iterations, maxMinutes, maxShards, need }) {
  if (!(Number.isInteger(maxShards) && maxShards >= 1 && maxShards <= MAX_SHARDS))
    throw new RangeError(`max-shards must be a whole number from 1 to ${MAX_SHARDS}, got ${maxShards}`);
  const maxS = maxMinutes * 60;
  /** @type {PlacedJob[]} */
  const out = include.map((j) => ({ ...j }));
  const placements = [];
  const refusals = [];
  for (const group of [...new Set(include.map((j) => j.group))]) {
    const jobs = out.filter((j) => j.group === group);
    const part = partOf(jobs, iterations);
    // Beside the benchmarks: a job holding every environment of the run, in what it leaves of the budget.
    const host = jobs.find((j) => sameSet(j.environments.split(','), part.environments));
    const needS = need(part);
    if (host && needS <= maxS - (host.estimateMinutes ?? 0) * 60) {
      host.workload = true;
      placements.push({ group, jobs: [host.id], shards: 1, perShard: iterations, needS, beside: true });
      continue;
    }
    const shards = shardsFor(part, maxShards, maxS, need);
    if (!shards) {
      refusals.push(refusal({ group, part, maxShards, maxMinutes, need }));
      continue;
    }
    const own = sampleShards(jobs[0], group, part, shards, need);
    out.splice(out.indexOf(jobs[jobs.length - 1]) + 1, 0, ...own);
    placements.push({
      group: own[0].group,
      jobs: own.map((j) => j.id),
      shards,
      perShard: Math.ceil(iterations / shards),
      needS: need({ ...part, iterations: Math.ceil(iterations / shards) }),
      beside: false,
    });
  }
  return { include: out, placements, refusals };
}

/** The workload's part of a run: every environment its jobs hold, in the suite's order. @param {PlacedJob[]} jobs @param {number} iterations */
function partOf(jobs, iterations) {
  const envs = new Set(jobs.flatMap((j) => j.environments.split(',')));
  return {
    environments: MODE_ENVIRONMENTS.interleaved.filter((e) => envs.has(e)),
    engines: jobs[0].engines.split(',').filter(Boolean),
    distributions: jobs[0].distributions.split(',').filter(Boolean),
    iterations,
  };
}

/**
 * The fewest shard jobs (up to `most`) whose share of the samples each fits the budget; null when none does.
 * @param {WorkloadPart} part @param {number} most @param {number} maxS @param {NeedSeconds} need
 */
function shardsFor(part, most, maxS, need) {
  for (let k = 1; k <= Math.min(most, part.iterations); k++) {
    if (need({ ...part, iterations: Math.ceil(part.iterations / k) }) <= maxS) return k;
  }
  return null;
}

/**
 * The workload's own jobs: group `<run>-workload`, each every environment with ceil(iterations / shards)
 * samples a side (one more sample a side at most than asked, so that every shard has the same design).
 * @param {PlacedJob} like @param {string} run @param {WorkloadPart} part @param {number} shards @param {NeedSeconds} need
 * @returns {PlacedJob[]}
 */
function sampleShards(like, run, part, shards, need) {
  const group = `${run}-workload`;
  const perShard = Math.ceil(part.iterations / shards);
  const minutes = Math.ceil(need({ ...part, iterations: perShard }) / 60);
  return Array.from({ length: shards }, (_, i) => ({
    ...like,
    id: shards > 1 ? `${group}-${i + 1}` : group,
    name: `${like.name.split(' · ')[0]} · workload${shards > 1 ? ` · ${i + 1}/${shards}` : ''}`,
    environments: part.environments.join(','),
    benchmarks: '',
    group,
    shard: `${i + 1}/${shards}`,
    estimateMinutes: minutes,
    workload: true,
    iterations: String(perShard),
    split: /** @type {const} */ ('samples'),
  }));
}

/**
 * Why the workload does not fit, and each smallest plan that does, with the input that sets it: fewer
 * samples a side (and how much wider each interval gets), one inner Engine line, more shard jobs, a larger
 * budget.
 * @param {{ group: string, part: WorkloadPart, maxShards: number, maxMinutes: number, need: NeedSeconds }} a
 * @returns {Refusal}
 */
export function refusal({ group, part, maxShards, maxMinutes, need }) {
  const maxS = maxMinutes * 60;
  const N = part.iterations;
  /** @type {Fit[]} */
  const fits = [];
  const perShard = mostIterations(part, maxS, need);
  const fewer = Math.min(N - 1, perShard * maxShards);
  if (fewer >= 1)
    fits.push({
      input: 'iterations',
      value: String(fewer),
      text: `${fewer} samples a side instead of ${N} (each interval about ${Math.sqrt(N / fewer).toFixed(2)}x as wide)`,
    });
  if (part.engines.length > 1 && shardsFor({ ...part, engines: [part.engines[0]] }, maxShards, maxS, need))
    fits.push({
      input: 'engines',
      value: part.engines[0],
      text: `one inner Engine line (${N} samples a side in ${part.engines.length - 1} environment(s) fewer)`,
    });
  const more = perShard >= 1 ? shardsFor(part, MAX_SHARDS, maxS, need) : null;
  if (more && more > maxShards)
    fits.push({
      input: 'max-shards',
      value: String(more),
      text: `the ${N} samples a side split over ${more} runners, merged into one reading`,
    });
  if (perShard < 1 && maxMinutes < 230)
    fits.push({
      input: 'max-minutes',
      value: String(Math.min(230, Math.ceil(need({ ...part, iterations: 1 }) / 60))),
      text: 'a larger budget for one job (the bench job times out at 240 minutes)',
    });
  const allowed = maxShards === 1 ? 'max-shards 1 allows no split' : `nor do ${maxShards} shard jobs (max-shards)`;
  const text =
    `run ${group}: the workload's ${N} samples a side in ${part.environments.join(', ')} need about ` +
    `${Math.ceil(need(part) / 60)} min with the estimate's own error, over max-minutes ${maxMinutes} for one job; ` +
    `${allowed}. ` +
    (fits.length
      ? `What fits (write one under the caller's with:): ${fits.map((f) => `\`${f.input}: ${f.value}\` - ${f.text}`).join('; or ')}`
      : 'Nothing fits: shorten the job (its expected times in the workload file, docs/workloads.md)');
  return { group, text, fits };
}

/** The most samples a side one job fits (0: not even one). @param {WorkloadPart} part @param {number} maxS @param {NeedSeconds} need */
function mostIterations(part, maxS, need) {
  let lo = 0;
  let hi = part.iterations;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (need({ ...part, iterations: mid }) <= maxS) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** @param {string[]} a @param {string[]} b */
const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
