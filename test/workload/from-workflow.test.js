// `dind-bench workload init`: a team's GitHub Actions job drafted into a workload, on fixtures of the common
// shapes (test/fixtures/workflows/): each drafts through the real CLI, the draft is checked by the real
// `plan --workload` with no engine, and what it cannot carry is a comment where it stood and a line on the
// terminal with what to do. The workflow is hostile input: each refusal names the file, the job and what to do.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import YAML from 'yaml';
import { MAX_WORKFLOW_BYTES } from '../../src/workload/workflow-file.js';
import { runCli } from '../helpers/run-cli.js';

const FIXTURES = new URL('../fixtures/workflows/', import.meta.url).pathname;
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-from-workflow-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of a fixture repository, so the drafts are written outside the project. @param {string} name */
function repo(name) {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/** @param {Record<string, string>} [extra] */
const envWith = (extra = {}) => ({ ...process.env, GITHUB_ACTIONS: '', ...extra });

/** @param {string} dir @param {string[]} args @param {Record<string, string>} [env] */
const init = (dir, args, env) => runCli(['workload', 'init', ...args], { cwd: dir, env: envWith(env) });

/** The real plan with no engine asked. @param {string} file @param {Record<string, string>} [env] */
const plan = (file, env) => runCli(['plan', '--workload', file, '--env', 'docker,dind'], { env: envWith(env) });

/** Every comment of a YAML text as one line of words, so a wrapped comment reads whole. @param {string} text */
const commentsOf = (text) =>
  text
    .split('\n')
    .filter((l) => /^\s*#/.test(l))
    .map((l) => l.replace(/^\s*#\s?/, ''))
    .join(' ')
    .replace(/\s+/g, ' ');

/** @param {import('../helpers/run-cli.js').CliResult} r */
const said = (r) => `${r.stdout}\n${r.stderr}`;

test('a job with service containers: run steps with env, working-directory, shell; services as a compose stack', () => {
  const dir = repo('service-job');
  const r = init(dir, ['--from', '.github/workflows/ci.yml', '--job', 'test']);
  assert.equal(r.status, 0, said(r));
  const file = path.join(dir, '.github/dind-bench/test.yml');
  const text = readFileSync(file, 'utf8');
  const w = YAML.parse(text);
  assert.equal(w.name, 'test');
  assert.equal(w.root, '../..');
  assert.deepEqual(w.timeout, { job: '25m', step: '25m' });
  assert.deepEqual(
    w.images.map((/** @type {{name: string}} */ x) => x.name),
    ['postgres:16', 'redis:7'],
  );
  assert.deepEqual(w.compose, { file: 'test.compose.yml' });
  assert.deepEqual(
    w.steps.map((/** @type {{name: string}} */ s) => s.name),
    ['install', 'migrate', 'test'],
  );
  const [install, migrate, tests] = w.steps;
  // GitHub runs a step with no shell as `bash -e {0}`, in its working-directory, with the job's env.
  assert.match(
    install.run,
    /^set -e\ncd \.\.\/\.\.\/api\nexport CI=true\nexport DATABASE_URL=.*\nbash -e -c 'npm ci\n'\n$/,
  );
  assert.match(migrate.run, /npm run migrate -- --commit draft/);
  assert.match(tests.run, /export NODE_OPTIONS=--max-old-space-size=2048\nbash --noprofile --norc -eo pipefail -c '/);
  assert.match(tests.run, /test-node20\.log/, 'the matrix is drafted for its first combination');
  assert.equal(tests.timeout, '15m');

  const compose = YAML.parse(readFileSync(path.join(dir, '.github/dind-bench/test.compose.yml'), 'utf8'));
  assert.deepEqual(compose.services.postgres, {
    image: 'postgres:16',
    environment: { POSTGRES_USER: 'app', POSTGRES_PASSWORD: 'draft', POSTGRES_DB: 'app_test' },
    ports: ['5432:5432'],
    healthcheck: { test: ['CMD-SHELL', 'pg_isready -U app'], interval: '5s', timeout: '5s', retries: 10 },
  });
  assert.deepEqual(compose.services.redis, { image: 'redis:7', ports: ['6379:6379'] });

  const notes = commentsOf(text);
  for (const says of [
    /not carried: the job's matrix has 2 combinations; drafted for node=20 what to do: each combination is a job of its own/,
    /not carried: step 2: uses: actions\/setup-node@v4: a workload runs docker and shell steps, not actions what to do: have the tool on the runner's PATH/,
    /not carried: step 4 "Migrate": PGPASSWORD is the secret PG_PASSWORD: a workload step gets no variable of the run's environment/,
    /not carried: step 4 "Migrate": \$\{\{ github\.sha \}\} cannot be evaluated before the run; each stands as "draft" what to do: write the value/,
    /not carried: step 6 "Service logs": runs only when an earlier step failed \(if: failure\(\)\)/,
    /not carried: the workflow's steps ran while its services were up/,
  ])
    assert.match(notes, says);
  // Each where it stood: the action's note before the step after it, the failure-only step's after the last.
  assert.ok(text.indexOf('actions/setup-node') < text.indexOf('- name: install'), text);
  assert.ok(text.indexOf('"Service logs"') > text.indexOf('- name: test'), text);
  assert.match(
    commentsOf(readFileSync(path.join(dir, '.github/dind-bench/test.compose.yml'), 'utf8')),
    /not carried: service postgres: POSTGRES_PASSWORD is the secret PG_PASSWORD; written as "draft"/,
  );

  assert.match(
    r.stderr,
    /^drafted \S*\.github\/dind-bench\/test\.yml from \.github\/workflows\/ci\.yml, job test: 3 steps, 2 images, 0 builds, 0 registry logins, a compose stack of 2 services/m,
  );
  assert.match(r.stderr, /^not carried \(7; each is a comment in the file where it stood\):$/m);
  assert.match(
    r.stderr,
    /^ {2}- step 6 "Service logs": runs only when an earlier step failed \(if: failure\(\)\)\n {4}what to do: nothing: a workload step that fails ends the job$/m,
  );
  assert.match(r.stderr, /check it with no engine: dind-bench plan --workload/);

  const p = plan(file);
  assert.equal(p.status, 0, said(p));
  assert.match(said(p), /checked, no engine asked/);
});

test('a build-and-push job: the login, the pull, the build with its secret; the push and the cache named', () => {
  const dir = repo('build-push');
  const r = init(dir, ['--from', '.github/workflows/release.yml', '--job', 'image', '--out', 'ci/workload.yml']);
  assert.equal(r.status, 0, said(r));
  const file = path.join(dir, 'ci/workload.yml');
  const text = readFileSync(file, 'utf8');
  const w = YAML.parse(text);
  assert.equal(w.root, '..');
  assert.deepEqual(w.registries, [
    { address: 'registry.acme.internal:5000', username: { env: 'REGISTRY_USER' }, password: { env: 'REGISTRY_TOKEN' } },
  ]);
  assert.deepEqual(w.images, [{ name: 'registry.acme.internal:5000/base/node:20', source: 'pull' }]);
  assert.deepEqual(w.builds, [
    {
      name: 'api',
      context: '..',
      dockerfile: 'docker/Dockerfile',
      target: 'runtime',
      args: { NODE_ENV: 'production' },
      tag: 'registry.acme.internal:5000/acme/api:draft',
      secrets: [{ id: 'npm', env: 'NPM_TOKEN' }],
    },
  ]);
  assert.equal(w.steps.length, 1);
  assert.match(
    w.steps[0].run,
    /^set -e\ncd \.\.\nexport IMAGE=registry\.acme\.internal:5000\/acme\/api\nbash -e -c 'docker run --rm "\$IMAGE:draft" node --version\n'\n$/,
  );
  const notes = commentsOf(text);
  for (const says of [
    /not carried: step 2: uses: docker\/setup-buildx-action@v3 what to do: nothing: the workload builds with buildx's default docker driver/,
    /not carried: step 5 "Build and push": from `docker build`: --cache-from type=gha/,
    /not carried: step 5 "Build and push": from `docker build`: --push: the workload does not push what it builds/,
    /not carried: the build's other tags \(registry\.acme\.internal:5000\/acme\/api:latest\)/,
    /not carried: step 7: uses: actions\/upload-artifact@v4/,
  ])
    assert.match(notes, says);
  for (const name of ['REGISTRY_USER', 'REGISTRY_TOKEN', 'NPM_TOKEN']) {
    assert.match(r.stderr, new RegExp(`^ {2}${name}: .*secrets\\.${name}$`, 'm'));
    assert.match(notes, new RegExp(`${name}: .*secrets\\.${name}`));
    // How a caller of the reusable workflow passes it: one JSON map of secrets, by name, in the header.
    assert.match(
      text,
      new RegExp(`^# {3}DIND_BENCH_SECRETS: '\\{.*"${name}": \\$\\{\\{ toJSON\\(secrets\\.${name}\\) \\}\\}`, 'm'),
    );
  }
  // The file names the variables, never a value; plan refuses while they are not set.
  const secrets = { REGISTRY_USER: 'ci-bot', REGISTRY_TOKEN: 'tok-1', NPM_TOKEN: 'npm-2' };
  const refused = plan(file, { REGISTRY_USER: '', REGISTRY_TOKEN: '', NPM_TOKEN: '' });
  assert.equal(refused.status, 1, said(refused));
  assert.match(refused.stderr, /the environment variable (NPM_TOKEN|REGISTRY_USER) is not set/);
  const p = plan(file, secrets);
  assert.equal(p.status, 0, said(p));
  assert.match(said(p), /checked, no engine asked/);
});

test('a compose end-to-end job inside a container: the stack and its test, the login, the container image', () => {
  const dir = repo('compose-e2e');
  const r = init(dir, ['--from', '.github/workflows/e2e.yml', '--job', 'e2e']);
  assert.equal(r.status, 0, said(r));
  const file = path.join(dir, '.github/dind-bench/e2e.yml');
  const text = readFileSync(file, 'utf8');
  const w = YAML.parse(text);
  assert.deepEqual(w.compose, {
    file: '../../e2e/compose.yml',
    test: { service: 'tests', command: ['npm', 'run', 'e2e'] },
  });
  assert.deepEqual(w.images, [{ name: 'docker:27-cli', source: 'pull' }]);
  assert.deepEqual(w.registries, [
    { address: 'docker.io', username: { env: 'DIND_BENCH_REGISTRY_USERNAME' }, password: { env: 'HUB_TOKEN' } },
  ]);
  assert.equal(w.steps, undefined, 'up, the test and down are the workload’s own: no step is left');
  const notes = commentsOf(text);
  for (const says of [
    /not carried: the job's steps ran inside docker:27-cli \(container:\); a workload step runs in the runner's shell/,
    /not carried: step 2 "Log in": the login to docker\.io gives its user name other than by a variable what to do: set DIND_BENCH_REGISTRY_USERNAME to it/,
    /not carried: step 2 "Log in": \$\{\{ vars\.HUB_USER \}\} cannot be evaluated before the run/,
    /not carried: step 5 "Dump logs": runs only when an earlier step failed/,
  ])
    assert.match(notes, says);
  assert.match(r.stderr, /HUB_TOKEN: the password or token for docker\.io, the workflow's secrets\.HUB_TOKEN/);
  const p = plan(file, { DIND_BENCH_REGISTRY_USERNAME: 'ci', HUB_TOKEN: 't' });
  assert.equal(p.status, 0, said(p));
  assert.match(said(p), /checked, no engine asked/);
});

test('an existing draft is kept unless --force', () => {
  const dir = repo('service-job');
  const args = ['--from', '.github/workflows/ci.yml', '--job', 'lint', '--out', 'lint.yml'];
  assert.equal(init(dir, args).status, 0);
  writeFileSync(path.join(dir, 'lint.yml'), 'edited\n');
  const again = init(dir, args);
  assert.equal(again.status, 1, said(again));
  assert.match(again.stderr, /lint\.yml exists; give --force to overwrite it, or another --out/);
  assert.equal(readFileSync(path.join(dir, 'lint.yml'), 'utf8'), 'edited\n');
  assert.equal(init(dir, [...args, '--force']).status, 0);
  assert.match(readFileSync(path.join(dir, 'lint.yml'), 'utf8'), /^name: lint$/m);
});

test('hostile workflow input is refused, naming the file, the job and what to do', () => {
  const dir = repo('service-job');
  const write = (/** @type {string} */ name, /** @type {string} */ text) => {
    mkdirSync(path.join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(path.join(dir, '.github/workflows', name), text);
    return `.github/workflows/${name}`;
  };
  /** @type {[string, string[], RegExp][]} */
  const cases = [
    [
      'not a workflow',
      ['--from', write('compose.yml', 'services:\n  db: {image: postgres:16}\n'), '--job', 'db'],
      /compose\.yml: not a GitHub Actions workflow: expected a mapping with a "jobs" mapping; give a GitHub Actions workflow file/,
    ],
    [
      'a missing job',
      ['--from', '.github/workflows/ci.yml', '--job', 'deploy'],
      /ci\.yml: no job deploy; its jobs: lint, test; give one of them with --job/,
    ],
    [
      'an oversize file',
      ['--from', write('big.yml', `jobs: {}\n# ${'x'.repeat(MAX_WORKFLOW_BYTES)}\n`), '--job', 'a'],
      /big\.yml: \d+ bytes, more than a workflow file may have here \(262144\)/,
    ],
    ['not YAML', ['--from', write('bad.yml', 'jobs: [a\n'), '--job', 'a'], /bad\.yml:\d+:\d+: not valid YAML/],
    [
      'an alias bomb',
      [
        '--from',
        write(
          'bomb.yml',
          `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\njobs: {j: {steps: [{run: "true"}], x: [*c, *c]}}\n`,
        ),
        '--job',
        'j',
      ],
      /bomb\.yml: .*alias/i,
    ],
    [
      'a job id that is a path',
      ['--from', '.github/workflows/ci.yml', '--job', '../x'],
      /ci\.yml: --job \.\.\/x is not a job id/,
    ],
    [
      'a reusable workflow job',
      ['--from', write('call.yml', 'jobs:\n  call:\n    uses: acme/ci/.github/workflows/t.yml@v1\n'), '--job', 'call'],
      /call\.yml: job call calls a reusable workflow \(uses: acme\/ci\/\.github\/workflows\/t\.yml@v1\); draft from a job of that workflow's file instead/,
    ],
    [
      'a job of actions only',
      [
        '--from',
        write(
          'only.yml',
          'jobs:\n  docs:\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/upload-pages-artifact@v3\n',
        ),
        '--job',
        'docs',
      ],
      /only\.yml: job docs has nothing a workload carries .*uses: actions\/upload-pages-artifact@v3/,
    ],
    [
      'a missing file',
      ['--from', '.github/workflows/none.yml', '--job', 'a'],
      /none\.yml: cannot read the workflow file \(ENOENT\)/,
    ],
    [
      'an --out outside the repository',
      ['--from', '.github/workflows/ci.yml', '--job', 'test', '--out', '../elsewhere.yml'],
      /--out \.\.\/elsewhere\.yml: the drafted file must be inside the repository/,
    ],
  ];
  for (const [what, args, says] of cases) {
    const r = init(dir, args);
    assert.equal(r.status, 1, `${what}: ${said(r)}`);
    assert.match(r.stderr, says, what);
  }
});
