// `docker buildx build` (BuildKit) of the reference Dockerfile shipped in images/workloads/build/, on the engine the
// environment's workloads run on (docker: the runner's engine; DinD: the inner engine through its
// socket), first with a cold cache (no step reused), then again with a warm one (every step cached):
// the two numbers a CI job pays on a fresh runner and on a cached one. FROM is the benchmark's own Debian
// image, already in every engine, so the build is offline. The image it builds is removed afterwards,
// also when a step fails; the BuildKit cache its steps leave stays on the engine, as on a CI runner.
// Around the cold build, the disk under the engine's data-root (for DinD: the inner one's) is watched
// from the host: bytes written to the device, peak growth of used space, and what the build left there.
// Host-wide counters (see ../engine/disk.js): meaningful on a quiet runner, noisy on a shared machine.
import { fileURLToPath } from 'node:url';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { BUILDERS, cliConfig, dockerCli } from '../engine/cli.js';
import { socketOf } from '../engine/client.js';
import { RUN_LABEL } from '../engine/resources.js';
import { watchDisk } from '../engine/disk.js';
import { capability } from '../environments/environment.js';

const MIB = 2 ** 20;

export const BUILD_CONTEXT = fileURLToPath(new URL('../../images/workloads/build/', import.meta.url));

/**
 * Builds the reference Dockerfile with BuildKit (`docker buildx build`, buildx's default `docker` driver:
 * the engine's own BuildKit, as CI jobs build since Engine 23) through the real CLI on the engine's
 * socket, and returns the time and the image ID. The legacy builder (the API's /build without a session)
 * is what no current job uses: it is not measured any more.
 * @param {import('dockerode')} docker
 * @param {import('../engine/resources.js').ResourceTracker} tracker
 * @param {{tag: string, base: string, nocache: boolean, context?: string, builder?: import('../engine/cli.js').Builder,
 *   buildArgs?: Record<string, string>}} opts
 *   context: the build context folder (default: the shipped reference, images/workloads/build/);
 *   buildArgs: more `--build-arg`s (the reference's size, FILES);
 *   builder: the engine's (BUILDERS): BuildKit through buildx, or Buildah through Podman's /build
 * @returns {Promise<{ms: number, id: string, log: string}>}
 */
export async function buildReference(
  docker,
  tracker,
  { tag, base, nocache, context = BUILD_CONTEXT, builder = 'BuildKit', buildArgs = {} },
) {
  const config = await cliConfig();
  const iidfile = path.join(config.dir, 'iid');
  try {
    const args = [...BUILDERS[builder].build, '--tag', tag, '--iidfile', iidfile];
    args.push('--build-arg', `BASE=${base}`, '--label', `${RUN_LABEL}=${tracker.runId}`);
    for (const [k, v] of Object.entries(buildArgs)) args.push('--build-arg', `${k}=${v}`);
    if (nocache) args.push('--no-cache');
    const r = await dockerCli({
      socket: socketOf(docker),
      args: [...args, context],
      timeoutMs: 600_000,
      config: config.dir,
      builder,
    });
    const log = `${r.stdout}${r.stderr}`;
    if (r.exitCode !== 0) {
      const lines = r.stderr.trim().split('\n');
      const why = [...lines].reverse().find((l) => /ERROR|error/.test(l)) ?? lines.at(-1) ?? '(no output)';
      throw Object.assign(new Error(`the reference build failed: ${why.trim()}\n${lines.slice(-10).join('\n')}`), {
        buildLog: log,
      });
    }
    return { ms: r.ms, id: (await readFile(iidfile, 'utf8')).trim(), log };
  } finally {
    await config.remove();
  }
}

/**
 * Removes a built image (BuildKit's docker driver keeps steps as build cache, not as images).
 * @param {import('dockerode')} docker @param {import('../engine/resources.js').ResourceTracker} _tracker @param {string} tag
 */
export async function removeBuilt(docker, _tracker, tag) {
  await docker
    .getImage(tag)
    .remove({ force: true })
    .catch(() => {});
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

/** @typedef {{context?: string, files?: number, work?: number}} BuildParams */

/**
 * The reference's build arguments from the benchmark's parameters: FILES, and WORK only when there is work
 * (a context of one's own need not know it). Whole numbers within bounds, or an error naming the parameter.
 * @param {BuildParams} p @returns {Record<string, string>}
 */
export function referenceArgs(p) {
  const whole = (/** @type {string} */ name, /** @type {unknown} */ v, /** @type {number} */ max) => {
    if (!(Number.isInteger(v) && /** @type {number} */ (v) >= 0 && /** @type {number} */ (v) <= max))
      throw new Error(`build ${name} ${JSON.stringify(v)}: a whole number from 0 to ${max}`);
    return String(v);
  };
  return {
    ...(p.files === undefined ? {} : { FILES: whole('files', p.files, 100_000) }),
    ...(p.work === undefined || p.work === 0 ? {} : { WORK: whole('work', p.work, 100_000_000) }),
  };
}
/** @type {import('./benchmark.js').Benchmark<BuildParams>} */
export const build = {
  name: 'build',
  image: 'lifecycle',
  description:
    "`docker buildx build` (BuildKit) of a reference Dockerfile (copy, generate, checksum, package) with a cold and a warm cache, on the environment's engine",
  // The Dockerfile is fixed (its size is part of what is measured). `context` may point at another
  // folder holding a Dockerfile and generate.pl (the tests use it for a build that fails).
  // files: the reference's size (its FILES build argument). At 300 its own work takes about 0.1 s of a ~1 s
  // cold build, which is mostly BuildKit's start. 1500 (about 0.5 s more work) was measured no quieter on a
  // loaded machine (docs/noise.md, per-sample CV 18-33% against 15-21%), so the default stays 300 until a
  // build with more CPU-bound work is measured.
  // work: rounds of integer arithmetic per file (the reference's WORK build argument), CPU-bound work of the
  // build's own; 0: none, the reference as it was.
  params: { quick: { files: 300, work: 0 }, standard: { files: 300, work: 0 } },
  usesBuilder: true,
  // Cold and warm build together: under 1 s on overlay2 here (dind-vfs: ~2 s more than its run overhead),
  // plus the cold build's work: perl did about 25 million rounds a second on one core of this machine.
  estimateSeconds: (p) => 1 + ((p.files ?? 300) * (p.work ?? 0)) / 25e6,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { docker: 0.66, dind: 0.62, 'dind-vfs': 2.36 },
  unavailableIn: {
    native: 'native has no engine to build with',
  },

  async measure(env, ctx) {
    const buildArgs = referenceArgs(ctx.params);
    const { context } = ctx.params;
    const { docker, tracker, builder } = capability(env, 'engineApi')();
    const tag = `dind-bench-work/build:${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    let step = 'cold';
    try {
      const root = await dataRoot(env);
      const coldBuild = () =>
        buildReference(docker, tracker, { tag, base: ctx.image, nocache: true, context, builder, buildArgs });
      const disk = root ? await watchDisk(root, coldBuild) : null;
      const cold = disk ? disk.result : await coldBuild();
      await ctx.saveRaw(
        'cold',
        `${cold.log}\n--- disk ---\n${disk ? `data-root ${root}: ${JSON.stringify({ ...disk, result: undefined })}` : 'data-root not visible from this host: no disk figures'}`,
      );
      step = 'warm';
      const warm = await buildReference(docker, tracker, {
        tag,
        base: ctx.image,
        nocache: false,
        context,
        builder,
        buildArgs,
      });
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
