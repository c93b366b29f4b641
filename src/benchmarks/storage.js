// Storage costs a CI job meets without asking: copy-up (the first write to a file that lives in an image
// layer copies the whole file into the container layer first) and small-file metadata operations
// (create, stat, rename, delete many small files, as a checkout or a package install does), each on the
// container layer and on a volume. The storage driver in use is recorded per environment (facts): dind-vfs
// shows what the missing overlay costs.
//
// The lower-layer file is /lower/big.bin, baked into the storage image (64 MiB, see
// images/docker-bake.hcl). native has no layers: there the same-sized file is written first (untimed)
// and its in-place modification is the baseline.
import { readFile } from 'node:fs/promises';
import { parseStorageProbe } from '../parsers/storage.js';
import { runStep } from './benchmark.js';

/** @typedef {{files: number, fileBytes: number}} StorageParams */

const PROBE = new URL('./storage-probe.py', import.meta.url);
export const LOWER_FILE = '/lower/big.bin';

/** @type {import('./benchmark.js').Benchmark<StorageParams>} */
export const storage = {
  name: 'storage',
  image: 'storage',
  description: 'copy-up of a 64 MiB lower-layer file and small-file create/stat/rename/delete, layer vs volume',
  params: {
    quick: { files: 2000, fileBytes: 1024 },
    standard: { files: 20000, fileBytes: 1024 },
  },
  // Calibrated here: ~1 s for copying and copy-up of 64 MiB, ~10 000 files/s over the four operations.
  estimateSeconds: (p) => 1 + p.files / 10_000, // standard, measured: 3.6 s per step
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { native: 3.02, docker: 2.84, dind: 3.44, 'dind-vfs': 5.82 },

  async measure(env, ctx) {
    const p = ctx.params;
    const probe = await readFile(PROBE, 'utf8');
    const { stdout } = await runStep(
      env,
      ctx,
      'probe',
      ['python3', '-c', probe, String(p.files), String(p.fileBytes), LOWER_FILE],
      { volume: '/scratch' },
    );
    return parseStorageProbe(stdout);
  },
};
