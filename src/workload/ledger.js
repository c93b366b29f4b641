// The image names a run's jobs give on an engine that outlives them (the runner's): claimed before a
// command may point them elsewhere, the images made under them noted, and all put back at the run's end
// (../engine/image-names.js). A fresh engine goes with everything in it and keeps no ledger.
import { ImageNames } from '../engine/image-names.js';

/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */
/** @typedef {import('./shared.js').Shared} Shared */

/**
 * On each engine that outlives the jobs (the runner's): every image name the jobs gave put back as it was
 * before the run, and the images they made removed (../engine/image-names.js).
 * @param {Shared} s
 */
export async function restoreImages(s) {
  const problems = [];
  for (const ledger of s.engines.values())
    for (const change of await (await ledger).restore())
      if (/^not put back/.test(change.done)) problems.push(`${change.name}: ${change.done}`);
  // Said at the run's end (the tracker logs a cleanup's error), not lost: the runner's names are its owner's.
  if (problems.length)
    throw new Error(`image names of the runner's engine the run could not put back: ${problems.join('; ')}`);
}

/**
 * The ledger of `engine`'s image names, begun before the run's first job on it; null for a fresh engine,
 * which goes with everything in it.
 * @param {JobEngine} engine @param {Shared} s @returns {Promise<ImageNames | null>}
 */
export function ledgerOf(engine, s) {
  if (engine.fresh) return Promise.resolve(null);
  let ledger = s.engines.get(engine.socket);
  if (!ledger) {
    ledger = ImageNames.open(engine.docker);
    s.engines.set(engine.socket, ledger);
  }
  return ledger;
}

/**
 * Runs `command` with each of `claimed` claimed first in `names` (when the engine keeps a ledger), and
 * notes what each names after: on the runner's engine, only what the run changed or made is undone.
 * @template T @param {ImageNames | null} names @param {string[]} claimed @param {() => Promise<T>} command
 * @returns {Promise<T>}
 */
export async function claiming(names, claimed, command) {
  for (const name of claimed) await names?.claim(name);
  const result = await command();
  for (const name of claimed) await names?.madeUnder(name);
  return result;
}
