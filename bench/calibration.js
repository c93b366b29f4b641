// `npm run bench:calibration`: the calibration probe (src/run/calibrate.js) timed N times on this machine,
// each with the load average beside it, and the factor the run would take from each. On the machine the
// plan's estimates were measured on (this project's quiet 2-core machine), the fastest probe is the
// reference (REFERENCE_PROBE_MS); on a user's runner it shows what the plan would make of it.
//   node bench/calibration.js [--repeat N] [--pause S]
// --pause: seconds between probes (the load on a shared machine comes and goes; the fastest probe is the
// quietest moment's).
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { REFERENCE_PROBE_MS, calibrationOf, probeMachine } from '../src/run/calibrate.js';

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
    const p = await probeMachine(dir);
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
} finally {
  rmSync(dir, { recursive: true, force: true });
}
