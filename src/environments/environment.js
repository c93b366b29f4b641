// The one contract every environment implements. Benchmarks and the runner see only this; they never
// branch on where they run. Container environments share their code in ./container.js; an environment
// that runs on an engine (docker, each DinD variant) adds only what differs.
//
// Adding an environment: one module here that implements `Environment` (usually a subclass of
// ContainerEnvironment or DindEnvironment) and states its descriptor (../model/environments.js: what it
// is, which every rule asks instead of its name), its image recipe if it runs in one, and its test.

/**
 * What a run records about an environment once it is set up.
 * @typedef {{
 *   name: string, engineVersion: string | null, storageDriver: string | null, backingFilesystem: string | null,
 *   isolation?: string,
 *   builder?: { kind: 'BuildKit' | 'legacy' | 'Buildah', buildkit: string | null, docker: string | null, buildx: string | null, compose: string | null },
 *   dind?: {
 *     mode: import('./dind-daemon.js').StartMode, cgroup?: import('./dind-cgroup.js').CgroupChoice, outerImage: string, start_to_ready_ms: number,
 *     imageLoadMs: Record<string, number>,
 *   },
 * }} EnvironmentFacts
 */

/**
 * What setup() is given: the benchmark images it will run (DinD loads them into its inner engine) and
 * the run's ResourceTracker, which removes whatever the environment creates, also on failure and Ctrl-C.
 * @typedef {{tracker: import('../engine/resources.js').ResourceTracker, images?: string[]}} SetupContext
 */

/**
 * One command to run in an environment.
 * @typedef {{
 *   image: string, cmd: string[], timeoutMs: number, labels?: Record<string, string>,
 *   volume?: string, network?: import('../engine/services.js').NetworkMode,
 *   onStarted?: import('../engine/containers.js').RunSpec['onStarted'],
 * }} RunSpec
 *   image: the benchmark image (native ignores it: the host's own tools run).
 *   volume: e.g. '/scratch': a fresh scratch volume for this run, its path also in $SCRATCH. native: a
 *   temporary folder; docker: a volume on the runner's engine; DinD: a volume on the inner engine.
 *   Removed after the run.
 *   network: 'bridge' (docker: a user-defined network the run creates on the runner's engine; DinD: one on
 *   the INNER engine, so traffic crosses the inner bridge) or 'host' (docker: the runner's namespace;
 *   DinD: the outer DinD container's namespace). A client of a service joins the service's network.
 *   onStarted: called once the container runs (e.g. to sample its stats); native runs have no container.
 */

/**
 * One create/start/first-output/stop/remove cycle, in milliseconds. native has no create or remove.
 * @typedef {{
 *   create_ms?: number, start_ms: number, first_output_ms: number | null, stop_ms: number,
 *   remove_ms?: number, engine_start_ms?: number | null, engine_stop_ms?: number | null,
 * }} LifecycleTimings
 */

/**
 * A fresh inner daemon started and stopped (DinD only); with a first container, its image load and the
 * time from the create call to that container's first output. `timeline`: its start-up, phase by
 * phase, to the first container's output or, without one, to the first OK /_ping (../engine/startup.js).
 * @typedef {{start_to_ready_ms: number, stop_ms: number, image_load_ms?: number, first_output_ms?: number,
 *   timeline: import('../engine/startup.js').Timeline}} DaemonCycle
 */

/**
 * What one more job costs the runner's memory, the same scope in every environment (see the memory
 * benchmark): `idle()` is read before the workload starts (bytes; Docker keeps it as its baseline),
 * `during(workloadId)` while it runs (bytes, null when nothing could be read).
 * @typedef {{what: string, idle: () => Promise<number>, during: (workloadId: string) => Promise<number | null>}} JobMemory
 */

/**
 * The engine the workloads run on (docker: the runner's; DinD: the inner one, through its socket), for
 * benchmarks that drive an engine themselves (build, image load).
 * `builder`: what builds on it (../engine/cli.js BUILDERS), BuildKit unless said.
 * @typedef {{docker: import('dockerode'), tracker: import('../engine/resources.js').ResourceTracker,
 *   builder?: import('../engine/cli.js').Builder}} EngineApi
 */

/**
 * The engine one CI job of this environment starts with (workloads: ../workload/job.js). docker and
 * dood: the runner's engine, which keeps images and build cache between jobs (`fresh` false); every DinD
 * variant: a fresh inner daemon with an empty data-root, as a DinD service starts for each job, unless
 * `persist` (one inner daemon, and its data, for every job of the run: a runner that keeps its DinD
 * volume). `socket`: the host path of its unix socket, for the docker CLI (../engine/cli.js).
 * `registryAddress`: where this engine's jobs pull a registry the run started from (../engine/registry.js):
 * the registry itself, or a mirror in front of it. `primesJobs`: one unmeasured job first (a warm mirror).
 * @typedef {{
 *   socket: string, docker: import('dockerode'), readyMs: number, fresh: boolean, engineVersion: string,
 *   storageDriver: string, close: () => Promise<void>, builder?: import('../engine/cli.js').Builder,
 * }} JobEngine
 * @typedef {{ persist?: boolean, insecureRegistries?: string[], registryMirrors?: string[], networks?: string[], shareDirs?: string[], registryCerts?: string }} JobEngineOptions
 *   registryCerts: a host folder of registry CA certificates (HOST[:PORT]/ca.crt, ../workload/registry-trust.js)
 *   the job's engine trusts: a fresh inner engine sees it, read-only, where its kind looks (certsDir)
 */

