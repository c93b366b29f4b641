// Where a run happened: host, runner, suite version. Everything a later comparison needs to decide
// whether two results are comparable at all.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** @returns {import('#model/results.js').Host} */
export function hostFacts() {
  const cpus = os.cpus();
  const cpuModel = cpus[0]?.model?.trim() ?? 'unknown';
  const memoryBytes = os.totalmem();
  const kind = runnerKind();
  return {
    hostname: os.hostname(),
    cpuModel,
    cores: cpus.length,
    memoryBytes,
    kernel: os.release(),
    arch: os.arch(),
    distribution: osRelease(),
    cgroupVersion: cgroupVersion(),
    kind,
    // Same hardware and runner kind, same fingerprint: history comparisons only pair runs with the same one.
    fingerprint: hardwareFingerprint({ cpuModel, cores: cpus.length, memoryBytes, arch: os.arch(), kind }),
  };
}

/** A runner kind's name: what DIND_BENCH_RUNNER_KIND may say. */
export const RUNNER_KIND = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * What kind of runner this is, for the history's series: `k8s` in a Kubernetes pod (actions-runner-
 * controller: the kubelet gives every container KUBERNETES_SERVICE_HOST, and a service account folder
 * unless that is turned off), `machine` otherwise (a VM or a physical machine, as every run before this
 * was keyed), or what DIND_BENCH_RUNNER_KIND says (a provisioning that knows better; checked). An ARC pod
 * and a VM of one machine type have the same CPU, cores and memory, but not the same engine, storage and
 * neighbours: they must not share a series.
 * @param {NodeJS.ProcessEnv} [env] @param {(p: string) => boolean} [exists]
 */
export function runnerKind(env = process.env, exists = existsSync) {
  const own = env.DIND_BENCH_RUNNER_KIND;
  if (own !== undefined && own !== '') {
    if (!RUNNER_KIND.test(own)) {
      throw new Error(
        `DIND_BENCH_RUNNER_KIND=${JSON.stringify(own.slice(0, 80))} is not a runner kind (expected ${RUNNER_KIND}, e.g. k8s or machine); unset it or fix the runner's environment`,
      );
    }
    return own;
  }
  if (env.KUBERNETES_SERVICE_HOST || exists('/var/run/secrets/kubernetes.io/serviceaccount')) return 'k8s';
  return 'machine';
}

/**
 * The history's key for "the same runner": a hash of the hardware (CPU model, cores, memory in whole GiB,
 * architecture) and of the runner kind. The kind `machine` adds nothing, so a VM or lab machine keeps the
 * fingerprint (and every series) it had before kinds were recorded; any other kind makes a fingerprint, so
 * a series, of its own (docs/method.md, "Runner kinds").
 * @param {{ cpuModel: string, cores: number, memoryBytes: number, arch: string, kind: string }} h
 */
