// Memory, sampled at a fixed interval: a container's working set from an engine's stats API, and the
// outer engine's own daemons from /proc. Used for both scopes of the memory benchmark.
import { readFile, readdir, readlink } from 'node:fs/promises';
import { roundMs } from './timing.js';

const MIB = 1024 * 1024;

/**
 * A container's working set, as `docker stats` computes it: usage minus the inactive page cache
 * (cgroup v1: `total_inactive_file`; v2: `inactive_file`). Page cache the kernel can drop at once is not
 * memory the workload needs; on cgroup v1 the raw `usage` would count every file it read.
 * @param {{usage?: number, stats?: Record<string, number>}} mem the `memory_stats` of a stats answer
 * @returns {number | null} bytes, null when the engine gave no memory figures (container gone)
 */
export function workingSetBytes(mem) {
  if (!mem || typeof mem.usage !== 'number') return null;
  const inactive = mem.stats?.total_inactive_file ?? mem.stats?.inactive_file ?? 0;
  return inactive < mem.usage ? mem.usage - inactive : mem.usage;
}

/**
 * A probe reading one container's working set through its engine's stats API. `one-shot` (API 1.41+)
 * skips the wait for a CPU delta, but the engine's collector still publishes once per second (measured
 * on Engine 20.10: the first request answers in ~20 ms, every later one waits up to 1 s), so 1 s is the
 * finest interval the stats API offers.
 * @param {import('dockerode')} docker @param {string} id
 * @returns {() => Promise<number | null>} bytes
 */
export function containerWorkingSet(docker, id) {
  const container = docker.getContainer(id);
  return async () => {
    try {
      const s = await container.stats({ stream: false, 'one-shot': true });
      return workingSetBytes(s.memory_stats);
    } catch {
      return null; // the container ended between two samples
    }
  };
}

/**
 * The outer engine's own daemons, as seen from this host: the resident memory (VmRSS) of every
 * `dockerd` in our own mount namespace (the inner daemons of DinD live in their containers' namespaces
 * and are not counted) plus the `containerd` it started. Not counted: containerd-shim processes (one per
 * running container), kernel memory, page cache.
 * @returns {Promise<(() => Promise<number | null>) | null>} null when no such daemon is visible (the
 *   engine runs elsewhere, e.g. a remote or rootless socket, or /proc is not readable)
 */
export async function outerDaemonRss() {
  const pids = await outerDaemonPids();
  if (!pids) return null;
  return async () => {
    let total = 0;
    for (const pid of pids) {
      try {
        const kb = Number((await readFile(`/proc/${pid}/status`, 'utf8')).match(/^VmRSS:\s*(\d+)\s*kB/m)?.[1] ?? 0);
        total += kb * 1024;
      } catch {
        /* exited */
      }
    }
    return total;
  };
}

/**
 * The outer engine's dockerd processes in our own mount namespace and the containerd each started.
 * @returns {Promise<string[] | null>} pids, null when no such dockerd is visible from here
 */
export async function outerDaemonPids() {
  let ownNs;
  try {
    ownNs = await readlink('/proc/self/ns/mnt');
  } catch {
    return null;
  }
  /** @type {{pid: string, comm: string, ppid: string}[]} */
  const procs = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const comm = status.match(/^Name:\s*(\S+)/m)?.[1] ?? '';
      if (comm !== 'dockerd' && comm !== 'containerd') continue;
      if ((await readlink(`/proc/${pid}/ns/mnt`)) !== ownNs) continue;
      procs.push({ pid, comm, ppid: status.match(/^PPid:\s*(\d+)/m)?.[1] ?? '' });
    } catch {
      /* gone, or not ours to read */
    }
  }
  const daemons = procs.filter((p) => p.comm === 'dockerd');
  if (daemons.length === 0) return null;
  return [...daemons, ...procs.filter((p) => p.comm === 'containerd' && daemons.some((d) => d.pid === p.ppid))].map(
    (p) => p.pid,
  );
}

/**
 * Proportional set size (PSS) of processes, in bytes: each page shared by n processes counts 1/n, so
 * the figures of different processes add up to the memory they take together (RSS would count a
 * shared library once per process). Processes that exited are skipped.
 * @param {Iterable<string | number>} pids
 */
export async function pssBytes(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      const kb = Number((await readFile(`/proc/${pid}/smaps_rollup`, 'utf8')).match(/^Pss:\s*(\d+)\s*kB/m)?.[1] ?? 0);
      total += kb * 1024;
    } catch {
      /* exited */
    }
  }
  return total;
}

