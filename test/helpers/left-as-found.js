// What an engine test counts as its own on the engine, for the check that it leaves the engine as found.
// Everything a test process and the CLI runs it spawns create carries its owner label (DIND_BENCH_OWNER,
// set per test file by ./engine.js); objects with another owner, or with a run label and no owner (a run
// someone else started on this engine), are never a test's. An object with no label at all is one that
// was made without the run's labels, the leak the check exists to catch: a file that runs alone on the
// engine counts those too. Files that run beside another (npm test sets DIND_BENCH_TEST_BESIDE for them:
// scripts/test.js) cannot tell whose an unlabelled object is, so they count their own labels only, and
// npm test itself fails the part when an unlabelled object made during it is still there at its end
// (`unlabelled`, below): the leak is caught either way, though then not by the file that made it.
import { OWNER_LABEL, RUN_LABEL } from '../../src/engine/resources.js';

/** @typedef {{ containers: string[], volumes: string[], networks: string[] }} EngineObjects */

/** Whether this process runs beside other engine test files (set by npm test). */
export const besideOthers = () => process.env.DIND_BENCH_TEST_BESIDE === '1';

/**
 * The engine's containers, volumes and networks whose labels `keep` accepts, as sorted IDs (volume names).
 * @param {import('dockerode')} outer @param {(labels: Record<string, string> | null | undefined) => boolean} keep
 * @returns {Promise<EngineObjects>}
 */
async function objects(outer, keep) {
  const containers = (await outer.listContainers({ all: true }))
    .filter((c) => keep(c.Labels))
    .map((c) => c.Id)
    .sort();
  const volumes = ((await outer.listVolumes()).Volumes || [])
    .filter((v) => keep(v.Labels))
    .map((v) => v.Name)
    .sort();
  const networks = (await outer.listNetworks())
    .filter((n) => keep(n.Labels))
    .map((n) => n.Id)
    .sort();
  return { containers, volumes, networks };
}

/** Labels with neither an owner nor a run. @param {Record<string, string> | null | undefined} labels */
const isUnlabelled = (labels) => !labels?.[OWNER_LABEL] && !labels?.[RUN_LABEL];

/**
 * What this test process owns on the engine now (see the top of this file), to compare before and after.
 * @param {import('dockerode')} outer @returns {Promise<EngineObjects>}
 */
export function ownObjects(outer) {
  const alone = !besideOthers();
  return objects(
    outer,
    (labels) =>
      (Boolean(labels?.[OWNER_LABEL]) && labels?.[OWNER_LABEL] === process.env.DIND_BENCH_OWNER) ||
      (alone && isUnlabelled(labels)),
  );
}

/** The engine's objects that carry no owner and no run label. @param {import('dockerode')} outer */
export const unlabelled = (outer) => objects(outer, isUnlabelled);

/**
 * What `after` holds that `before` did not, by kind, only the kinds with something new.
 * @param {EngineObjects} before @param {EngineObjects} after @returns {Partial<EngineObjects>}
 */
export function added(before, after) {
  /** @type {Partial<EngineObjects>} */
  const out = {};
  for (const kind of /** @type {const} */ (['containers', 'volumes', 'networks'])) {
    const fresh = after[kind].filter((id) => !before[kind].includes(id));
    if (fresh.length) out[kind] = fresh;
  }
  return out;
}
