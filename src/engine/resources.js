// Every container, volume and network a run creates carries the run's label and is recorded here, so
// teardown can remove exactly those, on success, on error and on SIGINT/SIGTERM, and nothing else.
import { rm } from 'node:fs/promises';
import path from 'node:path';

export const RUN_LABEL = 'dind-bench.run';
// Set DIND_BENCH_OWNER to tag everything a process tree creates: tests use it to tell their own
// leftovers from those of other runs sharing the engine.
export const OWNER_LABEL = 'dind-bench.owner';
// A host folder a container uses while it runs (a DinD container's /var/run: the inner engine's socket
// lives there, under a short path). Removed once the container is gone: by the run's cleanup, and by the
// sweep of a later attempt (--resume) when the run that made it was killed outright and could not.
export const HOST_DIR_LABEL = 'dind-bench.host-dir';

export class ResourceTracker {
  /** @param {string} runId */
  constructor(runId) {
    this.runId = runId;
    /** @type {{kind: 'container'|'volume'|'network'|'image', id: string, docker: import('dockerode'), hostDir?: string}[]} */
    this.items = [];
    /** @type {(() => Promise<void>)[]} extra cleanups (temporary folders, inner engines) run first, newest first */
    this.hooks = [];
    // Set when cleanup starts. A step still in flight (e.g. when Ctrl-C arrives mid-step) may go on
    // creating things; those are removed as soon as they are recorded instead of being left behind.
    this.closing = false;
    /** @type {Promise<unknown>[]} removals of things recorded after cleanup began */
    this.late = [];
    /** @type {Set<Promise<unknown>>} create calls sent to an engine and not answered yet */
    this.pending = new Set();
    /**
     * Volumes removed so far. A container created while cleanup runs (Ctrl-C during a DinD setup) can name
     * one of them: the engine then creates it again, unlabelled, so the sweep cannot find it. Every cleanup
     * removes these once more after what was in flight has settled.
     * @type {{kind: 'volume', id: string, docker: import('dockerode')}[]}
     */
    this.volumes = [];
  }

  /**
   * Wraps an engine create call (container, volume, network). Ctrl-C can land while the engine is still
   * creating: the object then exists only after cleanup has looked. Cleanup waits for these calls to be
   * answered, so what they made is recorded (and removed) or swept by its label, never left behind.
   * @template T @param {Promise<T>} call @returns {Promise<T>}
   */
  creating(call) {
    this.pending.add(call);
    const settle = () => this.pending.delete(call);
    call.then(settle, settle);
    return call;
  }

  /** Labels to put on everything created for this run. @returns {Record<string, string>} */
  get labels() {
    const owner = process.env.DIND_BENCH_OWNER;
    return owner ? { [RUN_LABEL]: this.runId, [OWNER_LABEL]: owner } : { [RUN_LABEL]: this.runId };
  }

  /**
   * @param {'container'|'volume'|'network'|'image'} kind @param {string} id @param {import('dockerode')} docker
   * @param {string} [hostDir] a container's HOST_DIR_LABEL folder, removed after the container
   */
  add(kind, id, docker, hostDir) {
    if (this.closing) this.late.push(removeOne(docker, kind, id, hostDir).catch(() => {}));
    else this.items.push({ kind, id, docker, hostDir });
  }

  /** @param {string} id */
  forget(id) {
    this.items = this.items.filter((i) => i.id !== id);
  }

  /** @param {() => Promise<void>} fn */
  onCleanup(fn) {
    if (this.closing) this.late.push(fn().catch(() => {}));
    else this.hooks.push(fn);
  }

