// What a run shares between the jobs of its workload, made by the first job and removed at the run's end:
// the job's files copied (the job sees a snapshot), the docker CLI's private configs, the team's registry
// trust, and the run's own registry seeded with the workload's images (../engine/registry.js): it stands
// in for the registries the seeded names give, with passwords of the run's own.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { cliConfig } from '../engine/cli.js';
import { outerEngine } from '../engine/client.js';
import { engineVisibleTmp } from '../environments/engine-visible.js';
import { startRegistry } from '../engine/registry.js';
import { knowCredential } from '../redact/secrets.js';
import { readCredentials } from './credentials.js';
import { restoreImages } from './ledger.js';
import { certsFolder, trustOf } from './registry-trust.js';
import { parseReference } from './reference.js';

/** @typedef {import('./load.js').Workload} Workload */

/**
 * What a run shares between its jobs: the registry, the CLI's private config, the job's files; per engine
 * that outlives its jobs (by socket: docker and dood share the runner's), the ledger of the image names the
 * jobs gave and the images they made there; the run's labels, put on what steps create; the workload's
 * registry credentials (read once, masked), the one its jobs log in to the run's registry with, and the
 * digest that registry serves for each seeded image.
 * stepConfig: the docker CLI config of steps the file does not give the registry logins (`registries: true`):
 * the plugins, no credential.
 * copy: the run's copy of the root's files, in which `dir` is the job's folder; insecure, certs: the team's
 * registries a fresh inner engine trusts on plain HTTP, and the folder of their CA certificates (or null).
 * @typedef {{ registry: import('../engine/registry.js').Registry | null, config: string, stepConfig: string, dir: string, copy: string,
 *   primed: Set<string>, engines: Map<string, Promise<import('../engine/image-names.js').ImageNames>>, insecure: string[], certs: string | null,
 *   labels: Record<string, string>, credentials: import('./credentials.js').Credential[],
 *   registryLogin: import('../engine/registry.js').RegistryUser | null, served: Map<string, string> }} Shared
 */

/** @type {WeakMap<object, Promise<Shared>>} per run (its ResourceTracker) */
const runs = new WeakMap();

/**
 * What the run's jobs share, made by the first job: the job's files copied (the job sees a snapshot),
 * the CLI config, and the registry seeded with the workload's images. Removed at the run's end.
 * @param {Workload} w @param {import('../engine/resources.js').ResourceTracker} tracker @param {string} registryImage
 * @returns {Promise<Shared>}
 */
export function shared(w, tracker, registryImage) {
  let made = runs.get(tracker);
  if (!made) {
    made = makeShared(w, tracker, registryImage);
    runs.set(tracker, made);
  }
  return made;
}

/** @param {Workload} w @param {import('../engine/resources.js').ResourceTracker} tracker @param {string} registryImage */
async function makeShared(w, tracker, registryImage) {
  // The root's files (the workload's folder unless it names a root), the job's folder at its place in them.
  // Compose's bind mounts name paths in it, which the runner's engine (and a DinD outer container) resolves.
  const copy = await mkdtemp(path.join(await engineVisibleTmp(), 'dind-bench-workload-'));
  tracker.onCleanup(() => rm(copy, { recursive: true, force: true }));
  const root = w.rootDir ?? w.dir;
  await cp(root, copy, { recursive: true, verbatimSymlinks: true });
  const dir = path.join(copy, path.relative(root, await realpath(w.dir)));
  const config = await cliConfig();
  tracker.onCleanup(config.remove);
  const stepConfig = await cliConfig();
  tracker.onCleanup(stepConfig.remove);
  /** @type {Shared} */
  const s = {
    registry: null,
    config: config.dir,
    stepConfig: stepConfig.dir,
    dir,
    copy,
    primed: new Set(),
    engines: new Map(),
    labels: tracker.labels,
    credentials: readCredentials(w),
    registryLogin: null,
    served: new Map(),
    insecure: [],
    certs: null,
  };
  const trust = await trustOf(w);
  s.insecure = trust.insecure;
  if (trust.cas.length) {
    const certs = await certsFolder(trust.cas);
    tracker.onCleanup(certs.remove);
    s.certs = certs.dir;
  }
  tracker.onCleanup(() => restoreImages(s));
  const seeds = (w.images ?? []).filter((i) => i.source === 'pull' && i.seed);
  if (seeds.length) {
    // The run's registry stands in for the registries the seeded names give: it accepts their user names,
    // each with a password of the run's own (nothing derived from the team's real password, not even a
    // hash, reaches its container), and the jobs log in to it with the first of them (with the run's own
    // credential when the workload gives none).
    const names = new Set(seeds.map((i) => parseReference(i.name).registry?.toLowerCase()).filter(Boolean));
    const standIn = s.credentials
      .filter((c) => names.has(c.address.toLowerCase()))
      .map((c) => ({ username: c.username, password: randomBytes(32).toString('base64url') }));
    const outer = outerEngine();
    s.registry = await startRegistry({
      docker: outer,
      tracker,
      image: registryImage,
      cliConfigDir: config.dir,
      users: standIn,
    });
    s.registryLogin = standIn[0] ?? s.registry.credential;
    // The run's own passwords are secrets too: a step given the logins (`registries: true`) can print
    // its docker config, whose `auth` is `user:password` in base64.
    for (const u of s.registry.users) knowCredential(u.username, u.password);
    for (const image of seeds) {
      const ref = parseReference(image.name);
      const digest = await s.registry.seed(/** @type {string} */ (image.seed), `${ref.path}:${ref.tag ?? 'latest'}`);
      s.served.set(image.name, digest);
    }
  }
  return s;
}
