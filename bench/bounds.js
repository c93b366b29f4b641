#!/usr/bin/env node
// Work bounded with the input: a results file at the bounds `publish` accepts (99 series of 10,000 samples:
// 990,000 samples, under the 1,000,000 a run may hold, about 7 MB) is published into a fresh history and
// compared (within the run, and against that history) by the real CLI, each timed. A compromised runner
// can send such a file; the report and publish jobs must not stall on it. Target: each within 10 s.
// Usage: npm run bench:bounds [-- --target 10]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SERIES, atTheBounds } from './bounds-file.js';
import { MAX_SAMPLES } from '../src/history/append.js';

const BIN = new URL('../bin/dind-bench.js', import.meta.url).pathname;
const { values } = parseArgs({ options: { target: { type: 'string', default: '10' } } });
const TARGET_S = Number(values.target);

/** @param {string} what @param {string[]} args */
function timed(what, args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const s = (performance.now() - t0) / 1000;
  const ok = r.status === 0 || (what.startsWith('compare') && r.status === 4);
  if (!ok) console.error(`${what} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return { what, s, ok };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-bounds-'));
try {
  const file = path.join(dir, 'results.json');
  writeFileSync(file, JSON.stringify(atTheBounds()));
  const history = path.join(dir, 'history');
  const samples = SERIES * MAX_SAMPLES;
  console.log(
    `${SERIES} series x ${MAX_SAMPLES} samples = ${samples} samples, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`,
  );
  const rows = [
    timed('publish', ['publish', file, '--history', history]),
    timed('compare (within the run)', ['compare', file]),
    timed('compare --history', ['compare', file, '--history', history]),
  ];
  for (const r of rows) {
    const pass = r.ok && r.s <= TARGET_S;
    console.log(
      `${pass ? 'ok  ' : 'MISS'}  ${r.what.padEnd(26)} ${r.s.toFixed(1).padStart(6)} s  target <= ${TARGET_S} s`,
    );
  }
  console.log(
    `host: ${os.cpus()[0]?.model}, ${os.availableParallelism()} cores; load average ${os.loadavg()[0].toFixed(1)}`,
  );
  process.exitCode = rows.every((r) => r.ok && r.s <= TARGET_S) ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
