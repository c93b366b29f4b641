// What a workload's images leave to the runner, named before the run: an image its compose file uses that the
// workload does not declare (neither an image of the file nor a build's tag), which `compose up` pulls inside
// the timed compose step from the registry its name gives (a fresh DinD engine has none of the runner's
// images; offline the pull fails), and each image the job takes from the runner's engine (a `present` image,
// a pull's `seed`), which only that engine can show. `plan --workload` says them with no engine, each as what
// was checked here or what only the runner can check; the run's start says them again with what the runner's
// engine answered (../workload/preflight.js has already refused a present image or seed it lacks).
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { logText } from '../text/escape.js';
import { buildTag } from './builds.js';
import { parseReference } from './reference.js';

/** @typedef {import('./load.js').Workload} Workload */
/**
 * @typedef {{ service: string, image: string }} ComposeImage a compose service's `image:`, for a service
 *   compose does not build itself
 * @typedef {(name: string) => Promise<boolean>} HasImage whether the runner's engine holds an image
 */

/** The compose services whose images are read (a real stack has far fewer). */
const MAX_NOTED = 40;

/** The suite's own images (dind-bench/<bench>:<distro>): the run builds them before it starts, if missing. */
const SUITE_IMAGE = /^dind-bench\/[a-z0-9-]+:/;

/**
 * The images a compose file's services run, for those compose does not build (`build:`), as the raw file
 * gives them (merge keys applied; a service only `extends` or `include` brings in is not followed).
 * @param {string} file the compose file (absolute; checked by ./load.js: YAML, a `services` mapping, bounded)
 * @returns {Promise<ComposeImage[]>}
 */
export async function composeImages(file) {
  const doc = YAML.parseDocument(await readFile(await realpath(file), 'utf8'), { merge: true });
  const model = /** @type {unknown} */ (doc.toJS({ maxAliasCount: 100 }));
  const services = isMapping(model) && isMapping(model.services) ? model.services : {};
  /** @type {ComposeImage[]} */
  const out = [];
  for (const [service, spec] of Object.entries(services))
    if (isMapping(spec) && typeof spec.image === 'string' && spec.build === undefined)
      out.push({ service, image: spec.image });
  return out;
}

/**
 * A reference as the engine knows it, for telling whether two names are one image: Docker Hub's registry and
 * `library/` spelled out, `latest` for no tag, the digest left out (null: not a reference at all).
 * @param {string} ref @returns {string | null}
 */
export function canonicalName(ref) {
  try {
    const r = parseReference(ref);
    const registry = !r.registry || r.registry === 'index.docker.io' ? 'docker.io' : r.registry;
    const repo = registry === 'docker.io' && !r.path.includes('/') ? `library/${r.path}` : r.path;
    return `${registry}/${repo}:${r.tag ?? 'latest'}`;
  } catch {
    return null;
  }
}

/**
 * The sentences about the workload's images, in the file's order: the compose file's undeclared images, then
 * each image the job takes from the runner's engine. With `has` (the runner's engine, at the run's start),
 * each says what that engine holds; without it (plan, no engine), what only the runner can check.
 * @param {Workload} w @param {{ compose?: ComposeImage[], has?: HasImage }} [o]
 *   compose: the compose file's images (default: read from the file)
 * @returns {Promise<string[]>}
 */
export async function imageNotes(w, o = {}) {
  const compose = o.compose ?? (w.compose ? await composeImages(path.join(w.dir, w.compose.file)) : []);
  const declared = new Set(
    [...(w.images ?? []).map((i) => i.name), ...(w.builds ?? []).map(buildTag)].map((n) => canonicalName(n) ?? n),
  );
  const where = w.compose ? logText(w.compose.file) : '';
  /** @type {string[]} */
  const out = [];
  // Bounded: a compose file of hundreds of services names its first ones, and says how many more.
  const named = compose.slice(0, MAX_NOTED);
  if (compose.length > named.length)
    out.push(`(the compose file's first ${MAX_NOTED} services of ${compose.length} are read here)`);
  for (const { service, image } of named) {
    const at = `compose service ${logText(service)} (${where}) runs ${logText(image)}`;
    if (image.includes('$')) {
      out.push(`${at}: compose fills in the variable when the job runs: only the runner can check that image`);
      continue;
    }
    if (declared.has(canonicalName(image) ?? image)) continue;
    const held = o.has ? await o.has(image) : null;
    out.push(
      `${at}, which the workload does not declare (an image of the file, or a build's tag): \`compose up\` pulls it ` +
        `inside the timed compose step, from the registry its name gives (a fresh DinD engine holds none of the runner's ` +
        `images; offline the pull fails); ${runnerHolds(held)}; declare it under images (source pull, archive or ` +
        'present) so the job brings it in as it does, timed apart (docs/workloads.md)',
    );
  }
  for (const image of w.images ?? []) {
    const local =
      image.source === 'present' ? (image.from ?? image.name) : image.source === 'pull' ? image.seed : undefined;
    if (!local || SUITE_IMAGE.test(local)) continue;
    const what =
      image.source === 'present'
        ? `image ${logText(image.name)} is present${image.from ? ` (from ${logText(local)})` : ''}: the runner's engine must hold ${logText(local)} (a fresh DinD engine gets a copy of it, timed)`
        : `image ${logText(image.name)} is pulled from the run's registry, seeded with ${logText(local)}: the runner's engine must hold ${logText(local)}`;
    out.push(
      `${what}; ${o.has ? `checked on the runner's engine: ${(await o.has(local)) ? 'it is there' : 'it is NOT there'}` : `only the runner can check ${logText(local)}`}`,
    );
  }
  return out;
}

/** What the runner's engine holds of an undeclared image. @param {boolean | null} held */
const runnerHolds = (held) =>
  held === null
    ? "whether the runner's engine already holds it (docker's jobs would use that copy) only the runner can check"
    : held
      ? "the runner's engine holds it, so docker's jobs use that copy and only DinD's pull it"
      : "the runner's engine does not hold it either, so every environment pulls it";

/** @param {unknown} x @returns {x is Record<string, unknown>} */
const isMapping = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
