// A team's own CI job (a workload file, ../workload/load.js) as a benchmark: each iteration is one job in
// the environment, started as a job there starts (docker and dood: the runner's engine, which keeps what
// earlier jobs left; DinD: a fresh inner engine, unless the workload's runner persists it), and run the
// way its script runs it, through the real docker CLI with buildx and compose (../engine/cli.js) against
// that engine's socket:
//
//   engine ready -> images (pull from the run's own registry, load an archive, or present) -> builds
//   (BuildKit) -> compose up --wait -> test -> down -> steps;  job.total_ms = all of it.
//
// Then, outside the job's total, each build is measured in the controlled states the file asks for
// (`states`; none unless asked) so environments compare like for like: cold (--no-cache), warm (the same
// build again) and, on a fresh engine, a cache import (the build's image with inline cache saved, the
// engine's build cache pruned, the image loaded back and the build run with --cache-from: what restoring a
// CI cache gives). Every command runs under the job's own limits (`timeout`, ../workload/time.js), not the
// benchmark profile's.
//
// Offline, a pulled image is pushed by the run into a registry it starts itself (../engine/registry.js)
// from a local image (`seed`): every pull is a real pull over HTTP, logged in first (the run's registry
// asks every client for a credential). That registry stands in for the registry the image's name gives
// (`registry.example.internal:5000/team/app:1` is pulled as RUN-REGISTRY/team/app:1) and accepts the
// workload's user name for it, with a password of the run's own; a name pinned by digest is pulled by that digest, so a digest that does
// not match the image fails the cell naming it. The workload's registry credentials come from environment
// variables (../workload/credentials.js) and are given to `docker login --password-stdin` only. Everything
// a job makes is removed: a fresh engine with its volume, and on the runner's engine (../engine/image-names.js)
// every image name the run gave is put back as it was before the run (removed, or pointed at its old image
// again: a `present` image or a name that existed is never removed), the images it made there are removed
// (also those a later build under the same tag left untagged), and its compose project, at the end of the run
// (also on failure and Ctrl-C, through the run's ResourceTracker). BuildKit cache a build leaves
// on the runner's engine stays, as a persistent runner keeps it (docs/workloads.md). A step's `docker`
// commands reach the engine through ../engine/label-proxy.js, in every environment alike: the containers,
// volumes and networks they create carry the run's label and the step's (STEP_LABEL), and on an engine
// that outlives the job they are listed and removed when the job ends (the run's sweep finds what a
// Ctrl-C left).
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BUILDERS, cliConfig, dockerCli, dockerLogin, shellStep, storeLogin } from '../engine/cli.js';
import { outerEngine } from '../engine/client.js';
import { ImageNames } from '../engine/image-names.js';
import { labelProxy } from '../engine/label-proxy.js';
import { startRegistry } from '../engine/registry.js';
import { RUN_LABEL } from '../engine/resources.js';
import { benchImage } from '../images/catalog.js';
import { capability } from '../environments/environment.js';
import { onRunnerEngine } from '../model/environments.js';
import { archiveTags } from '../workload/archive-tags.js';
import { imageKey } from '../workload/load.js';
import { COMPOSE_MISSING } from '../workload/preflight.js';
import { buildSecretEnv, readCredentials } from '../workload/credentials.js';
import { certsFolder, trustOf } from '../workload/registry-trust.js';
import { parseReference, referenceAt, taggedName } from '../workload/reference.js';
import { expectedBuildState, expectedJob, jobLimits, limitOf, statesOf } from '../workload/time.js';

/** @typedef {import('../workload/load.js').Workload} Workload */
/** @typedef {import('../parsers/parse-error.js').Metric} Metric */
/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */

/**
 * What a run shares between its jobs: the registry, the CLI's private config, the job's files; per engine
 * that outlives its jobs (by socket: docker and dood share the runner's), the ledger of the image names the
 * jobs gave and the images they made there; the run's labels, put on what steps create; the workload's
 * registry credentials (read once, masked), the one its jobs log in to the run's registry with, and the
 * digest that registry serves for each seeded image.
 * stepConfig: the docker CLI config of steps the file does not give the registry logins (`registries: true`):
 * the plugins, no credential.
 * copy: the run's copy of the root's files, in which `dir` is the job's folder; insecure, certs: the team's
 * registries a fresh inner engine trusts on plain HTTP, and the folder of their CA certificates (or null).
 * @typedef {{ registry: import('../engine/registry.js').Registry | null, config: string, stepConfig: string, dir: string, copy: string,
 *   primed: Set<string>, engines: Map<string, Promise<ImageNames>>, insecure: string[], certs: string | null,
 *   labels: Record<string, string>, credentials: import('../workload/credentials.js').Credential[],
 *   registryLogin: import('../engine/registry.js').RegistryUser | null, served: Map<string, string> }} Shared
 */

/** The label naming the step that created a container, volume or network (its value: the step's name). */
export const STEP_LABEL = 'dind-bench.workload-step';

/** @type {WeakMap<object, Promise<Shared>>} per run (its ResourceTracker) */
const runs = new WeakMap();

/** The series' name of a workload: every metric of the job is under it. @param {string} name */
export const workloadBenchmarkName = (name) => `workload.${name}`;

export { imageKey };

/**
 * The benchmark that runs `workload` as a job in each environment.
 * @param {Workload} workload
 * @returns {import('./benchmark.js').Benchmark & { extraImages: string[] }}
 */
