// The isolation probe's evidence lines (src/benchmarks/isolation-probe.sh) decided into facts, each with
// the evidence it was decided from. A fact the lines cannot decide is "unknown" with the reason: never a
// guess. The runner's own view (its namespaces, its engine's socket) comes from the caller, who reads it
// where dind-bench runs.
import { ParseError } from './parse-error.js';

/** Linux capability numbers to names (capability.h), for CapEff. */
const CAP_NAMES = [
  'chown', 'dac_override', 'dac_read_search', 'fowner', 'fsetid', 'kill', 'setgid', 'setuid', 'setpcap',
  'linux_immutable', 'net_bind_service', 'net_broadcast', 'net_admin', 'net_raw', 'ipc_lock', 'ipc_owner',
  'sys_module', 'sys_rawio', 'sys_chroot', 'sys_ptrace', 'sys_pacct', 'sys_admin', 'sys_boot', 'sys_nice',
  'sys_resource', 'sys_time', 'sys_tty_config', 'mknod', 'lease', 'audit_write', 'audit_control', 'setfcap',
  'mac_override', 'mac_admin', 'syslog', 'wake_alarm', 'block_suspend', 'audit_read', 'perfmon', 'bpf',
  'checkpoint_restore',
]; // prettier-ignore

/**
 * @typedef {'yes' | 'no' | 'unknown'} Answer
 * @typedef {'workload' | 'parent' | 'engine'} FactScope
 *   workload: a container the job runs; parent: the container the job's engine runs in, or the job's own
 *   container (DinD's outer container, DooD's job container); engine: the engine the job drives.
 * @typedef {{ name: string, value: string, evidence: string, scope: FactScope }} Fact
 * @typedef {{ ns: { user: string, pid: string, cgroup: string } | null,
 *   sockets: { path: string, dev: number, ino: number }[] }} RunnerView
 *   ns: the runner's namespaces as readlink(/proc/self/ns/*) prints them; sockets: its engine's socket(s)
 */

/** The decided facts a policy can name (yes/no); the others (capabilities, seccomp, apparmor) are descriptive. */
export { ISOLATION_FACTS } from '../model/isolation.js';

/** @param {string} text @returns {Map<string, string[]>} each key's values, in order */
function linesOf(text) {
  /** @type {Map<string, string[]>} */
  const by = new Map();
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const key = line.slice(0, tab);
    by.set(key, [...(by.get(key) ?? []), line.slice(tab + 1).trim()]);
  }
  return by;
}

/** The capability names of a CapEff hex mask. @param {string} hex */
export function capNames(hex) {
  if (!/^[0-9a-f]{1,16}$/i.test(hex)) return null;
  const mask = BigInt(`0x${hex}`);
  return CAP_NAMES.filter((_, i) => (mask >> BigInt(i)) & 1n);
}

/**
 * The facts of one probe's output.
 * @param {string} text the probe's stdout @param {RunnerView} runner @param {FactScope} scope
 * @returns {Fact[]}
 */
