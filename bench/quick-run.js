#!/usr/bin/env node
// Checks the spine's targets on this machine, by measuring them:
//   - `dind-bench run --profile quick` over native, docker, dind, dind-vfs x debian finishes in <= 5 min
//     (images cached);
//   - the harness's own resident memory stays under 200 MB during the run.
// Usage: npm run bench:quick-run   (needs a running engine; builds missing images first, not timed)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = new URL('../bin/dind-bench.js', import.meta.url).pathname;
const TARGET_SECONDS = 300;
const TARGET_RSS_MB = 200;

const pre = spawnSync(process.execPath, [BIN, 'images', 'build', '--distro', 'debian', '--engine', '20.10'], { stdio: 'inherit' });
if (pre.status !== 0) process.exit(pre.status ?? 1);

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-quick-'));
try {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'run', '--profile', 'quick', '--distro', 'debian', '--env', 'native,docker,dind,dind-vfs', '--out', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const wall = (performance.now() - t0) / 1000;
  const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
  const rssMb = results.harness.peakRssBytes / 2 ** 20;
  const rows = [
    ['quick run wall time', `${wall.toFixed(1)} s`, `<= ${TARGET_SECONDS} s`, wall <= TARGET_SECONDS],
    ['harness peak RSS', `${rssMb.toFixed(0)} MiB`, `< ${TARGET_RSS_MB} MB`, rssMb * 1.048576 < TARGET_RSS_MB],
    ['cells ok', `${results.cells.filter((/** @type {any} */ c) => c.status === 'ok').length}/${results.cells.length}`, 'all', results.run.complete],
  ];
  console.log(`host: ${results.host.cpuModel}, ${results.host.cores} cores; outer engine ${results.engines.outer.version}`);
  for (const [what, measured, target, ok] of rows) console.log(`${ok ? 'ok  ' : 'MISS'}  ${String(what).padEnd(22)} ${String(measured).padEnd(10)} target ${target}`);
  process.exitCode = r.status === 0 && rows.every((x) => x[3]) ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
