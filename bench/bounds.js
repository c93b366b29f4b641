#!/usr/bin/env node
// Work bounded with the input: a results file at the bounds `publish` accepts (99 series of 10,000 samples:
// 990,000 samples, under the 1,000,000 a run may hold, about 7 MB) is published into a fresh history and
// compared (within the run, and against that history) by the real CLI, each timed; then the same with one
// side of every comparison at 10,000 samples and the other at 5, each way round (bench/bounds-file.js
// SHAPES). A compromised runner can send such a file; the report and publish jobs must not stall on it.
// Target: each within 10 s.
// Usage: npm run bench:bounds [-- --target 10] [--shape symmetric]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SERIES, SHAPES, atTheBounds } from './bounds-file.js';

const BIN = new URL('../bin/dind-bench.js', import.meta.url).pathname;
const { values } = parseArgs({
  options: { target: { type: 'string', default: '10' }, shape: { type: 'string', multiple: true } },
});
const TARGET_S = Number(values.target);
const shapes = /** @type {(keyof typeof SHAPES)[]} */ (values.shape ?? Object.keys(SHAPES));
for (const s of shapes) {
  if (!(s in SHAPES)) throw new Error(`no shape ${JSON.stringify(s)}: one of ${Object.keys(SHAPES).join(', ')}`);
}

/** @param {string} what @param {string[]} args */
function timed(what, args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const s = (performance.now() - t0) / 1000;
  const ok = r.status === 0 || (what.startsWith('compare') && [4, 8].includes(r.status ?? -1));
  if (!ok) console.error(`${what} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return { what, s, ok };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-bounds-'));
const rows = [];
try {
  console.log(
    `load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  for (const shape of shapes) {
    const [docker, dind] = SHAPES[shape];
    const file = path.join(dir, `results-${rows.length}.json`);
    writeFileSync(file, JSON.stringify(atTheBounds(docker, dind)));
    const history = path.join(dir, `history-${rows.length}`);
    const samples = Math.ceil(SERIES / 2) * docker + Math.floor(SERIES / 2) * dind;
    console.log(
      `${shape}: ${SERIES} series, docker ${docker} and dind ${dind} samples a series = ${samples} samples, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`,
    );
    for (const r of [
      timed('publish', ['publish', file, '--history', history]),
      timed('compare (within the run)', ['compare', file]),
      timed('compare --history', ['compare', file, '--history', history]),
    ]) {
      const pass = r.ok && r.s <= TARGET_S;
      console.log(
        `  ${pass ? 'ok  ' : 'MISS'}  ${r.what.padEnd(26)} ${r.s.toFixed(1).padStart(6)} s  target <= ${TARGET_S} s`,
      );
      rows.push({ ...r, pass });
    }
  }
  console.log(
    `host: ${os.cpus()[0]?.model}, ${os.availableParallelism()} cores; load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
