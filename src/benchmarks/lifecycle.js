// Container lifecycle: create, start, first output, stop and remove of a container, timed around the
// engine API calls and from the engine's events; in DinD also the inner daemon's own start-to-ready and
// stop (the study's headline: up to 7 s to start DinD vs under 0.5 s for a container), and the time to
// the first container's output on that fresh daemon (what a CI job waits for before its first step).
// `startup.*`: the start-up timeline, phase by phase (../engine/startup.js); `startup_tls.*`: a DinD
// start with TLS material made at start, to /_ping.
import { timelineMetrics } from '../engine/startup.js';

/**
 * @typedef {{firstContainer?: boolean, tls?: boolean, starts?: number}} LifecycleParams
 *   starts: on an engine that is already up (Docker), how many first-container starts one sample takes; the
 *   sample is the start whose total is the median (a DinD start is one fresh daemon, whatever this says)
 */
/** @type {import('./benchmark.js').Benchmark<LifecycleParams>} */
export const lifecycle = {
  name: 'lifecycle',
  image: 'lifecycle',
  description: 'container create/start/first output/stop/remove, and DinD daemon start-to-ready and stop',
  // firstContainer: the fresh DinD daemon also runs its first container (costs one image load per cycle,
  // the largest part of the cycle). On in quick too, so a first answer includes time to first container.
  // tls: DinD also starts a fresh daemon whose entrypoint makes TLS material first, as the official
  // docker:dind image does by default (three 4096-bit RSA keys, seconds of CPU), to its /_ping only.
  // Off in quick: it was the largest part of a quick DinD iteration (5-7 s of 10 on a 2-core runner), and
  // key generation is the runner's CPU time, the same under every Engine; standard keeps it.
  // Measured durations: docs/startup.md, from test/fixtures/results/startup-lifecycle-quick.json.
  params: {
    quick: { firstContainer: true, tls: false, starts: 1 },
    standard: { firstContainer: true, tls: true, starts: 1 },
  },

  // A planning guide (src/run/estimate.js), not a measurement: one probe container, and in DinD a fresh
  // inner daemon started and stopped, plus the TLS start; each further first-container start ~0.3 s.
  estimateSeconds: (p) => 2 + (p?.tls ? 6 : 0) + 0.3 * ((p?.starts ?? 1) - 1),
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { native: 0.1, docker: 0.52, dind: 5.96, 'dind-vfs': 19.4 },

  async measure(env, ctx) {
    const probe = await env.probeLifecycle({ image: ctx.image, timeoutMs: ctx.timeoutMs });
    await ctx.saveRaw('probe', JSON.stringify(probe, null, 2));
    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [];
    for (const [step, value] of Object.entries(probe)) {
      if (typeof value === 'number') metrics.push({ metric: `container.${step}`, unit: 'ms', better: 'lower', value });
    }
    const { firstContainer, tls } = ctx.params ?? {};
    if (!env.daemonCycle && env.startupTimeline) {
      // An engine that is already up: its start-up is the first container's alone.
      const n = startsOf(ctx.params);
      /** @type {import('../engine/startup.js').Timeline[]} */
      const timelines = [];
      for (let i = 0; i < n; i++)
        timelines.push(await env.startupTimeline({ image: ctx.image, timeoutMs: ctx.timeoutMs }));
      await ctx.saveRaw('startup', JSON.stringify(n === 1 ? timelines[0] : timelines, null, 2));
      const timeline = medianTimeline(timelines);
      metrics.push(...timelineMetrics(timeline, 'startup'));
    }
    if (env.daemonCycle) {
      const cycle = await env.daemonCycle(
        firstContainer ? { firstContainer: { image: ctx.image, timeoutMs: ctx.timeoutMs } } : {},
      );
      await ctx.saveRaw('daemon', JSON.stringify(cycle, null, 2));
      // The whole timeline only when it reaches the first container's output; to /_ping, it would
      // stand beside Docker's first-container timeline as a different thing under the same names.
      if (firstContainer) metrics.push(...timelineMetrics(cycle.timeline, 'startup'));
      metrics.push({ metric: 'daemon.start_to_ready_ms', unit: 'ms', better: 'lower', value: cycle.start_to_ready_ms });
      metrics.push({ metric: 'daemon.stop_ms', unit: 'ms', better: 'lower', value: cycle.stop_ms });
      if (typeof cycle.first_output_ms === 'number' && typeof cycle.image_load_ms === 'number') {
        metrics.push({
          metric: 'daemon.first_container_ms',
          unit: 'ms',
          better: 'lower',
          value: cycle.first_output_ms,
        });
        // Daemon start to the first container's output, the image load (a registry-less artefact here) left out.
        metrics.push({
          metric: 'daemon.start_to_first_output_ms',
          unit: 'ms',
          better: 'lower',
          value: Math.round((cycle.start_to_ready_ms + cycle.first_output_ms) * 1000) / 1000,
        });
        metrics.push({ metric: 'daemon.image_load_ms', unit: 'ms', better: 'lower', value: cycle.image_load_ms });
      }
      if (tls && env.tls !== false) {
        const withTls = await env.daemonCycle({ tls: true });
        await ctx.saveRaw('daemon-tls', JSON.stringify(withTls, null, 2));
        // Same clock as daemon.start_to_ready_ms (outer start call to the first OK /_ping), TLS on.
        metrics.push({
          metric: 'daemon_tls.start_to_ready_ms',
          unit: 'ms',
          better: 'lower',
          value: withTls.start_to_ready_ms,
        });
        metrics.push(...timelineMetrics(withTls.timeline, 'startup_tls'));
      }
    }
    return metrics;
  },
};

/** @param {LifecycleParams | undefined} p @returns {number} */
export function startsOf(p) {
  const n = p?.starts ?? 1;
  if (!(Number.isInteger(n) && n >= 1 && n <= 25)) throw new Error(`lifecycle starts ${JSON.stringify(n)}: 1 to 25`);
  return n;
}

/**
 * Of several starts, the one whose total is the median (the lower middle of an even count): one real start,
 * its phases and total together, not a blend of several.
 * @param {import('../engine/startup.js').Timeline[]} timelines non-empty
 */
export function medianTimeline(timelines) {
  const sorted = [...timelines].sort((a, b) => a.total_ms - b.total_ms);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
