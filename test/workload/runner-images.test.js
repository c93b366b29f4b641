// A workload run on a persistent runner's engine (docker, dood) leaves that engine's images as it found
// them (issue 37, item 2), on the real engine: names that existed before the run (a `present` image, a pull
// target, a stand-in's name, a build's tag) name the same image after it, although the run pointed some of
// them elsewhere; nothing the run made stays; the suite's own image named by a workload is not removed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { validateResults } from '../../src/results/schema.js';
import { imageState, onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-runner-images-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Names of this test process's own, so that a run beside it is not disturbed. */
const ns = `dind-bench-test-${process.pid}`;

/** A workload file in a folder of its own (with a build context `app`). @param {string} name @param {string[]} lines */
function workload(name, lines) {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  mkdirSync(path.join(dir, 'app'));
  writeFileSync(path.join(dir, 'app', 'Dockerfile'), `FROM dind-bench/lifecycle:debian\nRUN echo ${ns} > /built\n`);
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, ['version: 1', `name: ${name}`, ...lines, ''].join('\n'));
  return file;
}

/** @param {string} file @param {string} out */
const run = (file, out) =>
  runCli(['run', '--workload', file, '--env', 'docker,dood', '--iterations', '1', '--out', out], { timeout: 400_000 });

/** @param {string} out @param {string} bench */
function cellsOf(out, bench) {
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  return results.cells
    .filter((/** @type {any} */ c) => c.benchmark === bench)
    .map((/** @type {any} */ c) => [c.environmentKey, c.status, c.reason ?? '']);
}

test('names that existed before the run name the same images after it: present, pull target, stand-in, build tag', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  // The runner's own names, before the run: on the lifecycle image (which the run pulls and tags) and on
  // another image (which the run's pull, tag and build point elsewhere for a while).
  const own = {
    present: `${ns}/present:1`,
    same: `${ns}/same:1`,
    pulled: `${ns}/pulled:1`,
    standin: `${ns}/standin:1`,
    built: `${ns}/built:1`,
  };
  /** @param {string} name @param {string} image */
  const tag = (name, image) => {
    const [repo, version] = name.split(':');
    return outer.getImage(image).tag({ repo, tag: version });
  };
  await tag(own.present, 'dind-bench/lifecycle:debian');
  await tag(own.same, 'dind-bench/lifecycle:debian');
  for (const name of [own.pulled, own.standin, own.built]) await tag(name, 'dind-bench/sysbench:debian');
  try {
    const images = await imageState(outer, [], ns);
    const file = workload('names', [
      'images:',
      `  - { name: ${own.present}, source: present }`,
      `  - { name: ${own.same}, source: pull, seed: dind-bench/lifecycle:debian }`,
      `  - { name: ${own.pulled}, source: pull, seed: dind-bench/lifecycle:debian }`,
      `  - { name: ${own.standin}, source: present, from: dind-bench/lifecycle:debian }`,
      'builds:',
      `  - { name: app, context: app, tag: ${own.built} }`,
      'steps:',
      // The job sees its own images under the names while it runs.
      '  - name: sees',
      `    run: test "$(docker image inspect -f '{{.Id}}' ${own.pulled})" = "$(docker image inspect -f '{{.Id}}' dind-bench/lifecycle:debian)"`,
    ]);
    const out = path.join(work, 'names-out');
    const r = run(file, out);
    assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
    assert.deepEqual(cellsOf(out, 'workload.names'), [
      ['docker', 'ok', ''],
      ['dood', 'ok', ''],
    ]);
    assert.deepEqual(await imageState(outer, [], ns), images, "the runner's image names and IDs are as found");
    await setup.leftAsFound('and its containers, volumes and networks');
  } finally {
    for (const name of Object.values(own))
      await outer
        .getImage(name)
        .remove()
        .catch(() => {});
  }
});

test("a workload naming the suite's own image (present, and as a pull target seeded from it) leaves it", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const suite = 'dind-bench/registry:debian';
  const images = await imageState(outer, [suite], ns);
  assert.ok(
    images.names.some((n) => n.startsWith(`${suite} `)),
    `${suite} is on the engine`,
  );
  const file = workload('suite', [
    'images:',
    `  - { name: ${suite}, source: present }`,
    `  - { name: ${ns}/registry:1, source: pull, seed: ${suite} }`,
    'steps:',
    '  - name: uses',
    `    run: docker run --rm --network none ${suite} true`,
  ]);
  const out = path.join(work, 'suite-out');
  const r = run(file, out);
  assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  assert.deepEqual(cellsOf(out, 'workload.suite'), [
    ['docker', 'ok', ''],
    ['dood', 'ok', ''],
  ]);
  assert.deepEqual(await imageState(outer, [suite], ns), images, "the suite's image is there, as found");
  await setup.leftAsFound('and the containers, volumes and networks');
});

test('a job that fails after re-pointing an existing name leaves the names as found too', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const name = `${ns}/failing:1`;
  const [repo, version] = name.split(':');
  await outer.getImage('dind-bench/sysbench:debian').tag({ repo, tag: version });
  try {
    const images = await imageState(outer, [], ns);
    const file = workload('failing', [
      'images:',
      `  - { name: ${name}, source: pull, seed: dind-bench/lifecycle:debian }`,
      'builds:',
      `  - { name: app, context: app, tag: ${ns}/failing-build:1 }`,
      'steps:',
      '  - name: breaks',
      '    run: "echo \'error: broke after the pull and the build\' >&2; exit 2"',
    ]);
    const out = path.join(work, 'failing-out');
    const r = run(file, out);
    assert.equal(r.status, 3, `exit 3: cells failed\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
    for (const [, status, reason] of cellsOf(out, 'workload.failing')) {
      assert.equal(status, 'failed');
      assert.match(reason, /error: broke after the pull and the build/);
    }
    assert.deepEqual(await imageState(outer, [], ns), images, "the runner's image names and IDs are as found");
    await setup.leftAsFound('and its containers, volumes and networks');
  } finally {
    await outer
      .getImage(name)
      .remove()
      .catch(() => {});
  }
});