export function workloadBenchmark(workload) {
  return {
    name: workloadBenchmarkName(workload.name),
    // The registry's image: the run starts it on the runner's engine (cells' distro picks its tag).
    image: 'registry',
    extraImages: seedBenches(workload),
    usesBuilder: true,
    description: `the job in ${path.basename(workload.file)}: images, BuildKit builds, compose, steps, as a CI job runs them`,
    params: { quick: {}, standard: {} },
    // A job's length is the job's own: the file's `expected` times until the first job is measured.
    estimateSeconds: () => expectedJob(workload, 'job')?.seconds ?? GUESSED_JOB_S,
    // native has no engine: its cell is unavailable before anything runs and costs nothing.
    estimateIn: (envName) => (envName === 'native' ? 0 : stepEstimate(workload, envName)),
    // The unmeasured first job on an engine that outlives the jobs (runJob's prime) finds no build cache of
    // the job's yet: planned as a fresh engine's job, without the build states.
    estimateFirstIn: (envName) => (primes(workload, envName) ? jobEstimate({ ...workload, states: [] }, 'dind') : 0),
    // The job, its unmeasured first job on an engine that outlives it, and its build states each run under
    // the job's limit: the profile's per-step limit is for the suite's own short tests.
    timeLimitMs: 3 * jobLimits(workload).jobMs + 10 * 60_000,
    unavailableIn: { native: 'a workload drives a Docker engine; native has none' },
    measure: (env, ctx) => runJob(workload, env, ctx),
  };
}

/** A job's seconds when the file gives no `expected` time: a guess, said by plan. */
export const GUESSED_JOB_S = 30;

/**
 * Seconds one iteration takes in `envName`, planned: the job (its `expected` time in that environment, an
 * alternative DinD planned as dind, else `expected.job`, else a guess), plus each build state it measures
 * (`expected.build` each, else a tenth of the job each).
 * @param {Workload} w @param {string} envName
 */
export function jobEstimate(w, envName) {
  const kind = onRunnerEngine(envName) || envName === 'dind-vfs' ? envName : 'dind';
  const jobS = expectedJob(w, envName, kind)?.seconds ?? GUESSED_JOB_S;
  const states = statesOf(w).filter((x) => x !== 'cache-import' || !onRunnerEngine(envName));
  const stateS = expectedBuildState(w) ?? jobS / 10;
  return jobS + states.length * (w.builds?.length ?? 0) * stateS;
}

/**
 * Seconds one step (iteration) takes in `envName`, planned: the job and its states, and a fresh engine's stop
 * after it. @param {Workload} w @param {string} envName
 */
export function stepEstimate(w, envName) {
  const fresh = !onRunnerEngine(envName) && !w.runner?.persist;
  return jobEstimate(w, envName) + (fresh ? FRESH_ENGINE_STOP_S : 0);
}

/**
 * Seconds a fresh engine takes to stop and go after each job, outside the job's total (engine.stop_ms):
 * measured 8.3 s median (3 jobs of the go-service example with a 20-second build, dind@20.10, 2026-11-28) on
 * a 2-core machine at load average 20 from other work; a quiet machine's figure must be measured.
 */
export const FRESH_ENGINE_STOP_S = 8;

/**
 * Whether a run primes `envName` with an unmeasured first job (runJob): an engine that outlives the jobs
 * (the runner's, for docker and dood; every engine with runner.persist), and a mirror warmed by one (dind-mirror).
 * native runs no job.
 * @param {Workload} w @param {string} envName
 */
export const primes = (w, envName) =>
  envName !== 'native' && (onRunnerEngine(envName) || envName === 'dind-mirror' || Boolean(w.runner?.persist));

/**
 * The project's benchmark images (dind-bench/<bench>:<distro>) the job takes from the runner's engine (a
 * seed, a present image or its stand-in): built before the run. @param {Workload} w
 */
function seedBenches(w) {
  const names = (w.images ?? [])
    .flatMap((i) => [i.seed, i.source === 'present' ? (i.from ?? i.name) : undefined])
    .filter(Boolean);
  return [
    ...new Set(names.map((n) => /^dind-bench\/([a-z0-9-]+):/.exec(/** @type {string} */ (n))?.[1]).filter(Boolean)),
  ].map((x) => /** @type {string} */ (x));
}

/**
 * What the run's jobs share, made by the first job: the job's files copied (the job sees a snapshot),
 * the CLI config, and the registry seeded with the workload's images. Removed at the run's end.
 * @param {Workload} w @param {import('../engine/resources.js').ResourceTracker} tracker @param {string} registryImage
 * @returns {Promise<Shared>}
 */
function shared(w, tracker, registryImage) {
  let made = runs.get(tracker);
  if (!made) {
    made = makeShared(w, tracker, registryImage);
    runs.set(tracker, made);
  }
  return made;
}

