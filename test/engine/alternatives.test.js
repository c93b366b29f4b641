// The alternatives to DinD as environments, on the real engine: each runs a command and records what
// its inner engine really is (storage driver, rootless), or is unavailable with the engine's own
// reason; and each leaves the engine as it found it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResourceTracker } from '../../src/engine/resources.js';
import { createEnvironment, isDind } from '../../src/environments/index.js';
import { benchImage } from '../../src/images/catalog.js';
import { engineOrSkip, ensureImages, snapshot } from './helpers.js';

const IMAGE = benchImage('lifecycle', 'debian');

/**
 * @type {{name: string, engine: string | null, check: (facts: any, env: any) => Promise<void>}[]}
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
  {
    name: 'dind-rootless',
    engine: '20.10',
    check: async (facts, env) => {
      const info = await env.engineApi().docker.info();
      assert.ok(
        info.SecurityOptions.some((/** @type {string} */ o) => /name=rootless/.test(o)),
        `security options ${info.SecurityOptions}`,
      );
      assert.match(info.DockerRootDir, /^\/home\/rootless\//);
    },
  },
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
];

for (const c of cases) {
  test(`${c.name}${c.engine ? `@${c.engine}` : ''}: runs a command and is what it says`, async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    await ensureImages(outer, c.engine ? [c.engine] : []);
    assert.equal(isDind(c.name), c.engine !== null);
    const before = await snapshot(outer);
    const tracker = new ResourceTracker(`test-alt-${process.pid}-${c.name}`);
    const env = /** @type {any} */ (createEnvironment(c.name, outer, c.engine));
    try {
      const facts = await env.setup({ tracker, images: [IMAGE] });
      await c.check(facts, env);
      const r = await env.run({ image: IMAGE, cmd: ['sh', '-c', 'echo out; exit 3'], timeoutMs: 60_000 });
      assert.equal(r.stdout, 'out\n');
      assert.equal(r.exitCode, 3);
      const timeline = await env.startupTimeline({ image: IMAGE, timeoutMs: 60_000 });
      assert.ok(timeline.total_ms > 0 && timeline.missing.length === 0);
      if (env.daemonCycle) {
        const cycle = await env.daemonCycle();
        assert.deepEqual(cycle.timeline.missing, [], 'every start-up mark seen');
      }
    } finally {
      await env.teardown();
      assert.deepEqual(await tracker.cleanup(outer), []);
    }
    assert.deepEqual(await snapshot(outer), before);
  });
}

test('dind-containerd-store@20.10: unavailable, with what the inner engine reported', async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  await ensureImages(outer, ['20.10']);
  const before = await snapshot(outer);
  const tracker = new ResourceTracker(`test-alt-cs-${process.pid}`);
  const env = createEnvironment('dind-containerd-store', outer, '20.10');
  await assert.rejects(
    env.setup({ tracker, images: [] }),
    /Engine 20\.10\.\S+ did not enable the containerd image store \(storage driver overlay2/,
  );
  await env.teardown();
  assert.deepEqual(await tracker.cleanup(outer), []);
  assert.deepEqual(await snapshot(outer), before);
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
