// `npm run bench:workload-overhead`: what the workload machinery adds to a job, beyond the job's own
// phases. An empty job (one step: `true`) runs N times in each environment through the real benchmark
// (src/workload/benchmark.js); for each, the wall time of the whole iteration (measure()) is compared
// with the job's own total (job.total_ms: engine ready + the step) and the stop of a fresh DinD engine
// after it (engine.stop_ms, the environment's own cost, measured apart). What is left is the machinery:
// saving raw output, bookkeeping, the CLI's spawns. Target: under 2% of an empty job's wall time, or
// under 200 ms.
//   node bench/workload-overhead.js [--repeat N] [--env docker,dind]
// Time it on a quiet machine: the figure is a few milliseconds, neighbours move it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { workloadBenchmark } from '../src/workload/benchmark.js';
import { outerEngine } from '../src/engine/client.js';
import { ResourceTracker } from '../src/engine/resources.js';
import { createEnvironment } from '../src/environments/index.js';
import { benchImage } from '../src/images/catalog.js';
import { loadWorkload } from '../src/workload/load.js';

const { values } = parseArgs({
  options: { repeat: { type: 'string', default: '10' }, env: { type: 'string', default: 'docker,dind' } },
});
const REPEAT = Number(values.repeat);
const work = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-overhead-'));
const file = path.join(work, 'workload.yml');
writeFileSync(file, 'version: 1\nname: empty\nsteps:\n  - name: nothing\n    run: "true"\n');
const bench = workloadBenchmark(await loadWorkload(file));
const outer = outerEngine();
const tracker = new ResourceTracker(`overhead-${process.pid}`);
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; ${REPEAT} empty jobs per environment`,
  );
  for (const name of values.env.split(',')) {
    const env = createEnvironment(name, outer, '20.10');
    await env.setup({ tracker, images: [] });
    const ctx = {
      image: benchImage('registry', 'debian'),
      params: {},
      timeoutMs: 120_000,
      saveRaw: async (/** @type {string} */ step, /** @type {string} */ text) =>
        writeFileSync(path.join(work, `${name}-${step}.txt`), text),
    };
    await bench.measure(env, ctx); // the first job of a run makes what jobs share (and primes a persistent engine)
    const walls = [];
    const extra = [];
    for (let i = 0; i < REPEAT; i++) {
      const t0 = performance.now();
      const metrics = await bench.measure(env, ctx);
      const wall = performance.now() - t0;
      const value = (/** @type {string} */ name) => metrics.find((m) => m.metric === name)?.value ?? 0;
      walls.push(wall);
      // What is neither the job (job.total_ms) nor the environment stopping its fresh engine (engine.stop_ms).
      extra.push(wall - value('job.total_ms') - value('engine.stop_ms'));
    }
    await env.teardown();
    const w = median(walls);
    const x = median(extra);
    const ok = x < 200 || x / w < 0.02;
    console.log(
      `${name}: empty job ${w.toFixed(1)} ms (median), machinery ${x.toFixed(1)} ms = ${((x / w) * 100).toFixed(1)}% ` +
        `(target under 2% or under 200 ms: ${ok ? 'met' : 'NOT met'})`,
    );
    if (!ok) process.exitCode = 1;
  }
} finally {
  await tracker.cleanup(outer);
  rmSync(work, { recursive: true, force: true });
}
