// Scratch volumes: a fresh named volume for one container run, so a benchmark can compare the
// container's own filesystem (the storage driver's layer) with a volume (the engine's local volume
// driver, a plain folder on the engine's data-root). Created on the engine that runs the container
// (for DinD: the inner engine), labelled for the run, tracked, and removed after the run.

/** Where a scratch volume appears in the container; also in the environment variable SCRATCH. */
export const SCRATCH_ENV = 'SCRATCH';

/**
 * Runs `fn` with a fresh volume mounted at `mountPoint`, then removes the volume (the container using
 * it must be gone by then: runContainer removes it before returning).
 * @template T
 * @param {import('dockerode')} docker the engine that runs the container
 * @param {import('./resources.js').ResourceTracker} tracker
 * @param {string} mountPoint e.g. "/scratch"
 * @param {(mount: {binds: string[], env: string[]}) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withScratchVolume(docker, tracker, mountPoint, fn) {
  const volume = await tracker.creating(
    docker.createVolume({ Labels: { ...tracker.labels, 'dind-bench.role': 'scratch' } }),
  );
  tracker.add('volume', volume.name, docker);
  try {
    return await fn({ binds: [`${volume.name}:${mountPoint}`], env: [`${SCRATCH_ENV}=${mountPoint}`] });
  } finally {
    await docker
      .getVolume(volume.name)
      .remove()
      .catch(() => {}); // left to the tracker's cleanup if this fails
    if (!(await exists(docker, volume.name))) tracker.forget(volume.name);
  }
}

/** @param {import('dockerode')} docker @param {string} name */
async function exists(docker, name) {
  try {
    await docker.getVolume(name).inspect();
    return true;
  } catch {
    return false;
  }
}
