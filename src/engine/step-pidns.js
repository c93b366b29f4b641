// A PID namespace per workload step: what the step starts cannot outlive it. A process group alone does not
// hold a step's processes: `setsid cmd &` and a double fork leave the group (and the session), and would run
// on after the job on a persistent runner. In a namespace of its own (unshare --pid --fork --kill-child, with
// a /proc of its own) the step's shell is a child of a small PID 1; when the shell exits, PID 1 tells the
// run (over fd 3), the run names every other process still in that namespace (wherever it forked or
// whatever session it made), then lets PID 1 exit, and the kernel ends all of them with it. Where no namespace can be made (no root and no
// unprivileged user namespaces), `available()` says so and the step runs in a process group, as before.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { logText } from '../text/escape.js';

/**
 * PID 1 of the step's namespace: runs the script (its $1) in sh without fd 3, reports its exit status on
 * fd 3, waits for the run's word on fd 3, and exits with that status (unshare passes it on).
 */
const INIT = 'sh -c "$1" 3>&-; rc=$?; echo "$rc" >&3; read -r _ <&3; exit "$rc"';

/** @type {string[] | null | undefined} the unshare arguments that work here; null: none do */
let flags;
/** Why no PID namespace can be made here (unshare's own words), when none can. */
let refused = '';

/**
 * The unshare arguments that make a PID namespace for a step here, or null where none can be made. As root:
 * a PID namespace; else inside a user namespace that maps the user to itself (files it writes stay the
 * user's, and its groups, the docker group among them, still count for the engine's socket).
 * @returns {string[] | null}
 */
export function available() {
  if (flags !== undefined) return flags;
  // A /proc of its own (a mount namespace with it): the step sees its own processes only, not the run's
  // (whose environment and command lines are not the step's to read through /proc).
  const base = ['--pid', '--fork', '--kill-child', '--mount', '--mount-proc'];
  const tries = process.getuid?.() === 0 ? [base] : [['--user', '--map-current-user', ...base]];
  flags = null;
  for (const f of tries) {
    const r = spawnSync('unshare', [...f, 'true'], { encoding: 'utf8', timeout: 5_000 });
    if (r.status === 0) {
      flags = f;
      break;
    }
    // One line, no control characters: it is printed by doctor and kept in results.json.
    const said = r.error ? r.error.message : String(r.stderr ?? '').trim() || `exit ${r.status}`;
    refused = logText(said.replace(/\s+/g, ' ')).slice(0, 300);
  }
  return flags;
}

/**
 * How a workload step's processes are held on this machine, as results.json's run.stepIsolation and
 * `dind-bench doctor` say it: a PID namespace (as root, or in a user namespace of the user's), or, where
 * none can be made, a process group only, with unshare's reason. A process group does not hold a step's
 * `setsid cmd &` or a double fork: said, not silent.
 * @returns {{ kind: 'pid-namespace' | 'process-group', how: string }}
 */
export function stepIsolation() {
  const f = available();
  if (f)
    return {
      kind: 'pid-namespace',
      how: `a PID namespace per step (unshare ${f.join(' ')})${f.includes('--user') ? ', in a user namespace mapping the user to itself' : ', as root'}`,
    };
  return {
    kind: 'process-group',
    how: `a process group per step only: no PID namespace can be made here (\`unshare ${process.getuid?.() === 0 ? '' : '--user --map-current-user '}--pid …\`: ${refused || 'refused'}); a process a step starts that leaves its group (setsid, a double fork) can outlive the step`,
  };
}

/** Whether any step asked for its isolation in this process (so a run that ran steps records it). */
export const asked = () => flags !== undefined;

/**
 * The command and arguments that run `script` as a step in a PID namespace of its own (see INIT); spawn it
 * with a fourth stdio pipe (fd 3).
 * @param {string[]} unshareFlags from available() @param {string} script
 * @returns {[string, string[]]}
 */
export const inNamespace = (unshareFlags, script) => [
  'unshare',
  [...unshareFlags, '--', 'sh', '-c', INIT, 'dind-bench-step', script],
];

/**
 * The processes in the PID namespace whose unshare process is `unsharePid`, but its PID 1 ("PID command",
 * the PID the step knows it by).
 * @param {number} unsharePid @returns {string[]}
 */
export function namespaceMembers(unsharePid) {
  const init = childOf(unsharePid);
  if (!init) return [];
  const ns = nsOf(init);
  if (!ns) return [];
  const out = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === init || nsOf(Number(pid)) !== ns) continue;
    let stat = '';
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    if (state === 'Z' || state === 'X') continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // ended meanwhile: its PID says enough
    }
    out.push(`${stepPid(pid)} ${cmd.slice(0, 200)}`.trim());
  }
  return out;
}

/**
 * A process's PID as the step saw it (its `$!`): the last of NSpid in /proc/PID/status, the PID in the
 * innermost namespace. @param {string} pid the host's
 */
function stepPid(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^NSpid:\s*(.+)$/m)?.[1];
    return line?.trim().split(/\s+/).at(-1) ?? pid;
  } catch {
    return pid;
  }
}

/** The child of `pid` (unshare --fork has one: the namespace's PID 1), by its parent in /proc. @param {number} pid */
function childOf(pid) {
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(d);
    } catch {
      // ended meanwhile
    }
  }
  return null;
}

/** @param {number} pid @returns {string | null} */
function nsOf(pid) {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return null;
  }
}