  /**
   * Removes everything recorded, newest first (containers before the volumes they use), then sweeps the
   * outer engine for anything still labelled with this run. Errors are collected, not thrown midway, so
   * one stuck item does not leave the rest behind.
   * @param {import('dockerode')} outer
   * @returns {Promise<string[]>} problems met, for the log
   */
  async cleanup(outer) {
    this.closing = true;
    const problems = [];
    for (const hook of this.hooks.splice(0).reverse()) {
      try {
        await hook();
      } catch (e) {
        problems.push(String(/** @type {Error} */ (e).message || e));
      }
    }
    // Images (built by a benchmark) go after the containers that might still use them.
    const order = { container: 0, network: 1, volume: 2, image: 3 };
    const items = this.items.splice(0).reverse();
    items.sort((a, b) => order[a.kind] - order[b.kind]);
    /** @type {typeof items} */
    const retry = [];
    for (const { kind, id, docker } of items) if (kind === 'volume') this.volumes.push({ kind, id, docker });
    for (const item of items) {
      // A failure here can be a race (a volume still used by a container that a step in flight is
      // creating or removing): tried again below, once everything in flight has settled.
      await removeOne(item.docker, item.kind, item.id, item.hostDir).catch(() => retry.push(item));
    }
    // Creates still in flight finish first (bounded: an engine that hangs must not hang Ctrl-C), so the
    // sweep below sees what they made.
    if (this.pending.size) {
      await Promise.race([Promise.allSettled([...this.pending]), new Promise((r) => setTimeout(r, 30_000).unref())]);
    }
    const sweepFailed = await this.sweep(outer).then(
      () => false,
      () => true,
    );
    while (this.late.length) await Promise.all(this.late.splice(0));
    for (const v of this.volumes) await removeOne(v.docker, 'volume', v.id).catch(() => retry.push(v));
    // Second pass, only when something raced, now that nothing is in flight: what still fails is a
    // problem worth reporting.
    if (retry.length || sweepFailed) {
      for (const item of retry) {
        try {
          await removeOne(item.docker, item.kind, item.id, item.hostDir);
        } catch (e) {
          problems.push(`${item.kind} ${item.id.slice(0, 12)}: ${/** @type {Error} */ (e).message}`);
        }
      }
      try {
        await this.sweep(outer);
      } catch (e) {
        problems.push(`sweep: ${/** @type {Error} */ (e).message}`);
      }
      while (this.late.length) await Promise.all(this.late.splice(0));
    }
    return problems;
  }

  /**
   * Removes whatever on the outer engine still carries this run's label: what was created but never
   * recorded (e.g. interrupted mid-create). Throws the first failure after trying everything.
   * @param {import('dockerode')} outer
   */
  async sweep(outer) {
    const filters = { label: [`${RUN_LABEL}=${this.runId}`] };
    /** @type {unknown[]} */
    const errors = [];
    const each = async (
      /** @type {'container'|'volume'|'network'|'image'} */ kind,
      /** @type {string[]} */ ids,
      /** @type {(string | undefined)[]} */ hostDirs = [],
    ) => {
      for (const [i, id] of ids.entries()) await removeOne(outer, kind, id, hostDirs[i]).catch((e) => errors.push(e));
    };
    const containers = await outer.listContainers({ all: true, filters });
    await each(
      'container',
      containers.map((c) => c.Id),
      containers.map((c) => c.Labels?.[HOST_DIR_LABEL]),
    );
    await each(
      'network',
      (await outer.listNetworks({ filters })).map((n) => n.Id),
    );
    await each(
      'volume',
      ((await outer.listVolumes({ filters })).Volumes ?? []).map((v) => v.Name),
    );
    await each(
      'image',
      (await outer.listImages({ filters })).map((i) => i.Id),
    );
    if (errors.length) throw errors[0];
  }
}

/**
 * @param {import('dockerode')} docker @param {'container'|'volume'|'network'|'image'} kind @param {string} id
 * @param {string} [hostDir] a container's HOST_DIR_LABEL folder: removed once the container is gone
 */
async function removeOne(docker, kind, id, hostDir) {
  try {
    if (kind === 'container') await docker.getContainer(id).remove({ force: true, v: true });
    else if (kind === 'volume') await docker.getVolume(id).remove();
    else if (kind === 'image') await docker.getImage(id).remove({ force: true });
    else await docker.getNetwork(id).remove();
  } catch (e) {
    const err = /** @type {{statusCode?: number}} */ (e);
    // 404: already gone, that is the goal. ECONNREFUSED/ENOENT: an inner engine that is already gone
    // takes its containers with it.
    if (err.statusCode !== 404 && !/ECONNREFUSED|ENOENT/.test(String(e))) throw e;
  }
  if (hostDir) await removeHostDir(hostDir);
}

/**
 * Removes a container's host folder (HOST_DIR_LABEL). The label is read back from the engine, so only a
 * folder of the shape the run makes is touched: an absolute, normalised path whose last part is
 * "dind-bench-" and six letters or digits (mkdtemp's), and nothing else.
 * @param {string} dir
 */
export async function removeHostDir(dir) {
  if (!isHostDir(dir))
    throw new Error(`not removing "${dir}": not a folder of the shape a run makes (dind-bench-XXXXXX)`);
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** @param {string} dir */
export const isHostDir = (dir) =>
  path.isAbsolute(dir) && path.normalize(dir) === dir && /^dind-bench-[A-Za-z0-9]{6}$/.test(path.basename(dir));

/**
 * Runs `cleanup` once on SIGINT/SIGTERM, then exits with the conventional code. Returns a function that
 * removes the handlers again.
 * @param {() => Promise<unknown>} cleanup
 * @param {(msg: string) => void} log
 */
export function cleanupOnSignals(cleanup, log) {
  let running = false;
  const handler = async (/** @type {NodeJS.Signals} */ signal) => {
    if (running) return;
    running = true;
    log(`${signal}: removing what this run created ...`);
    try {
      await cleanup();
    } finally {
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
