// `dind-bench doctor`: can this machine run dind-bench, and if not, what to do. Each check says what it
// found and, when something is wrong, the fix. It contacts no registry and nothing outside this machine.
import { pingOnce, socketOf } from './engine/client.js';
import { CAPABILITY_SET, engineMessage } from './environments/dind-daemon.js';
import { buildxVersion } from './images/build.js';
import { DISTROS, ENGINE_VERSIONS, OFFLINE_BASES, dindImage } from './images/catalog.js';
import { imageExists } from './images/describe.js';
import { cgroupVersion } from './results/provenance.js';
import { stepIsolation } from './engine/step-pidns.js';
import { execFileSync } from 'node:child_process';

/** @typedef {{check: string, ok: boolean, detail: string, fix?: string}} Check */

/** @param {string} cmd */
const onPath = (cmd) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * The docker compose v2 plugin's version, or null when `docker compose` does not answer (a workload's
 * compose stack needs it).
 * @returns {string | null}
 */
function composeVersion() {
  try {
    return (
      execFileSync('docker', ['compose', 'version', '--short'], { encoding: 'utf8', timeout: 20_000 }).trim() || null
    );
  } catch {
    return null;
  }
}

/**
 * The compose plugin: installed on a runner by its provisioning (runners/common/provision.sh runs
 * install-plugins.sh), per job by the setup action where it can.
 * @param {string | null} version @returns {Check}
 */
export function composeCheck(version) {
  return {
    check: 'docker compose',
    ok: Boolean(version),
    detail: version
      ? `docker compose ${version}`
      : 'not installed (`docker compose version` fails): a workload with a compose stack cannot run',
    fix: version
      ? undefined
      : "on a runner, as root, the runner's provisioning step that installs it: `bash runners/common/install-plugins.sh compose` " +
        '(part of `runners/common/provision.sh`; the setup action runs it per job where it has root or sudo); ' +
        "Debian 13 and Ubuntu package it (docker-compose, docker-compose-v2), Docker's apt repository as docker-compose-plugin",
  };
}

/**
 * How a workload's steps are held here (../engine/step-pidns.js). A process group alone still runs every
 * workload, so it is no failure, but it is said with what would give each step a PID namespace.
 * @param {ReturnType<typeof stepIsolation>} isolation @returns {Check}
 */
export function isolationCheck(isolation) {
  const namespace = isolation.kind === 'pid-namespace';
  return {
    check: 'workload step isolation',
    ok: true,
    detail: isolation.how,
    fix: namespace
      ? undefined
      : 'run dind-bench as root, or allow unprivileged user namespaces (Debian, Ubuntu: `sysctl kernel.unprivileged_userns_clone=1`; ' +
        'Ubuntu 24.04: `sysctl kernel.apparmor_restrict_unprivileged_userns=0`); needs unshare (util-linux)',
  };
}

/**
 * @param {import('dockerode')} outer
 * @returns {Promise<Check[]>}
 */
export async function doctor(outer) {
  const reachable = await pingOnce(outer);
  const checks = [...(await hostChecks(outer, reachable))];
  if (!reachable) return checks;
  const info = await outer.info();
  checks.push({
    check: 'outer engine',
    ok: true,
    detail: `Docker Engine ${info.ServerVersion}, storage driver ${info.Driver}, cgroup v${info.CgroupVersion ?? '?'} (${info.CgroupDriver}), ${info.OperatingSystem}`,
  });
  checks.push(...(await imageChecks(outer)), await startModeCheck(outer));
  return checks;
}

/**
 * What this machine has before any engine is asked: the cgroup version, an engine answering, buildx, the
 * native tools.
 * @param {import('dockerode')} outer @param {boolean} reachable @returns {Promise<Check[]>}
 */
