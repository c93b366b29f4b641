// A workload's builds: the CLI's arguments for one with the engine's builder, and each build measured in
// the controlled states the file asks for (`states`), outside the job's total.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { BUILDERS } from '../engine/cli.js';
import { ms } from './clock.js';
import { cliOn } from './job-cli.js';
import { ledgerOf } from './ledger.js';
import { statesOf } from './time.js';

/** @typedef {import('./load.js').Workload} Workload */
/** @typedef {import('../parsers/parse-error.js').Metric} Metric */
/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */
/** @typedef {import('./shared.js').Shared} Shared */
/** @typedef {import('./clock.js').JobContext} JobContext */

/**
 * The CLI's arguments for a build of the workload with the engine's builder (BuildKit: `docker buildx
 * build` with buildx's `docker` driver; Buildah: `docker build` to Podman's /build), into the engine's
 * image store under its tag.
 * @param {import('./load.js').WorkloadBuild} b @param {Shared} s @param {string[]} extra
 * @param {JobEngine} engine
 */
export function buildArgs(b, s, extra, engine) {
  const context = path.join(s.dir, b.context);
  const args = [
    ...BUILDERS[engine.builder ?? 'BuildKit'].build,
    '--tag',
    buildTag(b),
    '--file',
    path.join(context, b.dockerfile ?? 'Dockerfile'),
  ];
  if (b.target) args.push('--target', b.target);
  for (const [k, v] of Object.entries(b.args ?? {})) args.push('--build-arg', `${k}=${v}`);
  // A secret by the variable that holds it: the value reaches BuildKit from the CLI's environment only.
  if (b.secrets?.length && !BUILDERS[engine.builder ?? 'BuildKit'].buildkit)
    throw Object.assign(
      new Error(
        `step build-${b.name}: build secrets (field /builds/*/secrets) need BuildKit; this engine builds with ${engine.builder}, whose classic build takes no --secret`,
      ),
      { step: `build-${b.name}` },
    );
  for (const secret of b.secrets ?? []) args.push('--secret', `id=${secret.id},env=${secret.env}`);
  return [...args, ...extra, context];
}

/** @param {import('./load.js').WorkloadBuild} b */
export const buildTag = (b) => b.tag ?? `dind-bench-workload/${b.name}:ci`;

/**
 * Each build in the states the workload asks for (`states`), outside the job's total: cold, warm and (on a
 * fresh engine) from an imported cache. Under a limit of their own, as long as the job's.
 * @param {Workload} w @param {JobEngine} engine @param {Shared} s @param {JobContext} ctx
 * @returns {Promise<Metric[]>}
 */
export async function controlledBuilds(w, engine, s, ctx) {
  const cli = cliOn(engine, s, ctx, '');
  const names = await ledgerOf(engine, s);
  const states = statesOf(w);
  /** @type {Metric[]} */
  const m = [];
  for (const b of w.builds ?? []) {
    // Inline cache metadata in the image, so a later build can use it as its cache (--cache-from).
    const inline = ['--build-arg', 'BUILDKIT_INLINE_CACHE=1'];
    // The job's build claimed the tag; each build here may point it at an image of its own, removed at the end.
    if (states.includes('cold')) {
      m.push(
        ms(
          `build.${b.name}.cold_ms`,
          await cli(`build-${b.name}-cold`, buildArgs(b, s, ['--no-cache', ...inline], engine), b),
        ),
      );
      await names?.madeUnder(buildTag(b));
    }
    if (states.includes('warm')) {
      m.push(ms(`build.${b.name}.warm_ms`, await cli(`build-${b.name}-warm`, buildArgs(b, s, inline, engine), b)));
      await names?.madeUnder(buildTag(b));
    }
    if (!states.includes('cache-import')) continue;
    if (!engine.fresh) continue; // the runner's engine keeps its own cache: an import would not be used
    // Buildah's cache is the image's own layers: no build cache apart from them to prune and import.
    if (!BUILDERS[engine.builder ?? 'BuildKit'].cacheImport) continue;
    // The image to import must carry inline cache: built so, untimed, when no state above did.
    if (!states.includes('cold') && !states.includes('warm'))
      await cli(`build-${b.name}-inline`, buildArgs(b, s, inline, engine), b);
    const archive = path.join(s.dir, `.dind-bench-cache-${b.name}.tar`);
    try {
      await cli(`save-${b.name}`, ['save', '--output', archive, buildTag(b)]);
      await cli(`prune-${b.name}`, ['builder', 'prune', '--all', '--force']);
      await cli(`rmi-${b.name}`, ['rmi', '--force', buildTag(b)]);
      const load = await cli(`load-cache-${b.name}`, ['load', '--quiet', '--input', archive]);
      const build = await cli(
        `build-${b.name}-cache-import`,
        buildArgs(b, s, ['--cache-from', buildTag(b), ...inline], engine),
        b,
      );
      m.push(ms(`build.${b.name}.cache_import_ms`, load + build));
    } finally {
      await rm(archive, { force: true });
    }
  }
  return m;
}
