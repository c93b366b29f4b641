// The images of a run: those it needs are there or built before it starts (or recorded as unavailable),
// and each one it used is described for the results' provenance after it ends.
import { ResourceTracker, cleanupOnSignals } from '../engine/resources.js';
import { buildImages } from '../images/build.js';
import { DEFAULT_PODMAN, benchImage, dindImage, podmanImage } from '../images/catalog.js';
import { describeImage, imageExists } from '../images/describe.js';
import { descriptorOf } from '../environments/names.js';

/**
 * @typedef {{wanted: string[], unavailable: Record<string, string>}} PreparedImages
 *   wanted: every image the run uses; unavailable: ref -> why it cannot be had here
 */

/**
 * The benchmark images for each distro and the DinD image for each inner engine; those missing
 * are built (unless --no-build) or recorded as unavailable. A DinD image of the run's own lines that cannot be
 * had ends the run; the next line's (the profile's upgrade question) is only recorded unavailable.
 * @param {import('./command.js').RunOptions} o @param {import('./params.js').BenchmarkRegistry} registry
 * @param {string[]} runEngines the run's inner Engine lines (designOf: none without a DinD environment)
 * @param {string} [nextEngine] the next line the profile adds (./design.js nextLineOf)
 * @returns {Promise<PreparedImages>}
 */
export async function prepareImages(o, registry, runEngines, nextEngine) {
  const dindEngines = nextEngine ? [...runEngines, nextEngine] : runEngines;
  const containerEnvs = o.environments.filter((e) => descriptorOf(e)?.benchImages !== 'host');
  const wantBench = containerEnvs.length
    ? o.distros.flatMap((d) => imagesOf(o.benchmarks, registry).map((i) => benchImage(i, d)))
    : [];
  // An environment that runs in Podman's image (images/podman, its descriptor's outerImage); without the
  // image, that environment is unavailable with the reason, the rest of the run goes on.
  const podman = o.environments.some((e) => descriptorOf(e)?.outerImage === 'podman') ? [DEFAULT_PODMAN] : [];
  const wanted = [...new Set([...wantBench, ...dindEngines.map(dindImage), ...podman.map((v) => podmanImage(v))])];
  /** @type {Record<string, string>} */
  let unavailable = {};
  const missing = [];
  for (const ref of wanted) if (!(await imageExists(o.outer, ref))) missing.push(ref);
  if (missing.length && o.build) {
    o.log(`building missing images: ${missing.join(', ')}`);
    const built = await buildImages({
      outer: o.outer,
      distros: containerEnvs.length ? o.distros : [],
      engines: dindEngines,
      benchImages: imagesOf(o.benchmarks, registry),
      podman,
      onlyMissing: true,
      log: o.log,
    });
    unavailable = built.unavailable;
  } else if (missing.length) {
    for (const ref of missing) unavailable[ref] = 'not built (run `dind-bench images build`, or drop --no-build)';
  }
  for (const ref of runEngines.map(dindImage)) {
    if (unavailable[ref]) throw new Error(`the DinD image ${ref} cannot be built here: ${unavailable[ref]}`);
  }
  return { wanted, unavailable };
}

/**
 * The benchmark images the benchmarks run in, and those they need besides (a workload's seeds).
 * @param {string[]} benchmarks @param {import('./params.js').BenchmarkRegistry} registry
 */
export const imagesOf = (benchmarks, registry) => [
  ...new Set(benchmarks.flatMap((b) => [registry[b].image, ...(registry[b].extraImages ?? [])])),
];

/**
 * Provenance of every image the run used. Each is described with a short container, cleaned up like the
 * run's own, also on Ctrl-C here (after the run's own cleanup).
 * @param {import('dockerode')} outer @param {PreparedImages} images @param {string} runId @param {(s: string) => void} log
 */
export async function describeImages(outer, { wanted, unavailable }, runId, log) {
  const tracker = new ResourceTracker(`${runId}-describe`);
  const removeSignalHandlers = cleanupOnSignals(() => tracker.cleanup(outer), log);
  const described = [];
  try {
    for (const ref of wanted) {
      if (unavailable[ref]) described.push({ ref, status: 'unavailable', reason: unavailable[ref] });
      else described.push({ status: 'ok', ...(await describeImage(outer, ref, tracker)) });
    }
  } finally {
    await tracker.cleanup(outer);
    removeSignalHandlers();
  }
  return described;
}
