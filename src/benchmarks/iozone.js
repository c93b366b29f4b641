// IOzone write, rewrite, read and reread with 4 KB records, as the study ran it (standard: a 1 GB file),
// on the container's own filesystem: the layer DinD nests. Writes include the fsync (-e), so the figure
// is what reaches the disk, not only the page cache.
import { parseIozone } from '../parsers/iozone.js';
import { runStep } from './benchmark.js';

/** @typedef {{fileSize: string, recordSize: string, direct: boolean}} IozoneParams */

/** @type {import('./benchmark.js').Benchmark<IozoneParams>} */
export const iozone = {
  name: 'iozone',
  image: 'iozone',
  description: 'IOzone write, rewrite, read, reread (4 KB records) on the container filesystem: MiB/s',
  params: {
    quick: { fileSize: '16m', recordSize: '4k', direct: false },
    standard: { fileSize: '1g', recordSize: '4k', direct: false },
  },
  // Calibrated on this project's 2-core machine: about 40 MiB/s for the fsync'd writes, reads from cache.
  estimateSeconds: (p) => 0.5 + (2 * sizeMiB(p.fileSize)) / 40,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { native: 0.12, docker: 0.4, dind: 0.38, 'dind-vfs': 5.22 },

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
