// Folders the run hands to the runner's engine as bind mount sources (a workload's copy, its registries' CA
// certificates) must mean the same folder to this process and to the engine. On one machine the system's
// temporary folder does; a runner in a container next to its engine (ARC dind mode, act in container
// mode) has a /tmp of its own, which the engine does not see, and sets DIND_BENCH_SOCKET_DIR to a folder
// mounted at the same path in both (the inner daemons' socket folders go there too: dind-daemon.js).
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The parent folder for such a folder: DIND_BENCH_SOCKET_DIR when it is set (made if missing), else the
 * system's temporary folder.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<string>}
 */
export async function engineVisibleTmp(env = process.env) {
  const shared = env.DIND_BENCH_SOCKET_DIR;
  if (!shared) return os.tmpdir();
  const dir = path.resolve(shared);
  await mkdir(dir, { recursive: true });
  return dir;
}
