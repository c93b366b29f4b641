// `docker build` of the reference Dockerfile shipped in images/workloads/build/, on the engine the
// environment's workloads run on (docker: the runner's engine; DinD: the inner engine through its
// socket), first with a cold cache (no step reused), then again with a warm one (every step cached):
// the two numbers a CI job pays on a fresh runner and on a cached one. FROM is the benchmark's own Debian
// image, already in every engine, so the build is offline. Everything it builds is removed afterwards,
// also when a step fails.
// Around the cold build, the disk under the engine's data-root (for DinD: the inner one's) is watched
// from the host: bytes written to the device, peak growth of used space, and what the build left there.
// Host-wide counters (see ../engine/disk.js): meaningful on a quiet runner, noisy on a shared machine.
import { fileURLToPath } from 'node:url';
import { stat } from 'node:fs/promises';
import { watchDisk } from '../engine/disk.js';
import { capability } from '../environments/environment.js';
import { since } from '../engine/timing.js';

const MIB = 2 ** 20;

export const BUILD_CONTEXT = fileURLToPath(new URL('../../images/workloads/build/', import.meta.url));
const BUILD_FILES = ['Dockerfile', 'generate.pl'];

/**
 * Builds the reference Dockerfile and returns the time and the image ID. Every image the builder
 * reports (one per step) is tracked so a failure or Ctrl-C leaves none behind.
 * @param {import('dockerode')} docker
 * @param {import('../engine/resources.js').ResourceTracker} tracker
 * @param {{tag: string, base: string, nocache: boolean, context?: string}} opts
 *   context: the build context folder (default: the shipped reference, images/workloads/build/)
 * @returns {Promise<{ms: number, id: string, log: string}>}
 */
export async function buildReference(docker, tracker, { tag, base, nocache, context = BUILD_CONTEXT }) {
  // The FROM step reports the base image's own ID: never track (and so never remove) that one.
  const baseId = (await docker.getImage(base).inspect()).Id.replace(/^sha256:/, '');
  const t0 = performance.now();
  /** @type {string[]} */
  const lines = [];
  const failed = { message: /** @type {string | null} */ (null) };
  let id = '';
  const stream = await docker.buildImage(
    { context, src: BUILD_FILES },
    { t: tag, nocache, rm: true, forcerm: true, labels: tracker.labels, buildargs: { BASE: base } },
  );
  await new Promise((resolve, reject) =>
    docker.modem.followProgress(
      stream,
      (err) => (err ? reject(err) : resolve(undefined)),
      (/** @type {any} */ ev) => {
        if (ev.stream) {
          for (const line of String(ev.stream)
            .split('\n')
            .filter((l) => l.trim())) {
            lines.push(line);
            // The classic builder names each step's image: " ---> 1a2b3c4d5e6f".
            const m = line.match(/^ ---> ([0-9a-f]{12})$/);
            if (m && !baseId.startsWith(m[1])) tracker.add('image', m[1], docker);
          }
        }
        if (ev.aux?.ID) id = ev.aux.ID;
        if (ev.error && failed.message === null) {
          lines.push(String(ev.error));
          failed.message = String(ev.errorDetail?.message ?? ev.error);
        }
      },
    ),
  );
  const ms = since(t0);
  const log = lines.join('\n');
  if (failed.message !== null) {
    throw Object.assign(
      new Error(`the reference build failed: ${failed.message.split('\n')[0]}\n${lines.slice(-10).join('\n')}`),
      { buildLog: log },
    );
  }
  if (!id) id = (await docker.getImage(tag).inspect()).Id;
  return { ms, id, log };
}

/**
 * Removes a built image and every step image the tracker holds for this engine (untagged parents of a
 * failed build included). @param {import('dockerode')} docker @param {import('../engine/resources.js').ResourceTracker} tracker @param {string} tag
 */
export async function removeBuilt(docker, tracker, tag) {
  await docker
    .getImage(tag)
    .remove({ force: true })
    .catch(() => {});
  const steps = tracker.items.filter((i) => i.kind === 'image' && i.docker === docker).reverse();
  for (const step of steps) {
    await docker
      .getImage(step.id)
      .remove({ force: true })
      .catch(() => {});
    tracker.forget(step.id);
  }
}

/**
 * The host path of the environment's data-root, or null when this host cannot see it (a remote engine).
 * @param {{dataRootOnHost?: () => Promise<string>}} env
 */
async function dataRoot(env) {
  const root = await env.dataRootOnHost?.().catch(() => null);
  return (
    root &&
    (await stat(root).then(
      () => root,
      () => null,
    ))
  );
}

/** @type {import('./benchmark.js').Benchmark} */
export const build = {
  name: 'build',
  image: 'lifecycle',
  description:
    "`docker build` of a reference Dockerfile (copy, generate, checksum, package) with a cold and a warm cache, on the environment's engine",
  // The Dockerfile is fixed (its size is part of what is measured). `context` may point at another
  // folder holding a Dockerfile and generate.pl (the tests use it for a build that fails).
  params: { quick: {}, standard: {} },
  // Cold and warm build together: under 1 s on overlay2 here (dind-vfs: ~2 s more than its run overhead).
  estimateSeconds: () => 1,
  unavailableIn: {
    native: 'native has no engine to build with',
  },

  async measure(env, ctx) {
    const { context } = /** @type {{context?: string}} */ (ctx.params);
    const { docker, tracker } = capability(env, 'engineApi')();
    const tag = `dind-bench-work/build:${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    let step = 'cold';
    try {
      const root = await dataRoot(env);
      const coldBuild = () => buildReference(docker, tracker, { tag, base: ctx.image, nocache: true, context });
      const disk = root ? await watchDisk(root, coldBuild) : null;
      const cold = disk ? disk.result : await coldBuild();
      await ctx.saveRaw(
        'cold',
        `${cold.log}\n--- disk ---\n${disk ? `data-root ${root}: ${JSON.stringify({ ...disk, result: undefined })}` : 'data-root not visible from this host: no disk figures'}`,
      );
      step = 'warm';
      const warm = await buildReference(docker, tracker, { tag, base: ctx.image, nocache: false, context });
      await ctx.saveRaw('warm', warm.log);
      if (warm.id !== cold.id)
        throw new Error(
          `the warm build did not reuse the cache (image ${warm.id.slice(7, 19)} != ${cold.id.slice(7, 19)})`,
        );
      /** @type {import('./benchmark.js').Metric[]} */
      const metrics = [
        { metric: 'cold_ms', unit: 'ms', better: 'lower', value: cold.ms },
        { metric: 'warm_ms', unit: 'ms', better: 'lower', value: warm.ms },
      ];
      if (disk) {
        const mib = (/** @type {number} */ b) => Math.round((b / MIB) * 100) / 100;
        if (disk.written_bytes !== null)
          metrics.push({
            metric: 'cold_disk_written_mib',
            unit: 'MiB',
            better: 'lower',
            value: mib(disk.written_bytes),
          });
        metrics.push({
          metric: 'cold_disk_peak_mib',
          unit: 'MiB',
          better: 'lower',
          value: mib(disk.peak_growth_bytes),
        });
        metrics.push({ metric: 'cold_disk_left_mib', unit: 'MiB', better: 'lower', value: mib(disk.left_bytes) });
      }
      return metrics;
    } catch (e) {
      const err = /** @type {Error & {buildLog?: string, step?: string}} */ (e);
      if (err.buildLog !== undefined) await ctx.saveRaw(step, err.buildLog);
      err.step = step;
      throw err;
    } finally {
      await removeBuilt(docker, tracker, tag);
    }
  },
};
