// IOzone write, rewrite, read and reread on the container's own filesystem: the layer DinD nests. Writes
// include the fsync (-e). Standard runs it as the study did (4 KB records, a 1 GB buffered file); quick with
// direct I/O (-I) and 64 KB records, so that a short test times the filesystem stack, not the page cache.
import { parseIozone } from '../parsers/iozone.js';
import { runStep } from './benchmark.js';

/** @typedef {{fileSize: string, recordSize: string, direct: boolean}} IozoneParams */

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
    quick: { fileSize: '64m', recordSize: '64k', direct: true },
    standard: { fileSize: '1g', recordSize: '4k', direct: false },
  },
  // Calibrated on this project's 2-core machine: about 40 MiB/s for the fsync'd writes, reads from cache.
  estimateSeconds: (p) => 0.5 + (2 * sizeMiB(p.fileSize)) / 40,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  // Since issue 53 (direct I/O, 64 MiB): the whole quick run's figures plus what bench:noise measured the change
  // to add per step, before and after back to back (+0.56 s docker, +0.60 s dind, docs/noise.md).
  quickStepS: { native: 0.7, docker: 0.96, dind: 0.98, 'dind-vfs': 5.8 },

  async measure(env, ctx) {
    const p = ctx.params;
    // The file lives in the working directory (the container's layer; native: a temporary folder).
    const { stdout } = await runStep(env, ctx, 'iozone', [
      'sh',
      '-c',
      `iozone -e${p.direct ? ' -I' : ''} -i 0 -i 1 -r ${p.recordSize} -s ${p.fileSize} -f ./iozone.tmp; s=$?; rm -f ./iozone.tmp; exit $s`,
    ]);
    return parseIozone(stdout);
  },
};

/** "16m", "1g", "512k" -> MiB, as IOzone reads its sizes. @param {string} size */
export function sizeMiB(size) {
  const m = String(size).match(/^(\d+(?:\.\d+)?)([kmgt]?)b?$/i);
  if (!m) return NaN;
  const scale = { '': 1 / 1024, k: 1 / 1024, m: 1, g: 1024, t: 1024 * 1024 }[m[2].toLowerCase()] ?? NaN;
  return Number(m[1]) * scale;
}
