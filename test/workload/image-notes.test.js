// What a workload's images leave to the runner is named before the run (issue 55, item 5): an image its
// compose file runs that the workload does not declare, and each image the job takes from the runner's
// engine (a present image, a pull's seed). `plan --workload` names them with no engine, each as what only the
// runner can check; the run's start says what the runner's engine holds (the real engine:
// image-notes-engine.test.js).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { canonicalName, composeImages, imageNotes } from '../../src/workload/image-notes.js';
import { loadWorkload } from '../../src/workload/load.js';
import { runCli } from '../helpers/run-cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-image-notes-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A name no engine has. */
const NONE = `dind-bench-test-none-${process.pid}/image:1`;

const COMPOSE = `x-db: &db
  image: docker.io/library/postgres:16
services:
  db:
    <<: *db
  api:
    image: team/api:ci
  cache:
    image: redis:7
  web:
    image: team/web:1
    build: web
  tools:
    image: \${TOOLS_IMAGE:-team/tools:1}
  gone:
    image: ${NONE}
`;

/** A workload folder: the file, its compose file and a build context. @param {string} images the images: list */
function fixture(images) {
  const dir = mkdtempSync(path.join(work, 'w-'));
  writeFileSync(path.join(dir, 'compose.yml'), COMPOSE);
  writeFileSync(path.join(dir, 'Dockerfile'), 'FROM scratch\n');
  const file = path.join(dir, 'workload.yml');
  writeFileSync(
    file,
    [
      'version: 1',
      'name: notes',
      `images: ${images}`,
      'builds: [{ name: api, context: ., tag: team/api:ci }]',
      'compose: { file: compose.yml }',
      '',
    ].join('\n'),
  );
  return file;
}

const IMAGES =
  '[{ name: postgres:16, source: pull, seed: dind-bench/pgbench:debian }, { name: team/cache:1, source: present, from: team/cache-base:1 }, { name: team/seeded:1, source: pull, seed: team/seed:1 }]';

test('one image by any spelling: Docker Hub and library/ spelled out, latest for no tag, no digest', () => {
  assert.equal(canonicalName('postgres:16'), 'docker.io/library/postgres:16');
  assert.equal(canonicalName('docker.io/library/postgres:16'), 'docker.io/library/postgres:16');
  assert.equal(canonicalName('index.docker.io/library/postgres'), 'docker.io/library/postgres:latest');
  assert.equal(
    canonicalName(`registry.internal:5000/team/app:1@sha256:${'a'.repeat(64)}`),
    'registry.internal:5000/team/app:1',
  );
  assert.equal(canonicalName('Not A Reference'), null);
});

test("a compose file's images: merge keys applied, a service compose builds left out", async () => {
  const file = fixture(IMAGES);
  const images = await composeImages(path.join(path.dirname(file), 'compose.yml'));
  assert.deepEqual(images, [
    { service: 'db', image: 'docker.io/library/postgres:16' },
    { service: 'api', image: 'team/api:ci' },
    { service: 'cache', image: 'redis:7' },
    { service: 'tools', image: '${TOOLS_IMAGE:-team/tools:1}' },
    { service: 'gone', image: NONE },
  ]);
});

test('with no engine: the undeclared compose images and what only the runner can check, named', async () => {
  const w = await loadWorkload(fixture(IMAGES));
  const notes = await imageNotes(w);
  // postgres is declared (spelled otherwise), team/api:ci is the build's tag: neither is named.
  assert.equal(notes.filter((n) => /postgres:16|team\/api:ci/.test(n) && /does not declare/.test(n)).length, 0);
  assert.equal(notes.length, 5, notes.join('\n'));
  assert.match(
    notes[0],
    /^compose service cache \(compose\.yml\) runs redis:7, which the workload does not declare \(an image of the file, or a build's tag\): `compose up` pulls it inside the timed compose step, .*whether the runner's engine already holds it .*only the runner can check; declare it under images/,
  );
  assert.match(
    notes[1],
    /^compose service tools \(compose\.yml\) runs \$\{TOOLS_IMAGE:-team\/tools:1\}: compose fills in the variable when the job runs: only the runner can check that image$/,
  );
  assert.match(
    notes[2],
    new RegExp(
      `^compose service gone .*runs ${NONE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, which the workload does not declare`,
    ),
  );
  assert.match(
    notes[3],
    /^image team\/cache:1 is present \(from team\/cache-base:1\): the runner's engine must hold team\/cache-base:1 .*; only the runner can check team\/cache-base:1$/,
  );
  assert.match(
    notes[4],
    /^image team\/seeded:1 is pulled from the run's registry, seeded with team\/seed:1: .*only the runner can check team\/seed:1$/,
  );
  // The suite's own seed is built by the run itself: nothing to say.
  assert.ok(!notes.some((n) => n.includes('dind-bench/pgbench')));
});

test("at the run's start: what the runner's engine holds, said for each", async () => {
  const w = await loadWorkload(fixture(IMAGES));
  const held = new Set(['redis:7', 'team/cache-base:1']);
  const notes = await imageNotes(w, { has: async (name) => held.has(name) });
  assert.match(
    notes[0],
    /runs redis:7, .*the runner's engine holds it, so docker's jobs use that copy and only DinD's pull it/,
  );
  assert.match(notes[2], /the runner's engine does not hold it either, so every environment pulls it/);
  assert.match(notes[3], /checked on the runner's engine: it is there$/);
  assert.match(notes[4], /checked on the runner's engine: it is NOT there$/);
});

test('plan --workload names them with no engine, and still plans', () => {
  const file = fixture(IMAGES);
  const r = runCli(['plan', '--workload', file, '--env', 'docker,dind'], {
    env: { ...process.env, DOCKER_HOST: `unix://${path.join(work, 'no-engine.sock')}` },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /checked, no engine asked \(the file, .*\); its images:/);
  assert.match(
    r.stderr,
    /^ {2}- compose service cache \(compose\.yml\) runs redis:7, which the workload does not declare/m,
  );
  assert.match(r.stderr, /^ {2}- image team\/cache:1 is present .*only the runner can check team\/cache-base:1$/m);
  assert.doesNotMatch(r.stderr, /ECONNREFUSED|ENOENT/);
});
