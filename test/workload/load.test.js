// A workload file is hostile input: every field is checked before anything runs, and each error names the
// file, the field and what to do. One table of bad files with the words each must be refused with.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
    /field \/version: must be equal to constant/,
  ],
  [
    'a name with a slash',
    'version: 1\nname: a/b\nsteps: [{name: s, run: "true"}]\n',
    /field \/name: must match pattern/,
  ],
  ['an unknown field', `${OK}stesp: []\n`, /must NOT have additional properties "stesp"/],
  ['a job that does nothing', OK, /the job does nothing/],
  [
    'an unknown image source',
    `${OK}images: [{name: a/b:1, source: ftp}]\n`,
    /field \/images\/0\/source: must be equal to one of the allowed values \(pull, archive, present\)/,
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
    /field \/images\/0\/name: must match pattern/,
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
    /field \/builds\/0\/args\/A: must match pattern/,
  ],
  [
    'a bad target',
    `${OK}builds: [{name: app, context: app, target: "-x"}]\n`,
    /field \/builds\/0\/target: must match pattern/,
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
    'a runner field of the wrong type',
    `${OK}runner: {persist: "yes"}\nsteps: [{name: s, run: "true"}]\n`,
    /field \/runner\/persist: must be boolean/,
  ],
];

for (const [what, text, error] of BAD) {
  test(`a workload file with ${what} is refused, naming the file and the field`, async () => {
    const file = folderWith(text);
    await assert.rejects(loadWorkload(file), (e) => {
      assert.ok(e instanceof WorkloadError, String(e));
      assert.match(e.message, /^\/.*workload\.yml/, 'the message names the file');
      assert.match(e.message, error);
      return true;
    });
  });
}

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
