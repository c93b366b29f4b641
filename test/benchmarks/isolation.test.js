// The isolation probe on the real engine: each fact detected in an environment where it holds and absent
// in one where it does not, and each environment left as found.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { isolation, runnerView } from '../../src/benchmarks/isolation.js';
import { socketOf } from '../../src/engine/client.js';
import { ResourceTracker } from '../../src/engine/resources.js';
import { createEnvironment } from '../../src/environments/index.js';
import { benchImage } from '../../src/images/catalog.js';
import { modeFacts } from '../../src/model/isolation.js';
import { parseIsolationProbe } from '../../src/parsers/isolation.js';
import { onEngine } from '../helpers/engine.js';

const IMAGE = benchImage('lifecycle', 'debian');

/**
 * The isolation benchmark measured once in one environment: its facts, by scope and name.
 * @param {import('dockerode')} outer @param {string} name @param {string | null} engine
 */
async function probe(outer, name, engine) {
  const tracker = new ResourceTracker(`test-iso-${process.pid}-${name}`);
  const env = createEnvironment(name, outer, engine);
  /** @type {import('../../src/parsers/isolation.js').Fact[]} */
  let facts = [];
  try {
    await env.setup({ tracker, images: [IMAGE] });
    const metrics = await isolation.measure(env, {
      image: IMAGE,
      params: {},
      timeoutMs: 120_000,
      saveRaw: async () => {},
      recordFacts: (f) => (facts = f),
    });
    assert.equal(metrics[0].metric, 'probe.wall_ms');
    assert.ok(metrics[0].value > 0);
  } finally {
    await env.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  const at = (/** @type {string} */ scope, /** @type {string} */ fact) =>
    facts.find((f) => f.scope === scope && f.name === fact)?.value;
  return { facts, at, mode: modeFacts(facts) };
}

test('isolation: each fact detected where it holds and absent where it does not, on the real engine', async (t) => {
  const setup = await onEngine(t, { engines: ['20.10'] });
  if (!setup) return;
  const { outer } = setup;

  const docker = await probe(outer, 'docker', null);
  // Docker without privileges: a filtered, capability-limited container that cannot mount a host disk,
  // in its own pid namespace, but root there is the runner's root (no user namespace), and the job
  // drives the runner's engine.
  assert.equal(docker.at('workload', 'privileged'), 'no');
  assert.equal(docker.at('workload', 'seccomp'), 'filter');
  assert.equal(docker.at('workload', 'block_mount'), 'no');
  assert.equal(docker.at('workload', 'host_pids'), 'no');
  assert.equal(docker.at('workload', 'host_root'), 'yes');
  assert.equal(docker.at('workload', 'runner_engine'), 'no', 'no socket in the workload container');
  assert.equal(docker.at('workload', 'proc_sys_writable'), 'no');
  assert.equal(docker.at('workload', 'host_cgroup_writable'), 'no');
  assert.equal(docker.at('workload', 'host_dev'), 'no');
  assert.equal(docker.at('engine', 'runner_engine'), 'yes');
  assert.equal(docker.mode.privileged.value, 'no');

  // DooD: the job's container holds the runner engine's socket (same device and inode).
  const dood = await probe(outer, 'dood', null);
  assert.equal(dood.at('parent', 'runner_engine'), 'yes');
  assert.match(
    dood.facts.find((f) => f.scope === 'parent' && f.name === 'runner_engine')?.evidence ?? '',
    /same device and inode/,
  );
  assert.equal(dood.mode.runner_engine.value, 'yes');

  // DinD: the job drives an engine of its own, which runs in a container with every capability but one
  // and seccomp off: a job reaches those privileges by starting a container on it.
  const dind = await probe(outer, 'dind', '20.10');
  assert.equal(dind.at('engine', 'runner_engine'), 'no');
  assert.equal(dind.at('parent', 'runner_engine'), 'no');
  assert.equal(dind.at('workload', 'privileged'), 'no');
  assert.equal(dind.at('parent', 'privileged'), 'yes');
  assert.equal(dind.at('parent', 'seccomp'), 'disabled');
  assert.equal(dind.at('parent', 'block_mount'), 'yes', 'CAP_SYS_ADMIN, CAP_MKNOD and a device cgroup that allows all');
  assert.equal(dind.at('parent', 'proc_sys_writable'), 'yes');
  assert.equal(dind.mode.runner_engine.value, 'no');
  assert.equal(dind.mode.privileged.value, 'yes');

  // Rootless DinD: uid 0 of the workload is an unprivileged uid of the outer container, not the host's.
  const rootless = await probe(outer, 'dind-rootless', '20.10');
  assert.equal(rootless.at('workload', 'host_root'), 'no');
  assert.match(
    rootless.facts.find((f) => f.scope === 'workload' && f.name === 'host_root')?.evidence ?? '',
    /uid 0 is uid [1-9]/,
  );
  // Seen from its engine (nsenter into dockerd's namespaces): its capabilities hold only in its own user
  // namespace, so a job that drives it gets neither the host's root nor a privileged container.
  assert.equal(rootless.at('parent', 'host_root'), 'no');
  assert.equal(rootless.at('parent', 'privileged'), 'no');
  assert.equal(rootless.at('parent', 'block_mount'), 'no');
  assert.equal(rootless.mode.host_root.value, 'no');
  assert.equal(rootless.mode.privileged.value, 'no');

  await setup.nothingLeft();
});

/**
 * The probe in one container on the runner's engine made with `hostConfig` (what a mode would give a job),
 * its facts decided against the runner's view. Removed at once.
 * @param {import('dockerode')} outer @param {ResourceTracker} tracker @param {object} hostConfig
 */
async function probeContainer(outer, tracker, hostConfig) {
  const view = await runnerView(socketOf(outer));
  const script = await readFile(new URL('../../src/benchmarks/isolation-probe.sh', import.meta.url), 'utf8');
  const c = await tracker.creating(
    outer.createContainer({ Image: IMAGE, Cmd: ['sh', '-c', script], Labels: tracker.labels, HostConfig: hostConfig }),
  );
  tracker.add('container', c.id, outer);
  await c.start();
  await c.wait();
  const log = await c.logs({ stdout: true, stderr: false });
  await c.remove({ force: true });
  tracker.forget(c.id);
  // Strip the 8-byte frame headers of the non-TTY log.
  const text = [];
  for (let i = 0; i + 8 <= log.length;) {
    const len = log.readUInt32BE(i + 4);
    text.push(log.subarray(i + 8, i + 8 + len));
    i += 8 + len;
  }
  const out = Buffer.concat(text).toString('utf8');
  const facts = parseIsolationProbe(out, view, 'workload');
  return { out, of: (/** @type {string} */ n) => facts.find((f) => f.name === n) };
}

test('isolation: a host disk given to a container is visible, and mountable only with CAP_SYS_ADMIN (a read-only attempt)', async (t) => {
  const setup = await onEngine(t, { engines: [] });
  if (!setup) return;
  const { outer } = setup;
  const parts = (await readFile('/proc/partitions', 'utf8'))
    .split('\n')
    .slice(2)
    .map((l) => l.trim().split(/\s+/)[3]);
  const disk = parts.find((p) => p && !/^(loop|ram|zram|sr|nbd)/.test(p));
  if (!disk) return t.skip('no host disk listed in /proc/partitions');
  const tracker = new ResourceTracker(`test-iso-dev-${process.pid}`);
  const devices = [{ PathOnHost: `/dev/${disk}`, PathInContainer: `/dev/${disk}`, CgroupPermissions: 'r' }];
  try {
    const plain = await probeContainer(outer, tracker, { Devices: devices });
    assert.equal(plain.of('block_visible')?.value, 'yes');
    assert.match(plain.out, /mount\.try\t/, 'a mount was attempted');
    assert.equal(plain.of('block_mount')?.value, 'no', plain.of('block_mount')?.evidence);
    const admin = await probeContainer(outer, tracker, {
      Devices: devices,
      CapAdd: ['SYS_ADMIN'],
      SecurityOpt: ['seccomp=unconfined', 'apparmor=unconfined'],
    });
    assert.equal(admin.of('block_mount')?.value, 'yes', admin.of('block_mount')?.evidence);
  } finally {
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.nothingLeft();
});

test("isolation: the host's processes, cgroup tree and /dev, detected when a container is given them", async (t) => {
  const setup = await onEngine(t, { engines: [] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-iso-host-${process.pid}`);
  try {
    // The probe only reads: these binds are looked at with access(W_OK) and mountinfo, never written.
    const given = await probeContainer(outer, tracker, {
      PidMode: 'host',
      CgroupnsMode: 'host',
      Binds: ['/sys/fs/cgroup:/sys/fs/cgroup:rw', '/dev:/dev'],
    });
    assert.equal(given.of('host_pids')?.value, 'yes', given.of('host_pids')?.evidence);
    assert.equal(given.of('host_cgroup_writable')?.value, 'yes', given.of('host_cgroup_writable')?.evidence);
    assert.equal(given.of('host_dev')?.value, 'yes', given.of('host_dev')?.evidence);
    assert.equal(given.of('block_visible')?.value, 'yes');
    assert.equal(given.of('block_mount')?.value, 'no', 'still no CAP_SYS_ADMIN');
    const plain = await probeContainer(outer, tracker, {});
    for (const fact of ['host_pids', 'host_cgroup_writable', 'host_dev', 'block_visible'])
      assert.equal(plain.of(fact)?.value, 'no', `${fact}: ${plain.of(fact)?.evidence}`);
  } finally {
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.nothingLeft();
});
