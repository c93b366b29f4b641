// fio: sequential 1 MB read and write, random 4 KB read, write and a 70/30 mix, each on the container's
// own filesystem (the storage driver's layer: overlay2, or vfs in dind-vfs) and on a volume (a plain
// folder on the engine's data-root), because that difference is where nested storage hurts. Direct
// I/O, so the page cache does not hide the storage path.
import { parseFio } from '../parsers/fio.js';
import { runStep } from './benchmark.js';

/**
 * @typedef {{size: string, seconds: number, rampSeconds: number, jobs: string, locations: string}} FioParams
 *   jobs and locations: comma-separated subsets of FIO_JOBS' names and LOCATIONS (a config may name fewer,
 *   e.g. one time-based random-write job on the layer); rampSeconds: fio's ramp_time, run but not counted.
 */

export const FIO_JOBS = [
  { name: 'seqwrite', args: '--rw=write --bs=1M' }, // first: it also lays the file out for the reads
  { name: 'seqread', args: '--rw=read --bs=1M' },
  { name: 'randread', args: '--rw=randread --bs=4k' },
  { name: 'randwrite', args: '--rw=randwrite --bs=4k' },
  { name: 'randrw', args: '--rw=randrw --rwmixread=70 --bs=4k' },
];
const LOCATIONS = ['layer', 'volume'];
const ALL_JOBS = FIO_JOBS.map((j) => j.name).join(',');
const ALL_LOCATIONS = LOCATIONS.join(',');

/** @type {import('./benchmark.js').Benchmark<FioParams>} */
export const fio = {
  name: 'fio',
  image: 'fio',
  description: 'fio seq 1M read/write, rand 4K read/write/70-30 mix, container layer vs volume: IOPS, MiB/s, p99',
  params: {
    // quick: 10 short jobs of 0.2 s on a 16 MiB file, so 5 quick iterations of every benchmark fit 15 minutes.
    quick: { size: '16M', seconds: 0.2, rampSeconds: 0, jobs: ALL_JOBS, locations: ALL_LOCATIONS },
    standard: { size: '1G', seconds: 10, rampSeconds: 0, jobs: ALL_JOBS, locations: ALL_LOCATIONS },
  },
  // Each job runs its ramp and `seconds` (time-based) in each location, plus laying out the file (~100 MiB/s).
  estimateSeconds: (p) => {
    const { jobs, locations } = selection(p);
    return locations.length * (jobs.length * (p.seconds + (p.rampSeconds ?? 0)) + sizeMiB(p.size) / 100) + 0.5;
  },
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { native: 4.56, docker: 5.18, dind: 5.22, 'dind-vfs': 8.88 },

  async measure(env, ctx) {
    const p = ctx.params;
    const { jobs, locations } = selection(p);
    if (!Number.isFinite(sizeMiB(p.size))) throw new Error(`fio size "${p.size}": a size like 16M or 1G`);
    const ramp = p.rampSeconds > 0 ? `--ramp_time=${Math.round(p.rampSeconds * 1000)}ms ` : '';
    const common =
      `--output-format=json --filename=fio.dat --size=${p.size} --time_based --runtime=${Math.round(p.seconds * 1000)}ms ` +
      `${ramp}--direct=1 --ioengine=psync --stonewall ${jobs.map((j) => `--name=${j.name} ${j.args}`).join(' ')}`;
    // One container: the layer run in its working directory, the volume run in $SCRATCH; the JSON documents
    // are joined into one as {"layer": ..., "volume": ...}.
    /** @type {Record<string, string>} */
    const dir = { layer: '.', volume: '"$SCRATCH"' };
    const runs = locations.map(
      (l, i) =>
        `o=$(mktemp) && fio ${common} --directory=${dir[l]} --output="$o" && rm -f ${dir[l]}/fio.dat && ` +
        `printf '${i ? ', ' : '{'}"${l}": ' && cat "$o" && rm -f "$o"`,
    );
    const script = `${runs.join(' && ')} && printf '}\\n'`;
    const { stdout } = await runStep(env, ctx, 'fio', ['sh', '-c', script], { volume: '/scratch' });
    return parseFio(
      stdout,
      locations,
      jobs.map((j) => j.name),
    );
  },
};

/**
 * The jobs and locations a parameter set names, checked against the known ones (a config file is input:
 * only known names reach the shell).
 * @param {{jobs?: string, locations?: string}} p
 */
export function selection(p) {
  const pick = (/** @type {string} */ list, /** @type {string[]} */ known, /** @type {string} */ what) => {
    const names = String(list)
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    const bad = names.filter((n) => !known.includes(n));
    if (bad.length || names.length === 0)
      throw new Error(`fio ${what} "${list}": a comma-separated list of ${known.join(', ')}`);
    return names;
  };
  const names = pick(
    p.jobs ?? ALL_JOBS,
    FIO_JOBS.map((j) => j.name),
    'jobs',
  );
  return {
    jobs: FIO_JOBS.filter((j) => names.includes(j.name)),
    locations: pick(p.locations ?? ALL_LOCATIONS, LOCATIONS, 'locations'),
  };
}

/** "32M", "1G" -> MiB (fio's k/M/G are powers of 1024). @param {string} size */
export function sizeMiB(size) {
  const m = String(size).match(/^(\d+(?:\.\d+)?)([kmgt]?)i?b?$/i);
  if (!m) return NaN;
  const scale = { '': 1 / 2 ** 20, k: 1 / 1024, m: 1, g: 1024, t: 1024 * 1024 }[m[2].toLowerCase()] ?? NaN;
  return Number(m[1]) * scale;
}
