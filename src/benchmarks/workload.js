// A team's own CI job (a workload file, ../workload/load.js) as a benchmark: each iteration is one job in
// the environment, started as a job there starts (docker and dood: the runner's engine, which keeps what
// earlier jobs left; DinD: a fresh inner engine, unless the workload's runner persists it), and run the
// way its script runs it, through the real docker CLI with buildx and compose (../engine/cli.js) against
// that engine's socket:
//
//   engine ready -> images (pull from the run's own registry, load an archive, or present) -> builds
//   (BuildKit) -> compose up --wait -> test -> down -> steps;  job.total_ms = all of it.
//
// Then, outside the job's total, each build is measured in controlled states so environments compare like
// for like: cold (--no-cache), warm (the same build again) and, on a fresh engine, a cache import (the
// build's image with inline cache saved, the engine's build cache pruned, the image loaded back and the
// build run with --cache-from: what restoring a CI cache gives).
//
// Offline, a pulled image is pushed by the run into a registry it starts itself (../engine/registry.js)
// from a local image (`seed`): every pull is a real pull over HTTP. Everything a job makes is removed:
// a fresh engine with its volume, and on the runner's engine the images it tagged, the images its builds
// made (also those a later build under the same tag left untagged) and its compose project, at the end of
// the run (also on failure and Ctrl-C, through the run's ResourceTracker). BuildKit cache a build leaves
// on the runner's engine stays, as a persistent runner keeps it (docs/workloads.md). A step's `docker`
// commands reach the engine through ../engine/label-proxy.js, in every environment alike: the containers,
// volumes and networks they create carry the run's label and the step's (STEP_LABEL), and on an engine
// that outlives the job they are listed and removed when the job ends (the run's sweep finds what a
// Ctrl-C left).
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BUILDERS, cliConfig, dockerCli, shellStep } from '../engine/cli.js';
import { outerEngine } from '../engine/client.js';
import { labelProxy } from '../engine/label-proxy.js';
import { startRegistry } from '../engine/registry.js';
import { RUN_LABEL } from '../engine/resources.js';
import { benchImage } from '../images/catalog.js';
import { capability } from '../environments/environment.js';

/** @typedef {import('../workload/load.js').Workload} Workload */
/** @typedef {import('../parsers/parse-error.js').Metric} Metric */
/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */

/**
 * What a run shares between its jobs: the registry, the CLI's private config, the job's files; per engine
 * that outlives its jobs, the names they gave images (tags) and the IDs of the images their builds made (built);
 * the run's labels, put on what steps create.
 * @typedef {{ registry: import('../engine/registry.js').Registry | null, config: string, dir: string,
 *   primed: Set<string>, tags: Map<import('dockerode'), Set<string>>, built: Map<import('dockerode'), Set<string>>,
 *   labels: Record<string, string> }} Shared
 */

/** The label naming the step that created a container, volume or network (its value: the step's name). */
export const STEP_LABEL = 'dind-bench.workload-step';

/** @type {WeakMap<object, Promise<Shared>>} per run (its ResourceTracker) */
const runs = new WeakMap();

/** The series' name of a workload: every metric of the job is under it. @param {string} name */
export const workloadBenchmarkName = (name) => `workload.${name}`;

/** A metric key for an image reference: "team/app:1" -> "team_app_1". @param {string} ref */
export const imageKey = (ref) => ref.replace(/[^a-z0-9._-]/g, '_').slice(0, 60);

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
    // A job's length is the job's own; a first guess for the plan until the first round is measured.
    estimateSeconds: () => 30,
    unavailableIn: { native: 'a workload drives a Docker engine; native has none' },
    measure: (env, ctx) => runJob(workload, env, ctx),
  };
}

