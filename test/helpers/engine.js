// Shared by the tests that need a real Docker engine. In CI (CI=true) a missing engine fails the test:
// `.ci/run` starts one, so those tests are never skipped there. Elsewhere they are skipped with the
// reason and the fix.
import assert from 'node:assert/strict';
import { outerEngine, pingOnce } from '../../src/engine/client.js';
import { BENCHMARKS, BENCHMARK_NAMES } from '../../src/benchmarks/index.js';
import { buildImages } from '../../src/images/build.js';
import { imagesOf } from '../../src/run/images.js';
import { added, ownObjects } from './left-as-found.js';
import { oneAtATime } from './lock.js';

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
  // Test files beside each other may find the same image missing: one builds it, the next finds it there.
  const { unavailable } = await oneAtATime('ensure-images', () =>
    buildImages({
      outer,
      distros: ['debian'],
      engines,
      // Every registered benchmark's image (the registry's, not a copy of its names), and the run's registry.
      benchImages: [...imagesOf(BENCHMARK_NAMES, BENCHMARKS), 'registry'],
      podman,
      onlyMissing: true,
      log: (s) => process.stderr.write(`# ${s}\n`),
    }),
  );
  if (Object.keys(unavailable).length) throw new Error(`test images unavailable: ${JSON.stringify(unavailable)}`);
}

/**
 * What this test process owns on the engine now: compared before and after to prove a run leaves it as
 * found. Objects with another owner (a run beside this one) are left out; unlabelled ones count when this
 * file runs alone on the engine, so a resource created without the run's labels is still caught (beside
 * others, npm test checks those for the whole part: ./left-as-found.js).
 * @param {import('dockerode')} outer
 */
export const snapshot = (outer) => ownObjects(outer);

/**
 * Nothing that this test process owns on the engine now is new since `before`: not an equality, as the
 * unlabelled objects of other users, which count when a file runs alone, may go meanwhile.
 * @param {import('dockerode')} docker @param {import('./left-as-found.js').EngineObjects} before @param {string} [what]
 */
export async function nothingAdded(docker, before, what = 'nothing is left behind') {
  assert.deepEqual(added(before, await snapshot(docker)), {}, what);
}

/**
 * An engine test's set-up, shared by the engine tests: the engine (or the test skipped, or failed under
 * CI), the images it uses (built if missing, one build at a time across the test files), what it owns on
 * the engine before it starts, and the checks that it leaves the engine as found: `leftAsFound`, what it
 * owns is what it owned before; `nothingLeft`, nothing it owns now is new (`nothingAdded`).
 * @param {import('node:test').TestContext} t
 * @param {{ engines?: string[], podman?: string[], images?: boolean }} [o] the inner Engine lines and Podman
 *   versions whose images the test uses (default: Engine 20.10); `images: false` builds none
 * @returns {Promise<null | { outer: import('dockerode'), before: import('./left-as-found.js').EngineObjects,
 *   leftAsFound: (what?: string) => Promise<void>, nothingLeft: (what?: string) => Promise<void> }>}
 */
export async function onEngine(t, { engines = ['20.10'], podman = [], images = true } = {}) {
  const outer = await engineOrSkip(t);
  if (!outer) return null;
  if (images) await ensureImages(outer, engines, podman);
  const before = await snapshot(outer);
  return {
    outer,
    before,
    leftAsFound: async (what = 'the engine is left as found') => assert.deepEqual(await snapshot(outer), before, what),
    nothingLeft: (what) => nothingAdded(outer, before, what),
  };
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
