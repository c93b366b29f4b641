// What images exist in the matrix and what they are called. The bake file is the source of truth for
// how they are built; this module names them for the rest of the code.

export const IMAGE_PREFIX = process.env.DIND_BENCH_IMAGE_PREFIX || 'dind-bench';

/** Distributions of benchmark images. */
export const DISTROS = ['debian', 'alpine'];

/**
 * Inner Docker Engine versions buildable here, with the Debian release that ships each.
 * @type {Record<string, {suite: string, baseVariable: string}>}
 */
export const ENGINES = {
  '20.10': { suite: 'bookworm', baseVariable: 'DEBIAN_BASE' },
  26.1: { suite: 'trixie', baseVariable: 'TRIXIE_BASE' },
};
/**
 * Engine lines whose DinD image is built apart, from source, because it takes many minutes: the
 * newest Docker Engine (Docker 29.8.0, from the Go module github.com/moby/moby/v2 v2.0.0-beta.24) with
 * runc v1.5.1, on Debian trixie. How to build it: docs/environments.md ("Newest Engine line").
 * @type {Record<string, {how: string}>}
 */
export const SOURCE_ENGINES = {
  29.8: {
    how:
      'built from source, apart from `images build`: run images/dind/moby-sources.sh, then build ' +
      'images/dind/Dockerfile.moby as docs/environments.md shows',
  },
};
/** Engine lines `images build` makes (from Debian's packages). */
export const ENGINE_VERSIONS = Object.keys(ENGINES);
/** Every Engine line a run can use: Debian's, and those built from source when their image is there. */
export const ALL_ENGINE_VERSIONS = [...ENGINE_VERSIONS, ...Object.keys(SOURCE_ENGINES)];
export const DEFAULT_ENGINE = '20.10';

/**
 * Podman versions buildable here (environment `podman`), with the base variable of the Debian release
 * that ships each: bookworm's 4.3 (and Buildah 1.28).
 * @type {Record<string, {baseVariable: string}>}
 */
export const PODMAN_VERSIONS = { 4.3: { baseVariable: 'DEBIAN_BASE' } };
export const DEFAULT_PODMAN = '4.3';
/** @param {string} [version] */
export const podmanImage = (version = DEFAULT_PODMAN) => `${IMAGE_PREFIX}/podman:${version}`;

/** @param {string} bench @param {string} distro */
export const benchImage = (bench, distro) => `${IMAGE_PREFIX}/${bench}:${distro}`;
/** @param {string} engine */
export const dindImage = (engine) => `${IMAGE_PREFIX}/dind:${engine}`;
/** @param {string} suite */
// `-slim`: the stripped base of ./base.js; the name changed with the recipe so an older, larger base
// in an image cache is not reused.
export const debianBaseImage = (suite) => `${IMAGE_PREFIX}/base:debian-${suite}-slim`;

/** Local base images that stand in for the pinned registry bases when building offline. */
export const OFFLINE_BASES = {
  DEBIAN_BASE: debianBaseImage('bookworm'),
  TRIXIE_BASE: debianBaseImage('trixie'),
};
/** The Debian suite debootstrapped for each offline base. */
export const OFFLINE_SUITES = { DEBIAN_BASE: 'bookworm', TRIXIE_BASE: 'trixie' };
