// What a benchmark is. One module per benchmark under this folder, registered in ./index.js.
//
// A benchmark:
//   name          its name on the command line and in results
//   image         the benchmark image it runs in (a `bench` entry of images/docker-bake.hcl)
//   description   one line: what it measures and why a CI engineer should care
//   params        per profile ('quick', 'standard'): its parameters
//   estimateSeconds?(params) -> seconds one iteration takes in one environment, for `dind-bench plan`
//   measure(env, ctx) -> Metric[]   one iteration in one environment; metric names are unique per
//                 benchmark, e.g. "cpu.events_per_second". It must not branch on env.name: environments
//                 offer the same methods (run, probeLifecycle) and optional capabilities (daemonCycle).
//
// ctx = { image, params, timeoutMs, saveRaw(name, text) }: saveRaw keeps the tool's raw output under
// DIR/raw/ so a parse failure or a surprising number can be checked against what the tool printed.
//

/** @typedef {{metric: string, unit: string, better: 'higher' | 'lower', value: number}} Metric */
/**
 * @typedef {{
 *   name: string, image: string, description: string,
 *   params: Record<string, Record<string, unknown>>,
 *   estimateSeconds?: (params: any) => number,
 *   measure: (env: any, ctx: MeasureContext) => Promise<Metric[]>,
 * }} Benchmark
 * @typedef {{image: string, params: Record<string, unknown>, timeoutMs: number, saveRaw: (name: string, text: string) => Promise<void>}} MeasureContext
 */

/**
 * Runs a command in the environment and fails with the tool's own words when it exits non-zero.
 * @param {{run: (spec: any) => Promise<import('../engine/containers.js').RunResult>}} env
 * @param {{image: string, timeoutMs: number, saveRaw: (name: string, text: string) => Promise<void>}} ctx
 * @param {string} step a short name for the raw file and for errors
 * @param {string[]} cmd
 * @param {{volume?: string}} [extra] volume: a fresh scratch volume at this path, also in $SCRATCH (see environments/environment.js)
 */
export async function runStep(env, ctx, step, cmd, extra = {}) {
  const result = await env.run({ image: ctx.image, cmd, timeoutMs: ctx.timeoutMs, ...extra });
  await ctx.saveRaw(step, result.stdout + (result.stderr ? `\n--- stderr ---\n${result.stderr}` : ''));
  if (result.exitCode !== 0) {
    const tail = (result.stdout + result.stderr).trim().split('\n').slice(-10).join('\n');
    throw Object.assign(new Error(`step ${step}: \`${cmd.join(' ')}\` exited ${result.exitCode}:\n${tail}`), { step });
  }
  return result;
}