/** @param {Workload} w @param {import('../engine/resources.js').ResourceTracker} tracker @param {string} registryImage */
async function makeShared(w, tracker, registryImage) {
  // The root's files (the workload's folder unless it names a root), the job's folder at its place in them.
  const copy = await mkdtemp(path.join(os.tmpdir(), 'dind-bench-workload-'));
  tracker.onCleanup(() => rm(copy, { recursive: true, force: true }));
  const root = w.rootDir ?? w.dir;
  await cp(root, copy, { recursive: true, verbatimSymlinks: true });
  const dir = path.join(copy, path.relative(root, await realpath(w.dir)));
  const config = await cliConfig();
  tracker.onCleanup(config.remove);
  const stepConfig = await cliConfig();
  tracker.onCleanup(stepConfig.remove);
  /** @type {Shared} */
  const s = {
    registry: null,
    config: config.dir,
    stepConfig: stepConfig.dir,
    dir,
    copy,
    primed: new Set(),
    engines: new Map(),
    labels: tracker.labels,
    credentials: readCredentials(w),
    registryLogin: null,
    served: new Map(),
    insecure: [],
    certs: null,
  };
  const trust = await trustOf(w);
  s.insecure = trust.insecure;
  if (trust.cas.length) {
    const certs = await certsFolder(trust.cas);
    tracker.onCleanup(certs.remove);
    s.certs = certs.dir;
  }
  tracker.onCleanup(() => restoreImages(s));
  const seeds = (w.images ?? []).filter((i) => i.source === 'pull' && i.seed);
  if (seeds.length) {
    // The run's registry stands in for the registries the seeded names give: it accepts their user names,
    // each with a password of the run's own (nothing derived from the team's real password, not even a
    // hash, reaches its container), and the jobs log in to it with the first of them (with the run's own
    // credential when the workload gives none).
    const names = new Set(seeds.map((i) => parseReference(i.name).registry?.toLowerCase()).filter(Boolean));
    const standIn = s.credentials
      .filter((c) => names.has(c.address.toLowerCase()))
      .map((c) => ({ username: c.username, password: randomBytes(32).toString('base64url') }));
    const outer = outerEngine();
    s.registry = await startRegistry({
      docker: outer,
      tracker,
      image: registryImage,
      cliConfigDir: config.dir,
      users: standIn,
    });
    s.registryLogin = standIn[0] ?? s.registry.credential;
    for (const image of seeds) {
      const ref = parseReference(image.name);
      const digest = await s.registry.seed(/** @type {string} */ (image.seed), `${ref.path}:${ref.tag ?? 'latest'}`);
      s.served.set(image.name, digest);
    }
  }
  return s;
}

/**
 * On each engine that outlives the jobs (the runner's): every image name the jobs gave put back as it was
 * before the run, and the images they made removed (../engine/image-names.js).
 * @param {Shared} s
 */
async function restoreImages(s) {
  const problems = [];
  for (const ledger of s.engines.values())
    for (const change of await (await ledger).restore())
      if (/^not put back/.test(change.done)) problems.push(`${change.name}: ${change.done}`);
  // Said at the run's end (the tracker logs a cleanup's error), not lost: the runner's names are its owner's.
  if (problems.length)
    throw new Error(`image names of the runner's engine the run could not put back: ${problems.join('; ')}`);
}

/**
 * The ledger of `engine`'s image names, begun before the run's first job on it; null for a fresh engine,
 * which goes with everything in it.
 * @param {JobEngine} engine @param {Shared} s @returns {Promise<ImageNames | null>}
 */
function ledgerOf(engine, s) {
  if (engine.fresh) return Promise.resolve(null);
  let ledger = s.engines.get(engine.socket);
  if (!ledger) {
    ledger = ImageNames.open(engine.docker);
    s.engines.set(engine.socket, ledger);
  }
  return ledger;
}

/**
 * The limits one job's commands run under: each its own `timeout` (or the job's step limit), never past
 * the job's own limit, counted from the job's start. A command that reaches its limit is ended (its whole
 * process group) and fails the job, naming the limit and the field that sets it.
 * @typedef {{ limit: (item?: { timeout?: string }) => { ms: number, what: string } }} JobClock
 * @typedef {import('./benchmark.js').MeasureContext & { clock: JobClock }} JobContext
 * @param {Workload} w @returns {JobClock}
 */
export function jobClock(w) {
  const limits = jobLimits(w);
  const end = performance.now() + limits.jobMs;
  return {
    limit(item = {}) {
      const own = limitOf(item, limits);
      const left = end - performance.now();
      if (left <= 0)
        throw new Error(
          `the job reached its limit of ${shownMs(limits.jobMs)} (timeout.job) before this step; raise timeout.job in the workload file`,
        );
      if (left < own) return { ms: left, what: `the job's limit of ${shownMs(limits.jobMs)} (timeout.job)` };
      return {
        ms: own,
        what: item.timeout
          ? `its limit of ${item.timeout} (timeout)`
          : `the step limit of ${shownMs(own)} (timeout.step)`,
      };
    },
  };
}

/** 20m, 90s. @param {number} ms */
const shownMs = (ms) => (ms % 60_000 ? `${Math.round(ms / 1000)}s` : `${ms / 60_000}m`);

/**
 * One job in `env`, then the controlled build figures.
 * @param {Workload} w @param {import('../environments/environment.js').Environment} env
 * @param {import('./benchmark.js').MeasureContext} ctx
 * @returns {Promise<Metric[]>}
 */