/**
 * What an environment itself costs in memory: a probe sampled by ../engine/stats.js, and what it counts.
 * @typedef {{probe: () => Promise<number | null>, what: string}} EnvironmentMemory
 */

/**
 * The container a job of this environment stands on besides its workloads: DinD's outer container (the one
 * its engine runs in, whose privileges a job reaches through that engine) or DooD's job container (the one
 * holding the socket). `exec` runs a command in it and returns its output (../engine/exec.js).
 * @typedef {{what: string, exec: (cmd: string[], timeoutMs: number) => Promise<{exitCode: number, stdout: string, stderr: string}>}} JobParent
 */

/**
 * The interface. Optional members are capabilities: a benchmark that needs one declares the environments
 * without it in its `unavailableIn` (see ../benchmarks/benchmark.js) and reaches it through
 * `capability()` below, which fails with a clear message instead of a TypeError.
 * @typedef {{
 *   name: string,
 *   descriptor: import('../model/environments.js').EnvironmentDescriptor,
 *   engine: string | null,
 *   facts: EnvironmentFacts | null,
 *   networkModes: import('../engine/services.js').NetworkMode[],
 *   setup: (ctx: SetupContext) => Promise<EnvironmentFacts>,
 *   run: (spec: RunSpec) => Promise<import('../engine/containers.js').RunResult>,
 *   startService: (spec: import('../engine/services.js').ServiceSpec) => Promise<import('../engine/services.js').Service>,
 *   probeLifecycle: (spec: {image: string, timeoutMs: number}) => Promise<LifecycleTimings>,
 *   teardown: () => Promise<void>,
 *   healthy?: () => Promise<boolean>,
 *   engineApi?: () => EngineApi,
 *   dataRootOnHost?: () => Promise<string>,
 *   environmentMemory?: () => Promise<EnvironmentMemory | null>,
 *   daemonCycle?: (opts?: {firstContainer?: {image: string, timeoutMs: number}, tls?: boolean, onEnd?: () => void}) => Promise<DaemonCycle>,
 *   startupTimeline?: (spec: {image: string, timeoutMs: number, onEnd?: () => void}) => Promise<import('../engine/startup.js').Timeline>,
 *   jobMemory?: () => Promise<JobMemory | null>,
 *   jobEngine?: (opts?: JobEngineOptions) => Promise<JobEngine>,
 *   registryAddress?: (registry: import('../engine/registry.js').Registry) => Promise<string>,
 *   primesJobs?: boolean,
 *   jobParent?: () => JobParent | null,
 *   tls?: false,
 * }} Environment
 *   name: 'native' | 'docker' | 'dind' | 'dind-vfs' | ...: its descriptor's; engine: the inner Engine version for
 *   an environment with Engine lines, else null.
 *   descriptor: what it is (compared with Docker, an engine of its own, Engine lines, images, credential,
 *   builder): every rule asks it, never the name.
 *   networkModes: the networks a client can reach a server over here (native offers only 'host').
 *   startService: a long-running server (../engine/services.js has the types), polled until its readiness
 *   probe exits 0; the ResourceTracker removes it on failure and Ctrl-C too.
 *   dataRootOnHost: the host path where the engine workloads run on keeps its data (../engine/disk.js).
 *   daemonCycle: with `tls`, the entrypoint makes TLS material at start, as the official docker:dind does.
 *   tls: false where the engine serves no TLS at all (podman: a unix socket only), so no TLS start is measured.
 *   startupTimeline: the first container on the ready engine, phase by phase (Docker's whole start-up).
 *   jobMemory: what one more job costs the runner's memory, the same scope in every environment.
 *   teardown: removes everything it created.
 *   jobParent: the container a job stands on besides its workloads (see JobParent), null when none.
 *   healthy: whether the engine of its own (DinD: the inner daemon) still answers; without it, the runner's
 *   engine is all it needs (../run/engine-watch.js checks that one).
 */

/**
 * An optional capability of an environment, or a clear error when it lacks one (a benchmark that forgot
 * to list the environment in `unavailableIn`).
 * @template {'engineApi' | 'dataRootOnHost' | 'environmentMemory' | 'daemonCycle' | 'startupTimeline' | 'jobMemory' | 'jobEngine' | 'registryAddress'} K
 * @param {Environment} env @param {K} name
 * @returns {NonNullable<Environment[K]>}
 */
export function capability(env, name) {
  const fn = env[name];
  if (!fn) throw new Error(`${env.name} has no ${name}(): list it in the benchmark's unavailableIn`);
  return /** @type {NonNullable<Environment[K]>} */ (fn.bind(env));
}
