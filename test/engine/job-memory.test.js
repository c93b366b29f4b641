// What one more job costs the runner's memory, the same scope in Docker and DinD (PSS from /proc), on
// the real engine: Docker's is the workload's shim plus the shared engine's growth; DinD's holds the
// inner engine too, so it must be the larger, by at least an inner dockerd's worth.
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import { ResourceTracker } from '../../src/engine/resources.js';
import { pssBytes } from '../../src/engine/stats.js';
import { createEnvironment } from '../../src/environments/index.js';
import { benchImage } from '../../src/images/catalog.js';
import { engineOrSkip, ensureImages, snapshot } from './helpers.js';

const IMAGE = benchImage('lifecycle', 'debian');
const MIB = 2 ** 20;

/** One job's cost, read while a workload container runs. @param {any} env */
async function costDuringJob(env) {
  const job = await env.jobMemory();
  assert.ok(job, "the engine's daemons are visible from here");
  await job.idle();
  /** @type {Promise<number | null> | null} */
  let during = null;
  const r = await env.run({
    image: IMAGE,
    cmd: ['sleep', '2'],
    timeoutMs: 60_000,
    onStarted: (/** @type {any} */ c) => (during = delay(700).then(() => job.during(c.id))),
  });
  assert.equal(r.exitCode, 0);
  return Number(await /** @type {any} */ (during));
}

test('job memory: PSS of this process is read, of a missing one skipped', async () => {
  assert.ok((await pssBytes([process.pid])) > 10 * MIB);
  assert.equal(await pssBytes(['999999999']), 0);
});

test('job memory: DinD costs the runner more than Docker, in the same scope', async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  await ensureImages(outer, ['20.10']);
  const before = await snapshot(outer);
  const tracker = new ResourceTracker(`test-job-memory-${process.pid}`);
  const docker = /** @type {any} */ (createEnvironment('docker', outer, null));
  const dind = /** @type {any} */ (createEnvironment('dind', outer, '20.10'));
  try {
    await docker.setup({ tracker, images: [IMAGE] });
    await dind.setup({ tracker, images: [IMAGE] });
    const d = await costDuringJob(docker);
    const i = await costDuringJob(dind);
    t.diagnostic(`one more job: docker ${(d / MIB).toFixed(1)} MiB, dind ${(i / MIB).toFixed(1)} MiB`);
    // A shim at least; the inner dockerd and containerd alone take tens of MiB.
    assert.ok(d > 0.5 * MIB, `docker ${d} bytes`);
    assert.ok(i > 20 * MIB, `dind ${i} bytes`);
    assert.ok(i > d + 10 * MIB, `dind ${i} vs docker ${d} bytes`);
  } finally {
    await dind.teardown();
    await docker.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  assert.deepEqual(await snapshot(outer), before);
});
