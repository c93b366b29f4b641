// A workload file is hostile input: every field is checked before anything runs, and each error names the
// file, the field and what to do. One table of bad files with the words each must be refused with.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { MAX_WORKLOAD_BYTES, WorkloadError, loadWorkload } from '../../src/workload/load.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-workload-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

const EXAMPLES = new URL('../../examples/workloads/', import.meta.url).pathname;

/**
 * A workload folder with `text` as its file, a build context `app/` with a Dockerfile, and compose.yml.
 * @param {string} text @returns {string} the file
 */
function folderWith(text) {
  const dir = mkdtempSync(path.join(work, 'w-'));
  mkdirSync(path.join(dir, 'app'));
  writeFileSync(path.join(dir, 'app', 'Dockerfile'), 'FROM scratch\n');
  writeFileSync(path.join(dir, 'compose.yml'), 'services: {}\n');
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, text);
  return file;
}

const OK = 'version: 1\nname: job\n';
/** @type {[string, string, RegExp][]} a case, the file's text, what the error must say */
const BAD = [
  ['not YAML', 'version: 1\nname: [job\n', /workload\.yml:\d+:\d+: not valid YAML/],
  ['two documents', `${OK}---\n${OK}`, /exactly one YAML document/],
  [
    'an alias (billion laughs)',
    `${OK}a: &x [1]\nb: *x\n`,
    /workload\.yml: YAML aliases \(&name, \*name\) are not allowed in a workload file/,
  ],
  ['a duplicated key', 'version: 1\nversion: 1\nname: job\nsteps: [{name: s, run: "true"}]\n', /not valid YAML/],
  ['no version', 'name: job\nsteps: [{name: s, run: "true"}]\n', /field \/: must have required property 'version'/],
  [
    'another version',
    'version: 2\nname: job\nsteps: [{name: s, run: "true"}]\n',
    /field \/version: must be 1 \(got 2\)/,
  ],
  [
    'a name with a slash',
    'version: 1\nname: a/b\nsteps: [{name: s, run: "true"}]\n',
    /field \/name: must be a name of 1 to 40 characters: lower-case letters, digits, "_" and "-", starting with a letter or digit \(e\.g\. app-build\) \(got "a\/b"\)/,
  ],
  ['an unknown field', `${OK}stesp: []\n`, /field \/: has a field it does not take: "stesp"/],
  ['a job that does nothing', OK, /the job does nothing/],
  [
    'an unknown image source',
    `${OK}images: [{name: a/b:1, source: ftp}]\n`,
    /field \/images\/0\/source: must be one of pull, archive, present \(got "ftp"\)/,
  ],
  [
    'an archive without a path',
    `${OK}images: [{name: a/b:1, source: archive}]\n`,
    /field \/images\/0: source "archive" needs "archive"/,
  ],
  [
    'a seed on a present image',
    `${OK}images: [{name: a/b:1, source: present, seed: x/y:1}]\n`,
    /"seed" is only read with source "pull"/,
  ],
  [
    'an image reference with a space',
    `${OK}images: [{name: "a b", source: pull}]\n`,
    /field \/images\/0\/name: must be an image reference as `docker pull` takes it, such as team\/app:1 \(got "a b"\)/,
  ],
  [
    'two images of one name',
    `${OK}images: [{name: a/b:1, source: pull}, {name: a/b:1, source: pull}]\n`,
    /field \/images\/1: the name a\/b:1 is used twice/,
  ],
  [
    'a context outside the folder',
    `${OK}builds: [{name: app, context: ../..}]\n`,
    /field \/builds\/0\/context: \.\.\/\.\. must be relative .*\(no "\.\."/,
  ],
  [
    'an absolute context',
    `${OK}builds: [{name: app, context: /etc}]\n`,
    /field \/builds\/0\/context: \/etc must be relative/,
  ],
  [
    'a missing context',
    `${OK}builds: [{name: app, context: nope}]\n`,
    /field \/builds\/0\/context: nope does not exist/,
  ],
  [
    'a missing Dockerfile',
    `${OK}builds: [{name: app, context: app, dockerfile: Other}]\n`,
    /field \/builds\/0\/dockerfile: app\/Other does not exist/,
  ],
  [
    'a build arg with a newline',
    `${OK}builds: [{name: app, context: app, args: {A: "x\\ny"}}]\n`,
    /field \/builds\/0\/args\/A: must be a value on one line \(no newline or other control characters\) \(got "x\\ny"\)/,
  ],
  [
    'a bad target',
    `${OK}builds: [{name: app, context: app, target: "-x"}]\n`,
    /field \/builds\/0\/target: must be a build stage name of up to 64 letters, digits, "_", "\." and "-", starting with a letter or digit \(got "-x"\)/,
  ],
  [
    'too many steps',
    `${OK}steps: [${Array.from({ length: 21 }, (_, i) => `{name: s${i}, run: "true"}`).join(', ')}]\n`,
    /field \/steps: must NOT have more than 20 items/,
  ],
  ['a step without a script', `${OK}steps: [{name: s}]\n`, /field \/steps\/0: must have required property 'run'/],
  ['a compose file missing', `${OK}compose: {file: nope.yml}\n`, /field \/compose\/file: nope\.yml does not exist/],
  [
    'a compose test without a service',
    `${OK}compose: {file: compose.yml, test: {}}\n`,
    /field \/compose\/test: must have required property 'service'/,
  ],
  [
    'two image names of one metric key (their timings would merge)',
    `${OK}images: [{name: team/app:1, source: pull}, {name: team_app:1, source: pull}]\n`,
    /field \/images\/1: the name team_app:1 gives the same metric key \(image\.team_app_1\.\*\) as team\/app:1 \(field \/images\/0\/name\), so their timings would merge/,
  ],
  [
    'a build argument name with a dash',
    `${OK}builds: [{name: app, context: app, args: {A-B: "x"}}]\n`,
    /field \/builds\/0\/args: must be a build argument name: letters, digits and "_", not starting with a digit/,
  ],
  [
    'a runner field of the wrong type',
    `${OK}runner: {persist: "yes"}\nsteps: [{name: s, run: "true"}]\n`,
    /field \/runner\/persist: must be boolean/,
  ],
];

/** The message of the error `loadWorkload(file)` is refused with, checked to be a WorkloadError naming the file. @param {string} file */
async function refusal(file) {
  try {
    await loadWorkload(file);
  } catch (e) {
    assert.ok(e instanceof WorkloadError, String(e));
    assert.match(e.message, /^\/.*workload\.yml/, 'the message names the file');
    // What is expected, in words: never a raw pattern or a constant without its value.
    assert.doesNotMatch(e.message, /must match pattern|\^\[|equal to constant|allowed values/);
    return e.message;
  }
  return assert.fail(`${file} was loaded`);
}

for (const [what, text, error] of BAD) {
  test(`a workload file with ${what} is refused, naming the file and the field`, async () => {
    assert.match(await refusal(folderWith(text)), error);
  });
}

/** @type {[string, string, RegExp][]} a case, compose.yml's text, what the error must say */
const BAD_COMPOSE = [
  [
    'not YAML',
    'services:\n  db: [image\n',
    /field \/compose\/file: compose\.yml:\d+:\d+ is not valid YAML \(.*\); give a compose file/,
  ],
  [
    'YAML but not a compose file',
    'hello: world\n',
    /field \/compose\/file: compose\.yml is not a compose file: expected one YAML document with a "services" mapping/,
  ],
  [
    'services that are a list',
    'services: [db]\n',
    /compose\.yml is not a compose file: expected one YAML document with a "services" mapping/,
  ],
  [
    'no service of the test',
    'services:\n  db: {image: team/db:1}\n',
    /field \/compose\/test\/service: test is not a service of compose\.yml \(its services: db\)/,
  ],
];

for (const [what, compose, error] of BAD_COMPOSE) {
  test(`a compose file with ${what} is refused before anything runs, naming the file and what it must be`, async () => {
    const file = folderWith(`${OK}compose: {file: compose.yml, test: {service: test}}\n`);
    writeFileSync(path.join(path.dirname(file), 'compose.yml'), compose);
    assert.match(await refusal(file), error);
  });
}

test('a named pipe or a socket in the workload folder is refused before the folder is copied', async () => {
  const file = folderWith(`${OK}steps: [{name: s, run: "true"}]\n`);
  const fifo = path.join(path.dirname(file), 'app', 'pipe');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  assert.match(
    await refusal(file),
    /workload\.yml: app\/pipe in the workload's folder is a named pipe \(FIFO\), not a file or a folder/,
  );
  rmSync(fifo);
  const server = net.createServer();
  await new Promise((resolve) => server.listen(path.join(path.dirname(file), 'sock'), () => resolve(undefined)));
  try {
    assert.match(
      await refusal(file),
      /workload\.yml: sock in the workload's folder is a socket, not a file or a folder/,
    );
  } finally {
    server.close();
  }
});

test('a workload file larger than a page, a folder, or a missing file: refused before it is parsed', async () => {
  await assert.rejects(
    loadWorkload(folderWith(`${OK}# ${'x'.repeat(MAX_WORKLOAD_BYTES)}\n`)),
    /more than a workload file may have/,
  );
  await assert.rejects(loadWorkload(work), /not a regular file/);
  await assert.rejects(loadWorkload(path.join(work, 'none.yml')), /cannot read the workload file \(ENOENT\)/);
});

test('a link in the workload folder that leads outside it is refused; one inside is fine', async () => {
  const file = folderWith(`${OK}steps: [{name: s, run: "true"}]\n`);
  const dir = path.dirname(file);
  symlinkSync('app', path.join(dir, 'inside'));
  assert.equal((await loadWorkload(file)).name, 'job');
  symlinkSync('/etc', path.join(dir, 'outside'));
  await assert.rejects(loadWorkload(file), /outside is a link leading outside the workload's folder/);
  const other = folderWith(`${OK}builds: [{name: app, context: ctx}]\n`);
  symlinkSync('/tmp', path.join(path.dirname(other), 'ctx'));
  await assert.rejects(loadWorkload(other), /field \/builds\/0\/context: ctx leads outside the workload's folder/);
});

test('every shipped example loads', async () => {
  for (const name of ['app-build', 'compose-db', 'script']) {
    const w = await loadWorkload(path.join(EXAMPLES, name, 'workload.yml'));
    assert.equal(w.name, name);
    assert.equal(w.dir, path.join(EXAMPLES, name));
  }
});
