// A team's own CI job (a workload file, ./load.js) as one iteration of its benchmark
// (./benchmark.js): one job in the environment, started as a job there starts (docker and dood: the runner's engine, which keeps what
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
// CI cache gives). Every command runs under the job's own limits (`timeout`, ./time.js), not the
// benchmark profile's.
//
// Offline, a pulled image is pushed by the run into a registry it starts itself (../engine/registry.js)
// from a local image (`seed`): every pull is a real pull over HTTP, logged in first (the run's registry
// asks every client for a credential). That registry stands in for the registry the image's name gives
// (`registry.example.internal:5000/team/app:1` is pulled as RUN-REGISTRY/team/app:1) and accepts the
// workload's user name for it, with a password of the run's own; a name pinned by digest is pulled by that digest, so a digest that does
// not match the image fails the cell naming it. The workload's registry credentials come from environment
// variables (./credentials.js) and are given to `docker login --password-stdin` only. Everything
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
//
// This file runs one job and its build states; the parts each have a file here: the run's shared state
// (shared.js), the image ledger (ledger.js), the job's clock (clock.js) and CLI (job-cli.js), its logins
// (login.js), images (images.js), builds (builds.js), compose stack (compose-run.js), shell steps
// (steps.js), and what a failure says (failure.js).
import { benchImage } from '../images/catalog.js';
import { capability } from '../environments/environment.js';
import { controlledBuilds, buildArgs, buildTag } from './builds.js';
import { jobClock, ms } from './clock.js';
import { compose } from './compose-run.js';
import { bringImages } from './images.js';
import { cliOn } from './job-cli.js';
import { claiming, ledgerOf } from './ledger.js';
import { logIn } from './login.js';
import { shared } from './shared.js';
import { removeStepObjects, shell } from './steps.js';
import { statesOf } from './time.js';

/** @typedef {import('./load.js').Workload} Workload */
/** @typedef {import('../parsers/parse-error.js').Metric} Metric */
/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */
/** @typedef {import('./shared.js').Shared} Shared */
/** @typedef {import('./clock.js').JobContext} JobContext */
/** @typedef {import('./clock.js').RawContext} RawContext */

/**
 * One job in `env`, then the controlled build figures.
 * @param {Workload} w @param {import('../environments/environment.js').Environment} env
 * @param {RawContext} ctx
 * @returns {Promise<Metric[]>}
 */
export async function runJob(w, env, ctx) {
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
 * @param {Shared} s @param {RawContext} ctx @param {string} rawPrefix
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
  /** @type {Metric[]} */
  const m = [ms('engine.ready_ms', engine.readyMs)];
  await logIn(env, engine, s, ctx);
  m.push(...(await bringImages(w, env, engine, s, cli, names)));
  for (const b of w.builds ?? [])
    m.push(
      ms(
        `build.${b.name}_ms`,
        await claiming(names, [buildTag(b)], () => cli(`build-${b.name}`, buildArgs(b, s, [], engine), b)),
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
