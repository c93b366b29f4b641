// Shared by the tests that need a real Docker engine. In CI (CI=true) a missing engine fails the test:
// `.ci/run` starts one, so those tests are never skipped there. Elsewhere they are skipped with the
// reason and the fix.
import assert from 'node:assert/strict';
import { outerEngine, pingOnce } from '../../src/engine/client.js';
import { OWNER_LABEL, RUN_LABEL } from '../../src/engine/resources.js';
import { BENCHMARKS, BENCHMARK_NAMES } from '../../src/benchmarks/index.js';
import { buildImages } from '../../src/images/build.js';
import { imagesOf } from '../../src/run/images.js';

// Everything this test process (and the CLI runs it spawns) creates is tagged with this owner, so the
// leftover check below ignores what other runs sharing the engine create meanwhile.
process.env.DIND_BENCH_OWNER ??= `test-${process.pid}-${Date.now()}`;

/** @param {import('node:test').TestContext} t */
export async function engineOrSkip(t) {
  const outer = outerEngine();
  if (await pingOnce(outer)) return outer;
  if (process.env.CI)
    throw new Error('CI=true but no Docker engine answers: .ci/run should have started one (see .ci/start-engine.sh)');
  t.skip('no Docker engine: start one with `bash .ci/start-engine.sh` (as root) to run this test');
  return null;
}

/**
 * Builds the Debian images and the DinD images the tests use, if missing (offline path).
 * @param {import('dockerode')} outer @param {string[]} [engines] @param {string[]} [podman] Podman versions (images/podman)
 */
export async function ensureImages(outer, engines = ['20.10'], podman = []) {
  const { unavailable } = await buildImages({
    outer,
    distros: ['debian'],
    engines,
    // Every registered benchmark's image (the registry's, not a copy of its names), and the run's registry.
    benchImages: [...imagesOf(BENCHMARK_NAMES, BENCHMARKS), 'registry'],
    podman,
    onlyMissing: true,
    log: (s) => process.stderr.write(`# ${s}\n`),
  });
  if (Object.keys(unavailable).length) throw new Error(`test images unavailable: ${JSON.stringify(unavailable)}`);
}

/**
 * What exists on the engine now: compared before and after to prove a run leaves it as found. Objects
 * tagged by another owner (a concurrent run on the same engine) are left out; untagged ones count, so a
 * resource created without the run's labels is still caught.
 * @param {import('dockerode')} outer
 */
export async function snapshot(outer) {
  const ours = (/** @type {Record<string, string> | null | undefined} */ labels) => {
    const owner = labels?.[OWNER_LABEL];
    // A run label without an owner: a CLI run started by someone else on this engine (everything this
    // process tree creates carries the owner label), so not ours to count.
    if (!owner && labels?.[RUN_LABEL]) return false;
    return !owner || owner === process.env.DIND_BENCH_OWNER;
  };
  const containers = (await outer.listContainers({ all: true }))
    .filter((c) => ours(c.Labels))
    .map((c) => c.Id)
    .sort();
  const volumes = ((await outer.listVolumes()).Volumes || [])
    .filter((v) => ours(v.Labels))
    .map((v) => v.Name)
    .sort();
  const networks = (await outer.listNetworks())
    .filter((n) => ours(n.Labels))
    .map((n) => n.Id)
    .sort();
  return { containers, volumes, networks };
}

/**
 * The value, or the test fails naming what was missing: a lookup into a results document (a cell, a metric)
 * that the test expects to be there.
 * @template T @param {T} value @param {string} what @returns {NonNullable<T>}
 */
export function the(value, what) {
  assert.ok(value != null, `${what} is missing`);
  return /** @type {NonNullable<T>} */ (value);
}

/**
 * The engine's images as names and IDs: every "name id" pair and every image ID (tagged or not), for a
 * before/after comparison of a run that must leave the runner's images as found. The suite's own images
 * (dind-bench/...), which a run beside this one may rebuild meanwhile, are left out, but for the names in
 * `keep` (those the run under test names itself), and so is any image that carried such a name. With
 * `scope`, only the names that hold it (a test's own namespace: other runs on a shared engine come and go
 * with names of their own), the images they name, and the untagged images whose history holds it (a build
 * of the test's own Dockerfile, which writes the scope into a layer).
 * @param {import('dockerode')} outer @param {string[]} [keep] @param {string} [scope]
 * @returns {Promise<{ names: string[], ids: string[] }>}
 */
export async function imageState(outer, keep = [], scope) {
  const left = (/** @type {string} */ t) =>
    (t.startsWith('dind-bench/') && !keep.includes(t)) ||
    (scope !== undefined && !t.includes(scope) && !keep.includes(t));
  const images = await outer.listImages({ all: true });
  const tagsOf = (/** @type {any} */ i) =>
    (i.RepoTags ?? []).filter((/** @type {string} */ t) => t !== '<none>:<none>');
  const names = images
    .flatMap((i) => tagsOf(i).map((/** @type {string} */ t) => `${t} ${i.Id}`))
    .filter((pair) => !left(pair.split(' ')[0]))
    .sort();
  /** @param {any} i */
  const counted = async (i) => {
    if (scope === undefined) return !tagsOf(i).some(left);
    if (tagsOf(i).length) return !tagsOf(i).every(left);
    const history = await outer
      .getImage(i.Id)
      .history()
      .catch(() => []);
    return history.some((/** @type {any} */ h) => String(h.CreatedBy).includes(scope));
  };
  const ids = [];
  for (const i of images) if (await counted(i)) ids.push(i.Id);
  return { names, ids: ids.sort() };
}
