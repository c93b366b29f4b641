// What a failed step's reason adds about the faults around it, so that a cell a fault touched fails naming
// the fault, not only a tool's last words:
// - no space left (the error says so, or the disk is nearly full now: a tool may lose its own words, as
//   sysbench's fileio prepare does): how full the data-root of the environment's engine is (DinD: the inner
//   engine's volume, seen from the host), the disk the step's containers and their layers write to;
// - a container the run keeps for its whole length (its registry, a registry mirror, a DinD container)
//   that has stopped: which one, its exit status and when (exit 137: killed, as the OOM killer does).
// Read after the failure, each bounded in time, and never a failure of its own: a note that cannot be
// had is left out.
import { statfs } from 'node:fs/promises';
import { withTimeout } from '../engine/containers.js';
import { KILLED_EXIT } from './kills.js';

/** The words a tool, the kernel or an engine uses for a full disk. */
const NO_SPACE = /no space left on device|\bENOSPC\b|errno = 28\b/i;
/** Nearly full: less free than this, or than 1% of the disk, whichever is more. */
const LOW_BYTES = 64 * 2 ** 20;
/** How long a note may take to read (an engine that hangs must not hang the run). */
const NOTE_MS = 5_000;
/** What each of the run's long-lived containers is, by its dind-bench.role label. */
const ROLE_WORDS = /** @type {Record<string, string>} */ ({
  registry: "the run's registry",
  'registry-mirror': "the run's registry mirror",
  dind: 'the DinD container',
  service: 'the service container',
});

/**
 * The notes for a failed step's reason: '' when there is nothing to add.
 * @param {string} reason the cell's reason so far
 * @param {Partial<import('../environments/environment.js').Environment>} env
 * @param {import('../engine/resources.js').ResourceTracker} tracker
 * @param {string} key the environment's key, for the words
 */
export async function faultNotes(reason, env, tracker, key) {
  const notes = await Promise.all([noSpaceNote(env, key, NO_SPACE.test(reason)), stoppedNote(tracker)]).catch(() => []);
  return notes
    .filter(Boolean)
    .map((n) => ` (${n})`)
    .join('');
}

/**
 * How full the data-root of the environment's engine is now, when the error said no space was left or the
 * disk is nearly full; else, or when it cannot be read from here, null.
 * @param {Partial<import('../environments/environment.js').Environment>} env @param {string} key
 * @param {boolean} said the error says no space was left
 */
async function noSpaceNote(env, key, said) {
  if (typeof env.dataRootOnHost !== 'function') return null;
  const read = async () => {
    const dir = await /** @type {() => Promise<string>} */ (env.dataRootOnHost).call(env);
    const s = await statfs(dir);
    const free = s.bavail * s.bsize;
    const size = s.blocks * s.bsize;
    if (!said && free >= Math.max(LOW_BYTES, size / 100)) return null;
    return `${said ? 'no space left' : 'its disk nearly full'}: the data-root of ${key}'s engine (${dir} on the host) has ${mib(free)} free of ${mib(size)} now`;
  };
  return withTimeout(read(), NOTE_MS, 'slow').catch(() => null);
}

/**
 * The run's long-lived containers that are no longer running, or null when every one runs.
 * @param {import('../engine/resources.js').ResourceTracker} tracker
 */
async function stoppedNote(tracker) {
  const containers = tracker.items.filter((i) => i.kind === 'container');
  const stopped = await Promise.all(
    containers.map(({ id, docker }) =>
      withTimeout(docker.getContainer(id).inspect(), NOTE_MS, 'slow').then(describeStopped, () => null),
    ),
  );
  const found = stopped.filter(Boolean);
  return found.length ? found.join('; ') : null;
}

/**
 * A stopped container of the run in words, null for one still running or one that is no long-lived
 * container of the run's (no role).
 * @param {import('dockerode').ContainerInspectInfo} c
 */
function describeStopped(c) {
  const role = c.Config?.Labels?.['dind-bench.role'];
  if (!role || !['exited', 'dead'].includes(c.State.Status)) return null;
  const what = `${ROLE_WORDS[role] ?? `the run's ${role} container`} (${c.Id.slice(0, 12)})`;
  const code = c.State.ExitCode;
  const how =
    code === KILLED_EXIT
      ? `killed (exit ${code}: SIGKILL${c.State.OOMKilled ? ', out of memory' : ', as the OOM killer or a kill from the host sends'})`
      : `exited ${code}${c.State.Error ? `: ${c.State.Error.slice(0, 200)}` : ''}`;
  return `${what} is not running: ${how} at ${c.State.FinishedAt}`;
}

/** @param {number} bytes */
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
