// A job's images, brought into its engine as its script brings them: pulled (from the run's registry
// standing in for the name's, ./shared.js), loaded from an archive, copied from the runner's engine into
// a fresh one, or used where they are; each timed, and each name it points claimed in the engine's ledger.
import path from 'node:path';
import { outerEngine } from '../engine/client.js';
import { capability } from '../environments/environment.js';
import { archiveTags } from './archive-tags.js';
import { ms } from './clock.js';
import { claiming } from './ledger.js';
import { imageKey } from './load.js';
import { parseReference, referenceAt, taggedName } from './reference.js';

/** @typedef {import('./load.js').Workload} Workload */
/** @typedef {import('../parsers/parse-error.js').Metric} Metric */
/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */
/** @typedef {import('./shared.js').Shared} Shared */
/** @typedef {import('./job-cli.js').JobCli} JobCli */

/**
 * Each image of the workload in the job's engine, in the file's order; the pulls and loads timed.
 * @param {Workload} w @param {import('../environments/environment.js').Environment} env @param {JobEngine} engine
 * @param {Shared} s @param {JobCli} cli @param {import('../engine/image-names.js').ImageNames | null} names
 * the engine's ledger (null: a fresh engine)
 * @returns {Promise<Metric[]>}
 */
export async function bringImages(w, env, engine, s, cli, names) {
  /** @type {Metric[]} */
  const m = [];
  for (const image of w.images ?? []) {
    const key = imageKey(image.name);
    if (image.source === 'pull') {
      const parsed = parseReference(image.name);
      const standIn = s.registry && image.seed ? await capability(env, 'registryAddress')(s.registry) : null;
      const ref = standIn ? referenceAt(parsed, standIn) : image.name;
      const t = await claiming(names, [ref], () => cli(`pull-${key}`, ['pull', '--quiet', ref])).catch((e) =>
        pinned(e, image.name, s),
      );
      // Known to the job by its name; Docker cannot tag a digest, so a pinned one by its name and tag.
      const local = standIn ? taggedName(parsed) : image.name;
      if (standIn) await claiming(names, [local], () => cli(`tag-${key}`, ['tag', ref, local]));
      m.push(ms(`image.${key}.pull_ms`, t));
    } else if (image.source === 'archive') {
      const archive = path.join(s.dir, /** @type {string} */ (image.archive));
      // `docker load` points every tag of the archive's manifest, not only the workload's name: all claimed.
      const loads = names ? [...new Set([image.name, ...(await archiveTags(archive))])] : [];
      const t = await claiming(names, loads, () => cli(`load-${key}`, ['load', '--quiet', '--input', archive]));
      m.push(ms(`image.${key}.load_ms`, t));
    } else if (engine.fresh) {
      // Present on the runner, not in a fresh engine: the job has to bring it in (save from the runner's engine, load).
      m.push(ms(`image.${key}.load_ms`, await copyImage(image.from ?? image.name, image.name, engine, cli)));
    } else if (image.from && image.from !== image.name) {
      // Already on this runner under the job's name: the stand-in is tagged so, untimed (nothing to do there).
      const from = image.from;
      await claiming(names, [image.name], () => cli(`tag-${key}`, ['tag', from, image.name]));
    }
    // A present image already on the runner under its name is the runner's: the job only uses it.
  }
  return m;
}

/**
 * A pull that failed: for a name pinned by digest, the error names the image and the digest, and what the
 * run's registry serves for it (a digest that does not match the image is the likely cause).
 * @param {Error} e @param {string} name @param {Shared} s @returns {never}
 */
function pinned(e, name, s) {
  const { digest } = parseReference(name);
  if (!digest) throw e;
  const served = s.served.get(name);
  throw Object.assign(
    new Error(
      `image ${name}: no image with the digest ${digest} could be pulled` +
        (served && served !== digest
          ? `: the run's registry serves ${served} for it (from its seed), so the pinned digest does not match the image`
          : '') +
        `; pin the digest the registry serves (docker buildx imagetools inspect, or docker inspect's RepoDigests). ${e.message}`,
    ),
    { step: /** @type {{step?: string}} */ (e).step },
  );
}

/**
 * Copies an image of the runner's engine into the job's engine (docker save | docker load), timed.
 * @param {string} from @param {string} name @param {JobEngine} engine
 * @param {(step: string, args: string[]) => Promise<number>} cli
 */
async function copyImage(from, name, engine, cli) {
  const outer = outerEngine();
  const t0 = performance.now();
  const tar = await outer.getImage(from).get();
  const answer = await engine.docker.loadImage(tar, { quiet: true });
  await new Promise((resolve, reject) => {
    answer.on('data', () => {});
    answer.on('end', resolve);
    answer.on('error', reject);
  });
  if (from !== name) await cli(`tag-${imageKey(name)}`, ['tag', from, name]);
  return performance.now() - t0;
}