async function runJob(w, env, ctx) {
  const { tracker } = capability(env, 'engineApi')();
  const s = await shared(w, tracker, benchImage('registry', ctx.image.split(':')[1] ?? 'debian'));
  const registry = s.registry;
  const opts = {
    persist: Boolean(w.runner?.persist),
    // The run's registry and the team's plain-HTTP ones; the team's CAs where the engine's kind reads them.
    insecureRegistries: [...(registry ? [await capability(env, 'registryAddress')(registry)] : []), ...s.insecure],
    registryCerts: s.certs ?? undefined,
    // A DinD engine joins the registry's network (the run's own), and sees the job's folder at the path the
    // compose CLI on the host gives its bind mounts, as a DinD service shares the job's workspace.
    networks: registry ? [registry.network] : [],
    shareDirs: w.compose ? [s.copy] : [],
  };
  const startEngine = capability(env, 'jobEngine');
  // A runner that keeps its engine has run this job before: one unmeasured job first, so every
  // measured one sees the steady state such a runner is in.
  const primeKey = `${env.name}@${env.engine ?? ''}`;
  if (!s.primed.has(primeKey)) {
    const first = await startEngine(opts);
    try {
      if (!first.fresh || opts.persist || env.primesJobs) await job(w, env, first, s, ctx, 'prime-', opts.persist);
    } finally {
      await first.close();
    }
    s.primed.add(primeKey);
  }
  const engine = await startEngine(opts);
  /** @type {Metric[]} */
  let metrics;
  try {
    metrics = await job(w, env, engine, s, ctx, '', opts.persist);
    const clock = jobClock(w);
    if (statesOf(w).length) metrics.push(...(await controlledBuilds(w, engine, s, { ...ctx, clock })));
  } finally {
    const t0 = performance.now();
    await engine.close();
    // A fresh DinD engine is stopped and removed after the job, as a DinD service is: timed apart, not in
    // the job's total (the runner's engine has nothing to stop).
    if (engine.fresh && !opts.persist) (metrics ??= []).push(ms('engine.stop_ms', performance.now() - t0));
  }
  return metrics;
}

/**
 * The job as its script runs it; its phases timed. On an engine that outlives it (the runner's, or a
 * persisted inner one), what its steps created is removed when it ends, untimed, as a runner's job cleanup.
 * @param {Workload} w @param {import('../environments/environment.js').Environment} env @param {JobEngine} engine
 * @param {Shared} s @param {import('./benchmark.js').MeasureContext} ctx @param {string} rawPrefix
 * @param {boolean} [persist] the engine is kept for the run's next jobs
 * @returns {Promise<Metric[]>}
 */
async function job(w, env, engine, s, ctx, rawPrefix, persist = false) {
  try {
    return await jobSteps(w, env, engine, s, { ...ctx, clock: jobClock(w) }, rawPrefix);
  } finally {
    if (!engine.fresh || persist) await removeStepObjects(engine, s, ctx, rawPrefix);
  }
}

/**
 * @param {Workload} w @param {import('../environments/environment.js').Environment} env @param {JobEngine} engine
 * @param {Shared} s @param {JobContext} ctx @param {string} rawPrefix
 * @returns {Promise<Metric[]>}
 */
async function jobSteps(w, env, engine, s, ctx, rawPrefix) {
  const cli = cliOn(engine, s, ctx, rawPrefix);
  const names = await ledgerOf(engine, s);
  // Each image name a command may point elsewhere is claimed first, and what it names after is looked at:
  // on the runner's engine, only what the run changed or made is undone at its end.
  const naming = async (/** @type {string[]} */ claimed, /** @type {() => Promise<number>} */ command) => {
    for (const name of claimed) await names?.claim(name);
    const t = await command();
    for (const name of claimed) await names?.madeUnder(name);
    return t;
  };
  /** @type {Metric[]} */
  const m = [ms('engine.ready_ms', engine.readyMs)];
  await logIn(env, engine, s, ctx);
  for (const image of w.images ?? []) {
    const key = imageKey(image.name);
    if (image.source === 'pull') {
      const parsed = parseReference(image.name);
      const standIn = s.registry && image.seed ? await capability(env, 'registryAddress')(s.registry) : null;
      const ref = standIn ? referenceAt(parsed, standIn) : image.name;
      const t = await naming([ref], () => cli(`pull-${key}`, ['pull', '--quiet', ref])).catch((e) =>
        pinned(e, image.name, s),
      );
      // Known to the job by its name; Docker cannot tag a digest, so a pinned one by its name and tag.
      const local = standIn ? taggedName(parsed) : image.name;
      if (standIn) await naming([local], () => cli(`tag-${key}`, ['tag', ref, local]));
      m.push(ms(`image.${key}.pull_ms`, t));
      continue;
    } else if (image.source === 'archive') {
      const archive = path.join(s.dir, /** @type {string} */ (image.archive));
      // `docker load` points every tag of the archive's manifest, not only the workload's name: all claimed.
      const loads = names ? [...new Set([image.name, ...(await archiveTags(archive))])] : [];
      for (const name of loads) await names?.claim(name);
      m.push(ms(`image.${key}.load_ms`, await cli(`load-${key}`, ['load', '--quiet', '--input', archive])));
      for (const name of loads) await names?.madeUnder(name);
    } else if (engine.fresh) {
      // Present on the runner, not in a fresh engine: the job has to bring it in (save from the runner's engine, load).
      m.push(ms(`image.${key}.load_ms`, await copyImage(image.from ?? image.name, image.name, engine, s, cli)));
    } else if (image.from && image.from !== image.name) {
      // Already on this runner under the job's name: the stand-in is tagged so, untimed (nothing to do there).
      const from = image.from;
      await naming([image.name], () => cli(`tag-${key}`, ['tag', from, image.name]));
    }
    // A present image already on the runner under its name is the runner's: the job only uses it.
  }
  for (const b of w.builds ?? [])
    m.push(
      ms(
        `build.${b.name}_ms`,
        await naming([buildTag(b)], () => cli(`build-${b.name}`, buildArgs(b, s, [], engine), b)),
      ),
    );
  if (w.compose) m.push(...(await compose(w.compose, s, cli, engine)));
  // A step reaches the run's registry as a job reaches its CI registry: at the address this engine uses.
  const registry = s.registry ? await capability(env, 'registryAddress')(s.registry) : null;
  for (const step of w.steps ?? [])
    m.push(ms(`step.${step.name}_ms`, await shell(step, engine, s, ctx, rawPrefix, registry)));
  m.push(
    ms(
      'job.total_ms',
      m.reduce((sum, x) => sum + x.value, 0),
    ),
  );
  return m;
}

