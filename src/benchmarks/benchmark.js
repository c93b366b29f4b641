// What a benchmark is. One module per benchmark under this folder, registered in ./index.js.
//
// A benchmark:
//   name          its name on the command line and in results
//   image         the benchmark image it runs in (a `bench` entry of images/docker-bake.hcl)
//   description   one line: what it measures and why a CI engineer should care
//   params        per profile ('quick', 'standard'): its parameters
//   estimateSeconds?(params) -> seconds one iteration takes in one environment, for `dind-bench plan`
//   estimateIn?(envName) -> seconds one iteration takes in that environment, when the benchmark knows it
//                 (a workload's `expected` times): plan and the ETA take it as it is, no overhead added
//   estimateFirstIn?(envName) -> seconds of unmeasured work before its first step in that environment
//                 (a workload's first job on an engine that outlives its jobs), for plan's setup
//   timeLimitMs?  how long one measure() may take in all, when the profile's limit is not the benchmark's
//                 (a workload runs under its own job limits)
//   quickStepS?   environment -> seconds one step of the quick profile took there, measured by a whole quick
//                 run (src/run/estimate.js says which); the plan uses it instead of estimateSeconds for the
//                 quick profile's own parameters (an environment not listed is planned as dind)
//   measure(env, ctx) -> Metric[]   one iteration in one environment (the Environment contract of
//                 ../environments/environment.js); metric names are unique per benchmark, e.g.
//                 "cpu.events_per_second". It must not branch on env.name: environments offer the same
//                 methods (run, startService, probeLifecycle) and optional capabilities (daemonCycle,
//                 engineApi, ...), reached through `capability()` when the benchmark needs one.
//
//   unavailableIn? environment name -> why the benchmark has no meaning there, e.g.
//                 { native: 'native has no engine: ...' }. Those cells are recorded as "unavailable" with
//                 that reason before anything runs, never as failed. Environments not listed run it.
//
// ctx = { image, params, timeoutMs, saveRaw(name, text), recordSeries(series) }: saveRaw keeps the tool's
// raw output under DIR/raw/ so a parse failure or a surprising number can be checked against what the
// tool printed; recordSeries keeps a sampled time series (e.g. memory) in the cell's `timeseries`;
// recordFacts keeps facts that are not timings (isolation) in the cell's `facts`, where no statistic reads them.
//
// A measure() that finds this host lacks something the benchmark needs (e.g. no registry to pull from)
// throws UnavailableError: the cell becomes "unavailable" with that reason instead of "failed".
//

/** @typedef {import('../environments/environment.js').Environment} Environment */
/** @typedef {import('../parsers/parse-error.js').Metric} Metric */
/**
 * One sampled series of one iteration (the `timeseries` entries of a results cell). `t` is milliseconds
 * since sampling began; `scope` keeps the workload container apart from what the environment costs.
 * @typedef {{name: string, unit: string, scope: 'workload' | 'environment', intervalMs: number, t: number[], v: number[]}} Series
 */
/**
 * A benchmark whose parameters are `P` (per profile in `params`; what estimateSeconds and measure get).
 * Methods, not function-typed properties: a registry holds benchmarks of different `P` as Benchmark.
 * @template [P=Record<string, unknown>]
 * @typedef {{
 *   name: string, image: string, description: string,
 *   params: Record<string, P>,
 *   estimateSeconds?(params: P): number, quickStepS?: Record<string, number>,
 *   estimateIn?(envName: string): number,
 *   estimateFirstIn?(envName: string): number,
 *   timeLimitMs?: number,
 *   unavailableIn?: Record<string, string>, extraImages?: string[], usesBuilder?: boolean,
 *   measure(env: Environment, ctx: MeasureContext<P>): Promise<Metric[]>,
 * }} Benchmark
 */
/**
 * @template [P=Record<string, unknown>]
 * @typedef {{
 *   image: string, params: P, timeoutMs: number,
 *   saveRaw: (name: string, text: string) => Promise<void>,
 *   recordSeries?: (series: Series) => void,
 *   recordFacts?: (facts: import('../parsers/isolation.js').Fact[]) => void,
 * }} MeasureContext
 */

/** Thrown by measure() when this host cannot offer what the benchmark needs: the cell is "unavailable". */
export class UnavailableError extends Error {}

/**
 * Runs a command in the environment and fails with the tool's own words when it exits non-zero.
 * @param {Pick<Environment, 'run'>} env
 * @param {{image: string, timeoutMs: number, saveRaw: (name: string, text: string) => Promise<void>}} ctx
 * @param {string} step a short name for the raw file and for errors
 * @param {string[]} cmd
 * @param {{volume?: string, network?: import('../engine/services.js').NetworkMode, onStarted?: (container: import('dockerode').Container, docker: import('dockerode')) => void}} [extra]
 *   volume: a fresh scratch volume at this path, also in $SCRATCH (see environments/environment.js);
 *   network: join the bridge or host network (a client of a service);
 *   onStarted: called once the container runs (e.g. to sample its stats); native runs have no container.
 */
