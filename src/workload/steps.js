// A workload's shell steps: each run in the job's folder with DOCKER_HOST on a label proxy in front of
// the job's engine (../engine/label-proxy.js), so what it creates carries the run's label and the step's
// (STEP_LABEL); on an engine that outlives the job, those are removed when the job ends.
import { shellStep } from '../engine/cli.js';
import { labelProxy } from '../engine/label-proxy.js';
import { RUN_LABEL } from '../engine/resources.js';
import { stepError } from './failure.js';

/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */
/** @typedef {import('./shared.js').Shared} Shared */
/** @typedef {import('./clock.js').JobContext} JobContext */
/** @typedef {import('./clock.js').RawContext} RawContext */

/** The label naming the step that created a container, volume or network (its value: the step's name). */
export const STEP_LABEL = 'dind-bench.workload-step';

/**
 * A shell step of the job (sh -c) in the job's folder (the run's copy of the workload's), with DOCKER_HOST
 * on the job's engine, through a label proxy (started before the step, untimed) that labels what the step
 * creates with the run and the step; DIND_BENCH_REGISTRY is the run's registry as this engine reaches it
 * (HOST:PORT, to push and pull as a job does with its CI registry), when the run started one. Its docker
 * CLI config holds the job's registry logins only when the file gives the step `registries: true`.
 * @param {import('./load.js').WorkloadStep} step @param {JobEngine} engine @param {Shared} s
 * @param {JobContext} ctx @param {string} rawPrefix @param {string | null} registry
 */
export async function shell(step, engine, s, ctx, rawPrefix, registry) {
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
 * @param {JobEngine} engine @param {Shared} s @param {RawContext} ctx @param {string} rawPrefix
 */
export async function removeStepObjects(engine, s, ctx, rawPrefix) {
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
