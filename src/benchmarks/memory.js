// Memory footprint, in two scopes that are never mixed:
//   workload     the benchmark container's working set, from the stats API of the engine it runs on (in
//                DinD: the inner engine);
//   environment  what the environment itself costs: for DinD the outer container holding the inner
//                daemon (idle before the workload, then under load); for docker the runner engine's
//                dockerd + containerd (their RSS from /proc). Two different scopes: kept for history.
//   job_cost     what one more job costs the runner's memory, the SAME scope in every environment (PSS
//                from /proc): DinD the outer container's processes (inner engine, shims) and its shim;
//                Docker the workload's shim and what the shared engine grew by (see jobMemory()).
// Both are sampled at a fixed interval and kept as time series (the cell's `timeseries`). The workload
// is a Perl loop (perl-base is in every Debian image) that allocates and touches memory step by step,
// then holds it: a known, repeatable shape, so differences come from the environment.
import { UnavailableError, runStep } from './benchmark.js';
import { containerWorkingSet, mean, peak, startSampling } from '../engine/stats.js';
import { capability } from '../environments/environment.js';

/** @param {{steps: number, stepMib: number, stepMs: number, holdMs: number}} p */
export function workloadCommand({ steps, stepMib, stepMs, holdMs }) {
  // Each step adds a string of stepMib MiB (written, so resident), then pauses.
  const script = `my @a; for (1..${steps}) { push @a, "x" x (${stepMib} << 20); select(undef, undef, undef, ${stepMs / 1000}); } select(undef, undef, undef, ${holdMs / 1000}); print "touched ${steps * stepMib} MiB\\n";`;
  return ['perl', '-e', script];
}

/**
 * An engine that runs its containers without cgroups (rootless on a cgroup v1 host: cgroup driver
 * `none`) has no memory figures of its own for a container: its stats answer with whatever cgroup the
 * container inherited (in DinD, the outer container's), which would be reported as the workload's.
 * @param {import('../environments/environment.js').Environment} env
 */
async function requireCgroups(env) {
  const info = await capability(env, 'engineApi')()
    .docker.info()
    .catch(() => null);
  if (info?.CgroupDriver !== 'none') return;
  const said = (info.Warnings ?? []).find((/** @type {string} */ w) => /cgroup/i.test(w));
  throw new UnavailableError(
    `the engine runs its containers without cgroups (cgroup driver none), so it has no memory figures of a container's own${said ? `; it says: ${String(said).replace(/^WARNING: /, '')}` : ''}`,
  );
}