/**
 * Logs the job's engine in, untimed, as a runner's job does before it pulls (`docker login
 * --password-stdin`, the run's own DOCKER_CONFIG): to the run's registry where it reaches it, and to each
 * registry the workload gives a credential for that the run's registry does not stand in for. The raw
 * output names the registry and the outcome, never the user name or the password.
 * @param {import('../environments/environment.js').Environment} env @param {JobEngine} engine @param {Shared} s
 * @param {JobContext} ctx
 */
async function logIn(env, engine, s, ctx) {
  /** @type {{ address: string, username: string, password: string }[]} */
  const logins = [];
  if (s.registry && s.registryLogin)
    logins.push({ address: await capability(env, 'registryAddress')(s.registry), ...s.registryLogin });
  const seeded = s.registryLogin && s.registry ? new Set(s.registry.users.map((u) => u.username)) : new Set();
  for (const c of s.credentials) if (!seeded.has(c.username)) logins.push(c);
  for (const login of logins) {
    // How the environment takes a credential is its descriptor's: Podman's Docker API cannot log in to a
    // plain-HTTP registry (storeLogin says why), so its pulls carry the credential the CLI stored instead.
    if (env.descriptor.credential === 'store') {
      await storeLogin({ config: s.config, ...login });
      continue;
    }
    const r = await dockerLogin({ socket: engine.socket, config: s.config, ...login, timeoutMs: ctx.clock.limit().ms });
    if (r.exitCode !== 0) {
      const said = (r.stderr.trim().split('\n').at(-1) ?? '').slice(0, 300);
      throw Object.assign(new Error(`step login: docker login ${login.address} failed (exit ${r.exitCode}): ${said}`), {
        step: 'login',
      });
    }
  }
}

/**
 * A pull that failed: for a name pinned by digest, the error names the image and the digest, and what the
 * run's registry serves for it (a digest that does not match the image is the likely cause).
 * @param {Error} e @param {string} name @param {Shared} s @returns {never}
 */
function pinned(e, name, s) {
  const { digest } = parseReference(name);
  if (!digest) throw e;
  const served = s.served.get(name);
  throw Object.assign(
    new Error(
      `image ${name}: no image with the digest ${digest} could be pulled` +
        (served && served !== digest
          ? `: the run's registry serves ${served} for it (from its seed), so the pinned digest does not match the image`
          : '') +
        `; pin the digest the registry serves (docker buildx imagetools inspect, or docker inspect's RepoDigests). ${e.message}`,
    ),
    { step: /** @type {{step?: string}} */ (e).step },
  );
}

/**
 * A runner of the docker CLI on the job's engine: saves the output, fails with the tool's own words.
 * @param {JobEngine} engine @param {Shared} s @param {JobContext} ctx @param {string} rawPrefix
 * @returns {(step: string, args: string[], item?: { timeout?: string, secrets?: { id: string, env: string }[] }) => Promise<number>}
 *   milliseconds the command took; item: the build whose own timeout it runs under, and whose secrets its
 *   environment carries (its arguments name them, never hold them)
 */
function cliOn(engine, s, ctx, rawPrefix) {
  return async (step, args, item) => {
    const limit = ctx.clock.limit(item);
    const env = buildSecretEnv(item ?? {});
    const r = await dockerCli({
      socket: engine.socket,
      args,
      env,
      cwd: s.dir,
      timeoutMs: limit.ms,
      config: s.config,
      builder: engine.builder,
    });
    await ctx.saveRaw(`${rawPrefix}${step}`, `$ docker ${args.join(' ')}\n${r.stdout}\n--- stderr ---\n${r.stderr}`);
    const e = stepError(step, `docker ${args.join(' ')}`, r, limit.what);
    if (e) throw e;
    return r.ms;
  };
}

/**
 * What a command of the job came to: null for a success, else the error that fails the job. A command that
 * exited 0 but left a process running (a step's `server &`) is no success: the run ended that process, so
 * what the step started did not run to its end, and on a runner it would have outlived the job.
 * @param {string} step @param {string} command @param {import('../engine/cli.js').CliResult} r
 * @param {string} [limit] the limit it ran under, named when it reached it ("the step limit of 20m (timeout.step)")
 */
