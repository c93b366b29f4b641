// Container lifecycle: create, start, first output, stop and remove of a container, timed around the
// engine API calls and from the engine's events; in DinD also the inner daemon's own start-to-ready and
// stop (the study's headline: up to 7 s to start DinD vs under 0.5 s for a container).
/** @type {import('./benchmark.js').Benchmark} */
export const lifecycle = {
  name: 'lifecycle',
  image: 'lifecycle',
  description: 'container create/start/first output/stop/remove, and DinD daemon start-to-ready and stop',
  params: { quick: {}, standard: {} },

  async measure(env, ctx) {
    const probe = await env.probeLifecycle({ image: ctx.image, timeoutMs: ctx.timeoutMs });
    await ctx.saveRaw('probe', JSON.stringify(probe, null, 2));
    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [];
    for (const [step, value] of Object.entries(probe)) {
      if (typeof value === 'number') metrics.push({ metric: `container.${step}`, unit: 'ms', better: 'lower', value });
    }
    if (env.daemonCycle) {
      const cycle = await env.daemonCycle();
      await ctx.saveRaw('daemon', JSON.stringify(cycle, null, 2));
      metrics.push({ metric: 'daemon.start_to_ready_ms', unit: 'ms', better: 'lower', value: cycle.start_to_ready_ms });
      metrics.push({ metric: 'daemon.stop_ms', unit: 'ms', better: 'lower', value: cycle.stop_ms });
    }
    return metrics;
  },
};