export function parseIsolationProbe(text, runner, scope) {
  const by = linesOf(text);
  if (by.get('end')?.[0] !== 'yes') {
    const first = text.split('\n').find((l) => l.trim()) ?? '(no output)';
    throw new ParseError('isolation probe', 'the probe did not finish (no "end" line)', {
      lineNumber: 1,
      line: first.slice(0, 200),
    });
  }
  const get = (/** @type {string} */ k) => by.get(k)?.[0] ?? '';
  const caps = capNames(get('status.CapEff'));
  const seccomp = { 0: 'disabled', 1: 'strict', 2: 'filter' }[get('status.Seccomp')] ?? null;
  const mounts = (by.get('mount') ?? []).map((l) => {
    const [point, root, fstype, opts] = l.split(' | ');
    return { point, root, fstype, opts: opts ?? '', line: l };
  });
  const f = (/** @type {string} */ name, /** @type {string} */ value, /** @type {string} */ evidence) => ({
    name,
    value,
    evidence,
    scope,
  });
  return [
    f('capabilities', caps ? caps.join(',') || 'none' : 'unknown', `CapEff ${get('status.CapEff') || 'unreadable'}`),
    f('seccomp', seccomp ?? 'unknown', `Seccomp: ${get('status.Seccomp') || 'unreadable'} in /proc/self/status`),
    apparmor(by),
    f(...privileged(caps, seccomp, get('ns.user'), runner)),
    f(...hostRoot(get('uid_map'), get('ns.user'), runner)),
    f(...hostPids(get('ns.pid'), get('pid1'), runner)),
    f(...runnerEngine(by.get('socket') ?? [], get('env.DOCKER_HOST'), runner)),
    f(...blockVisible(by)),
    f(...blockMount(by, caps, get('ns.user'), runner)),
    f(...procSys(get('procsys.writable'), mounts)),
    f(...hostCgroup(by.get('cgroup.writable') ?? [])),
    f(...hostDev(mounts)),
  ].map((x) => ({ ...x, scope }));

  /** @param {Map<string, string[]>} m */
  function apparmor(m) {
    const enabled = m.get('apparmor.enabled')?.[0] ?? '';
    if (enabled === 'absent') return f('apparmor', 'none', 'the kernel has no AppArmor (/sys/module/apparmor absent)');
    if (enabled === 'N')
      return f('apparmor', 'none', 'AppArmor is disabled (/sys/module/apparmor/parameters/enabled N)');
    const current = m.get('apparmor.current')?.[0] ?? '';
    if (enabled === 'Y' && current && !/No such file|Invalid argument|Permission denied/.test(current))
      return f('apparmor', current, `/proc/self/attr/current: ${current}`);
    return f('apparmor', 'unknown', `AppArmor enabled "${enabled}", but the profile could not be read: ${current}`);
  }
}

/**
 * --privileged or its equivalent: every capability that matters (CAP_SYS_ADMIN) with seccomp off, in the
 * runner's user namespace (capabilities in a user namespace of its own hold only there, as rootless's do).
 * @param {string[] | null} caps @param {string | null} seccomp @param {string} userNs @param {RunnerView} runner
 * @returns {[string, Answer, string]}
 */
function privileged(caps, seccomp, userNs, runner) {
  if (!caps || !seccomp) return ['privileged', 'unknown', 'CapEff or Seccomp unreadable in /proc/self/status'];
  const admin = caps.includes('sys_admin');
  if (admin && runner.ns && userNs && userNs !== runner.ns.user)
    return [
      'privileged',
      'no',
      `capabilities (${caps.length}, CAP_SYS_ADMIN among them) held only in a user namespace of its own (${userNs}); seccomp ${seccomp}`,
    ];
  const evidence = `${admin ? 'CAP_SYS_ADMIN held' : 'no CAP_SYS_ADMIN'} (${caps.length} capabilities), seccomp ${seccomp}`;
  // --privileged or its equivalent (every capability with seccomp off, as DinD's capability set is).
  return ['privileged', admin && seccomp === 'disabled' ? 'yes' : 'no', evidence];
}

/** @param {string} uidMap @param {string} userNs @param {RunnerView} runner @returns {[string, Answer, string]} */
function hostRoot(uidMap, userNs, runner) {
  const name = 'host_root';
  const map = `uid_map "${uidMap}"`;
  if (!runner.ns || !userNs.startsWith('user:'))
    return [name, 'unknown', `the user namespaces could not be compared (here ${userNs || 'unreadable'}); ${map}`];
  if (userNs === runner.ns.user)
    return [name, 'yes', `the runner's user namespace (${userNs}): uid 0 here is the runner's uid 0; ${map}`];
  const zero = uidMap
    .split(';')
    .map((l) => l.trim().split(/\s+/).map(Number))
    .find(([inside, , count]) => inside === 0 && count > 0);
  if (!zero) return [name, 'no', `a user namespace of its own (${userNs}) with no mapping for uid 0; ${map}`];
  if (zero[1] !== 0)
    return [
      name,
      'no',
      `a user namespace of its own (${userNs}): uid 0 is uid ${zero[1]} of the namespace above; ${map}`,
    ];
  return [
    name,
    'unknown',
    `a user namespace of its own (${userNs}) that maps uid 0 to uid 0 of the namespace above, which is not the runner's and cannot be seen from here; ${map}`,
  ];
}

