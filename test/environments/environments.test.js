// Every container environment against the real engine: it starts, runs a command, times a lifecycle,
// records its storage driver, and leaves the engine exactly as it found it.
// npm test: alone: it judges a lifecycle's timings (a container stops within 5 s)
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { ResourceTracker } from '../../src/engine/resources.js';
import { capability } from '../../src/environments/environment.js';
import { createEnvironment } from '../../src/environments/index.js';
import { dindImage } from '../../src/images/catalog.js';
import { onEngine } from '../helpers/engine.js';

const IMAGE = 'dind-bench/lifecycle:debian';

const cases = [
  { name: 'docker', engine: null, storage: null },
  { name: 'dind', engine: '20.10', storage: 'overlay2' },
  // No volume: Engine 20.10 cannot put overlay2 on the outer overlayfs and falls back to vfs.
  { name: 'dind-vfs', engine: '20.10', storage: 'vfs' },
  { name: 'dind', engine: '26.1', storage: 'overlay2' },
  // Rootless Podman in a container: kernel overlayfs in its user namespace, on a volume.
  { name: 'podman', engine: null, storage: 'overlay' },
];

for (const c of cases) {
  test(`${c.name}${c.engine ? `@${c.engine}` : ''}: runs, times its lifecycle, and leaves the engine as found`, async (t) => {
    const setup = await onEngine(t, {
      engines: c.engine ? [c.engine] : [],
      podman: c.name === 'podman' ? ['4.3'] : [],
    });
    if (!setup) return;
    const { outer } = setup;
    const tracker = new ResourceTracker(`test-env-${process.pid}-${c.name}`);
    const env = createEnvironment(c.name, outer, c.engine);
    try {
      const facts = await env.setup({ tracker, images: [IMAGE] });
      if (c.storage) assert.equal(facts.storageDriver, c.storage);
      if (c.engine) {
        assert.ok(facts.engineVersion?.startsWith(`${c.engine}.`), `inner engine ${facts.engineVersion}`);
        assert.ok(facts.dind && ['privileged', 'capabilities'].includes(facts.dind.mode));
        assert.ok(facts.dind.start_to_ready_ms > 0);
        assert.ok(facts.dind.imageLoadMs[IMAGE] > 0);
      }
      const r = await env.run({ image: IMAGE, cmd: ['sh', '-c', 'echo out; echo err >&2; exit 3'], timeoutMs: 30_000 });
      assert.equal(r.stdout, 'out\n');
      assert.equal(r.stderr, 'err\n');
      assert.equal(r.exitCode, 3);
      assert.ok(r.timings.create_ms > 0 && r.timings.start_ms > 0 && r.timings.run_ms >= r.timings.start_ms);
      // A non-root user reaches /bin/sh (servers such as postgres refuse root). vfs applies the image's
      // own mode of `/`, which overlay2 hides: a base with a 0700 root failed here, in dind-vfs only.
      const { docker } = capability(env, 'engineApi')();
      const asNobody = await docker.run(IMAGE, ['sh', '-c', 'stat -c %a /'], new PassThrough(), {
        User: 'nobody',
        HostConfig: { AutoRemove: false },
        Labels: tracker.labels,
      });
      const [nobodyRun, container] = /** @type {[any, any]} */ (asNobody);
      tracker.add('container', container.id, docker);
      assert.equal(nobodyRun.StatusCode, 0, 'user nobody ran sh');
      await container.remove({ force: true });
      tracker.forget(container.id);

      const p = await env.probeLifecycle({ image: IMAGE, timeoutMs: 30_000 });
      for (const k of /** @type {const} */ (['create_ms', 'start_ms', 'first_output_ms', 'stop_ms', 'remove_ms']))
        assert.ok(Number(p[k]) > 0, `${k} = ${p[k]}`);
      // The probe traps SIGTERM: a stop that waited for the 10 s kill would mean the probe is broken.
      assert.ok(p.stop_ms < 5000, `stop took ${p.stop_ms} ms`);
      assert.ok(Number(p.engine_start_ms) > 0, 'engine events seen');

      if (c.engine) await assertOwnCgroups(outer, env, tracker, facts);
      if (c.engine) {
        const cycle = await capability(env, 'daemonCycle')();
        assert.ok(cycle.start_to_ready_ms > 0 && cycle.stop_ms > 0);
      }
    } finally {
      await env.teardown();
      assert.deepEqual(await tracker.cleanup(outer), []);
    }
    await setup.leftAsFound();
  });
}

test("a DinD image that does not exist: setup fails with the engine's own message, nothing left behind", async (t) => {
  const setup = await onEngine(t, { images: false });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-env-missing-${process.pid}`);
  const env = createEnvironment('dind', outer, '0.0');
  await assert.rejects(
    env.setup({ tracker, images: [] }),
    new RegExp(
      `refused to start a DinD container in every mode:[\\s\\S]*No such image: ${dindImage('0.0').replace(/[./]/g, '\\$&')}`,
    ),
  );
  await env.teardown();
  await tracker.cleanup(outer);
  await setup.leftAsFound();
});

/**
 * DinD gets its own cgroup namespace (src/environments/dind-cgroup.js), recorded in the facts: an inner
 * container's cgroup is created inside the DinD container's own cgroup, never at the host's root.
 * @param {any} outer @param {any} env @param {ResourceTracker} tracker @param {any} facts
 */
async function assertOwnCgroups(outer, env, tracker, facts) {
  assert.equal(facts.dind.cgroup.namespace, 'private', facts.dind.cgroup.reason);
  const outerPid = (await outer.getContainer(env.daemon.containerId).inspect()).State.Pid;
  // The DinD container's cgroup as the host sees it (v1: the memory hierarchy; v2: the unified one).
  const lines = readFileSync(`/proc/${outerPid}/cgroup`, 'utf8').trim().split('\n');
  const line = lines.find((l) => /:memory:/.test(l)) ?? lines.find((l) => l.startsWith('0::'));
  const [, controller, own] = /** @type {string[]} */ (/^\d+:([^:]*):(.*)$/.exec(/** @type {string} */ (line)));
  const root = controller ? `/sys/fs/cgroup/${controller}` : '/sys/fs/cgroup';
  const { docker } = env.engineApi();
  const inner = await docker.createContainer({ Image: IMAGE, Cmd: ['sleep', '30'], Labels: tracker.labels });
  tracker.add('container', inner.id, docker);
  try {
    await inner.start();
    /** @param {string} dir @param {number} depth @returns {string | null} */
    const find = (dir, depth) => {
      if (depth < 0) return null;
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (!e.isDirectory()) continue;
        if (e.name.includes(inner.id)) return path.join(dir, e.name);
        const hit = find(path.join(dir, e.name), depth - 1);
        if (hit) return hit;
      }
      return null;
    };
    const where = find(path.join(root, own), 4);
    assert.ok(where, `the inner container's cgroup is under the DinD container's own ${path.join(root, own)}`);
    assert.ok(!existsSync(path.join(root, 'docker', inner.id)), 'not beside the outer containers at the host level');
  } finally {
    await inner.remove({ force: true });
    tracker.forget(inner.id);
  }
}
