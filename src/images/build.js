// `dind-bench images build`: the image matrix through `docker buildx bake`.
//
// Online, bake pulls the pinned bases. Offline (the default: dind-bench never contacts a registry
// unless asked with --pull), Debian bases are made with debootstrap and Alpine is reported unavailable.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDebianBase } from './base.js';
import {
  ENGINES,
  IMAGE_PREFIX,
  OFFLINE_BASES,
  OFFLINE_SUITES,
  PODMAN_VERSIONS,
  SOURCE_ENGINES,
  benchImage,
  dindImage,
  podmanImage,
} from './catalog.js';
import { imageExists, imageLabels } from './describe.js';

/** The label holding an image's recipe hash (see recipeHash): how a stale image is told apart. */
export const RECIPE_LABEL = 'dind-bench.recipe';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BAKE_FILE = 'images/docker-bake.hcl';

/**
 * Runs `docker buildx bake` in the project root and returns its stdout; stderr tail in the error.
 * @param {string[]} args @param {Record<string, string>} vars bake variables @param {(s: string) => void} [onLine]
 */
export function bake(args, vars = {}, onLine) {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', ['buildx', 'bake', '-f', BAKE_FILE, ...args], {
      cwd: ROOT,
      // The bake file's IMAGE_PREFIX follows DIND_BENCH_IMAGE_PREFIX, so a prefixed build never retags
      // the images other runs on this engine use.
      env: { ...process.env, IMAGE_PREFIX, ...vars },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-20000);
      if (onLine) for (const l of String(d).split('\n')) if (l.trim()) onLine(l);
    });
    child.on('error', (e) =>
      reject(
        new Error(`cannot run docker buildx: ${e.message}. Install the docker CLI and buildx (see .ci/install.sh).`),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve(out);
      const tail = err.trim().split('\n').slice(-25).join('\n');
      reject(new Error(`docker buildx bake ${args.join(' ')} failed (exit ${code}):\n${tail}`));
    });
  });
}