/** @param {string} pidNs @param {string} pid1 @param {RunnerView} runner @returns {[string, Answer, string]} */
function hostPids(pidNs, pid1, runner) {
  if (!runner.ns || !pidNs.startsWith('pid:'))
    return ['host_pids', 'unknown', `the pid namespaces could not be compared (here ${pidNs || 'unreadable'})`];
  if (pidNs === runner.ns.pid) return ['host_pids', 'yes', `the runner's pid namespace (${pidNs}); PID 1 is "${pid1}"`];
  return [
    'host_pids',
    'no',
    `a pid namespace of its own (${pidNs}, the runner's is ${runner.ns.pid}); PID 1 is "${pid1}"`,
  ];
}

/** @param {string[]} sockets "PATH DEV INO" @param {string} dockerHost @param {RunnerView} runner @returns {[string, Answer, string]} */
function runnerEngine(sockets, dockerHost, runner) {
  const seen = sockets.map((s) => {
    const [path, dev, ino] = s.split(' ');
    return { path, dev: Number(dev), ino: Number(ino) };
  });
  const hit = seen.find((s) => runner.sockets.some((r) => r.dev === s.dev && r.ino === s.ino));
  if (hit) {
    const r = runner.sockets.find((x) => x.dev === hit.dev && x.ino === hit.ino);
    return [
      'runner_engine',
      'yes',
      `${hit.path} here is the runner engine's socket ${r?.path} (same device and inode ${hit.dev}:${hit.ino})`,
    ];
  }
  if (!runner.sockets.length)
    return ['runner_engine', 'unknown', "the runner engine's socket could not be read to compare"];
  if (/^(tcp|ssh|https?):/.test(dockerHost))
    return [
      'runner_engine',
      'unknown',
      `DOCKER_HOST=${dockerHost} names an engine over the network, which this probe does not contact`,
    ];
  const others = seen.length
    ? `; sockets seen: ${seen.map((s) => s.path).join(', ')} (another engine's)`
    : '; no engine socket here';
  return [
    'runner_engine',
    'no',
    `none of the runner engine's sockets (${runner.sockets.map((s) => s.path).join(', ')}) is reachable here${others}`,
  ];
}

/** @param {Map<string, string[]>} by @returns {[string, Answer, string]} */
function blockVisible(by) {
  const parts = by.get('partition') ?? [];
  const nodes = by.get('blockdev') ?? [];
  if (!parts.length) return ['block_visible', 'unknown', '/proc/partitions lists no disk'];
  const present = nodes.filter((n) => n.endsWith(' present')).map((n) => `/dev/${n.split(' ')[0]}`);
  if (present.length) return ['block_visible', 'yes', `host block device nodes here: ${present.join(', ')}`];
  return ['block_visible', 'no', `the kernel lists ${parts.join(', ')}; no node for them under /dev`];
}

/**
 * @param {Map<string, string[]>} by @param {string[] | null} caps @param {string} userNs @param {RunnerView} runner
 * @returns {[string, Answer, string]}
 */
