// The alternatives to DinD as environments, on the real engine: each runs a command and records what
// its inner engine really is (storage driver, rootless), or is unavailable with the engine's own
// reason; and each leaves the engine as it found it.
// npm test: alone: start-up phases must add up within 5% to a stopwatch, and a lifecycle probe take < 5 s
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { ResourceTracker } from '../../src/engine/resources.js';
import { CONTAINER_TIMELINE } from '../../src/engine/startup.js';
import { createEnvironment, hasEngineLines } from '../../src/environments/index.js';
import { benchImage } from '../../src/images/catalog.js';
import { SOCKET_PARENT } from '../../src/environments/dind-daemon.js';
import { engineOrSkip, onEngine } from '../helpers/engine.js';
import { withHealthChecks } from '../../src/workload/compose-run.js';
import path from 'node:path';

const IMAGE = benchImage('lifecycle', 'debian');

/**
 * Phases of a timeline: none negative, none out of order, and their sum within 5% of a stopwatch the
 * test held itself around the same start.
 * @param {any} t @param {number} measured @param {string} what
 */
function assertAddsUp(t, measured, what) {
  assert.deepEqual(t.clamped, [], `${what}: marks out of order`);
  for (const p of t.phases) assert.ok(p.ms >= 0, `${what}: ${p.phase} = ${p.ms}`);
  assert.ok(Number.isFinite(measured) && measured > 0, `${what}: the stopwatch was not stopped`);
  const sum = t.phases.reduce((/** @type {number} */ a, /** @type {any} */ p) => a + p.ms, 0);
  assert.ok(Math.abs(sum - measured) <= 0.05 * measured, `${what}: phases ${sum} ms, stopwatch ${measured} ms`);
}

/** The phases a fresh dockerd shows on its way to /_ping, from its own log. */
const DOCKERD_PHASES = ['prepare', 'outer_create', 'containerd_start', 'network_setup', 'ping_ready'];

/**
 * @type {{name: string, engine: string | null, check: (facts: any, env: any) => Promise<void>, daemonPhases?: string[]}[]}
 */