export function stepError(step, command, r, limit) {
  if (r.timedOut) return failed(step, command, r, limit ?? 'its time limit');
  if (r.exitCode !== 0) return failed(step, command, r);
  if (!r.leftRunning.length) return null;
  const n = r.leftRunning.length;
  const shown = r.leftRunning.slice(0, 3).join('; ') + (n > 3 ? `; and ${n - 3} more` : '');
  return Object.assign(
    new Error(
      `step ${step}: \`${command.slice(0, 300)}\` exited 0 but left ${n} process${n === 1 ? '' : 'es'} running (${shown}), ended by the run. ` +
        "A step's processes end with it: wait for background work in the step (`wait`), or stop what it started before it ends",
    ),
    { step },
  );
}

/** What a failed command's message keeps of its output: the last lines of stderr and of stdout, each line and all bounded (the raw output has it whole). */
export const TAIL_LINES = 10;
export const MAX_LINE = 500;

/**
 * A failed command in the job's own words: its exit status (or the limit it reached) and the line that says
 * why on the first line (a cell's reason), then the last lines of its stderr, then of its stdout: the
 * docker CLI, compose and a step's own tools say why on stderr, after progress lines on stdout.
 * @param {string} step @param {string} command @param {import('../engine/cli.js').CliResult} r
 * @param {string} [limit] the limit it reached, when it was ended for it
 */