function blockMount(by, caps, userNs, runner) {
  const name = 'block_mount';
  const tried = by.get('mount.try')?.[0];
  if (tried) {
    const [dev, ...rest] = tried.split(' ');
    const out = rest.join(' ');
    if (/(^|;)mounted$/.test(out))
      return [name, 'yes', `read-only mount of ${dev} in a private mount namespace succeeded (unmounted at once)`];
    // The kernel checks permission and opens the device before it finds the live filesystem read-write.
    if (/already mounted|read-only|busy/i.test(out))
      return [
        name,
        'yes',
        `${dev} opened for mounting: the kernel refused only a second, read-only mount of its live read-write filesystem ("${out}")`,
      ];
    if (/Permission denied|Operation not permitted|permission denied/i.test(out))
      return [name, 'no', `read-only mount of ${dev} in a private mount namespace refused: "${out}"`];
    return [name, 'unknown', `read-only mount attempt of ${dev} ended unclearly: "${out}"`];
  }
  if (!caps) return [name, 'unknown', 'CapEff unreadable and no mount attempt was possible'];
  if (!caps.includes('sys_admin')) return [name, 'no', 'no CAP_SYS_ADMIN: mount(2) of a block device is refused'];
  if (runner.ns && userNs && userNs !== runner.ns.user)
    return [
      name,
      'no',
      `CAP_SYS_ADMIN only in a user namespace of its own (${userNs}): mounting a block device needs it in the initial one`,
    ];
  const parts = by.get('partition') ?? [];
  const list = by.get('devices.list')?.[0] ?? 'unreadable';
  if (list === 'unreadable')
    return [
      name,
      'unknown',
      'no node to try and the device cgroup is not readable here (cgroup v2 keeps it in an eBPF program)',
    ];
  const majors = parts.map((p) => p.split(' ')[1]?.split(':')[0]);
  const rules = list.split(';');
  const allows = rules.some((r) => {
    const [type, dev, access] = r.split(' ');
    return (
      (type === 'a' || type === 'b') &&
      /r/.test(access ?? '') &&
      (dev?.startsWith('*:') || majors.some((m) => dev?.startsWith(`${m}:`)))
    );
  });
  const nodeMade = caps.includes('mknod');
  if (allows && nodeMade)
    return [
      name,
      'yes',
      `by capability: CAP_SYS_ADMIN and CAP_MKNOD held, and the device cgroup allows reading block devices (${list}); no live disk node was here to try`,
    ];
  return [
    name,
    'no',
    `CAP_SYS_ADMIN held, but ${nodeMade ? '' : 'no CAP_MKNOD and '}the device cgroup (${list}) ${allows ? 'allows' : 'does not allow'} reading the disks`,
  ];
}

/** @param {string} writable @param {{point: string, line: string}[]} mounts @returns {[string, Answer, string]} */
function procSys(writable, mounts) {
  const m = mounts.find((x) => x.point === '/proc/sys') ?? mounts.find((x) => x.point === '/proc');
  const where = m ? `mount ${m.line}` : 'no mount line for /proc/sys';
  if (writable === 'yes')
    return ['proc_sys_writable', 'yes', `access(/proc/sys/kernel/panic, W_OK) succeeds; ${where}`];
  if (writable === 'no') return ['proc_sys_writable', 'no', `access(/proc/sys/kernel/panic, W_OK) fails; ${where}`];
  return ['proc_sys_writable', 'unknown', 'the probe did not report /proc/sys'];
}

/**
 * @param {string[]} writable "FILE yes|no root|subtree|unknown": access(W_OK) of each cgroup.procs, and
 *   whether its directory is the hierarchy's real root (see the probe) @returns {[string, Answer, string]}
 */
function hostCgroup(writable) {
  const name = 'host_cgroup_writable';
  const rows = writable.map((w) => {
    const [file, ok, root] = w.split(' ');
    return { file, ok: ok === 'yes', root: root ?? 'unknown' };
  });
  if (!rows.length) return [name, 'unknown', 'no cgroup control file found under /sys/fs/cgroup'];
  const open = rows.filter((r) => r.ok);
  if (!open.length)
    return [name, 'no', `no cgroup.procs under /sys/fs/cgroup is writable (access W_OK), ${rows.length} checked`];
  const list = (/** @type {typeof rows} */ rs) =>
    rs
      .slice(0, 3)
      .map((r) => r.file)
      .join(', ');
  const atRoot = open.filter((r) => r.root === 'root');
  if (atRoot.length)
    return [
      name,
      'yes',
      `writable at the hierarchy's real root (release_agent there, or no cgroup.type): ${list(atRoot)}`,
    ];
  const unsure = open.filter((r) => r.root !== 'subtree');
  if (unsure.length)
    return [name, 'unknown', `writable, but whether at the hierarchy's root cannot be told: ${list(unsure)}`];
  return [
    name,
    'no',
    `writable only in a subtree of its own, not the host's root (no release_agent there): ${list(open)}`,
  ];
}

/** @param {{point: string, fstype: string, line: string}[]} mounts @returns {[string, Answer, string]} */
function hostDev(mounts) {
  const dev = mounts.find((m) => m.point === '/dev');
  if (!dev) return ['host_dev', 'unknown', 'no mount line for /dev'];
  if (dev.fstype === 'devtmpfs')
    return ['host_dev', 'yes', `/dev is devtmpfs, the kernel's own device tree: ${dev.line}`];
  return ['host_dev', 'no', `/dev is a ${dev.fstype} of its own: ${dev.line}`];
}
