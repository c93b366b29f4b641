// Run profiles: how many iterations, how long each step may take. Benchmark parameters per profile live
// in each benchmark module; a benchmark without parameters for a profile uses its `quick` ones (see
// profileParams). `tiny` exists for the end-to-end run of the workflows under act (.ci/run): it proves the
// pipeline, not a difference, so one iteration and no warm-up.
// `quick` plans 5 iterations, so every comparison can be tested (the within-run test and a history verdict
// both need 5 samples a side), and no warm-up: interleaving gives every environment the same first
// round, and the rank tests are not moved by one slow first sample. Its tests are short (each benchmark's
// quick parameters) so that 5 rounds of every benchmark in four environments fit 15 minutes on a 2-core
// runner (`npm run bench:quick-run`). Then, while its budget lasts, it samples adaptively
// (src/run/adaptive.js) where a DinD-vs-Docker comparison cannot yet show 5%, up to 7 iterations. An
// explicit --iterations asks for a fixed design and turns that off; --budget sets another budget.
// `quick` also asks the second question a team comes with, what the next inner Engine line does to a job:
// unless --engine is given, it measures the start-up a job pays (`lifecycle`) in `dind` on `nextEngine` too,
// beside the default line, so its first run answers both (src/run/design.js nextLineOf). Only lifecycle:
// the start-up is what an upgrade changes for every job, and it costs about 20 s a round; every benchmark
// on two lines is a run of its own (`--engine 20.10,26.1`).
/**
 * @type {Record<string, {iterations: number, warmup: number, stepTimeoutMs: number, description: string,
 *   budgetMs?: number, maxIterations?: number, nextEngine?: string}>}
 */
export const PROFILES = {
  quick: {
    iterations: 5,
    warmup: 0,
    stepTimeoutMs: 120_000,
    budgetMs: 15 * 60_000,
    maxIterations: 7,
    nextEngine: '26.1',
    description: 'a first answer in minutes: short tests, 5 iterations, then more where they pay, within 15 minutes',
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
