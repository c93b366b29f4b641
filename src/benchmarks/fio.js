// fio: sequential 1 MB read and write, random 4 KB read, write and a 70/30 mix, each on the container's
// own filesystem (the storage driver's layer: overlay2, or vfs in dind-vfs) and on a volume (a plain
// folder on the engine's data-root), because that difference is where nested storage hurts. Direct
// I/O, so the page cache does not hide the storage path.
import { parseFio } from '../parsers/fio.js';
import { runStep } from './benchmark.js';

/** @typedef {{size: string, seconds: number}} FioParams */

export const FIO_JOBS = [
  { name: 'seqwrite', args: '--rw=write --bs=1M' }, // first: it also lays the file out for the reads
  { name: 'seqread', args: '--rw=read --bs=1M' },
  { name: 'randread', args: '--rw=randread --bs=4k' },
  { name: 'randwrite', args: '--rw=randwrite --bs=4k' },
  { name: 'randrw', args: '--rw=randrw --rwmixread=70 --bs=4k' },
];
const LOCATIONS = ['layer', 'volume'];

/** @type {import('./benchmark.js').Benchmark<FioParams>} */
export const fio = {
  name: 'fio',
  image: 'fio',
  description: 'fio seq 1M read/write, rand 4K read/write/70-30 mix, container layer vs volume: IOPS, MiB/s, p99',
  params: {
    // quick: 10 short jobs of 0.2 s on a 16 MiB file, so 5 quick iterations of every benchmark fit 15 minutes.
    quick: { size: '16M', seconds: 0.2 },
    standard: { size: '1G', seconds: 10 },
  },
  // Each job runs `seconds` (time-based), in two locations, plus laying out the file (~100 MiB/s here).
  estimateSeconds: (p) => LOCATIONS.length * (FIO_JOBS.length * p.seconds + sizeMiB(p.size) / 100) + 0.5,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { native: 4.56, docker: 5.18, dind: 5.22, 'dind-vfs': 8.88 },

  async measure(env, ctx) {
    const p = ctx.params;
    const common =
      `--output-format=json --filename=fio.dat --size=${p.size} --time_based --runtime=${Math.round(p.seconds * 1000)}ms ` +
      `--direct=1 --ioengine=psync --stonewall ${FIO_JOBS.map((j) => `--name=${j.name} ${j.args}`).join(' ')}`;
    // One container: the layer run in its working directory, the volume run in $SCRATCH; the two JSON
    // documents are joined into one as {"layer": ..., "volume": ...}.
    const script =
      `l=$(mktemp) && v=$(mktemp) && fio ${common} --directory=. --output="$l" && rm -f ./fio.dat && ` +
      `fio ${common} --directory="$SCRATCH" --output="$v" && ` +
      `printf '{"layer": ' && cat "$l" && printf ', "volume": ' && cat "$v" && printf '}\\n'; s=$?; rm -f "$l" "$v"; exit $s`;
    const { stdout } = await runStep(env, ctx, 'fio', ['sh', '-c', script], { volume: '/scratch' });
    return parseFio(
      stdout,
      LOCATIONS,
      FIO_JOBS.map((j) => j.name),
    );
  },
};

/** "32M", "1G" -> MiB (fio's k/M/G are powers of 1024). @param {string} size */
export function sizeMiB(size) {
  const m = String(size).match(/^(\d+(?:\.\d+)?)([kmgt]?)i?b?$/i);
  if (!m) return NaN;
  const scale = { '': 1 / 2 ** 20, k: 1 / 1024, m: 1, g: 1024, t: 1024 * 1024 }[m[2].toLowerCase()] ?? NaN;
  return Number(m[1]) * scale;
}