export function failed(step, command, r, limit) {
  // The docker CLI and compose say why at the end, after progress lines and before usage hints: the last
  // line that names an error, else the last line.
  const lines = (r.stderr.trim() || r.stdout.trim()).split('\n').filter((l) => l.trim() && !/^\(killed: /.test(l));
  const first =
    [...lines].reverse().find((l) => /error|fail|fatal|denied|not found/i.test(l)) ?? lines.at(-1) ?? '(no output)';
  // A step may print anything: lines of megabytes would not fit in the results (a text field holds 64 KiB),
  // so each line is cut, and the message says so and where the whole output is.
  let cut = false;
  const bounded = (/** @type {string} */ line) => {
    if (line.length <= MAX_LINE) return line;
    cut = true;
    return `${line.slice(0, MAX_LINE)}… (${line.length - MAX_LINE} more characters)`;
  };
  const last = (/** @type {string} */ name, /** @type {string} */ text) => {
    const all = text.trimEnd().split('\n');
    if (!text.trim()) return [];
    const kept = all.slice(-TAIL_LINES).map(bounded);
    const of =
      all.length > kept.length
        ? `last ${kept.length} of ${all.length} lines`
        : `${kept.length} line${kept.length === 1 ? '' : 's'}`;
    return [`--- ${name} (${of}) ---`, ...kept];
  };
  const tail = [...last('stderr', r.stderr), ...last('stdout', r.stdout)];
  const said = bounded(first.trim());
  const note = cut
    ? `\n(output cut: lines longer than ${MAX_LINE} characters; the whole output is in the run's raw/ folder)`
    : '';
  const how = limit
    ? `did not end within ${limit}, so the run ended it (exit ${r.exitCode}); its last words: ${said}`
    : `exited ${r.exitCode}: ${said}`;
  return Object.assign(
    new Error(`step ${step}: \`${command.slice(0, 300)}\` ${how}\n${tail.join('\n') || '(no output)'}${note}`),
    { step },
  );
}

/** @param {string} metric @param {number} value @returns {Metric} */
const ms = (metric, value) => ({ metric, unit: 'ms', better: 'lower', value: Math.round(value * 10) / 10 });

/**
 * The CLI's arguments for a build of the workload with the engine's builder (BuildKit: `docker buildx
 * build` with buildx's `docker` driver; Buildah: `docker build` to Podman's /build), into the engine's
 * image store under its tag.
 * @param {import('../workload/load.js').WorkloadBuild} b @param {Shared} s @param {string[]} extra
 * @param {JobEngine} engine
 */
function buildArgs(b, s, extra, engine) {
  const context = path.join(s.dir, b.context);
  const args = [
    ...BUILDERS[engine.builder ?? 'BuildKit'].build,
    '--tag',
    buildTag(b),
    '--file',
    path.join(context, b.dockerfile ?? 'Dockerfile'),
  ];
  if (b.target) args.push('--target', b.target);
  for (const [k, v] of Object.entries(b.args ?? {})) args.push('--build-arg', `${k}=${v}`);
  // A secret by the variable that holds it: the value reaches BuildKit from the CLI's environment only.
  if (b.secrets?.length && !BUILDERS[engine.builder ?? 'BuildKit'].buildkit)
    throw Object.assign(
      new Error(
        `step build-${b.name}: build secrets (field /builds/*/secrets) need BuildKit; this engine builds with ${engine.builder}, whose classic build takes no --secret`,
      ),
      { step: `build-${b.name}` },
    );
  for (const secret of b.secrets ?? []) args.push('--secret', `id=${secret.id},env=${secret.env}`);
  return [...args, ...extra, context];
}

/** @param {import('../workload/load.js').WorkloadBuild} b */
const buildTag = (b) => b.tag ?? `dind-bench-workload/${b.name}:ci`;

/**
 * Copies an image of the runner's engine into the job's engine (docker save | docker load), timed.
 * @param {string} from @param {string} name @param {JobEngine} engine @param {Shared} s
 * @param {(step: string, args: string[]) => Promise<number>} cli
 */
async function copyImage(from, name, engine, s, cli) {
  const outer = outerEngine();
  const t0 = performance.now();
  const tar = await outer.getImage(from).get();
  const answer = await engine.docker.loadImage(tar, { quiet: true });
  await new Promise((resolve, reject) => {
    answer.on('data', () => {});
    answer.on('end', resolve);
    answer.on('error', reject);
  });
  if (from !== name) await cli(`tag-${imageKey(name)}`, ['tag', from, name]);
  return performance.now() - t0;
}

/**
 * The compose plugin missing: say so first, with the fix (the runner's provisioning step, as doctor says),
 * then what the CLI said (Docker 28: "docker: unknown command: docker compose"; older: "'compose' is not a
 * docker command").
 * @param {Error} e @returns {never}
 */
export function noCompose(e) {
  if (/'compose' is not a docker command|unknown command:? "?(docker )?compose\b/i.test(e.message))
    throw Object.assign(new Error(`step compose-up: ${COMPOSE_MISSING} The CLI said: ${e.message}`), {
      step: 'compose-up',
    });
  throw e;
}

/**
 * A failed `compose up --wait`, with the services whose health check never ran: an engine that does not
 * run health checks (Podman 4.3 without systemd) leaves them `starting` with no result, and the wait ends
 * only at the step's timeout, which alone would not say why. Other failures are returned as they are.
 * @param {Error} e @param {import('dockerode')} docker @param {string} project
 */
export async function withHealthChecks(e, docker, project) {
  const listed = await docker
    .listContainers({ all: true, filters: { label: [`com.docker.compose.project=${project}`] } })
    .catch(() => []);
  /** @type {string[]} */
  const never = [];
  for (const c of listed.slice(0, 50)) {
    const state = await docker
      .getContainer(c.Id)
      .inspect()
      .then((i) => i.State)
      .catch(() => null);
    const health = /** @type {{Status?: string, Log?: unknown[] | null} | undefined} */ (state?.Health);
    if (health?.Status === 'starting' && !health.Log?.length)
      never.push(c.Labels?.['com.docker.compose.service'] ?? c.Names?.[0] ?? c.Id.slice(0, 12));
  }
  if (!never.length) return e;
  const names = never.map((n) => JSON.stringify(String(n).slice(0, 64))).join(', ');
  const note =
    `the health check of ${names} never ran (still "starting", no result): this engine did not run health checks ` +
    '(Podman without systemd schedules none), so the wait could not end';
  // On the first line: a failed cell's reason is the error's first line.
  const [first, ...rest] = e.message.split('\n');
  e.message = [`${first}; ${note}`, ...rest].join('\n');
  return e;
}

/**
 * The compose stack: up until healthy, the test, down; down also when up or the test failed.
 * @param {import('../workload/load.js').WorkloadCompose} c @param {Shared} s
 * @param {(step: string, args: string[]) => Promise<number>} cli @param {JobEngine} engine
 * @returns {Promise<Metric[]>}
 */
async function compose(c, s, cli, engine) {
  const project = `dind-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const base = ['compose', '--project-name', project, '--file', path.join(s.dir, c.file)];
  /** @type {Metric[]} */
  const m = [];
  let down = false;
  try {
    const up = cli('compose-up', [...base, 'up', '--detach', '--wait'])
      .catch(noCompose)
      .catch(async (e) => {
        throw await withHealthChecks(e, engine.docker, project);
      });
    m.push(ms('compose.up_ms', await up));
    if (c.test)
      m.push(
        ms(
          'compose.test_ms',
          await cli('compose-test', [...base, 'run', '--rm', c.test.service, ...(c.test.command ?? [])]),
        ),
      );
    down = true;
    m.push(ms('compose.down_ms', await cli('compose-down', [...base, 'down', '--volumes', '--remove-orphans'])));
  } finally {
    if (!down) await cli('compose-down', [...base, 'down', '--volumes', '--remove-orphans']).catch(() => {});
  }
  return m;
}

/**
 * A shell step of the job (sh -c) in the job's folder (the run's copy of the workload's), with DOCKER_HOST
 * on the job's engine, through a label proxy (started before the step, untimed) that labels what the step
 * creates with the run and the step; DIND_BENCH_REGISTRY is the run's registry as this engine reaches it
 * (HOST:PORT, to push and pull as a job does with its CI registry), when the run started one. Its docker
 * CLI config holds the job's registry logins only when the file gives the step `registries: true`.
 * @param {import('../workload/load.js').WorkloadStep} step @param {JobEngine} engine @param {Shared} s
 * @param {JobContext} ctx @param {string} rawPrefix @param {string | null} registry
 */
async function shell(step, engine, s, ctx, rawPrefix, registry) {
  const limit = ctx.clock.limit(step);
  const proxy = await labelProxy({ engineSocket: engine.socket, labels: { ...s.labels, [STEP_LABEL]: step.name } });
  /** @type {import('../engine/cli.js').CliResult} */
  let r;
  try {
    r = await shellStep({
      socket: proxy.socket,
      script: step.run,
      cwd: s.dir,
      env: registry ? { DIND_BENCH_REGISTRY: registry } : {},
      timeoutMs: limit.ms,
      // The job's logins only for a step the file says needs them: any other gets a config without them.
      config: step.registries ? s.config : s.stepConfig,
      builder: engine.builder,
    });
  } finally {
    await proxy.close();
  }
  // A step the file lets leave processes running (`background: true`): they end with it all the same, named
  // in its raw output, and it does not fail for them.
  const ended = r.leftRunning.length ? `\n--- left running, ended with the step ---\n${r.leftRunning.join('\n')}` : '';
  await ctx.saveRaw(
    `${rawPrefix}step-${step.name}`,
    `$ sh -c ${JSON.stringify(step.run)}\n${r.stdout}\n--- stderr ---\n${r.stderr}${ended}`,
  );
  const e = stepError(`step-${step.name}`, step.run, step.background ? { ...r, leftRunning: [] } : r, limit.what);
  if (e) throw e;
  return r.ms;
}

/**
 * Removes the containers (with their anonymous volumes), networks and volumes the job's steps created on
 * `engine` (this run's, by STEP_LABEL), and writes what they were to the raw output (`step-objects`). What
 * cannot be removed now is left to the run's sweep, which finds it by the run's label.
 * @param {JobEngine} engine @param {Shared} s @param {import('./benchmark.js').MeasureContext} ctx @param {string} rawPrefix
 */
async function removeStepObjects(engine, s, ctx, rawPrefix) {
  const filters = { label: [`${RUN_LABEL}=${s.labels[RUN_LABEL]}`, STEP_LABEL] };
  const lines = [];
  const done = async (/** @type {string} */ what, /** @type {Promise<unknown>} */ removal) =>
    lines.push(
      await removal.then(
        () => what,
        (e) =>
          `${what}: not removed (${String(/** @type {Error} */ (e).message).split('\n')[0]}); the run's sweep tries again`,
      ),
    );
  const docker = engine.docker;
  for (const c of await docker.listContainers({ all: true, filters })) {
    const what = `container ${c.Id.slice(0, 12)} ${c.Names?.[0]?.replace(/^\//, '') ?? ''} (step ${c.Labels?.[STEP_LABEL]})`;
    await done(what, docker.getContainer(c.Id).remove({ force: true, v: true }));
  }
  for (const n of await docker.listNetworks({ filters })) {
    await done(`network ${n.Name} (step ${n.Labels?.[STEP_LABEL]})`, docker.getNetwork(n.Id).remove());
  }
  for (const v of (await docker.listVolumes({ filters })).Volumes ?? []) {
    await done(`volume ${v.Name} (step ${v.Labels?.[STEP_LABEL]})`, docker.getVolume(v.Name).remove());
  }
  if (lines.length) {
    await ctx.saveRaw(
      `${rawPrefix}step-objects`,
      `What the job's steps created on the engine it leaves running, removed at the job's end:\n${lines.join('\n')}\n`,
    );
  }
}

