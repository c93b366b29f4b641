// The benchmarks, by name. Adding one = a module in this folder, a line here, an entry in
// images/docker-bake.hcl for the tools it needs, and fixtures of its real output under test/fixtures/.
import { fio } from './fio.js';
import { iozone } from './iozone.js';
import { iperf3 } from './iperf3.js';
import { lifecycle } from './lifecycle.js';
import { pgbench } from './pgbench.js';
import { redis } from './redis.js';
import { storage } from './storage.js';
import { stressNg } from './stress-ng.js';
import { sysbench } from './sysbench.js';
import { memory } from './memory.js';
import { build } from './build.js';
import { imageLoad } from './image-load.js';

/**
 * Frozen: a run takes its registry as an argument (a test passes its own), never a mutated global.
 * @type {Readonly<Record<string, import('./benchmark.js').Benchmark>>}
 */
export const BENCHMARKS = Object.freeze({
  lifecycle,
  sysbench,
  'stress-ng': stressNg,
  iozone,
  fio,
  storage,
  iperf3,
  redis,
  pgbench,
  memory,
  build,
  'image-load': imageLoad,
});
export const BENCHMARK_NAMES = Object.keys(BENCHMARKS);
