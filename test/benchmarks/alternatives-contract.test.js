// The alternatives' place in the contract, without an engine: each is one module behind the same
// interface, planned once per inner Engine line where it has an inner engine, compared with Docker in
// the report, and accepted by the results schema; the CLI's default set stays the study's four.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import Docker from 'dockerode';
import { DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES, createEnvironment, isDind } from '../../src/environments/index.js';
import { validateResults } from '../../src/results/schema.js';
import { compareWithinRun } from '../../src/results/within-run.js';
import { makePlan } from '../../src/run/plan.js';

const unreachable = new Docker({ socketPath: '/nonexistent/docker.sock' });
const ALTERNATIVES = ['dood', 'dind-rootless', 'dind-fuse-overlayfs', 'dind-containerd-store', 'sysbox'];

test('the alternatives are environments by name; the default set is unchanged', () => {
  for (const name of ALTERNATIVES) assert.ok(ENVIRONMENT_NAMES.includes(name), name);
  assert.deepEqual(DEFAULT_ENVIRONMENTS, ['native', 'docker', 'dind', 'dind-vfs']);
});

for (const name of ALTERNATIVES) {
  test(`${name}: engine calls before setup() fail naming it; an inner engine only where it has one`, async () => {
    const env = createEnvironment(name, unreachable, isDind(name) ? '26.1' : null);
    assert.equal(env.name, name);
    await assert.rejects(
      env.run({ image: 'x', cmd: ['true'], timeoutMs: 1000 }),
      new RegExp(`^Error: ${name}: setup\\(\\) did not complete`),
    );
    assert.equal(typeof env.daemonCycle, name === 'dood' ? 'undefined' : 'function');
    assert.equal(typeof env.startupTimeline, 'function');
    assert.equal(typeof env.jobMemory, 'function');
    await env.teardown();
  });
}

test('plan: alternatives with an inner engine once per engine line, dood once', () => {
  const plan = makePlan({
    benchmarks: ['lifecycle'],
    environments: ['docker', 'dood', 'dind-rootless', 'sysbox'],
    distros: ['debian'],
    engines: ['20.10', '26.1'],
    iterations: 1,
    warmup: 0,
  });
  assert.deepEqual(
    plan.environments.map((e) => e.key),
    ['docker', 'dood', 'dind-rootless@20.10', 'dind-rootless@26.1', 'sysbox@20.10', 'sysbox@26.1'],
  );
});

test('a results document with an alternative validates, and the alternative is compared with Docker', () => {
  const r = JSON.parse(
    readFileSync(new URL('../fixtures/results/startup-lifecycle-quick.json', import.meta.url), 'utf8'),
  );
  const dind = r.cells.find((/** @type {any} */ c) => c.environmentKey === 'dind@20.10');
  Object.assign(dind, { environment: 'dood', environmentKey: 'dood', engine: null });
  const env = r.environments.find((/** @type {any} */ e) => e.key === 'dind@20.10');
  Object.assign(env, { key: 'dood', name: 'dood', engine: null });
  env.facts.isolation = 'the job controls the runner engine';
  validateResults(r, 'the test document');
  assert.ok(compareWithinRun(r).some((c) => c.kind === 'dind-vs-docker' && c.candidate.env === 'dood'));
  r.cells[0].environment = 'Not A Name';
  assert.throws(() => validateResults(r, 'the test document'), /environment/);
});
