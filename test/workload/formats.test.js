// Workloads that fit real jobs: image references in Docker's grammar (a digest, a registry with a port),
// registry credentials from environment variables (refused before anything runs when one is not set,
// never printed), compose bind mounts inside the workload's folder (one that escapes is refused), and on
// the real engine: the run's registry closed (a credential, delete disabled, on a network of the run's own),
// a job that pulls a digest-pinned `host:port` image with a credential from the environment and mounts its
// folder in compose, in docker and DinD, with the secret nowhere in what the run wrote; a digest that does
// not match fails the cell naming the image.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { cliConfig, dockerCli, dockerLogin } from '../../src/engine/cli.js';
import { startRegistry } from '../../src/engine/registry.js';
import { ResourceTracker } from '../../src/engine/resources.js';
import { benchImage } from '../../src/images/catalog.js';
import { validateResults } from '../../src/results/schema.js';
import { readCredentials } from '../../src/workload/credentials.js';
import { loadWorkload, WorkloadError } from '../../src/workload/load.js';
import { parseReference } from '../../src/workload/reference.js';
import { onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-formats-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A workload folder: `files` written under it (path -> text), the workload file's text last. */
function folder(/** @type {string} */ text, /** @type {Record<string, string>} */ files = {}) {
  const dir = mkdtempSync(path.join(work, 'w-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  writeFileSync(path.join(dir, 'workload.yml'), text);
  return path.join(dir, 'workload.yml');
}

const DIGEST = `sha256:${'ab'.repeat(32)}`;
const imageJob = (/** @type {string} */ name) =>
  `version: 1\nname: job\nimages:\n  - name: ${JSON.stringify(name)}\n    source: present\n`;

test('image references the engine takes load: a digest, a registry with a port, both', async () => {
  const pulled = (/** @type {string} */ name) =>
    `version: 1\nname: job\nimages:\n  - name: ${JSON.stringify(name)}\n    source: pull\n`;
  for (const name of [
    `postgres:16@${DIGEST}`,
    'registry.example.internal:5000/team/app:1',
    `registry.example.internal:5000/team/app@${DIGEST}`,
    'localhost:5000/app',
    '127.0.0.1:5000/a_b/c__d/e--f:v1.2-x_y',
  ]) {
    const w = await loadWorkload(folder(pulled(name)));
    assert.equal(w.images?.[0].name, name);
  }
  assert.deepEqual(parseReference(`registry.example.internal:5000/team/app:1@${DIGEST}`), {
    registry: 'registry.example.internal:5000',
    path: 'team/app',
    tag: '1',
    digest: DIGEST,
  });
});

for (const [name, says] of /** @type {[string, RegExp][]} */ ([
  ['acme//base:1', /a path component is empty/],
  ['acme/base-:1', /the path component "base-" must be lower-case letters and digits, joined by/],
  ['acme/Base:1', /the repository "acme\/Base" must be lower case/],
  ['acme/base@sha256:abc', /digest must be ALGORITHM:HEX/],
  [`acme/base@sha256:${'A'.repeat(64)}`, /64 lower-case hex digits/],
  ['acme/base:-x', /its tag .* must be letters, digits/],
  ['reg_istry.example:5000/a:1', /its registry "reg_istry.example:5000" must be a host name/],
])) {
  test(`the image reference ${name} is refused at load, saying what is expected`, async () => {
    await assert.rejects(loadWorkload(folder(imageJob(name))), (e) => {
      assert.ok(e instanceof WorkloadError);
      assert.match(e.message, /workload\.yml: field \/images\/0\/name: /);
      assert.match(e.message, says);
      assert.match(e.message, /expected \[registry\[:port\]\/\]path\[:tag\]\[@sha256:<64 hex>\]/);
      return true;
    });
  });
}

test('a digest is for pulled images only: a present image or a build tag with one is refused', async () => {
  await assert.rejects(
    loadWorkload(folder(imageJob(`team/app:1@${DIGEST}`))),
    /field \/images\/0\/name: a digest pins what is pulled; with source "present" give name:tag/,
  );
  await assert.rejects(
    loadWorkload(
      folder(`version: 1\nname: job\nbuilds:\n  - name: app\n    context: app\n    tag: team/app:1@${DIGEST}\n`, {
        'app/Dockerfile': 'FROM scratch\n',
      }),
    ),
    /field \/builds\/0\/tag: a build's tag cannot carry a digest/,
  );
});

const credentialJob = (/** @type {string} */ user, /** @type {string} */ pass) =>
  [
    'version: 1',
    'name: job',
    'registries:',
    '  - address: registry.example.internal:5000',
    `    username: { env: ${user} }`,
    `    password: { env: ${pass} }`,
    'steps: [{name: s, run: "true"}]',
    '',
  ].join('\n');

test('a credential naming a variable that is not set is refused at load, naming it and printing no value', async () => {
  const user = `DB_TEST_USER_${process.pid}`;
  const pass = `DB_TEST_PASSWORD_${process.pid}`;
  const secret = randomBytes(12).toString('hex');
  process.env[user] = secret;
  delete process.env[pass];
  try {
    await assert.rejects(loadWorkload(folder(credentialJob(user, pass))), (e) => {
      assert.ok(e instanceof WorkloadError);
      assert.match(e.message, new RegExp(`field /registries/0/password: the environment variable ${pass} is not set`));
      assert.ok(!e.message.includes(secret), 'no value printed');
      return true;
    });
    process.env[pass] = 'x';
    const w = await loadWorkload(folder(credentialJob(user, pass)));
    assert.ok(!JSON.stringify(w).includes(secret), 'the loaded workload holds names, not values');
  } finally {
    delete process.env[user];
    delete process.env[pass];
  }
});

test('a credential given as a value, not a variable name, is refused by the schema', async () => {
  const text = credentialJob('U', 'P').replace('{ env: P }', 'hunter2');
  await assert.rejects(loadWorkload(folder(text)), /field \/registries\/0\/password: must be object/);
});

test('in GitHub Actions the password is masked (::add-mask::) and the user name is not', () => {
  const out = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { readCredentials } from ${JSON.stringify(new URL('../../src/workload/credentials.js', import.meta.url).href)};
       readCredentials({ registries: [{ address: 'r:5000', username: { env: 'U' }, password: { env: 'P' } }] });`,
    ],
    { encoding: 'utf8', env: { ...process.env, GITHUB_ACTIONS: 'true', U: 'ci-user', P: 's3cr3t-value' } },
  );
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^::add-mask::s3cr3t-value$/m);
  // Its base64 forms too, and those of `user:password` (a docker config's auth): the runner masks only the value.
  for (const form of [
    Buffer.from('s3cr3t-value').toString('base64'),
    Buffer.from('ci-user:s3cr3t-value').toString('base64'),
    Buffer.from('ci-user:s3cr3t-value').toString('base64url'),
  ])
    assert.ok(out.stdout.split('\n').includes(`::add-mask::${form}`), form);
  assert.ok(!out.stdout.includes('ci-user'));
  // Outside Actions nothing is printed.
  assert.deepEqual(
    readCredentials(
      { registries: [{ address: 'r:5000', username: { env: 'U' }, password: { env: 'P' } }] },
      {
        U: 'u',
        P: 'p',
      },
    ),
    [{ address: 'r:5000', username: 'u', password: 'p' }],
  );
});

const composeJob = 'version: 1\nname: job\ncompose: { file: compose.yml }\n';
const composeWith = (/** @type {string} */ volumes) =>
  `services:\n  app:\n    image: team/app:1\n    volumes:\n${volumes}\n`;

test('compose bind mounts inside the folder load; one that escapes is refused naming the file and field', async () => {
  for (const inside of ['      - ./data:/data:ro', '      - type: bind\n        source: data\n        target: /data']) {
    await loadWorkload(folder(composeJob, { 'compose.yml': composeWith(inside), 'data/x': 'x' }));
  }
  // A named volume is no host path.
  await loadWorkload(
    folder(composeJob, { 'compose.yml': `${composeWith('      - cache:/cache')}volumes:\n  cache: {}\n` }),
  );
  for (const [what, volumes, says] of /** @type {[string, string, RegExp][]} */ ([
    ['..', '      - ../:/up', /field services\.app\.volumes\[0\]: "\.\.\/" leads outside the workload's root/],
    ['an absolute path', '      - /etc:/host-etc:ro', /field services\.app\.volumes\[0\]: "\/etc" leads outside/],
    ['a home path', '      - ~/.ssh:/ssh', /field services\.app\.volumes\[0\]: "~\/.ssh" leads outside/],
    [
      'the long syntax',
      '      - type: bind\n        source: /var/run/docker.sock\n        target: /s',
      /field services\.app\.volumes\[0\]\.source: "\/var\/run\/docker\.sock" leads outside/,
    ],
    ['a variable', '      - ${HOME}:/h', /field services\.app\.volumes\[0\]: "\$\{HOME\}" uses a variable/],
  ])) {
    await assert.rejects(
      loadWorkload(folder(composeJob, { 'compose.yml': composeWith(volumes) })),
      (e) => {
        assert.ok(e instanceof WorkloadError, what);
        assert.match(e.message, /workload\.yml: field \/compose\/file: compose\.yml: /, what);
        assert.match(e.message, says, what);
        return true;
      },
      what,
    );
  }
  // An env_file and a file secret are host files too.
  await assert.rejects(
    loadWorkload(
      folder(composeJob, { 'compose.yml': 'services:\n  app:\n    image: a:1\n    env_file: ../../x.env\n' }),
    ),
    /field services\.app\.env_file\[0\]: "\.\.\/\.\.\/x\.env" leads outside/,
  );
  await assert.rejects(
    loadWorkload(folder(composeJob, { 'compose.yml': 'services: {}\nsecrets:\n  key:\n    file: /root/key\n' })),
    /field secrets\.key\.file: "\/root\/key" leads outside/,
  );
});

test('a compose bind mount through a link inside the folder that leads out is refused', async () => {
  const file = folder(composeJob, { 'compose.yml': composeWith('      - ./data/etc/passwd:/p:ro') });
  const dir = path.dirname(file);
  mkdirSync(path.join(dir, 'data'));
  symlinkSync('/etc', path.join(dir, 'data', 'etc'));
  await assert.rejects(
    loadWorkload(file),
    /field \/compose\/file: compose\.yml: field services\.app\.volumes\[0\]: "\.\/data\/etc\/passwd" leads outside the workload's folder through a link/,
  );
});

/** Every file under `dir`, its text. @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(e.parentPath, e.name);
    if (e.isFile() && statSync(full).size < 64 * 2 ** 20) out.push(full);
  }
  return out;
}

test("the run's registry: a credential is needed, deleting is disabled, it is on a network of the run's own", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`registry-closed-test-${process.pid}`);
  const config = await cliConfig();
  try {
    const registry = await startRegistry({ docker: outer, tracker, image: benchImage('registry', 'debian') });
    const v2 = await fetch(`http://${registry.hostAddress}/v2/`);
    assert.equal(v2.status, 401, 'no credential, no answer');
    const info = await outer.getContainer(registry.containerId).inspect();
    assert.deepEqual(Object.keys(info.NetworkSettings.Networks), [registry.network], 'not on the default bridge');
    assert.ok(!JSON.stringify(info).includes(registry.credential.password), 'the password is not in its definition');
    const pull = await dockerCli({
      socket: '/var/run/docker.sock',
      args: ['pull', `${registry.hostAddress}/team/x:1`],
      timeoutMs: 60_000,
      config: config.dir,
    });
    assert.notEqual(pull.exitCode, 0);
    assert.match(pull.stderr, /no basic auth credentials|unauthorized/);
    const digest = await (async () => {
      const seeding = new ResourceTracker(`registry-closed-seed-${process.pid}`);
      const r = await startRegistry({
        docker: outer,
        tracker: seeding,
        image: benchImage('registry', 'debian'),
        cliConfigDir: config.dir,
      });
      try {
        return await r.seed(benchImage('lifecycle', 'debian'), 'team/x:1');
      } finally {
        await seeding.cleanup(outer);
      }
    })();
    assert.match(digest, /^sha256:[0-9a-f]{64}$/);
    // Logged in, a delete is refused: the registry's storage does not allow it.
    const auth = `Basic ${Buffer.from(`${registry.credential.username}:${registry.credential.password}`).toString('base64')}`;
    assert.equal((await fetch(`http://${registry.hostAddress}/v2/`, { headers: { authorization: auth } })).status, 200);
    const del = await fetch(`http://${registry.hostAddress}/v2/team/x/manifests/${digest}`, {
      method: 'DELETE',
      headers: { authorization: auth },
    });
    assert.equal(del.status, 405, 'delete disabled');
    const login = await dockerLogin({
      socket: '/var/run/docker.sock',
      config: config.dir,
      address: registry.hostAddress,
      username: registry.credential.username,
      password: 'wrong',
      timeoutMs: 60_000,
    });
    assert.notEqual(login.exitCode, 0, 'a wrong password is refused');
  } finally {
    await tracker.cleanup(outer);
    await config.remove();
  }
  await setup.nothingLeft('nothing of it is left');
});

/**
 * The digest the run's registry serves for a seed: what a team pins (the push is deterministic).
 * @param {import('dockerode')} outer @param {string} seed @param {string} repoTag
 */
async function servedDigest(outer, seed, repoTag) {
  const tracker = new ResourceTracker(`formats-digest-${process.pid}`);
  const config = await cliConfig();
  try {
    const r = await startRegistry({
      docker: outer,
      tracker,
      image: benchImage('registry', 'debian'),
      cliConfigDir: config.dir,
    });
    return await r.seed(seed, repoTag);
  } finally {
    await tracker.cleanup(outer);
    await config.remove();
  }
}

const NAME = 'registry.example.internal:5000/team/tools:1';

/** A workload pulling NAME pinned by `digest`, with a credential from the environment and a compose bind mount. @param {string} digest */
function privateJob(digest) {
  return folder(
    [
      'version: 1',
      'name: private',
      'registries:',
      '  - address: registry.example.internal:5000',
      '    username: { env: FORMATS_TEST_REGISTRY_USER }',
      '    password: { env: FORMATS_TEST_REGISTRY_PASSWORD }',
      'images:',
      `  - name: ${NAME}@${digest}`,
      '    source: pull',
      '    seed: dind-bench/lifecycle:debian',
      'compose:',
      '  file: compose.yml',
      '  test: { service: check }',
      'steps:',
      '  - name: known',
      `    run: docker image inspect --format '{{.Id}}' ${NAME}`,
      '',
    ].join('\n'),
    {
      'compose.yml': [
        'services:',
        '  app:',
        `    image: ${NAME}`,
        '    command: [sleep, "300"]',
        '    init: true',
        '  check:',
        `    image: ${NAME}`,
        '    profiles: [test]',
        '    network_mode: none',
        '    volumes: ["./data:/data:ro"]',
        '    command: [grep, -q, bound-from-the-folder, /data/file.txt]',
        '',
      ].join('\n'),
      'data/file.txt': 'bound-from-the-folder\n',
    },
  );
}

test('a job pulls a digest-pinned host:port image with a credential from the environment and mounts its folder; the secret is nowhere; a wrong digest fails naming the image', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const digest = await servedDigest(outer, benchImage('lifecycle', 'debian'), 'team/tools:1');
  const secret = `pw-${randomBytes(16).toString('hex')}`;
  const user = `user-${randomBytes(6).toString('hex')}`;
  const env = { ...process.env, FORMATS_TEST_REGISTRY_USER: user, FORMATS_TEST_REGISTRY_PASSWORD: secret };
  const run = (/** @type {string} */ file, /** @type {string} */ out, /** @type {string} */ envs) =>
    runCli(['run', '--workload', file, '--env', envs, '--iterations', '1', '--out', out], { timeout: 540_000, env });

  const out = path.join(work, 'private');
  const r = run(privateJob(digest), out, 'docker,dind');
  assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  assert.deepEqual(
    results.cells.map((/** @type {any} */ c) => [c.environmentKey, c.status]),
    [
      ['docker', 'ok'],
      ['dind@20.10', 'ok'],
    ],
  );
  for (const cell of results.cells) {
    const names = cell.metrics.map((/** @type {any} */ m) => m.metric);
    assert.ok(names.includes('image.registry.example.internal_5000_team_tools_1.pull_ms'), String(names));
    assert.ok(names.includes('compose.test_ms'), 'the bind-mounted file was read');
  }
  // Every log line and every file the run wrote, and the report it writes: the secret nowhere.
  const compare = path.join(work, 'compare');
  mkdirSync(compare);
  const report = runCli([
    'compare',
    path.join(out, 'results.json'),
    '--markdown',
    path.join(compare, 'report.md'),
    '--json',
    path.join(compare, 'compare.json'),
    '--pr-comment',
    path.join(compare, 'comment.md'),
  ]);
  const site = path.join(work, 'site');
  const history = path.join(work, 'history');
  const published = runCli(['publish', path.join(out, 'results.json'), '--history', history]);
  assert.equal(published.status, 0, published.stderr);
  const built = runCli(['site', 'build', '--history', history, '--out', site]);
  assert.equal(built.status, 0, built.stderr);
  const texts = [
    r.stdout,
    r.stderr,
    report.stdout,
    report.stderr,
    published.stdout,
    published.stderr,
    built.stdout,
    built.stderr,
  ];
  const files = [...filesUnder(out), ...filesUnder(compare), ...filesUnder(history), ...filesUnder(site)];
  assert.ok(files.length > 10, `the run, its history and site wrote files (${files.length})`);
  for (const f of files) texts.push(readFileSync(f).toString('latin1'));
  for (const [i, text] of texts.entries()) {
    assert.ok(!text.includes(secret), `the secret in ${files[i - 8] ?? `output ${i}`}`);
    assert.ok(!text.includes(user), `the user name in ${files[i - 8] ?? `output ${i}`}`);
  }

  const wrong = path.join(work, 'wrong-digest');
  const bad = run(privateJob(`sha256:${'0'.repeat(64)}`), wrong, 'docker');
  assert.equal(bad.status, 3, `${bad.stdout.slice(-2000)}\n${bad.stderr.slice(-2000)}`);
  const badResults = JSON.parse(readFileSync(path.join(wrong, 'results.json'), 'utf8'));
  assert.equal(badResults.cells[0].status, 'failed');
  assert.match(
    badResults.cells[0].reason,
    new RegExp(
      `image ${NAME.replace(/\./g, '\\.')}@sha256:0{64}: no image with the digest .* the run's registry serves ${digest}`,
    ),
  );
  await setup.nothingLeft('nothing of the runs is left');
});

test('an unset credential variable stops the run before anything runs', async (t) => {
  const setup = await onEngine(t, { images: false });
  if (!setup) return;
  const out = path.join(work, 'unset');
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, FORMATS_TEST_REGISTRY_USER: 'u' };
  delete env.FORMATS_TEST_REGISTRY_PASSWORD;
  const r = runCli(
    ['run', '--workload', privateJob(`sha256:${'1'.repeat(64)}`), '--env', 'docker', '--iterations', '1', '--out', out],
    { timeout: 120_000, env },
  );
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /field \/registries\/0\/password: the environment variable FORMATS_TEST_REGISTRY_PASSWORD is not set/,
  );
  assert.ok(
    !readdirSync(work).includes('unset') || !readdirSync(out).includes('results.json'),
    'no results: nothing ran',
  );
  await setup.nothingLeft('nothing was made');
});
