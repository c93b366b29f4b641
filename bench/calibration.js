// `npm run bench:calibration`: the calibration probe (src/run/calibrate.js) timed N times on this machine,
// each with the load average beside it, and the factor the run would take from each. On the machine the
// plan's estimates were measured on (this project's quiet 2-core machine), the fastest probe is the
// reference (REFERENCE_PROBE_MS); on a user's runner it shows what the plan would make of it.
//   node bench/calibration.js [--repeat N] [--pause S]
// --pause: seconds between probes (the load on a shared machine comes and goes; the fastest probe is the
// quietest moment's). On a machine that is never quiet it also estimates the quiet probe from its parts at
// their fastest: the CPU work timed in chunks of 100 rounds on one thread, the fastest chunk's rate (what a
// free core gives: a chunk of a few ms often lands between the neighbours' time slices) times the rounds,
// plus the fastest worker start and the fastest disk part seen.
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { CPU_ROUNDS, REFERENCE_PROBE_MS, calibrationOf, probeMachine } from '../src/run/calibrate.js';

const { values } = parseArgs({
  options: { repeat: { type: 'string', default: '10' }, pause: { type: 'string', default: '0' } },
});
const REPEAT = Number(values.repeat);
const PAUSE_S = Number(values.pause);
const dir = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-calibration-'));

try {
  /** @type {{ probeMs: number, cpuMs: number, diskMs: number, load: number }[]} */
  const rows = [];
  for (let i = 0; i < REPEAT; i++) {
    if (i > 0 && PAUSE_S > 0) await delay(PAUSE_S * 1000);
    const load = os.loadavg()[0];
    // Uncut (no limit): each part timed whole.
    const p = await probeMachine(dir, Infinity);
    rows.push({ ...p, load });
    console.log(
      `probe ${i + 1}: ${p.probeMs} ms (cpu ${p.cpuMs}, disk ${p.diskMs}), load ${load.toFixed(2)}, factor ${calibrationOf(p.probeMs).factor}`,
    );
  }
  const sorted = [...rows].sort((a, b) => a.probeMs - b.probeMs);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `fastest ${sorted[0].probeMs} ms (cpu ${sorted[0].cpuMs}, disk ${sorted[0].diskMs}, load ${sorted[0].load.toFixed(2)}), ` +
      `median ${median.probeMs} ms, slowest ${sorted.at(-1)?.probeMs} ms; reference ${REFERENCE_PROBE_MS} ms; ` +
      `${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}`,
  );
  const chunkMs = fastestChunkMs(400);
  let startMs = Infinity;
  for (let i = 0; i < 10; i++) startMs = Math.min(startMs, await workerStartMs());
  const diskMs = Math.min(...rows.map((r) => r.diskMs));
  const quiet = Math.round((chunkMs * CPU_ROUNDS) / 100 + startMs + diskMs);
  console.log(
    `quiet estimate: ${quiet} ms (cpu ${Math.round((chunkMs * CPU_ROUNDS) / 100)} from the fastest 100 rounds, ${chunkMs.toFixed(2)} ms; worker start ${Math.round(startMs)}; disk ${diskMs}); load now ${os.loadavg()[0].toFixed(2)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** The fastest of `n` chunks of 100 of the probe's rounds, on this thread. @param {number} n */
function fastestChunkMs(n) {
  const block = Buffer.alloc(65536, 7);
  let h = Buffer.alloc(32);
  let best = Infinity;
  for (let k = 0; k < n; k++) {
    const t = performance.now();
    for (let i = 0; i < 100; i++) h = createHash('sha256').update(h).update(block).digest();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/** How long a worker takes to start and answer. @returns {Promise<number>} */
function workerStartMs() {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const w = new Worker("require('node:worker_threads').parentPort.postMessage(1)", { eval: true });
    w.once('message', () => resolve(performance.now() - t));
    w.once('error', reject);
  });
}