/** @typedef {{steps: number, stepMib: number, stepMs: number, holdMs: number, idleMs: number, intervalMs: number}} MemoryParams */
/** @type {import('./benchmark.js').Benchmark<MemoryParams>} */
export const memory = {
  name: 'memory',
  image: 'lifecycle',
  description:
    'memory of the workload container vs what the environment itself costs (DinD outer container, or the runner engine), sampled from the stats API',
  params: {
    // intervalMs: the engine's stats collector publishes once per second; asking more often only waits.
    quick: { steps: 4, stepMib: 32, stepMs: 500, holdMs: 1000, idleMs: 1000, intervalMs: 1000 },
    standard: { steps: 16, stepMib: 32, stepMs: 1000, holdMs: 10_000, idleMs: 10_000, intervalMs: 1000 },
  },
  // The idle sampling, the workload's allocation steps and hold, and ~2 s for its container.
  estimateSeconds: (p) => (p.idleMs + p.steps * p.stepMs + p.holdMs) / 1000 + 2,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { docker: 4.5, dind: 5.86, 'dind-vfs': 10.22 },
  unavailableIn: {
    native: 'native has no engine: no stats API for the workload and no environment of its own to count',
  },

  async measure(env, ctx) {
    const p = ctx.params;
    // Without cgroups the engine has no figures of a container's own, but the job's cost (PSS from
    // /proc) needs none: measured alone then, the missing scopes' reason saved with the raw files.
    const noCgroups = await requireCgroups(env).then(
      () => null,
      (e) => {
        if (!(e instanceof UnavailableError) || !env.jobMemory) throw e;
        return e;
      },
    );
    if (noCgroups) return jobCostOnly(env, ctx, p, noCgroups);
    const own = await capability(env, 'environmentMemory')();
    const job = env.jobMemory ? await env.jobMemory() : null;
    const jobIdle = job ? await job.idle() : 0;
    const envSampler = own ? startSampling(own.probe, p.intervalMs) : null;
    // Idle: the environment alone, before the workload starts; at least two samples (the first stats
    // answer can take over a second on a loaded engine), at most 10 s more than asked.
    const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
    await sleep(p.idleMs);
    while (envSampler && envSampler.count() < 2 && envSampler.elapsed() < p.idleMs + 10_000) await sleep(100);
    const loadStartMs = envSampler ? envSampler.elapsed() : 0;

    /** @type {ReturnType<typeof startSampling> | null} */
    let workload = null;
    /** @type {ReturnType<typeof startSampling> | null} */
    let jobSampler = null;
    /** @type {{t: number[], v: number[]} | null} */
    let jc = null;
    /** @type {{t: number[], v: number[]} | null} */
    let wl = null;
    /** @type {{t: number[], v: number[]} | null} */
    let es = null;
    try {
      await runStep(env, ctx, 'workload', workloadCommand(p), {
        onStarted: (container, docker) => {
          workload = startSampling(containerWorkingSet(docker, container.id), p.intervalMs);
          if (job) jobSampler = startSampling(() => job.during(container.id), p.intervalMs);
        },
      });
    } finally {
      // Stopped whatever happened, so no timer outlives the step.
      wl = (await /** @type {ReturnType<typeof startSampling> | null} */ (workload)?.stop()) ?? null;
      jc = (await /** @type {ReturnType<typeof startSampling> | null} */ (jobSampler)?.stop()) ?? null;
      es = (await envSampler?.stop()) ?? null;
    }
    if (!wl || wl.v.length === 0)
      throw Object.assign(
        new Error('no memory sample of the workload container: it ended before the first stats answer'),
        { step: 'workload' },
      );
    ctx.recordSeries?.({ name: 'working_set', unit: 'MiB', scope: 'workload', intervalMs: p.intervalMs, ...wl });

    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [
      { metric: 'workload.peak_mib', unit: 'MiB', better: 'lower', value: peak(wl.v) },
      { metric: 'workload.mean_mib', unit: 'MiB', better: 'lower', value: mean(wl.v) },
    ];
    if (job && jc && jc.v.length) {
      await ctx.saveRaw(
        'job-cost',
        `${job.what}\nidle ${jobIdle} bytes\n${jc.t.map((t, i) => `${t}\t${jc?.v[i]}`).join('\n')}\n`,
      );
      metrics.push(
        { metric: 'job_cost.peak_mib', unit: 'MiB', better: 'lower', value: peak(jc.v) },
        { metric: 'job_cost.mean_mib', unit: 'MiB', better: 'lower', value: mean(jc.v) },
      );
    }
    if (es && own) {
      ctx.recordSeries?.({ name: 'working_set', unit: 'MiB', scope: 'environment', intervalMs: p.intervalMs, ...es });
      const idle = es.v.filter((_, i) => es.t[i] < loadStartMs);
      const load = es.v.filter((_, i) => es.t[i] >= loadStartMs);
      await ctx.saveRaw(
        'environment',
        `${own.what}\nload began at ${Math.round(loadStartMs)} ms\n${es.t.map((t, i) => `${t}\t${es.v[i]}`).join('\n')}\n`,
      );
      metrics.push(
        { metric: 'environment.idle_mib', unit: 'MiB', better: 'lower', value: mean(idle) },
        { metric: 'environment.load_peak_mib', unit: 'MiB', better: 'lower', value: peak(load) },
        { metric: 'environment.load_mean_mib', unit: 'MiB', better: 'lower', value: mean(load) },
      );
    }
    return metrics.filter((m) => Number.isFinite(m.value));
  },
};

/**
 * The job's cost alone, for an engine without cgroups (see requireCgroups): the workload runs as in
 * measure(), sampled by jobMemory() only; `workload.*` and `environment.*` are left out, with why.
 * @param {import('./benchmark.js').Environment} env @param {import('./benchmark.js').MeasureContext<MemoryParams>} ctx
 * @param {{intervalMs: number} & Parameters<typeof workloadCommand>[0]} p
 * @param {Error} why
 * @returns {Promise<import('./benchmark.js').Metric[]>}
 */
async function jobCostOnly(env, ctx, p, why) {
  const job = await env.jobMemory?.();
  if (!job) throw why;
  const jobIdle = await job.idle();
  /** @type {ReturnType<typeof startSampling> | null} */
  let sampler = null;
  /** @type {{t: number[], v: number[]} | null} */
  let jc = null;
  try {
    await runStep(env, ctx, 'workload', workloadCommand(p), {
      onStarted: (/** @type {{id: string}} */ container) => {
        sampler = startSampling(() => job.during(container.id), p.intervalMs);
      },
    });
  } finally {
    jc = (await /** @type {ReturnType<typeof startSampling> | null} */ (sampler)?.stop()) ?? null;
  }
  if (!jc || jc.v.length === 0)
    throw Object.assign(new Error('no job-cost sample: the workload ended first'), { step: 'workload' });
  await ctx.saveRaw(
    'job-cost',
    `${job.what}\nworkload and environment scopes not measured: ${why.message}\nidle ${jobIdle} bytes\n${jc.t.map((t, i) => `${t}\t${jc?.v[i]}`).join('\n')}\n`,
  );
  return [
    { metric: 'job_cost.peak_mib', unit: 'MiB', better: 'lower', value: peak(jc.v) },
    { metric: 'job_cost.mean_mib', unit: 'MiB', better: 'lower', value: mean(jc.v) },
  ];
}
