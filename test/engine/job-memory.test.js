// What one more job costs the runner's memory, the same scope in Docker and DinD (PSS from /proc), on
// the real engine: Docker's is the workload's shim plus the shared engine's growth; DinD's holds the
// inner engine too, so it must be the larger, by at least an inner dockerd's worth. The workload is real
// (a Perl process that writes WORKLOAD_MIB and holds it): its own memory is left out in both, though
// `top` on the DinD container lists it (its cgroup nests below the outer container's).
// npm test: alone: it measures the shared engine's memory growth for one job, which a neighbour's jobs grow too
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import { ResourceTracker } from '../../src/engine/resources.js';
import { pssBytes } from '../../src/engine/stats.js';
import { createEnvironment } from '../../src/environments/index.js';
import { benchImage } from '../../src/images/catalog.js';
import { onEngine } from '../helpers/engine.js';

const IMAGE = benchImage('lifecycle', 'debian');
const MIB = 2 ** 20;
const WORKLOAD_MIB = 96;
// Writes WORKLOAD_MIB (so it is resident), says so, then holds it for 4 s.
const WORKLOAD = ['perl', '-e', `$| = 1; my $a = "x" x (${WORKLOAD_MIB} << 20); print "held\\n"; sleep 4;`];

/**
 * One job's cost, read while the workload holds its memory, and the idle cost before it.
 * @param {any} env
 */
async function costDuringJob(env) {
  const job = await env.jobMemory();
  assert.ok(job, "the engine's daemons are visible from here");
  const idle = await job.idle();
  /** @type {Promise<number | null> | null} */
  let during = null;
  const r = await env.run({
    image: IMAGE,
    cmd: WORKLOAD,
    timeoutMs: 60_000,
    // Allocation takes well under a second; read in the middle of the hold.
    onStarted: (/** @type {any} */ c) => (during = delay(2000).then(() => job.during(c.id))),
  });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /held/);
  return { idle: Number(idle), during: Number(await /** @type {any} */ (during)) };
}

test('job memory: PSS of this process is read, of a missing one skipped', async () => {
  assert.ok((await pssBytes([process.pid])) > 10 * MIB);
  assert.equal(await pssBytes(['999999999']), 0);
});

test('job memory: DinD costs the runner more than Docker, in the same scope', async (t) => {
  const setup = await onEngine(t, { engines: ['20.10'] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-job-memory-${process.pid}`);
  const docker = /** @type {any} */ (createEnvironment('docker', outer, null));
  const dind = /** @type {any} */ (createEnvironment('dind', outer, '20.10'));
  try {
    await docker.setup({ tracker, images: [IMAGE] });
    await dind.setup({ tracker, images: [IMAGE] });
    const { during: d } = await costDuringJob(docker);
    const { idle, during: i } = await costDuringJob(dind);
    t.diagnostic(
      `one more job: docker ${(d / MIB).toFixed(1)} MiB, dind ${(i / MIB).toFixed(1)} MiB (idle ${(idle / MIB).toFixed(1)} MiB)`,
    );
    // A shim at least; the inner dockerd and containerd alone take tens of MiB.
    assert.ok(d > 0.5 * MIB, `docker ${d} bytes`);
    assert.ok(i > 20 * MIB, `dind ${i} bytes`);
    assert.ok(i > d + 10 * MIB, `dind ${i} vs docker ${d} bytes`);
    // The workload's memory is not the engine's: DinD's cost grew by less than half of it (a shim and
    // the inner engine's bookkeeping), where counting the workload would add all of it.
    assert.ok(
      i - idle < (WORKLOAD_MIB / 2) * MIB,
      `dind grew ${((i - idle) / MIB).toFixed(1)} MiB during the workload`,
    );
    assert.ok(d < (WORKLOAD_MIB / 2) * MIB, `docker ${d} bytes holds the workload`);
  } finally {
    await dind.teardown();
    await docker.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.leftAsFound();
});

test('job memory: a rootless inner engine (no cgroups on this host) has a job cost too, its workload left out', async (t) => {
  const setup = await onEngine(t, { engines: ['20.10'] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-job-memory-rootless-${process.pid}`);
  const env = /** @type {any} */ (createEnvironment('dind-rootless', outer, '20.10'));
  try {
    await env.setup({ tracker, images: [IMAGE] });
    const { idle, during } = await costDuringJob(env);
    t.diagnostic(`one more job: dind-rootless ${(during / MIB).toFixed(1)} MiB (idle ${(idle / MIB).toFixed(1)} MiB)`);
    assert.ok(during > 20 * MIB, `dind-rootless ${during} bytes`);
    // Without cgroups the workload sits in the outer container's own cgroup: only the process tree
    // tells it from the engine.
    assert.ok(during - idle < (WORKLOAD_MIB / 2) * MIB, `grew ${((during - idle) / MIB).toFixed(1)} MiB`);
  } finally {
    await env.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.leftAsFound();
});

test("job memory: rootless Podman's job cost leaves its workload out (conmon holds it, as a shim does)", async (t) => {
  const setup = await onEngine(t, { engines: [], podman: ['4.3'] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-job-memory-podman-${process.pid}`);
  const env = /** @type {any} */ (createEnvironment('podman', outer, null));
  try {
    await env.setup({ tracker, images: [IMAGE] });
    const { idle, during } = await costDuringJob(env);
    t.diagnostic(`one more job: podman ${(during / MIB).toFixed(1)} MiB (idle ${(idle / MIB).toFixed(1)} MiB)`);
    assert.ok(during > 10 * MIB, `podman ${during} bytes`);
    // Without cgroups (rootless, cgroup v1) the workload sits in the outer container's cgroup: only the
    // process tree, below conmon, tells it from Podman.
    assert.ok(during - idle < (WORKLOAD_MIB / 2) * MIB, `grew ${((during - idle) / MIB).toFixed(1)} MiB`);
  } finally {
    await env.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.leftAsFound();
});