/** The project's benchmark images that seeds name (dind-bench/<bench>:<distro>): built before the run. @param {Workload} w */
function seedBenches(w) {
  const names = (w.images ?? []).flatMap((i) => [i.seed, i.from]).filter(Boolean);
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
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dind-bench-workload-'));
  tracker.onCleanup(() => rm(dir, { recursive: true, force: true }));
  await cp(w.dir, dir, { recursive: true, verbatimSymlinks: true });
  const config = await cliConfig();
  tracker.onCleanup(config.remove);
  /** @type {Shared} */
  const s = {
    registry: null,
    config: config.dir,
    dir,
    primed: new Set(),
    tags: new Map(),
    built: new Map(),
    labels: tracker.labels,
  };
  tracker.onCleanup(() => removeTags(s));
  const seeds = (w.images ?? []).filter((i) => i.source === 'pull' && i.seed);
  if (seeds.length) {
    const outer = outerEngine();
    s.registry = await startRegistry({ docker: outer, tracker, image: registryImage, cliConfigDir: config.dir });
    for (const image of seeds) await s.registry.seed(/** @type {string} */ (image.seed), image.name);
  }
  return s;
}

/**
 * Removes the image tags jobs left on engines that outlive them (the runner's), then the images their builds
 * made there that no tag names any more: a build again under the same tag (the job's, then the cold and warm
 * ones) leaves the image before it untagged. Not forced: one that something else tagged or runs meanwhile stays.
 * @param {Shared} s
 */
async function removeTags(s) {
  for (const [docker, tags] of s.tags) {
    for (const tag of tags)
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => {});
  }
  for (const [docker, ids] of s.built)
    for (const id of ids)
      await docker
        .getImage(id)
        .remove()
        .catch(() => {});
}

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
    insecureRegistries: registry ? [await capability(env, 'registryAddress')(registry)] : [],
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
    metrics.push(...(await controlledBuilds(w, engine, s, ctx)));
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
    return await jobSteps(w, env, engine, s, ctx, rawPrefix);
  } finally {
    if (!engine.fresh || persist) await removeStepObjects(engine, s, ctx, rawPrefix);
  }
}

/**
 * @param {Workload} w @param {import('../environments/environment.js').Environment} env @param {JobEngine} engine
 * @param {Shared} s @param {import('./benchmark.js').MeasureContext} ctx @param {string} rawPrefix
 * @returns {Promise<Metric[]>}
 */
async function jobSteps(w, env, engine, s, ctx, rawPrefix) {
  const cli = cliOn(engine, s, ctx, rawPrefix);
  /** @type {Metric[]} */
  const m = [ms('engine.ready_ms', engine.readyMs)];
  for (const image of w.images ?? []) {
    const key = imageKey(image.name);
    if (image.source === 'pull') {
      const ref =
        s.registry && image.seed ? `${await capability(env, 'registryAddress')(s.registry)}/${image.name}` : image.name;
      const t = await cli(`pull-${key}`, ['pull', '--quiet', ref]);
      if (ref !== image.name) await cli(`tag-${key}`, ['tag', ref, image.name]);
      remember(engine, s, ref);
      m.push(ms(`image.${key}.pull_ms`, t));
    } else if (image.source === 'archive') {
      m.push(
        ms(
          `image.${key}.load_ms`,
          await cli(`load-${key}`, [
            'load',
            '--quiet',
            '--input',
            path.join(s.dir, /** @type {string} */ (image.archive)),
          ]),
        ),
      );
    } else if (engine.fresh) {
      // Present on the runner, not in a fresh engine: the job has to bring it in (save from the runner's engine, load).
      m.push(ms(`image.${key}.load_ms`, await copyImage(image.from ?? image.name, image.name, engine, s, cli)));
    } else if (image.from && image.from !== image.name) {
      // Already on this runner under the job's name: the stand-in is tagged so, untimed (nothing to do there).
      await cli(`tag-${key}`, ['tag', image.from, image.name]);
    }
    remember(engine, s, image.name);
  }
  for (const b of w.builds ?? []) {
    const made = await imagesBefore(engine);
    m.push(ms(`build.${b.name}_ms`, await cli(`build-${b.name}`, buildArgs(b, s, [], engine))));
    remember(engine, s, buildTag(b));
    await rememberBuilt(engine, s, buildTag(b), made);
  }
  if (w.compose) m.push(...(await compose(w.compose, s, cli, engine)));
  for (const step of w.steps ?? []) m.push(ms(`step.${step.name}_ms`, await shell(step, engine, s, ctx, rawPrefix)));
  m.push(
    ms(
      'job.total_ms',
      m.reduce((sum, x) => sum + x.value, 0),
    ),
  );
  return m;
}

