// Run profiles: how many iterations, how long each step may take. Benchmark parameters per profile live
// in each benchmark module; a benchmark without parameters for a profile uses its `quick` ones (see
// profileParams). `tiny` exists for the end-to-end run of the workflows under act (.ci/run): it proves the
// pipeline, not a difference, so one iteration and no warm-up.
// `quick` plans 5 iterations (its first look at its decisions; a history verdict needs 5 samples a side),
// and no warm-up: interleaving gives every environment the same first round. Its tests are short (each
// benchmark's quick parameters). Then, while its budget lasts, it samples until its decisions are decided
// (src/run/adaptive.js), up to 12 iterations. An explicit --iterations asks for a fixed design and turns
// that off; --budget sets another budget.
// `quick` also asks the second question a team comes with, what the next inner Engine line does to a job:
// unless --engine is given, it measures the start-up a job pays (`lifecycle`) in `dind` on `nextEngine` too,
// beside the default line, so its first run answers both (src/run/design.js nextLineOf). Only lifecycle:
// the start-up is what an upgrade changes for every job, and it costs about 20 s a round; every benchmark
// on two lines is a run of its own (`--engine 20.10,26.1`).
// Since issue 45 `quick` is the first answer, not a short catalogue: unless --bench or --env is given, its
// cells are what the two questions need on a 2-core runner (`benchmarks`, `environments`, and `only`: an
// environment measured for some benchmarks only), one decision per resource family: the start-up a job pays
// in docker, dind, dind-vfs and on the next Engine line; CPU (sysbench), memory, disk (iozone, with dind-vfs,
// where storage is the subject), network (iperf3), a service (redis) and a build, in docker and dind. After
// the 5 planned rounds it samples until its decisions are decided (src/run/adaptive.js), up to 12 a side,
// within 7.5 minutes; the whole catalogue is `--profile standard`.
/**
 * @type {Record<string, {iterations: number, warmup: number, stepTimeoutMs: number, description: string,
 *   budgetMs?: number, maxIterations?: number, nextEngine?: string,
 *   benchmarks?: string[], environments?: string[], only?: Record<string, string[]>}>}
 */
export const PROFILES = {
  quick: {
    iterations: 5,
    warmup: 0,
    stepTimeoutMs: 120_000,
    budgetMs: 450_000,
    maxIterations: 12,
    nextEngine: '26.1',
    benchmarks: ['lifecycle', 'sysbench', 'memory', 'iozone', 'iperf3', 'redis', 'build'],
    environments: ['docker', 'dind', 'dind-vfs'],
    only: { 'dind-vfs': ['lifecycle', 'iozone'] },
    description:
      'the first answer: one decision per resource family in docker, dind and dind-vfs, 5 rounds, then samples where a decision is still open, within 7.5 minutes',
  },
  standard: {
    iterations: 20,
    warmup: 1,
    stepTimeoutMs: 900_000,
    description: "the study's settings: 20 iterations, full-length tests",
  },
  tiny: {
    iterations: 1,
    warmup: 0,
    stepTimeoutMs: 120_000,
    description: 'a smoke test of the whole pipeline (act, CI): 1 iteration, no warm-up',
  },
};
export const PROFILE_NAMES = Object.keys(PROFILES);

/**
 * A benchmark's parameters for a profile, falling back to its `quick` ones.
 * @param {{params: Record<string, Record<string, unknown>>}} bench @param {string} profile
 */
export const profileParams = (bench, profile) => bench.params[profile] ?? bench.params.quick;
