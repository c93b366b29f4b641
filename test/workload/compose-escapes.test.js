// Paths as teams lay them out (issue 43, item 4): a workload names its root, so a file at
// .github/dind-bench/workload.yml builds the repository; a compose file in deploy/ mounting ../testdata
// (inside the root) loads; and each way out of the root that compose's own model of the file shows (merge
// keys, an interpolated type, include, extends, a named volume on a host device, build.context) is refused
// at load with its true reason, naming the file and the field. Needs the compose plugin, not an engine.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { findPlugin } from '../../src/engine/cli.js';
import { WorkloadError, loadWorkload } from '../../src/workload/load.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-compose-escapes-'));
after(() => rmSync(work, { recursive: true, force: true }));

/**
 * A repository-like folder with `files`; returns its path.
 * @param {Record<string, string>} files
 */
function tree(files) {
  const dir = mkdtempSync(path.join(work, 'repo-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  return dir;
}

/** @param {import('node:test').TestContext} t */
function composeOrSkip(t) {
  if (findPlugin('docker-compose')) return true;
  if (process.env.CI) assert.fail('the docker compose plugin is missing (runners/common/install-plugins.sh)');
  t.skip('the docker compose plugin is not installed');
  return false;
}

const JOB = 'version: 1\nname: job\ncompose: { file: deploy/compose.yml }\n';

test('a workload under .github/ names the repository as its root and builds it; outside its root is refused', async () => {
  const repo = tree({
    Dockerfile: 'FROM scratch\nCOPY go.mod /\n',
    'go.mod': 'module example.com/app\n',
    '.github/dind-bench/workload.yml':
      'version: 1\nname: app\nroot: ../..\nbuilds: [{name: app, context: ../.., dockerfile: Dockerfile}]\n',
  });
  const w = await loadWorkload(path.join(repo, '.github/dind-bench/workload.yml'));
  assert.equal(w.rootDir, repo);
  // Without a root: in a repository's .github folder, the repository; elsewhere, the file's folder.
  writeFileSync(
    path.join(repo, '.github/dind-bench/no-root.yml'),
    'version: 1\nname: app\nbuilds: [{name: app, context: ../..}]\n',
  );
  await assert.rejects(
    loadWorkload(path.join(repo, '.github/dind-bench/no-root.yml')),
    /no-root\.yml: field \/builds\/0\/context: \.\.\/\.\. must be relative to the workload file's folder and stay inside it/,
    'no .git beside .github: not a repository',
  );
  mkdirSync(path.join(repo, '.git'));
  assert.equal((await loadWorkload(path.join(repo, '.github/dind-bench/no-root.yml'))).rootDir, repo);
  rmSync(path.join(repo, '.git'), { recursive: true });
  // A context above the root, and a root that does not hold the file, are refused.
  writeFileSync(
    path.join(repo, '.github/dind-bench/above.yml'),
    'version: 1\nname: app\nroot: ../..\nbuilds: [{name: app, context: ../../..}]\n',
  );
  await assert.rejects(
    loadWorkload(path.join(repo, '.github/dind-bench/above.yml')),
    /field \/builds\/0\/context: \.\.\/\.\.\/\.\. must be relative .* stay inside the workload's root/,
  );
  writeFileSync(
    path.join(repo, '.github/dind-bench/aside.yml'),
    'version: 1\nname: app\nroot: ../../..\nsteps: [{name: s, run: "true"}]\n',
  );
  // A root above the repository (issue 52): the job would get the runner's other files. Refused naming the
  // file, the field and what to write, with or without the .git (then the folder holding .github).
  for (const git of [false, true]) {
    if (git) mkdirSync(path.join(repo, '.git'));
    await assert.rejects(
      loadWorkload(path.join(repo, '.github/dind-bench/aside.yml')),
      (e) => {
        assert.ok(e instanceof WorkloadError);
        assert.equal(
          e.message,
          `${path.join(repo, '.github/dind-bench/aside.yml')}: field /root: ../../.. leads above the repository the file is in (${repo}); ` +
            'the root stays inside it: write root: ../.. for the whole repository, or a folder inside it',
        );
        return true;
      },
      `git: ${git}`,
    );
    if (git) rmSync(path.join(repo, '.git'), { recursive: true });
  }
  // A file outside any repository: its root is its own folder or one inside it.
  const loose = tree({ 'job/workload.yml': 'version: 1\nname: app\nroot: ..\nsteps: [{name: s, run: "true"}]\n' });
  await assert.rejects(
    loadWorkload(path.join(loose, 'job/workload.yml')),
    /job\/workload\.yml: field \/root: \.\. leads above the workload file's folder, and no repository holds the file .*write root: \./,
  );
  mkdirSync(path.join(repo, 'other'));
  writeFileSync(
    path.join(repo, '.github/dind-bench/elsewhere.yml'),
    'version: 1\nname: app\nroot: ../../other\nsteps: [{name: s, run: "true"}]\n',
  );
  await assert.rejects(
    loadWorkload(path.join(repo, '.github/dind-bench/elsewhere.yml')),
    /field \/root: \.\.\/\.\.\/other does not hold the workload file's folder/,
  );
});

test('deploy/compose.yml mounting ../testdata inside the folder loads', async (t) => {
  if (!composeOrSkip(t)) return;
  const repo = tree({
    'workload.yml': JOB,
    'deploy/compose.yml':
      'services:\n  it:\n    image: team/it:1\n    volumes: ["../testdata:/testdata:ro"]\n' +
      // Inside the root: a Dockerfile beside the context, the SSH agent (no file). (A key file inside the
      // root passes dind-bench's check, but compose 2.26's `config --format json` cannot write an SSH key.)
      '    build: { context: .., dockerfile: deploy/it.Dockerfile, ssh: [default] }\n',
    'deploy/it.Dockerfile': 'FROM scratch\n',
    'testdata/case.json': '{}\n',
  });
  await loadWorkload(path.join(repo, 'workload.yml'));
});

test("each way out of the root that compose's model shows is refused with its reason", async (t) => {
  if (!composeOrSkip(t)) return;
  const outside = tree({ 'other.yml': 'services: {o: {image: a:1, volumes: ["/:/host"]}}\n' });
  const cases = /** @type {[string, Record<string, string>, RegExp][]} */ ([
    [
      'a merge key',
      {
        'deploy/compose.yml': 'x-base: &base\n  image: a:1\n  volumes: ["/etc:/e"]\nservices:\n  app:\n    <<: *base\n',
      },
      /field services\.app\.volumes\[0\]\.source \(as `docker compose config` reads the file.*\): a bind mount at "\/etc" leads outside/,
    ],
    [
      'an interpolated type',
      {
        'deploy/compose.yml':
          'services:\n  app:\n    image: a:1\n    volumes: [{type: "${DIND_BENCH_UNSET_TYPE:-bind}", source: /etc, target: /x}]\n',
      },
      /field services\.app\.volumes\[0\]\.source .*: a bind mount at "\/etc" leads outside/,
    ],
    [
      'an interpolated source',
      { 'deploy/compose.yml': 'services:\n  app:\n    image: a:1\n    volumes: ["${DIND_BENCH_UNSET:-/etc}:/e"]\n' },
      /field services\.app\.volumes\[0\]: "\$\{DIND_BENCH_UNSET" uses a variable/,
    ],
    [
      'an include of a file outside',
      {
        'deploy/compose.yml': `include: [${JSON.stringify(path.join(outside, 'other.yml'))}]\nservices: {app: {image: a:1}}\n`,
      },
      /field include\[0\]: ".*other\.yml" leads outside the workload's root/,
    ],
    [
      'an extends of a file outside',
      {
        'deploy/compose.yml': `services:\n  app:\n    extends: { file: ../../${path.basename(outside)}/other.yml, service: o }\n`,
      },
      /field services\.app\.extends\.file: ".*other\.yml" leads outside the workload's root/,
    ],
    [
      'a named volume on a host device',
      {
        'deploy/compose.yml':
          'services:\n  app:\n    image: a:1\n    volumes: ["data:/d"]\nvolumes:\n  data:\n    driver_opts: { type: none, o: bind, device: /etc }\n',
      },
      /field volumes\.data\.driver_opts\.device .*: a named volume's host device at "\/etc" leads outside/,
    ],
    // Issue 52: a build's Dockerfile and SSH keys, a host device, a label file.
    [
      'an absolute Dockerfile',
      { 'deploy/compose.yml': 'services:\n  app:\n    build: { context: ., dockerfile: /etc/hostname }\n' },
      /field services\.app\.build\.dockerfile: "\/etc\/hostname" leads outside the workload's root .*an SSH key must be a relative path/,
    ],
    [
      'a Dockerfile above the root, relative to its context',
      { 'deploy/compose.yml': 'services:\n  app:\n    build: { context: ., dockerfile: ../../x/Dockerfile }\n' },
      /field services\.app\.build\.dockerfile \(as `docker compose config` reads the file.*\): a Dockerfile at ".*\/x\/Dockerfile" leads outside/,
    ],
    [
      "an SSH key from the runner's home",
      {
        'deploy/compose.yml':
          'services:\n  app:\n    build: { context: ., ssh: [default, "deploy=/root/.ssh/id_ed25519"] }\n',
      },
      /field services\.app\.build\.ssh\[1\]: "\/root\/\.ssh\/id_ed25519" leads outside the workload's root/,
    ],
    [
      'an SSH key by map, above the root',
      { 'deploy/compose.yml': 'services:\n  app:\n    build: { context: ., ssh: { deploy: ../../../key } }\n' },
      /field services\.app\.build\.ssh\.deploy: "\.\.\/\.\.\/\.\.\/key" leads outside the workload's root/,
    ],
    [
      'a host device',
      { 'deploy/compose.yml': 'services:\n  app:\n    image: a:1\n    devices: ["/dev/kmsg:/dev/kmsg"]\n' },
      /field services\.app\.devices\[0\]: "\/dev\/kmsg" gives a container a host device, which is outside the workload's root.*remove the service's devices entry/,
    ],
    [
      'a host device, long syntax',
      {
        'deploy/compose.yml':
          'services:\n  app:\n    image: a:1\n    devices: [{source: /dev/fuse, target: /dev/fuse}]\n',
      },
      /field services\.app\.devices\[0\]: "\/dev\/fuse" gives a container a host device/,
    ],
    [
      'an absolute label file',
      { 'deploy/compose.yml': 'services:\n  app:\n    image: a:1\n    label_file: /etc/os-release\n' },
      /field services\.app\.label_file\[0\]: "\/etc\/os-release" leads outside the workload's root/,
    ],
    [
      'a label file above the root',
      { 'deploy/compose.yml': 'services:\n  app:\n    image: a:1\n    label_file: [../../labels]\n' },
      /field services\.app\.label_file\[0\]: "\.\.\/\.\.\/labels" leads outside the workload's root/,
    ],
    [
      'a build context',
      { 'deploy/compose.yml': 'services:\n  app:\n    image: a:1\n    build: { context: ../.. }\n' },
      /field services\.app\.build\.context .*: a build context at ".*" leads outside/,
    ],
  ]);
  for (const [what, files, says] of cases) {
    const repo = tree({ 'workload.yml': JOB, ...files });
    await assert.rejects(
      loadWorkload(path.join(repo, 'workload.yml')),
      (e) => {
        assert.ok(e instanceof WorkloadError, `${what}: ${e}`);
        assert.match(e.message, /workload\.yml: field \/compose\/file: (deploy\/compose\.yml|compose\.yml)/, what);
        assert.match(e.message, says, `${what}: ${e.message}`);
        return true;
      },
      what,
    );
  }
});
