// The Environment contract's guards, without an engine: what a benchmark or runner sees when it uses an
// environment wrongly (before setup, or a capability the environment does not have).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Docker from 'dockerode';
import { ENVIRONMENT_NAMES, createEnvironment, hasEngineLines } from '../../src/environments/index.js';
import { capability } from '../../src/environments/environment.js';

// Never contacted: every call below fails before it would reach an engine.
const unreachable = new Docker({ socketPath: '/nonexistent/docker.sock' });

// Every environment that runs on an engine (all but native, tested below), from the one list of names.
for (const name of ENVIRONMENT_NAMES.filter((n) => n !== 'native')) {
  const engine = hasEngineLines(name) ? '20.10' : null;
  test(`${name}: every engine call before setup() fails naming the environment`, async () => {
    const env = createEnvironment(name, unreachable, engine);
    await assert.rejects(
      env.run({ image: 'x', cmd: ['true'], timeoutMs: 1000 }),
      new RegExp(`^Error: ${name}: setup\\(\\) did not complete`),
    );
    await assert.rejects(
      env.startService(/** @type {any} */ ({ name: 's', network: 'bridge' })),
      /setup\(\) did not complete/,
    );
    assert.throws(() => env.probeLifecycle({ image: 'x', timeoutMs: 1000 }), /setup\(\) did not complete/);
    assert.throws(() => capability(env, 'engineApi')(), /setup\(\) did not complete/);
    await env.teardown(); // nothing to remove: no error
  });
}

test('native: a capability it lacks fails with what to do, not a TypeError', () => {
  const env = createEnvironment('native', unreachable, null);
  assert.deepEqual(env.networkModes, ['host']);
  assert.throws(
    () => capability(env, 'engineApi'),
    /^Error: native has no engineApi\(\): list it in the benchmark's unavailableIn$/,
  );
  assert.equal(env.daemonCycle, undefined, 'only DinD restarts a daemon');
});

test('only DinD environments offer daemonCycle; every container environment offers an engine', () => {
  for (const name of ['docker', 'dind', 'dind-vfs']) {
    const env = createEnvironment(name, unreachable, name === 'docker' ? null : '26.1');
    assert.equal(typeof env.engineApi, 'function', name);
    assert.equal(typeof env.dataRootOnHost, 'function', name);
    assert.equal(typeof env.environmentMemory, 'function', name);
    assert.equal(typeof env.daemonCycle, name === 'docker' ? 'undefined' : 'function', name);
  }
  assert.equal(createEnvironment('dind', unreachable, '26.1').engine, '26.1');
});