/** True when the buildx plugin answers. */
export function buildxVersion() {
  return new Promise((resolve) => {
    const child = spawn('docker', ['buildx', 'version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code === 0 ? out.trim() : null));
  });
}

/**
 * A short hash of what an image is made from: its Dockerfile and every file of its build context, and
 * its bake arguments. An image that exists under its tag but carries another hash was built from an
 * older recipe (say, before an upgrade of dind-bench): reusing it would measure something else, so
 * "only missing" rebuilds it. Bases are named by tag and digest in the arguments, so a new pin counts.
 * @param {{context: string, dockerfile?: string, args?: Record<string, string>}} target as `bake --print` gives it
 */
export async function recipeHash(target) {
  const hash = createHash('sha256');
  const dir = path.resolve(ROOT, target.context);
  for (const name of (await readdir(dir)).sort()) {
    hash
      .update(`${name}\0`)
      .update(await readFile(path.join(dir, name)))
      .update('\0');
  }
  hash.update(`dockerfile=${target.dockerfile ?? 'Dockerfile'}\0`);
  for (const [k, v] of Object.entries(target.args ?? {}).sort(([a], [b]) => a.localeCompare(b)))
    hash.update(`${k}=${v}\0`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The bake targets for the requested slice of the matrix, with the base each one needs and its recipe.
 * @param {{distros: string[], engines: string[], benchImages: string[], podman?: string[]}} want
 *   podman: Podman versions of the `podman` environment's image (PODMAN_VERSIONS)
 */
export async function bakeTargets(want) {
  const printed = JSON.parse(String(await bake(['--print'])));
  /** @type {{target: string, ref: string, base: string, baseVariable: string, distro: string | null, recipe: string}[]} */
  const targets = [];
  for (const [name, t] of Object.entries(printed.target)) {
    const labels = t.labels || {};
    const kind = labels['dind-bench.kind'];
    if (
      kind === 'bench' &&
      want.distros.includes(labels['dind-bench.distro']) &&
      want.benchImages.includes(labels['dind-bench.bench'])
    ) {
      const distro = labels['dind-bench.distro'];
      targets.push({
        target: name,
        ref: benchImage(labels['dind-bench.bench'], distro),
        base: t.args.BASE,
        baseVariable: distro === 'debian' ? 'DEBIAN_BASE' : 'ALPINE_BASE',
        distro,
        recipe: await recipeHash(t),
      });
    } else if (kind === 'podman' && want.podman?.includes(labels['dind-bench.podman'])) {
      const version = labels['dind-bench.podman'];
      targets.push({
        target: name,
        ref: podmanImage(version),
        base: t.args.BASE,
        baseVariable: PODMAN_VERSIONS[version].baseVariable,
        distro: null,
        recipe: await recipeHash(t),
      });
    } else if (kind === 'dind' && want.engines.includes(labels['dind-bench.engine'])) {
      const engine = labels['dind-bench.engine'];
      targets.push({
        target: name,
        ref: dindImage(engine),
        base: t.args.BASE,
        baseVariable: ENGINES[engine].baseVariable,
        distro: null,
        recipe: await recipeHash(t),
      });
    }
  }
  return targets;
}

/**
 * Builds what is asked and says, for each image that cannot be built here, why.
 * @param {{outer: import('dockerode'), distros: string[], engines: string[], benchImages: string[], podman?: string[], pull?: boolean, onlyMissing?: boolean, log: (s: string) => void, verbose?: boolean}} opts
 * @returns {Promise<{built: string[], unavailable: Record<string, string>}>}
 */
export async function buildImages({
  outer,
  distros,
  engines,
  benchImages,
  podman = [],
  pull = false,
  onlyMissing = false,
  log,
  verbose = false,
}) {
  if (!(await buildxVersion())) {
    throw new Error(
      "docker buildx is not installed: run `bash .ci/install.sh` (it installs Debian's docker-buildx package), then try again.",
    );
  }
  let targets = await bakeTargets({ distros, engines, benchImages, podman });
  if (onlyMissing) {
    const labels = await Promise.all(targets.map((t) => imageLabels(outer, t.ref)));
    targets = targets.filter((t, i) => {
      if (labels[i] === null) return true;
      if (labels[i]?.[RECIPE_LABEL] === t.recipe) return false;
      log(`${t.ref} was built from another recipe (images/ changed since): rebuilding it`);
      return true;
    });
  }
  /** @type {Record<string, string>} */
  const unavailable = {};
  // Engine lines built from source are never built here; a missing image says how to make it.
  for (const engine of engines.filter((e) => e in SOURCE_ENGINES)) {
    const ref = dindImage(engine);
    if (!(await imageExists(outer, ref))) unavailable[ref] = SOURCE_ENGINES[engine].how;
  }
  // One chain per base: make the base if it is missing, then bake the images on it; the chains run side by
  // side. On a fresh machine the two Debian bases are debootstrapped at once (mostly downloads and
  // unpacking, not computing), and the images on the bookworm base bake while trixie's is still being made,
  // instead of one after the other (issue 45: 54 s + 31 s of bases before a 73 s bake, measured in a row).
  const started = performance.now();
  const chains = [...new Set(targets.map((t) => t.baseVariable))].map((variable) =>
    chain(
      variable,
      targets.filter((t) => t.baseVariable === variable),
    ),
  );
  const settled = await Promise.allSettled(chains);
  const took = settled.flatMap((r) => (r.status === 'fulfilled' && r.value ? [r.value] : []));
  // Where the time went: a fresh machine spends it on the Debian bases and the packages of each image.
  if (took.length)
    log(`images: ${took.join('; ')}${took.length > 1 ? `; ${seconds(started)} in all, side by side` : ''}`);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw /** @type {PromiseRejectedResult} */ (failed).reason;
  const built = targets.filter((t) => !unavailable[t.ref]).map((t) => t.ref);
  return { built, unavailable };

  /**
   * The base of `variable`, then the targets on it: what each step took ("Debian trixie base 31 s
   * (debootstrap), bake of 1 image(s) 45 s"), or null when nothing was done.
   * @param {string} variable @param {typeof targets} group
   */
  async function chain(variable, group) {
    const parts = [];
    /** @type {Record<string, string>} */
    const vars = {};
    const pinned = group[0].base;
    if (!pull && !(await imageExists(outer, pinned))) {
      const offline = OFFLINE_BASES[/** @type {keyof typeof OFFLINE_BASES} */ (variable)];
      if (!offline) {
        const reason =
          `base image ${pinned} is not in the local image store, and without --pull dind-bench contacts no registry. ` +
          `Where a registry is reachable run \`dind-bench images build --pull\`, or \`docker pull ${pinned.split('@')[0]}\` and set ${variable} to it.`;
        for (const t of group) unavailable[t.ref] = reason;
        return null;
      }
      if (!(await imageExists(outer, offline))) {
        const suite = OFFLINE_SUITES[/** @type {keyof typeof OFFLINE_SUITES} */ (variable)];
        log(`no registry use without --pull: building the Debian ${suite} base with debootstrap`);
        const t0 = performance.now();
        const { cached } = await buildDebianBase(outer, suite, log);
        parts.push(`Debian ${suite} base ${seconds(t0)}${cached ? ' (from the cache)' : ' (debootstrap)'}`);
      }
      vars[variable] = offline;
    }
    const toBuild = group.filter((t) => !unavailable[t.ref]);
    if (toBuild.length) {
      const t0 = performance.now();
      log(`docker buildx bake ${toBuild.map((t) => t.target).join(' ')}`);
      const recipes = toBuild.flatMap((t) => ['--set', `${t.target}.labels.${RECIPE_LABEL}=${t.recipe}`]);
      await bake(
        [...toBuild.map((t) => t.target), ...recipes, '--load', '--progress=plain', ...(pull ? ['--pull'] : [])],
        vars,
        verbose ? log : undefined,
      );
      parts.push(`bake of ${toBuild.length} image(s) ${seconds(t0)}`);
    }
    return parts.length ? parts.join(', ') : null;
  }
}

/** Seconds since t0 (performance.now()), as the build's summary line says them. @param {number} t0 */
const seconds = (t0) => `${Math.round((performance.now() - t0) / 1000)} s`;