const cases = [
  {
    name: 'dood',
    engine: null,
    check: async (facts, env) => {
      assert.equal(facts.engineVersion, (await env.outer.info()).ServerVersion, "the runner's own engine");
      const job = await env.outer.getContainer(env.jobContainer).inspect();
      assert.ok(
        job.State.Running &&
          job.HostConfig.Binds.some((/** @type {string} */ b) => b.endsWith(':/var/run/docker.sock')),
        'the job container holds the socket',
      );
    },
  },
  ...['20.10', '26.1'].map((engine) => ({
    name: 'dind-rootless',
    engine,
    check: async (/** @type {any} */ facts, /** @type {any} */ env) => {
      const info = await env.engineApi().docker.info();
      assert.ok(
        info.SecurityOptions.some((/** @type {string} */ o) => /name=rootless/.test(o)),
        `security options ${info.SecurityOptions}`,
      );
      assert.match(info.DockerRootDir, /^\/home\/rootless\//);
      assert.ok(facts.engineVersion.startsWith(engine), `engine ${facts.engineVersion}`);
      // What rootless means: root in the workload's container is not root outside it. Its user
      // namespace maps uid 0 to one unprivileged uid, not the whole range from 0 as a rootful engine does.
      const r = await env.run({ image: IMAGE, cmd: ['cat', '/proc/self/uid_map'], timeoutMs: 60_000 });
      const [inside, outside] = r.stdout.trim().split('\n')[0].trim().split(/\s+/).map(Number);
      assert.equal(inside, 0);
      assert.ok(outside > 0, `uid 0 in the container is uid ${outside} outside: ${r.stdout}`);
    },
  })),
  {
    name: 'dind-fuse-overlayfs',
    engine: '20.10',
    check: async (facts) => assert.equal(facts.storageDriver, 'fuse-overlayfs'),
  },
  {
    name: 'dind-fuse-overlayfs',
    engine: '26.1',
    check: async (facts) => assert.equal(facts.storageDriver, 'fuse-overlayfs'),
  },
  {
    name: 'dind-containerd-store',
    engine: '26.1',
    check: async (facts) => assert.equal(facts.storageDriver, 'overlayfs'),
  },
  {
    name: 'podman',
    engine: null,
    // Podman logs no phases of its own start: the outer container, the entrypoint, then the API service to /_ping.
    daemonPhases: ['prepare', 'outer_create', 'outer_start', 'entrypoint', 'ping_ready'],
    check: async (facts, env) => {
      assert.match(facts.engineVersion, /^4\.3\./, 'Podman 4.3 answers the Docker-compatible /version');
      assert.equal(facts.storageDriver, 'overlay', 'kernel overlayfs in the user namespace, on the volume');
      assert.equal(facts.dind.mode, 'userns');
      assert.equal(env.engineApi().builder, 'Buildah');
      // What the outer container got: no privileges, no added capability, one device.
      const outer = await env.outer.getContainer(env.daemon.containerId).inspect();
      assert.equal(outer.HostConfig.Privileged, false);
      assert.ok(!outer.HostConfig.CapAdd?.length, `capabilities added: ${outer.HostConfig.CapAdd}`);
      assert.deepEqual(
        outer.HostConfig.Devices.map((/** @type {any} */ d) => d.PathOnHost),
        ['/dev/net/tun'],
      );
      // Podman itself runs as the unprivileged user, not root of the outer container.
      const top = await env.outer.getContainer(env.daemon.containerId).top({ ps_args: '-o pid,user,comm' });
      const service = top.Processes.find((/** @type {string[]} */ p) => p[2] === 'podman');
      assert.ok(service, `podman in ${JSON.stringify(top.Processes)}`);
      assert.notEqual(service[1], 'root', 'the API service runs as root');
      // The lifecycle probe reads Podman's events too: it names Docker's `destroy` `remove`, and a probe that
      // waited for `destroy` sat out its 5 s event wait on every cycle.
      const t0 = performance.now();
      const p = await env.probeLifecycle({ image: IMAGE, timeoutMs: 60_000 });
      assert.ok(performance.now() - t0 < 5000, `the probe took ${Math.round(performance.now() - t0)} ms`);
      assert.ok(p.engine_start_ms > 0, 'create and start events seen');
      // Rootless: uid 0 in the workload's container is not uid 0 outside it.
      const r = await env.run({ image: IMAGE, cmd: ['cat', '/proc/self/uid_map'], timeoutMs: 60_000 });
      const [inside, outside] = r.stdout.trim().split('\n')[0].trim().split(/\s+/).map(Number);
      assert.equal(inside, 0);
      assert.ok(outside > 0, `uid 0 in the container is uid ${outside} outside: ${r.stdout}`);
    },
  },
];

for (const c of cases) {
  test(`${c.name}${c.engine ? `@${c.engine}` : ''}: runs a command and is what it says`, async (t) => {
    const setup = await onEngine(t, {
      engines: c.engine ? [c.engine] : [],
      podman: c.name === 'podman' ? ['4.3'] : [],
    });
    if (!setup) return;
    const { outer } = setup;
    assert.equal(hasEngineLines(c.name), c.engine !== null);
    const tracker = new ResourceTracker(`test-alt-${process.pid}-${c.name}`);
    const env = /** @type {any} */ (createEnvironment(c.name, outer, c.engine));
    try {
      const facts = await env.setup({ tracker, images: [IMAGE] });
      await c.check(facts, env);
      const r = await env.run({ image: IMAGE, cmd: ['sh', '-c', 'echo out; exit 3'], timeoutMs: 60_000 });
      assert.equal(r.stdout, 'out\n');
      assert.equal(r.exitCode, 3);
      // The first container's phases, each measured, adding up to this test's own stopwatch.
      let t0 = performance.now();
      let t1 = NaN;
      const onEnd = () => (t1 = Number.isNaN(t1) ? performance.now() : t1);
      const timeline = await env.startupTimeline({ image: IMAGE, timeoutMs: 60_000, onEnd });
      assert.deepEqual(
        timeline.phases.map((/** @type {any} */ p) => p.phase),
        CONTAINER_TIMELINE.slice(1).map(([, p]) => p),
      );
      assertAddsUp(timeline, t1 - t0, `${c.name} first container`);
      if (env.daemonCycle) {
        // A fresh inner daemon of the variant, to /_ping: dockerd's own phases read from its log.
        t0 = performance.now();
        t1 = NaN;
        const cycle = await env.daemonCycle({ onEnd });
        assert.deepEqual(cycle.timeline.missing, [], 'every start-up mark seen');
        const names = cycle.timeline.phases.map((/** @type {any} */ p) => p.phase);
        for (const p of c.daemonPhases ?? DOCKERD_PHASES) assert.ok(names.includes(p), `${p} in ${names}`);
        assertAddsUp(cycle.timeline, t1 - t0, `${c.name} daemon`);
      }
    } finally {
      await env.teardown();
      assert.deepEqual(await tracker.cleanup(outer), []);
    }
    await setup.leftAsFound();
  });
}

test('dind-containerd-store@20.10: unavailable, with what the inner engine reported', async (t) => {
  const setup = await onEngine(t, { engines: ['20.10'] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-alt-cs-${process.pid}`);
  const env = createEnvironment('dind-containerd-store', outer, '20.10');
  await assert.rejects(
    env.setup({ tracker, images: [] }),
    /Engine 20\.10\.\S+ did not enable the containerd image store \(storage driver overlay2/,
  );
  await env.teardown();
  assert.deepEqual(await tracker.cleanup(outer), []);
  await setup.leftAsFound();
});

test('sysbox: unavailable here, naming the runtimes the engine has and how to install Sysbox', async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  const runtimes = Object.keys((await outer.info()).Runtimes ?? {});
  if (runtimes.includes('sysbox-runc'))
    return t.skip('this engine has sysbox-runc: the unavailable path does not apply');
  const tracker = new ResourceTracker(`test-alt-sysbox-${process.pid}`);
  const env = createEnvironment('sysbox', outer, '20.10');
  await assert.rejects(env.setup({ tracker, images: [] }), (e) => {
    assert.match(
      /** @type {Error} */ (e).message,
      new RegExp(`no sysbox-runc runtime \\(its runtimes: ${runtimes[0]}`),
    );
    assert.match(/** @type {Error} */ (e).message, /install Sysbox on the runner/);
    return true;
  });
  await env.teardown();
  assert.deepEqual(await tracker.cleanup(outer), []);
});

/** The run's socket folders on the host that hold a podman runtime folder (the podman image makes one). */
const podmanSocketDirs = () =>
  readdirSync(SOCKET_PARENT)
    .filter((d) => d.startsWith('dind-bench-') && existsSync(path.join(SOCKET_PARENT, d, 'podman')))
    .sort();

test('podman: an image its setup cannot load fails the setup, and what it started is gone', async (t) => {
  const setup = await onEngine(t, { engines: [], podman: ['4.3'] });
  if (!setup) return;
  const { outer } = setup;
  const dirs = podmanSocketDirs();
  const tracker = new ResourceTracker(`test-alt-podman-fail-${process.pid}`);
  const env = createEnvironment('podman', outer, null);
  try {
    // The service comes up; then loading an image the runner's engine does not have fails.
    await assert.rejects(env.setup({ tracker, images: ['dind-bench/no-such-image:none'] }), /reference does not exist/);
  } finally {
    // Also when the assertion fails: a test that leaves its podman container running is what it checks for.
    await env.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.leftAsFound();
  assert.deepEqual(podmanSocketDirs(), dirs, 'the socket folder was removed');
});

test("podman: under the engine's default seccomp profile it cannot make its user namespace, and says so", async (t) => {
  const setup = await onEngine(t, { engines: [], podman: ['4.3'] });
  if (!setup) return;
  const { outer } = setup;
  const dirs = podmanSocketDirs();
  const tracker = new ResourceTracker(`test-alt-podman-seccomp-${process.pid}`);
  const env = /** @type {import('../../src/environments/podman.js').PodmanEnvironment} */ (
    createEnvironment('podman', outer, null)
  );
  // The engine's defaults: seccomp's default profile, /proc masked (what each part of PODMAN_SECURITY lifts).
  env.variant = { ...env.variant, userns: {} };
  try {
    await assert.rejects(env.setup({ tracker, images: [] }), (e) => {
      const message = /** @type {Error} */ (e).message;
      assert.match(message, /the inner daemon \(dind-bench\/podman:4\.3, userns\) did not come up/);
      // Podman's own words, from the outer container's log.
      assert.match(message, /cannot clone: Operation not permitted|cannot re-exec process/);
      return true;
    });
  } finally {
    await env.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.leftAsFound();
  assert.deepEqual(podmanSocketDirs(), dirs, 'the socket folder was removed');
});

test('podman runs no health checks (no systemd): a failed compose wait names the services whose check never ran', async (t) => {
  const setup = await onEngine(t, { engines: [], podman: ['4.3'] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-alt-podman-health-${process.pid}`);
  const env = /** @type {any} */ (createEnvironment('podman', outer, null));
  try {
    await env.setup({ tracker, images: [IMAGE] });
    const { docker } = env.engineApi();
    const project = `dind-bench-health-${process.pid}`;
    const c = await docker.createContainer({
      Image: IMAGE,
      Cmd: ['sleep', '60'],
      Labels: { ...tracker.labels, 'com.docker.compose.project': project, 'com.docker.compose.service': 'db' },
      Healthcheck: { Test: ['CMD-SHELL', 'true'], Interval: 1e9, Timeout: 2e9, Retries: 3 },
    });
    tracker.add('container', c.id, docker);
    await c.start();
    // Three intervals: a check that runs has a result by then.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const e = await withHealthChecks(new Error('step compose-up: killed\nlog tail'), docker, project);
    // On the first line, which a failed cell's reason keeps.
    assert.match(
      e.message,
      /^step compose-up: killed; the health check of "db" never ran \(still "starting", no result\)[^\n]*\nlog tail$/,
    );
    // Another project's containers are not named.
    const other = await withHealthChecks(new Error('x'), docker, `${project}-other`);
    assert.equal(other.message, 'x');
  } finally {
    await env.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.leftAsFound();
});
