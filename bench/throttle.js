// Shared by the bench scripts that measure a slower runner made of this one (`--cores N`): pins the engine's
// daemons, and with them every container they start, to the first N cores, and gives the harness a
// `taskset` prefix. Checked, not assumed: a container's own `nproc` must say N.
import os from 'node:os';
import { spawnSync } from 'node:child_process';

/**
 * Pins the engine's daemons (and with them every container they start) to the first N cores, and gives the
 * run a `taskset` prefix for the harness (and native's tools). Checked with a container's own `nproc`.
 * @param {number} cores
 */
export async function throttleEngine(cores) {
  if (!(cores >= 1 && cores < os.availableParallelism()))
    throw new Error(`--cores ${cores}: between 1 and ${os.availableParallelism() - 1}`);
  const cpus = `0-${cores - 1}`;
  const pids = ['dockerd', 'containerd'].flatMap((name) =>
    spawnSync('pidof', [name], { encoding: 'utf8' }).stdout.trim().split(/\s+/).filter(Boolean),
  );
  if (!pids.length) throw new Error('--cores: no dockerd or containerd process found to pin');
  /** @type {[string, string][]} what each was pinned to before */
  const before = pids.map((pid) => [
    pid,
    spawnSync('taskset', ['-p', '-c', pid], { encoding: 'utf8' }).stdout.split(': ').pop()?.trim() ?? '',
  ]);
  for (const pid of pids) spawnSync('taskset', ['-a', '-p', '-c', cpus, pid], { stdio: 'ignore' });
  const restore = () => {
    for (const [pid, list] of before)
      if (list) spawnSync('taskset', ['-a', '-p', '-c', list, pid], { stdio: 'ignore' });
  };
  const seen = spawnSync('docker', ['run', '--rm', '--network', 'none', `dind-bench/lifecycle:debian`, 'nproc'], {
    encoding: 'utf8',
  });
  if (seen.stdout.trim() !== String(cores)) {
    restore();
    throw new Error(
      `--cores ${cores}: a container still sees ${seen.stdout.trim() || seen.stderr.trim()} cores; not throttled`,
    );
  }
  return { cores, cpus, restore, harness: ['taskset', '-c', cpus] };
}