export async function runStep(env, ctx, step, cmd, extra = {}) {
  const result = await env.run({ image: ctx.image, cmd, timeoutMs: ctx.timeoutMs, ...extra });
  await ctx.saveRaw(step, result.stdout + (result.stderr ? `\n--- stderr ---\n${result.stderr}` : ''));
  // stderr first: the first line the tool complained with is the cell's one-line reason.
  if (result.exitCode !== 0)
    throw stepFailed(
      step,
      cmd.join(' '),
      result.exitCode,
      [result.stderr, result.stdout],
      result.stdout + result.stderr,
    );
  return result;
}

/**
 * The error of a step whose command exited non-zero: the first non-empty line of `firstFrom` (searched in
 * order) as the reason, then the last 10 lines of `output`. Carries `step` for the cell's record.
 * @param {string} step @param {string} command @param {number} code @param {string[]} firstFrom @param {string} output
 */
function stepFailed(step, command, code, firstFrom, output) {
  const first = firstFrom.map((t) => t.split('\n').find((l) => l.trim())).find(Boolean) ?? '(no output)';
  const tail = output.trim().split('\n').slice(-10).join('\n');
  return Object.assign(new Error(`step ${step}: \`${command}\` exited ${code}: ${first.trim()}\n${tail}`), {
    step,
    exitCode: code,
  });
}

const SECTION = '=== dind-bench step';

/**
 * Runs several short steps one after another in ONE container, each a shell command with its output
 * (stdout and stderr together) and exit code kept apart. A container costs far more than a 1-second
 * client in DinD (and in dind-vfs, whose every create copies the whole image), so clients of one
 * server share one. Each step's output is saved as its own raw file; the first step that exited
 * non-zero fails like runStep would, naming that step and its first line of output.
 * @param {Pick<Environment, 'run'>} env
 * @param {{image: string, timeoutMs: number, saveRaw: (name: string, text: string) => Promise<void>}} ctx
 * @param {{step: string, sh: string}[]} steps
 * @param {Parameters<typeof runStep>[4]} [extra]
 * @returns {Promise<Record<string, string>>} each step's output, by step name
 */
export async function runSteps(env, ctx, steps, extra = {}) {
  const script = steps
    .map(({ step, sh }) => `echo '${SECTION} ${step}'; ( ${sh} ) 2>&1; echo "${SECTION} ${step} exit=$?"`)
    .join('; ');
  const result = await env.run({ image: ctx.image, cmd: ['sh', '-c', script], timeoutMs: ctx.timeoutMs, ...extra });
  const text = result.stdout + result.stderr;
  /** @type {Record<string, string>} */
  const out = {};
  for (const { step, sh } of steps) {
    const begin = text.indexOf(`${SECTION} ${step}\n`);
    const end = text.indexOf(`${SECTION} ${step} exit=`, begin);
    if (begin < 0 || end < 0) {
      await ctx.saveRaw(step, text);
      const first = text.split('\n').find((l) => l.trim() && !l.startsWith(SECTION)) ?? '(no output)';
      throw Object.assign(
        new Error(
          `step ${step}: cut short (the script exited ${result.exitCode} before this step finished): ${first.trim()}`,
        ),
        { step, exitCode: result.exitCode },
      );
    }
    const body = text.slice(begin + SECTION.length + step.length + 2, end);
    const code = Number(text.slice(end).match(/exit=(\d+)/)?.[1]);
    await ctx.saveRaw(step, body);
    if (code !== 0) throw stepFailed(step, sh, code, [body], body);
    out[step] = body;
  }
  return out;
}

/**
 * Starts a server in the environment, runs `fn` with it, and stops it whatever happens. A server that
 * never becomes ready fails the step `start <name> (<network>)` with the server's last log lines.
 * @template T
 * @param {Pick<Environment, 'startService'>} env
 * @param {import('../engine/services.js').ServiceSpec} spec
 * @param {(service: import('../engine/services.js').Service) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withService(env, spec, fn) {
  let service;
  try {
    service = await env.startService(spec);
  } catch (e) {
    throw Object.assign(/** @type {Error} */ (e), { step: `start ${spec.name} (${spec.network})` });
  }
  try {
    return await fn(service);
  } finally {
    await service.stop();
  }
}

/**
 * The networks a client-server benchmark measures here: the first `count` the environment offers, in its
 * order (a container environment: bridge, then host; native: host only), all of them without a count.
 * The quick profile measures one, the bridge where DinD nests a second one (and native its only one).
 * @param {Pick<Environment, 'networkModes'>} env @param {number} [count]
 */
export function networksOf(env, count) {
  return count === undefined ? env.networkModes : env.networkModes.slice(0, Math.max(1, Math.floor(count)));
}

/**
 * How many networks a container environment measures with this `networks` parameter: for the plan's
 * estimates, which are made before any environment exists.
 * @param {number} [count]
 */
export const plannedNetworks = (count) => networksOf({ networkModes: ['bridge', 'host'] }, count).length;

/**
 * A readiness probe for servers without a client ping (iperf3, sockperf): every port is in LISTEN
 * state in /proc/net/tcp{,6} of the server's namespace. Needs only sh and grep, on any distribution.
 * @param {number[]} ports
 */
export function listeningProbe(ports) {
  const hex = ports.map((p) => p.toString(16).toUpperCase().padStart(4, '0'));
  return [
    'sh',
    '-c',
    `for p in ${hex.join(' ')}; do grep -Eq "^ *[0-9]+: [0-9A-F]+:$p [0-9A-F]+:0000 0A " /proc/net/tcp /proc/net/tcp6 || exit 1; done`,
  ];
}