/**
 * A runner of the docker CLI on the job's engine: saves the output, fails with the tool's own words.
 * @param {JobEngine} engine @param {Shared} s @param {import('./benchmark.js').MeasureContext} ctx @param {string} rawPrefix
 * @returns {(step: string, args: string[]) => Promise<number>} milliseconds the command took
 */
function cliOn(engine, s, ctx, rawPrefix) {
  return async (step, args) => {
    const r = await dockerCli({
      socket: engine.socket,
      args,
      cwd: s.dir,
      timeoutMs: ctx.timeoutMs,
      config: s.config,
      builder: engine.builder,
    });
    await ctx.saveRaw(`${rawPrefix}${step}`, `$ docker ${args.join(' ')}\n${r.stdout}\n--- stderr ---\n${r.stderr}`);
    const e = stepError(step, `docker ${args.join(' ')}`, r);
    if (e) throw e;
    return r.ms;
  };
}

/**
 * What a command of the job came to: null for a success, else the error that fails the job. A command that
 * exited 0 but left a process running (a step's `server &`) is no success: the run ended that process, so
 * what the step started did not run to its end, and on a runner it would have outlived the job.
 * @param {string} step @param {string} command @param {import('../engine/cli.js').CliResult} r
 */
export function stepError(step, command, r) {
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

/** @param {string} step @param {string} command @param {import('../engine/cli.js').CliResult} r */
export function failed(step, command, r) {
  const text = `${r.stdout}\n${r.stderr}`.trim();
  // The docker CLI and compose say why at the end, after progress lines and before usage hints: the last
  // line that names an error, else the last line.
  const lines = (r.stderr.trim() || r.stdout.trim()).split('\n').filter((l) => l.trim());
  const first =
    [...lines].reverse().find((l) => /error|fail|fatal|denied|not found/i.test(l)) ?? lines.at(-1) ?? '(no output)';
  const tail = text.split('\n').slice(-10).join('\n');
  return Object.assign(
    new Error(`step ${step}: \`${command.slice(0, 300)}\` exited ${r.exitCode}: ${first.trim()}\n${tail}`),
    { step },
  );
}

/** @param {string} metric @param {number} value @returns {Metric} */
const ms = (metric, value) => ({ metric, unit: 'ms', better: 'lower', value: Math.round(value * 10) / 10 });

/** Tags on an engine that outlives the job are removed at the run's end. @param {JobEngine} engine @param {Shared} s @param {string} tag */
function remember(engine, s, tag) {
  if (engine.fresh) return;
  if (!s.tags.has(engine.docker)) s.tags.set(engine.docker, new Set());
  /** @type {Set<string>} */ (s.tags.get(engine.docker)).add(tag);
}

/**
 * The IDs of the images on an engine that outlives the job, read before a build (untimed); null on a
 * fresh engine, which goes with everything in it.
 * @param {JobEngine} engine @returns {Promise<Set<string> | null>}
 */
async function imagesBefore(engine) {
  if (engine.fresh) return null;
  return new Set((await engine.docker.listImages({ all: true })).map((i) => i.Id));
}

/**
 * After a build: the image its tag now names, if the build made it (it was not there before), is removed at
 * the run's end, even once another build under the tag has left it untagged.
 * @param {JobEngine} engine @param {Shared} s @param {string} tag @param {Set<string> | null} before
 */
async function rememberBuilt(engine, s, tag, before) {
  if (!before) return;
  const { Id } = await engine.docker.getImage(tag).inspect();
  if (before.has(Id)) return;
  if (!s.built.has(engine.docker)) s.built.set(engine.docker, new Set());
  /** @type {Set<string>} */ (s.built.get(engine.docker)).add(Id);
}

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
 * The compose plugin missing (./quickstart installs it only for a workload): say so first, with the fix,
 * then what the CLI said (Docker 28: "docker: unknown command: docker compose"; older: "'compose' is not a
 * docker command").
 * @param {Error} e @returns {never}
 */
export function noCompose(e) {
  if (/'compose' is not a docker command|unknown command:? "?(docker )?compose\b/i.test(e.message))
    throw Object.assign(
      new Error(
        "step compose-up: the workload's compose stack needs the docker compose v2 plugin, which is not installed " +
          "(`docker compose version` fails). Install it: `apt-get install docker-compose-plugin` where Docker's apt " +
          'repository is set up (runners/common/provision.sh --engine docker-ce), or on Debian 12, which packages ' +
          'only the retired docker-compose 1.29, `./quickstart --workload FILE` (it builds compose from its Go module ' +
          `into ~/.docker/cli-plugins when missing). The CLI said: ${e.message}`,
      ),
      { step: 'compose-up' },
    );
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
 * A shell step of the job (sh -c), with DOCKER_HOST on the job's engine, through a label proxy (started
 * before the step, untimed) that labels what the step creates with the run and the step.
 * @param {import('../workload/load.js').WorkloadStep} step @param {JobEngine} engine @param {Shared} s
 * @param {import('./benchmark.js').MeasureContext} ctx @param {string} rawPrefix
 */
async function shell(step, engine, s, ctx, rawPrefix) {
  const proxy = await labelProxy({ engineSocket: engine.socket, labels: { ...s.labels, [STEP_LABEL]: step.name } });
  /** @type {import('../engine/cli.js').CliResult} */
  let r;
  try {
    r = await shellStep({
      socket: proxy.socket,
      script: step.run,
      cwd: s.dir,
      timeoutMs: ctx.timeoutMs,
      config: s.config,
      builder: engine.builder,
    });
  } finally {
    await proxy.close();
  }
  await ctx.saveRaw(
    `${rawPrefix}step-${step.name}`,
    `$ sh -c ${JSON.stringify(step.run)}\n${r.stdout}\n--- stderr ---\n${r.stderr}`,
  );
  const e = stepError(`step-${step.name}`, step.run, r);
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
 * Each build cold, warm and (on a fresh engine) from an imported cache, outside the job's total.
 * @param {Workload} w @param {JobEngine} engine @param {Shared} s @param {import('./benchmark.js').MeasureContext} ctx
 * @returns {Promise<Metric[]>}
 */
async function controlledBuilds(w, engine, s, ctx) {
  const cli = cliOn(engine, s, ctx, '');
  /** @type {Metric[]} */
  const m = [];
  for (const b of w.builds ?? []) {
    // Inline cache metadata in the image, so a later build can use it as its cache (--cache-from).
    const inline = ['--build-arg', 'BUILDKIT_INLINE_CACHE=1'];
    const made = await imagesBefore(engine);
    m.push(
      ms(
        `build.${b.name}.cold_ms`,
        await cli(`build-${b.name}-cold`, buildArgs(b, s, ['--no-cache', ...inline], engine)),
      ),
    );
    await rememberBuilt(engine, s, buildTag(b), made);
    const warmMade = await imagesBefore(engine);
    m.push(ms(`build.${b.name}.warm_ms`, await cli(`build-${b.name}-warm`, buildArgs(b, s, inline, engine))));
    await rememberBuilt(engine, s, buildTag(b), warmMade);
    if (!engine.fresh) continue; // the runner's engine keeps its own cache: an import would not be used
    // Buildah's cache is the image's own layers: no build cache apart from them to prune and import.
    if (!BUILDERS[engine.builder ?? 'BuildKit'].cacheImport) continue;
    const archive = path.join(s.dir, `.dind-bench-cache-${b.name}.tar`);
    try {
      await cli(`save-${b.name}`, ['save', '--output', archive, buildTag(b)]);
      await cli(`prune-${b.name}`, ['builder', 'prune', '--all', '--force']);
      await cli(`rmi-${b.name}`, ['rmi', '--force', buildTag(b)]);
      const load = await cli(`load-cache-${b.name}`, ['load', '--quiet', '--input', archive]);
      const build = await cli(
        `build-${b.name}-cache-import`,
        buildArgs(b, s, ['--cache-from', buildTag(b), ...inline], engine),
      );
      m.push(ms(`build.${b.name}.cache_import_ms`, load + build));
    } finally {
      await rm(archive, { force: true });
    }
  }
  return m;
}
