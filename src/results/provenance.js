// Where a run happened: host, runner, suite version. Everything a later comparison needs to decide
// whether two results are comparable at all.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function hostFacts() {
  const cpus = os.cpus();
  const cpuModel = cpus[0]?.model?.trim() ?? 'unknown';
  const memoryBytes = os.totalmem();
  return {
    hostname: os.hostname(),
    cpuModel,
    cores: cpus.length,
    memoryBytes,
    kernel: os.release(),
    arch: os.arch(),
    distribution: osRelease(),
    cgroupVersion: cgroupVersion(),
    // Same hardware, same fingerprint: history comparisons only pair runs with the same one.
    fingerprint: createHash('sha256').update(`${cpuModel}|${cpus.length}|${Math.round(memoryBytes / 2 ** 30)}|${os.arch()}`).digest('hex').slice(0, 16),
  };
}

function osRelease() {
  try {
    const m = readFileSync('/etc/os-release', 'utf8').match(/^PRETTY_NAME="?([^"\n]*)"?/m);
    return m ? m[1] : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** "2" when /sys/fs/cgroup is the unified hierarchy, "1" otherwise. */
export function cgroupVersion() {
  return existsSync('/sys/fs/cgroup/cgroup.controllers') ? '2' : '1';
}

/**
 * The runner: name and labels from GitHub Actions or the caller, and the cloud machine type where the
 * machine itself says it is a cloud VM (DMI), so no request ever leaves a machine that is not one.
 * @param {{labels?: string[]}} [opts]
 */
export async function runnerFacts({ labels } = {}) {
  const envLabels = (process.env.DIND_BENCH_RUNNER_LABELS || '').split(',').map((s) => s.trim()).filter(Boolean);
  return {
    name: process.env.RUNNER_NAME || os.hostname(),
    labels: labels && labels.length ? labels : envLabels,
    githubActions: process.env.GITHUB_ACTIONS === 'true',
    machineType: await cloudMachineType(),
  };
}

const dmi = (/** @type {string} */ key) => {
  try {
    return readFileSync(`/sys/class/dmi/id/${key}`, 'utf8').trim();
  } catch {
    return '';
  }
};

/** @returns {Promise<{cloud: string, machineType: string} | null>} */
async function cloudMachineType() {
  if (dmi('product_name') !== 'Google Compute Engine') return null;
  // The GCE metadata server; asked only on a GCE VM, with a short timeout.
  try {
    const res = await fetch('http://metadata.google.internal/computeMetadata/v1/instance/machine-type', {
      headers: { 'Metadata-Flavor': 'Google' },
      signal: AbortSignal.timeout(1000),
    });
    if (!res.ok) return null;
    return { cloud: 'gce', machineType: (await res.text()).split('/').pop() ?? '' };
  } catch {
    return null;
  }
}

export async function suiteFacts() {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  let commit = process.env.GITHUB_SHA || null;
  if (!commit) {
    try {
      commit = (await run('git', ['-C', ROOT, 'rev-parse', 'HEAD'])).stdout.trim();
    } catch {
      commit = null;
    }
  }
  return { name: pkg.name, version: pkg.version, commit };
}