/**
 * Each build in the states the workload asks for (`states`), outside the job's total: cold, warm and (on a
 * fresh engine) from an imported cache. Under a limit of their own, as long as the job's.
 * @param {Workload} w @param {JobEngine} engine @param {Shared} s @param {JobContext} ctx
 * @returns {Promise<Metric[]>}
 */
async function controlledBuilds(w, engine, s, ctx) {
  const cli = cliOn(engine, s, ctx, '');
  const names = await ledgerOf(engine, s);
  const states = statesOf(w);
  /** @type {Metric[]} */
  const m = [];
  for (const b of w.builds ?? []) {
    // Inline cache metadata in the image, so a later build can use it as its cache (--cache-from).
    const inline = ['--build-arg', 'BUILDKIT_INLINE_CACHE=1'];
    // The job's build claimed the tag; each build here may point it at an image of its own, removed at the end.
    if (states.includes('cold')) {
      m.push(
        ms(
          `build.${b.name}.cold_ms`,
          await cli(`build-${b.name}-cold`, buildArgs(b, s, ['--no-cache', ...inline], engine), b),
        ),
      );
      await names?.madeUnder(buildTag(b));
    }
    if (states.includes('warm')) {
      m.push(ms(`build.${b.name}.warm_ms`, await cli(`build-${b.name}-warm`, buildArgs(b, s, inline, engine), b)));
      await names?.madeUnder(buildTag(b));
    }
    if (!states.includes('cache-import')) continue;
    if (!engine.fresh) continue; // the runner's engine keeps its own cache: an import would not be used
    // Buildah's cache is the image's own layers: no build cache apart from them to prune and import.
    if (!BUILDERS[engine.builder ?? 'BuildKit'].cacheImport) continue;
    // The image to import must carry inline cache: built so, untimed, when no state above did.
    if (!states.includes('cold') && !states.includes('warm'))
      await cli(`build-${b.name}-inline`, buildArgs(b, s, inline, engine), b);
    const archive = path.join(s.dir, `.dind-bench-cache-${b.name}.tar`);
    try {
      await cli(`save-${b.name}`, ['save', '--output', archive, buildTag(b)]);
      await cli(`prune-${b.name}`, ['builder', 'prune', '--all', '--force']);
      await cli(`rmi-${b.name}`, ['rmi', '--force', buildTag(b)]);
      const load = await cli(`load-cache-${b.name}`, ['load', '--quiet', '--input', archive]);
      const build = await cli(
        `build-${b.name}-cache-import`,
        buildArgs(b, s, ['--cache-from', buildTag(b), ...inline], engine),
        b,
      );
      m.push(ms(`build.${b.name}.cache_import_ms`, load + build));
    } finally {
      await rm(archive, { force: true });
    }
  }
  return m;
}
