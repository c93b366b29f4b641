// The alternatives' place in the contract, without an engine: each is one module behind the same
// interface, planned once per inner Engine line where it has an inner engine, compared with Docker in
// the report under its own name (DooD's isolation trade-off stated), and accepted by the results schema;
// the CLI's default set stays the study's four.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import Docker from 'dockerode';
import {
  DEFAULT_ENVIRONMENTS,
  ENVIRONMENT_NAMES,
  createEnvironment,
  hasEngineLines,
} from '../../src/environments/index.js';
import { validateResults } from '../../src/results/schema.js';
import { comparisonTables } from '../../src/compare/rows.js';
import { ISOLATION } from '../../src/environments/dood.js';
import { esc } from '../../src/text/answer.js';
import { runHtml, runMarkdown } from '../helpers/reading.js';
import { compareWithinRun } from '../../src/results/within-run.js';
import { makePlan } from '../../src/run/plan.js';

const unreachable = new Docker({ socketPath: '/nonexistent/docker.sock' });
const ALTERNATIVES = ['dood', 'dind-rootless', 'dind-fuse-overlayfs', 'dind-containerd-store', 'sysbox', 'podman'];

test('the alternatives are environments by name; the default set is unchanged', () => {
  for (const name of ALTERNATIVES) assert.ok(ENVIRONMENT_NAMES.includes(name), name);
  assert.deepEqual(DEFAULT_ENVIRONMENTS, ['native', 'docker', 'dind', 'dind-vfs']);
});

