#!/usr/bin/env node
// Checks the quick profile's targets on this machine, by measuring them:
//   - `dind-bench run --profile quick` with every benchmark over native, docker, dind, dind-vfs x debian
//     finishes in <= 15 min (images cached); the time spent per benchmark is printed too, from the
//     run's own progress lines, so the budget can be planned;
//   - the harness's own resident memory stays under 200 MB during the run.
// Usage: npm run bench:quick-run   (needs a running engine; builds missing images first, not timed)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = new URL('../bin/dind-bench.js', import.meta.url).pathname;
const TARGET_SECONDS = 900;
const TARGET_RSS_MB = 200;

const pre = spawnSync(process.execPath, [BIN, 'images', 'build', '--distro', 'debian', '--engine', '20.10'], { stdio: 'inherit' });
if (pre.status !== 0) process.exit(pre.status ?? 1);

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-quick-'));
try {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'run', '--profile', 'quick', '--distro', 'debian', '--env', 'native,docker,dind,dind-vfs', '--out', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const wall = (performance.now() - t0) / 1000;
  process.stderr.write(r.stderr);
  // Progress lines look like "[12/96] fio/dind@20.10/debian #2: 20 metrics in 15234 ms".
  /** @type {Map<string, number>} */
  const perBench = new Map();
  for (const m of r.stderr.matchAll(/^\[\d+\/\d+\] ([^/\s]+)\/\S+ .*? in (\d+) ms$/gm)) perBench.set(m[1], (perBench.get(m[1]) ?? 0) + Number(m[2]));
  const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
  const rssMb = results.harness.peakRssBytes / 2 ** 20;
  const rows = [
    ['quick run wall time', `${wall.toFixed(1)} s`, `<= ${TARGET_SECONDS} s`, wall <= TARGET_SECONDS],
    ['harness peak RSS', `${rssMb.toFixed(0)} MiB`, `< ${TARGET_RSS_MB} MB`, rssMb * 1.048576 < TARGET_RSS_MB],
    ['cells ok', `${results.cells.filter((/** @type {any} */ c) => c.status === 'ok').length}/${results.cells.length}`, 'all', results.run.complete],
  ];
  console.log(`host: ${results.host.cpuModel}, ${results.host.cores} cores; outer engine ${results.engines.outer.version}`);
  for (const [what, measured, target, ok] of rows) console.log(`${ok ? 'ok  ' : 'MISS'}  ${String(what).padEnd(22)} ${String(measured).padEnd(10)} target ${target}`);
  console.log('time in measured steps per benchmark (all environments, warm-up included; setup excluded):');
  for (const [bench, ms] of [...perBench].sort((a, b) => b[1] - a[1])) console.log(`  ${bench.padEnd(12)} ${(ms / 1000).toFixed(1)} s`);
  process.exitCode = r.status === 0 && rows.every((x) => x[3]) ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
