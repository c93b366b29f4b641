// IOzone write, rewrite, read and reread on the container's own filesystem: the layer DinD nests. Writes
// include the fsync (-e). Standard runs it as the study did (4 KB records, a 1 GB buffered file); quick with
// direct I/O (-I) and 64 KB records, so that a short test times the filesystem stack, not the page cache.
import { parseIozone } from '../parsers/iozone.js';
import { median } from '../stats/median.js';
import { runStep, runSteps } from './benchmark.js';

/**
 * @typedef {{fileSize: string, recordSize: string, direct: boolean, repeats?: number}} IozoneParams
 *   repeats: IOzone runs in the one container of a sample, each on a fresh file; the sample is each test's
 *   median over them (1: one run, the sample as it was)
 */

/** @type {import('./benchmark.js').Benchmark<IozoneParams>} */
export const iozone = {
  name: 'iozone',
  image: 'iozone',
  description: 'IOzone write, rewrite, read, reread (4 KB records) on the container filesystem: MiB/s',
  params: {
    // quick: O_DIRECT (`-I`, IOzone's own way past the buffer cache), 64 KiB records, 64 MiB: a 16 MiB buffered
    // file with 4 KiB records was the page cache, a few tens of ms a test, ±15-90% per sample
    // (docs/noise.md). O_DIRECT works on the container's overlayfs and on a DinD volume (kernel 5.x+ overlayfs
    // passes it to the filesystem below).
    quick: { fileSize: '64m', recordSize: '64k', direct: true, repeats: 1 },
    standard: { fileSize: '1g', recordSize: '4k', direct: false, repeats: 1 },
  },
  // Calibrated on this project's 2-core machine: about 40 MiB/s for the fsync'd writes, reads from cache.
  estimateSeconds: (p) => 0.5 + (repeatsOf(p) * 2 * sizeMiB(p.fileSize)) / 40,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  // Since issue 53 (direct I/O, 64 MiB): the whole quick run's figures plus what bench:noise measured the change
  // to add per step, before and after back to back (+0.56 s docker, +0.60 s dind, docs/noise.md).
  quickStepS: { native: 0.7, docker: 0.96, dind: 0.98, 'dind-vfs': 5.8 },

  async measure(env, ctx) {
    const p = ctx.params;
    // The file lives in the working directory (the container's layer; native: a temporary folder).
    const sh = `${iozoneCommand(p)} -f ./iozone.tmp; s=$?; rm -f ./iozone.tmp; exit $s`;
    const repeats = repeatsOf(p);
    if (repeats === 1) return parseIozone((await runStep(env, ctx, 'iozone', ['sh', '-c', sh])).stdout);
    const steps = Array.from({ length: repeats }, (_, i) => ({ step: `iozone-${i + 1}`, sh }));
    return medianMetrics(Object.values(await runSteps(env, ctx, steps)).map(parseIozone));
  },
};

/**
 * The IOzone command line of a parameter set, without its file. Sizes are checked before they reach the
 * shell (a config file is input): a number with an optional k, m or g.
 * @param {IozoneParams} p
 */
export function iozoneCommand(p) {
  for (const [name, size] of [
    ['fileSize', p.fileSize],
    ['recordSize', p.recordSize],
  ])
    if (!/^\d{1,7}[kmg]?$/i.test(String(size)) || !(sizeMiB(size) > 0))
      throw new Error(`iozone ${name} ${JSON.stringify(size)}: a size like 64k, 64m or 1g`);
  return `iozone -e${p.direct === true ? ' -I' : ''} -i 0 -i 1 -r ${p.recordSize} -s ${p.fileSize}`;
}

/**
 * How many IOzone runs one sample takes: a whole number from 1 to 20, or an error naming the parameter.
 * @param {IozoneParams} p
 */
export function repeatsOf(p) {
  const n = p.repeats ?? 1;
  if (!(Number.isInteger(n) && n >= 1 && n <= 20))
    throw new Error(`iozone repeats ${JSON.stringify(n)}: a whole number from 1 to 20`);
  return n;
}

/**
 * Each metric's median over several runs' metrics (one parser made them all: the same names), rounded as
 * the parser rounds.
 * @param {import('./benchmark.js').Metric[][]} runs
 * @returns {import('./benchmark.js').Metric[]}
 */
export function medianMetrics(runs) {
  return runs[0].map((m) => {
    const values = runs.map((r) => r.find((x) => x.metric === m.metric)?.value ?? NaN);
    return { ...m, value: Math.round(median(values) * 100) / 100 };
  });
}

/** "16m", "1g", "512k" -> MiB, as IOzone reads its sizes. @param {string} size */
export function sizeMiB(size) {
  const m = String(size).match(/^(\d+(?:\.\d+)?)([kmgt]?)b?$/i);
  if (!m) return NaN;
  const scale = { '': 1 / 1024, k: 1 / 1024, m: 1, g: 1024, t: 1024 * 1024 }[m[2].toLowerCase()] ?? NaN;
  return Number(m[1]) * scale;
}