for (const name of ALTERNATIVES) {
  test(`${name}: engine calls before setup() fail naming it; an inner engine only where it has one`, async () => {
    const env = createEnvironment(name, unreachable, hasEngineLines(name) ? '26.1' : null);
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

test('plan: alternatives with an inner engine once per engine line, dood and podman once', () => {
  const plan = makePlan({
    benchmarks: ['lifecycle'],
    environments: ['docker', 'dood', 'dind-rootless', 'sysbox', 'podman'],
    distros: ['debian'],
    engines: ['20.10', '26.1'],
    iterations: 1,
    warmup: 0,
  });
  assert.deepEqual(
    plan.environments.map((e) => e.key),
    ['docker', 'dood', 'dind-rootless@20.10', 'dind-rootless@26.1', 'sysbox@20.10', 'sysbox@26.1', 'podman'],
  );
});

// The lifecycle cells of a real quick run with every alternative on Engine 20.10 (docs/environments.md).
const ALTERNATIVES_RUN = new URL('../fixtures/results/alternatives-lifecycle-quick.json', import.meta.url);

test('a real run with the alternatives: it validates, each is compared with Docker under its own name', () => {
  const r = JSON.parse(readFileSync(ALTERNATIVES_RUN, 'utf8'));
  validateResults(r, 'the alternatives run');
  const against = compareWithinRun(r).filter((c) => c.kind === 'dind-vs-docker');
  const compared = [...new Set(against.map((c) => c.candidate.env))];
  assert.deepEqual(compared.sort(), ['dind-fuse-overlayfs@20.10', 'dind-rootless@20.10', 'dind@20.10', 'dood']);
  // Titled by what was compared: DooD is not DinD.
  const titles = comparisonTables(against).map((t) => t.title);
  assert.ok(titles.includes('dood vs Docker, lifecycle (debian): dood/debian vs docker/debian'), titles.join('\n'));
  assert.ok(titles.includes('DinD vs Docker, lifecycle (debian): dind@20.10/debian vs docker/debian'));
  assert.ok(titles.some((t) => t.startsWith('dind-rootless vs Docker, lifecycle')));
  assert.ok(!titles.some((t) => t.startsWith('DinD vs Docker') && t.includes('dood/')), 'dood titled as DinD');
  // The alternatives that cannot run here say why, in the engine's own words.
  const reasons = Object.fromEntries(
    r.environments.filter((/** @type {any} */ e) => e.status !== 'ok').map((/** @type {any} */ e) => [e.key, e.reason]),
  );
  assert.match(reasons['sysbox@20.10'], /no sysbox-runc runtime .*install Sysbox/);
  assert.match(reasons['dind-containerd-store@20.10'], /did not enable the containerd image store/);
  r.cells[0].environment = 'Not A Name';
  assert.throws(() => validateResults(r, 'the test document'), /environment/);
});

test("DooD's isolation trade-off is stated beside its figures in report.md and report.html", () => {
  const r = JSON.parse(readFileSync(ALTERNATIVES_RUN, 'utf8'));
  const isolation = r.environments.find((/** @type {any} */ e) => e.key === 'dood').facts.isolation;
  assert.equal(isolation, ISOLATION, 'recorded by the dood environment at setup');
  assert.ok(runMarkdown(r).includes(isolation));
  const html = runHtml(r);
  // Escaped like every recorded string ("job's" has an apostrophe).
  assert.ok(html.includes(`<b>dood</b>: ${esc(isolation)}`), 'report.html names the trade-off');
  assert.ok(!html.includes(isolation), 'and prints it escaped');
  // Only environments that trade isolation away carry the statement.
  assert.equal(html.match(/class="note isolation"/g)?.length, 1);
});

test('a real memory run: rootless without cgroups keeps its job cost, without the scopes it cannot measure', () => {
  // `run --bench memory --env docker,dind,dood,dind-rootless` on Engine 20.10, cgroup v1 (docs/environments.md).
  const r = JSON.parse(
    readFileSync(new URL('../fixtures/results/memory-job-cost-quick.json', import.meta.url), 'utf8'),
  );
  validateResults(r, 'the memory run');
  const metrics = (/** @type {string} */ key) =>
    r.cells.find((/** @type {any} */ c) => c.environmentKey === key).metrics.map((/** @type {any} */ m) => m.metric);
  assert.deepEqual(metrics('dind-rootless@20.10'), ['job_cost.peak_mib', 'job_cost.mean_mib']);
  for (const key of ['docker', 'dind@20.10', 'dood']) {
    assert.ok(metrics(key).includes('job_cost.mean_mib') && metrics(key).includes('workload.peak_mib'), key);
  }
});

test('podman: a job engine trusts only host[:port] registry names, checked before anything starts', () => {
  const env = /** @type {import('../../src/environments/podman.js').PodmanEnvironment} */ (
    createEnvironment('podman', unreachable, null)
  );
  assert.deepEqual(env.jobDaemon({ insecureRegistries: ['172.17.0.2:5000', 'registry.local'], registryMirrors: [] }), {
    env: ['PODMAN_INSECURE_REGISTRIES=172.17.0.2:5000,registry.local'],
  });
  assert.deepEqual(env.jobDaemon({ insecureRegistries: [], registryMirrors: [] }), {});
  for (const bad of ['a"b', 'x\n[[registry]]', 'host:port', '', 'a,b', 'a b', '-x'])
    assert.throws(
      () => env.jobDaemon({ insecureRegistries: [bad], registryMirrors: [] }),
      /podman: registry address .* is not host\[:port\]/,
      JSON.stringify(bad),
    );
  assert.throws(
    () => env.jobDaemon({ insecureRegistries: [], registryMirrors: ['172.17.0.3:5000'] }),
    /podman: registry mirrors are not supported/,
  );
});

// A real quick lifecycle run of docker, dind and podman on Engine 20.10 (docs/environments.md, "podman").
const PODMAN_RUN = new URL('../fixtures/results/podman-lifecycle-quick.json', import.meta.url);

test('a real run with podman: it validates, podman is compared with Docker under its own name, its rights stated', () => {
  const r = JSON.parse(readFileSync(PODMAN_RUN, 'utf8'));
  validateResults(r, 'the podman run');
  const podman = r.environments.find((/** @type {any} */ e) => e.key === 'podman');
  assert.equal(podman.engine, null, 'no Docker Engine line');
  assert.equal(podman.facts.dind.mode, 'userns');
  assert.match(podman.facts.engineVersion, /^4\.3\./);
  const against = compareWithinRun(r).filter((c) => c.kind === 'dind-vs-docker');
  assert.deepEqual([...new Set(against.map((c) => c.candidate.env))].sort(), ['dind@20.10', 'podman']);
  const titles = comparisonTables(against).map((t) => t.title);
  assert.ok(titles.includes('podman vs Docker, lifecycle (debian): podman/debian vs docker/debian'), titles.join('\n'));
  // Its start-up is Podman's own phases, not dockerd's.
  const cell = r.cells.find((/** @type {any} */ c) => c.environmentKey === 'podman');
  const names = cell.metrics.map((/** @type {any} */ m) => m.metric);
  assert.ok(names.includes('startup.ping_ready_ms') && !names.includes('startup.containerd_start_ms'), names.join());
  assert.ok(!names.some((/** @type {string} */ n) => n.startsWith('daemon_tls.')), 'no TLS start: Podman serves none');
  assert.ok(runMarkdown(r).includes(podman.facts.isolation));
  assert.ok(runHtml(r).includes(`<b>podman</b>: ${esc(podman.facts.isolation)}`));
});
