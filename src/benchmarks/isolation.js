// Isolation, measured: what a job in this environment can see and reach, as facts with their evidence
// (src/parsers/isolation.js decides them), not timings. The probe (./isolation-probe.sh) runs where the
// job's code runs (a workload container) and, where the environment has one, in the container the job
// stands on besides (DinD's outer container, whose privileges a job reaches by starting a container on
// the engine it drives; DooD's job container, which holds the socket). One more fact comes from the
// engines: whether the engine the job drives is the runner's own. The probe only reads (see its header):
// nothing on the host changes, nothing leaves the machine.
//
// Facts go to the cell's `facts` (ctx.recordFacts), apart from the metrics, so no statistic ever sees
// them; the one metric is the probe's wall time, a real measurement of what the check costs.
import { readFile, readlink, stat } from 'node:fs/promises';
import { outerEngine, socketOf } from '../engine/client.js';
import { capability } from '../environments/environment.js';
import { parseIsolationProbe } from '../parsers/isolation.js';
import { runStep } from './benchmark.js';

const PROBE = new URL('./isolation-probe.sh', import.meta.url);

/**
 * In the container a job stands on, the probe looks from where the engine is: in every namespace of the
 * process named dockerd (or podman, a daemonless engine's API service), with its credentials (nsenter sets uid 0 of its user namespace), since what a
 * job reaches through an engine is what that engine holds: a rootless engine's user namespace, not the
 * outer container's root. Without a dockerd there (DooD's job container), from the container itself.
 */
const FROM_ENGINE = `pid=
for p in /proc/[0-9]*; do case "$(cat "$p/comm" 2>/dev/null)" in dockerd | podman) pid=\${p#/proc/}; break ;; esac; done
if [ -n "$pid" ]; then printf 'engine.pid\\t%s\\n' "$pid"; exec nsenter --all -t "$pid" sh -c "$1"; fi
exec sh -c "$1"`;

/**
 * The runner's own view, where dind-bench runs: its namespaces and its engine's socket (device and inode,
 * which a bind mount keeps). What cannot be read is left out, so the facts that need it say unknown.
 * @param {string} socketPath the runner engine's socket
 * @returns {Promise<import('../parsers/isolation.js').RunnerView>}
 */
export async function runnerView(socketPath) {
  const ns = await Promise.all(['user', 'pid', 'cgroup'].map((n) => readlink(`/proc/self/ns/${n}`).catch(() => '')));
  const s = await stat(socketPath).catch(() => null);
  return {
    ns: ns.every(Boolean) ? { user: ns[0], pid: ns[1], cgroup: ns[2] } : null,
    sockets: s?.isSocket() ? [{ path: socketPath, dev: Number(s.dev), ino: Number(s.ino) }] : [],
  };
}

/**
 * Whether the engine the job drives is the runner's own: their engine IDs compared.
 * @param {import('dockerode')} jobEngine @param {import('dockerode')} runner
 * @returns {Promise<import('../parsers/isolation.js').Fact>}
 */
export async function engineFact(jobEngine, runner) {
  const [a, b] = await Promise.all([jobEngine.info().catch(() => null), runner.info().catch(() => null)]);
  const fact = { name: 'runner_engine', scope: /** @type {const} */ ('engine') };
  if (!a?.ID || !b?.ID)
    return {
      ...fact,
      value: 'unknown',
      evidence: 'an engine did not answer /info with its ID, so the two could not be compared',
    };
  if (a.ID === b.ID)
    return {
      ...fact,
      value: 'yes',
      evidence: `the engine the job drives is the runner's (same engine ID ${b.ID}, ${socketOf(runner)})`,
    };
  return { ...fact, value: 'no', evidence: `the engine the job drives (ID ${a.ID}) is not the runner's (ID ${b.ID})` };
}

/** @type {import('./benchmark.js').Benchmark<{}>} */
export const isolation = {
  name: 'isolation',
  image: 'lifecycle',
  description:
    "what a job can reach: capabilities, seccomp, AppArmor, the host's uid 0, processes, engine, block devices, /proc/sys, cgroups and /dev, each fact with its evidence",
  params: { quick: {}, standard: {} },
  // The probe itself (two of them in DinD and DooD); the container around it is the environment's overhead.
  estimateSeconds: () => 0.5,
  // One quick-profile step, measured per environment: the median step of a quick run of isolation and
  // lifecycle on 2026-11-27 (not the whole quick run of src/run/estimate.js); dind-vfs copies the image at
  // the probe container's create.
  quickStepS: { docker: 1.27, dind: 1.06, 'dind-vfs': 10.9 },
  unavailableIn: {
    native: 'native runs on the runner itself: there is no isolation between the job and the host to probe',
  },

  async measure(env, ctx) {
    const script = await readFile(PROBE, 'utf8');
    const runner = outerEngine();
    const view = await runnerView(socketOf(runner));
    const t0 = performance.now();
    const { stdout } = await runStep(env, ctx, 'probe', ['sh', '-c', script]);
    const wallMs = performance.now() - t0;
    const facts = parseIsolationProbe(stdout, view, 'workload');
    const parent = env.jobParent?.();
    if (parent) {
      const r = await parent.exec(['sh', '-c', FROM_ENGINE, 'probe', script], ctx.timeoutMs);
      await ctx.saveRaw(
        'probe-parent',
        `${parent.what}\n${r.stdout}${r.stderr ? `\n--- stderr ---\n${r.stderr}` : ''}`,
      );
      if (r.exitCode !== 0)
        throw Object.assign(
          new Error(
            `the probe in ${parent.what} exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`,
          ),
          {
            step: 'probe-parent',
          },
        );
      facts.push(...parseIsolationProbe(r.stdout, view, 'parent'));
    }
    // An environment without an engine API of its own cannot be compared: said so, never assumed.
    facts.push(
      env.engineApi
        ? await engineFact(capability(env, 'engineApi')().docker, runner)
        : {
            name: 'runner_engine',
            scope: 'engine',
            value: 'unknown',
            evidence: `${env.name} offers no engine API to compare with the runner's`,
          },
    );
    await ctx.saveRaw('facts', facts.map((f) => `${f.scope}\t${f.name}\t${f.value}\t${f.evidence}`).join('\n'));
    ctx.recordFacts?.(facts);
    return [{ metric: 'probe.wall_ms', unit: 'ms', better: 'lower', value: wallMs }];
  },
};
