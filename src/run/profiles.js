// Run profiles: how many iterations, how long each step may take. Benchmark parameters per profile live
// in each benchmark module.
/** @type {Record<string, {iterations: number, warmup: number, stepTimeoutMs: number, description: string}>} */
export const PROFILES = {
  quick: { iterations: 3, warmup: 1, stepTimeoutMs: 120_000, description: 'a first answer in minutes: short tests, 3 iterations' },
  standard: { iterations: 20, warmup: 1, stepTimeoutMs: 900_000, description: "the study's settings: 20 iterations, full-length tests" },
};
export const PROFILE_NAMES = Object.keys(PROFILES);