async function hostChecks(outer, reachable) {
  const buildx = await buildxVersion();
  const sysbenchHere = onPath('sysbench');
  return [
    { check: 'host cgroup version', ok: true, detail: `cgroup v${cgroupVersion()}` },
    {
      check: 'engine reachable',
      ok: reachable,
      detail: reachable ? `answers /_ping on ${socketOf(outer)}` : `nothing answers on ${socketOf(outer)}`,
      fix: reachable
        ? undefined
        : 'start an engine: as root `bash .ci/start-engine.sh` (installs nothing; run `bash .ci/install.sh` first on a fresh machine), or `systemctl start docker`',
    },
    {
      check: 'docker buildx',
      ok: Boolean(buildx),
      detail: buildx ? String(buildx) : 'not installed',
      fix: buildx
        ? undefined
        : 'on a runner, as root: `runners/common/provision.sh` (or the setup action installs it per job); ' +
          "on a development machine: `bash .ci/install.sh` (Debian's docker-buildx package; on Debian 12 from Debian 13, pinned)",
    },
    composeCheck(composeVersion()),
    isolationCheck(stepIsolation()),
    {
      check: 'native tools',
      ok: sysbenchHere,
      detail: sysbenchHere ? 'sysbench on PATH' : 'sysbench missing: the native environment runs the host tools',
      fix: sysbenchHere
        ? undefined
        : 'apt-get install sysbench; on a runner `runners/common/provision.sh` (or leave native out: --env docker,dind,dind-vfs)',
    },
  ];
}

/** Base images: what is there, what can be built without a registry; the DinD image per Engine line. @param {import('dockerode')} outer */
async function imageChecks(outer) {
  /** @type {Check[]} */
  const checks = [];
  const debootstrap = onPath('debootstrap');
  for (const [variable, ref] of Object.entries(OFFLINE_BASES)) {
    const present = await imageExists(outer, ref);
    checks.push({
      check: `base ${ref}`,
      ok: present || debootstrap,
      detail: present
        ? 'present'
        : debootstrap
          ? `buildable offline with debootstrap (${variable})`
          : 'missing, and debootstrap is not installed',
      fix: present || debootstrap ? undefined : 'apt-get install debootstrap, then `dind-bench images build`',
    });
  }
  for (const distro of DISTROS.filter((d) => d !== 'debian')) {
    checks.push({
      check: `${distro} images`,
      ok: true,
      detail: `built only from a registry base: \`dind-bench images build --distro ${distro} --pull\` where a registry is reachable; otherwise its cells are reported unavailable`,
    });
  }
  for (const engine of ENGINE_VERSIONS) {
    const present = await imageExists(outer, dindImage(engine));
    checks.push({
      check: `DinD image, Engine ${engine}`,
      ok: true,
      detail: present ? `${dindImage(engine)} present` : `not built yet (dind-bench images build --engine ${engine})`,
    });
  }
  return checks;
}

/** Can DinD start here, and how? A short-lived container with each mode on an image already here. @param {import('dockerode')} outer @returns {Promise<Check>} */
async function startModeCheck(outer) {
  const probeImage = await firstPresent(outer, [...ENGINE_VERSIONS.map(dindImage), ...Object.values(OFFLINE_BASES)]);
  if (!probeImage) {
    return {
      check: 'DinD start mode',
      ok: false,
      detail: 'no local image to probe with',
      fix: 'run `dind-bench images build` first, then `dind-bench doctor` again',
    };
  }
  const privileged = await tryStart(outer, probeImage, { Privileged: true });
  const caps = privileged === null ? null : await tryStart(outer, probeImage, CAPABILITY_SET);
  return {
    check: 'DinD start mode',
    ok: privileged === null || caps === null,
    detail:
      privileged === null
        ? '--privileged works'
        : caps === null
          ? `--privileged is refused (${privileged}); the explicit capability set works and will be used`
          : `--privileged is refused (${privileged}) and the capability set too (${caps})`,
    fix:
      privileged !== null && caps !== null
        ? 'DinD cells will be reported unavailable; run on a host whose engine allows privileged containers'
        : undefined,
  };
}

/** @param {import('dockerode')} outer @param {string[]} refs */
async function firstPresent(outer, refs) {
  for (const r of refs) if (await imageExists(outer, r)) return r;
  return null;
}

/**
 * Starts `true` with the given host config; null when it ran, the engine's message when refused.
 * @param {import('dockerode')} outer @param {string} image @param {object} hostConfig
 */
async function tryStart(outer, image, hostConfig) {
  /** @type {import('dockerode').Container | null} */
  let c = null;
  try {
    c = await outer.createContainer({
      Image: image,
      Entrypoint: ['true'],
      Cmd: [],
      Labels: { 'dind-bench.doctor': '1' },
      HostConfig: hostConfig,
    });
    await c.start();
    await c.wait();
    return null;
  } catch (e) {
    return engineMessage(e).trim();
  } finally {
    if (c) await c.remove({ force: true }).catch(() => {});
  }
}

/** @param {Check[]} checks */
export function formatChecks(checks) {
  return checks
    .map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.check}: ${c.detail}${c.fix ? `\n      fix: ${c.fix}` : ''}`)
    .join('\n');
}