export function hardwareFingerprint({ cpuModel, cores, memoryBytes, arch, kind }) {
  const hardware = `${cpuModel}|${cores}|${Math.round(memoryBytes / 2 ** 30)}|${arch}`;
  const text = kind === 'machine' ? hardware : `${hardware}|kind=${kind}`;
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function osRelease() {
  try {
    const m = readFileSync('/etc/os-release', 'utf8').match(/^PRETTY_NAME="?([^"\n]*)"?/m);
    return m ? m[1] : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** "2" when /sys/fs/cgroup is the unified hierarchy, "1" otherwise. @returns {'1' | '2'} */
export function cgroupVersion() {
  return existsSync('/sys/fs/cgroup/cgroup.controllers') ? '2' : '1';
}

/**
 * The runner: name and labels from GitHub Actions or the caller, and the cloud machine type where the
 * machine itself says it is a cloud VM (DMI), so no request ever leaves a machine that is not one.
 * @param {{labels?: string[]}} [opts]
 */
export async function runnerFacts({ labels } = {}) {
  const envLabels = (process.env.DIND_BENCH_RUNNER_LABELS || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
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

/**
 * The suite itself: its version (package.json) and the ref and commit of its own checkout. Never
 * GITHUB_SHA: called from another repository, that is the caller's commit (see callerFacts). Where the
 * suite has no git checkout of its own (an action downloaded as an archive, or the suite vendored inside
 * the caller's repository, whose HEAD is not ours), the action passes what it knows through
 * DIND_BENCH_SUITE_REPOSITORY / _REF / _COMMIT (github.action_repository, github.action_ref).
 * @returns {{name: string, version: string, commit: string | null, ref: string | null, repository: string | null}}
 */
export function suiteFactsSync() {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const env = process.env;
  const git = ownGit();
  return {
    name: pkg.name,
    version: pkg.version,
    commit: checked(env.DIND_BENCH_SUITE_COMMIT, COMMIT, 'DIND_BENCH_SUITE_COMMIT') ?? git.commit,
    ref: checked(env.DIND_BENCH_SUITE_REF, REF, 'DIND_BENCH_SUITE_REF') ?? git.ref,
    repository: checked(env.DIND_BENCH_SUITE_REPOSITORY, REPOSITORY, 'DIND_BENCH_SUITE_REPOSITORY'),
  };
}

export async function suiteFacts() {
  return suiteFactsSync();
}

/** `dind-bench --version`: "0.1.0 (v0.1.0-3-gabc1234, commit abc1234...)", or the version alone. */
export function versionLine() {
  const s = suiteFactsSync();
  const where = [s.ref, s.commit && s.commit !== s.ref ? `commit ${s.commit}` : null].filter(Boolean);
  return where.length ? `${s.version} (${where.join(', ')})` : s.version;
}

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
// Branch and tag names as git allows them, bounded; refs/heads/... and refs/pull/1/merge included.
const REF = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._/+-]{0,199}$/;
const REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/;

/**
 * An environment value checked against its pattern: absent is null; present but malformed is refused,
 * because recording a wrong provenance silently is worse than stopping.
 * @param {string | undefined} value @param {RegExp} pattern @param {string} name
 */
function checked(value, pattern, name) {
  if (value === undefined || value === '') return null;
  if (!pattern.test(value)) {
    const shown = JSON.stringify(value.slice(0, 80));
    throw new Error(`${name}=${shown} is not valid (expected ${pattern}); unset it or fix the workflow that sets it`);
  }
  return value;
}

/** The commit and a describing ref of the suite's checkout, only when ROOT is the top of that checkout. */
function ownGit() {
  const git = (/** @type {string[]} */ ...args) =>
    execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    if (path.resolve(git('rev-parse', '--show-toplevel')) !== path.resolve(ROOT)) return { commit: null, ref: null };
    const commit = git('rev-parse', 'HEAD');
    let ref = null;
    try {
      ref = git('describe', '--tags', '--always', '--dirty');
    } catch {
      ref = null;
    }
    return { commit: COMMIT.test(commit) ? commit : null, ref: ref && REF.test(ref) ? ref : null };
  } catch {
    return { commit: null, ref: null };
  }
}

/**
 * @typedef {{name: string | null, email: string | null, username: string | null}} GitPerson
 * @typedef {{repository: string | null, commit: string | null, ref: string | null, author: GitPerson | null,
 *   committer: GitPerson | null}} CallerFacts
 */

/**
 * The repository whose workflow ran the suite, and its commit (GITHUB_REPOSITORY, GITHUB_SHA, GITHUB_REF),
 * with the commit's author and committer from a push event's payload (github-action-benchmark's page shows
 * them), or the actor who started the run otherwise. null outside GitHub Actions. Names and e-mails in
 * the payload come from whoever pushed: bounded here, escaped wherever they are printed.
 * @returns {CallerFacts | null}
 */
export function callerFacts(env = process.env) {
  if (env.GITHUB_ACTIONS !== 'true') return null;
  const facts = {
    repository: checked(env.GITHUB_REPOSITORY, REPOSITORY, 'GITHUB_REPOSITORY'),
    commit: checked(env.GITHUB_SHA, COMMIT, 'GITHUB_SHA'),
    ref: checked(env.GITHUB_REF, REF, 'GITHUB_REF'),
    author: null,
    committer: null,
  };
  const head = eventHeadCommit(env.GITHUB_EVENT_PATH);
  const actor = person({ username: env.GITHUB_ACTOR });
  return { ...facts, author: person(head?.author) ?? actor, committer: person(head?.committer) ?? actor };
}

/** The push event's head_commit, when the payload has one. @param {string | undefined} file */
function eventHeadCommit(file) {
  if (!file) return null;
  try {
    if (statSync(file).size > 25 * 2 ** 20) return null;
    const head = JSON.parse(readFileSync(file, 'utf8'))?.head_commit;
    return head && typeof head === 'object' ? head : null;
  } catch {
    return null;
  }
}

/** @param {any} p from the event payload (untrusted): any, each field is read only as a string when it is one @returns {GitPerson | null} */
function person(p) {
  if (!p || typeof p !== 'object') return null;
  const field = (/** @type {unknown} */ v) =>
    typeof v === 'string' && v.trim() ? v.replace(CONTROL, ' ').trim().slice(0, 100) : null;
  const out = { name: field(p.name), email: field(p.email), username: field(p.username) };
  return out.name || out.username ? out : null;
}

// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROL = /[\u0000-\u001f\u007f]/g;