/** The parent of a process, or null when it is gone. @param {string | number} pid */
export async function parentPid(pid) {
  try {
    return (await readFile(`/proc/${pid}/status`, 'utf8')).match(/^PPid:\s*(\d+)/m)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** A container's runtime shim (the parent of its first process) as a host pid, or null. @param {import('dockerode')} docker @param {string} id */
export async function shimPid(docker, id) {
  try {
    const pid = (await docker.getContainer(id).inspect()).State.Pid;
    const shim = pid ? await parentPid(pid) : null;
    return shim && shim !== '0' ? shim : null;
  } catch {
    return null;
  }
}

/**
 * A container's processes as host pids, with the runtime shim that holds it (the parent of its first
 * process): what the container costs the host beyond its own cgroup's accounting of memory. Listed by
 * the engine's `top` (which runs ps on the engine's host: the pids are host pids when the engine runs
 * here), so processes that came and went since the last call are seen.
 * @param {import('dockerode')} docker @param {string} id
 * @returns {Promise<string[]>} empty when the container is gone
 */
export async function containerHostPids(docker, id) {
  try {
    const c = docker.getContainer(id);
    const [top, shim] = await Promise.all([c.top({ ps_args: '-o pid' }), shimPid(docker, id)]);
    const pids = (top.Processes ?? [])
      .map((/** @type {string[]} */ row) => String(row[0]))
      .filter((p) => /^\d+$/.test(p));
    return shim ? [shim, ...pids] : pids;
  } catch {
    return [];
  }
}

/**
 * The processes of an engine's own, out of a container's host pids: every process that does not descend
 * from a runtime shim of that list (a containerd-shim holds a container; what it holds is that
 * container's workload). `top` on a DinD container lists the inner workloads too: with a private cgroup
 * namespace their cgroups nest below the outer container's, and a rootless inner engine without
 * cgroups leaves them in it. The shims themselves stay (they are the engine's cost per container). A
 * shim whose parent is not in the list is the container's own on the outer engine (containerHostPids
 * adds it): what it holds is the engine, not a workload.
 * @param {string[]} pids host pids, e.g. from containerHostPids
 * @returns {Promise<string[]>}
 */
export async function withoutWorkloads(pids) {
  const listed = new Set(pids);
  /** @type {Map<string, {parent: string | null, shim: boolean}>} */
  const procs = new Map();
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const parent = status.match(/^PPid:\s*(\d+)/m)?.[1] ?? null;
    // The kernel's name is cut at 15 bytes: "containerd-shim" for every shim version. Podman's conmon
    // holds its containers as a shim does.
    const shim = /^Name:\s*(containerd-shim|conmon$)/m.test(status) && parent !== null && listed.has(parent);
    procs.set(pid, { parent, shim });
  }
  /** @param {string} pid */
  const underShim = (pid) => {
    const seen = new Set();
    for (let p = procs.get(pid)?.parent ?? null; p && listed.has(p) && !seen.has(p); p = procs.get(p)?.parent ?? null) {
      if (procs.get(p)?.shim) return true;
      seen.add(p);
    }
    return false;
  };
  return pids.filter((pid) => !underShim(pid));
}

/**
 * Samples a probe every `intervalMs` until stopped; a sample never overlaps the previous one (a slow
 * engine answer delays the next sample rather than piling requests up). Values in MiB, times in ms since
 * start; samples where the probe had nothing (null) are left out.
 * @param {() => Promise<number | null>} probe bytes
 * @param {number} intervalMs
 */
export function startSampling(probe, intervalMs) {
  const t0 = performance.now();
  /** @type {number[]} */ const t = [];
  /** @type {number[]} */ const v = [];
  let stopped = false;
  /** @type {NodeJS.Timeout | undefined} */ let timer;
  /** @type {Promise<void>} */ let inFlight = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    const at = performance.now();
    inFlight = probe().then((bytes) => {
      // Stamped when the answer came: the engine answers with its latest collected figure.
      if (bytes !== null) {
        t.push(roundMs(performance.now() - t0));
        v.push(Math.round((bytes / MIB) * 100) / 100);
      }
      if (!stopped) timer = setTimeout(tick, Math.max(0, intervalMs - (performance.now() - at)));
    });
  };
  tick();
  return {
    /** Milliseconds since sampling began. */
    elapsed: () => performance.now() - t0,
    /** Samples so far. */
    count: () => v.length,
    /** Stops, waits for the sample in flight, and returns the series. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
      return { t, v };
    },
  };
}

/** @param {number[]} xs */
export const peak = (xs) => (xs.length ? Math.max(...xs) : NaN);
/** @param {number[]} xs */
export const mean = (xs) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100 : NaN);
