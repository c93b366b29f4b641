// `dind-bench workload init` on job shapes the first fixtures do not have (issue 55: "a job of a shape the
// fixtures do not have drafts into a workload that plans with no engine"), each written as a team writes
// it (test/fixtures/workflows/README.md): a Node matrix with exclude and include under a job's
// `defaults.run` (a login shell), a bake-and-compose integration job over two compose files, and a Go
// build inside a `container:` with credentials, env, options and volumes. Each drafts through the real
// CLI, plans with the real `plan --workload` and no engine, and what it cannot carry is a comment beside
// where it stood and a line of the terminal's summary.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import YAML from 'yaml';
import { matrixOf } from '../../src/workload/workflow-expr.js';
import { runCli } from '../helpers/run-cli.js';

const FIXTURES = new URL('../fixtures/workflows/', import.meta.url).pathname;
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-job-shapes-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of a fixture repository, so the drafts are written outside the project. @param {string} name */
function repo(name) {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

// No engine anywhere: a socket that does not exist, so anything that asked one would fail.
/** @param {Record<string, string>} [extra] */
const envWith = (extra = {}) => ({
  ...process.env,
  GITHUB_ACTIONS: '',
  DOCKER_HOST: `unix://${path.join(work, 'no-engine.sock')}`,
  ...extra,
});

/** @param {string} dir @param {string[]} args */
const init = (dir, args) => runCli(['workload', 'init', ...args], { cwd: dir, env: envWith() });

/** @param {string} file @param {Record<string, string>} [env] */
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

/**
 * Each note is in the file and on the terminal: as many "not carried" comments as the summary counts, and
 * each terminal line's words in the file's comments.
 * @param {import('../helpers/run-cli.js').CliResult} r @param {string[]} texts the drafted files
 */
function notesAgree(r, texts) {
  const count = Number(/^not carried \((\d+); each is a comment in the file where it stood\):$/m.exec(r.stderr)?.[1]);
  const inFiles = texts.reduce((n, t) => n + (t.match(/# not carried: /g) ?? []).length, 0);
  assert.equal(inFiles, count, `${inFiles} comments in the files, ${count} on the terminal\n${r.stderr}`);
  const comments = texts.map(commentsOf).join(' ');
  for (const [, text] of r.stderr.matchAll(/^ {2}- (.*)$/gm))
    assert.ok(comments.includes(text.replace(/\s+/g, ' ')), `on the terminal, not in the file: ${text}`);
}

test("GitHub's matrix: exclude removes combinations, include adds keys to those it matches or a combination of its own", () => {
  const strategy = {
    matrix: {
      node: [18, 20, 22],
      exclude: [{ node: 18 }],
      include: [
        { node: 20, coverage: true },
        { node: 23, experimental: true },
      ],
    },
  };
  assert.deepEqual(matrixOf(strategy), { values: { node: '20', coverage: 'true' }, combinations: 3 });
  assert.deepEqual(matrixOf({ matrix: { include: [{ os: 'linux' }, { os: 'mac' }] } }), {
    values: { os: 'linux' },
    combinations: 2,
  });
  // Two dimensions, an exclude of one pair: the first combination left is drafted.
  assert.deepEqual(matrixOf({ matrix: { os: ['a', 'b'], node: [20, 22], exclude: [{ os: 'a', node: 20 }] } }), {
    values: { os: 'a', node: '22' },
    combinations: 3,
  });
  // An include never overwrites an original value: {node: 20, os: x} matches no combination of os a or b.
  assert.deepEqual(matrixOf({ matrix: { os: ['a'], include: [{ os: 'x', extra: 1 }] } }).combinations, 2);
  for (const [matrix, why] of [
    [{ node: [20], include: '${{ fromJSON(needs.setup.outputs.matrix) }}' }, /matrix\.include is not a list/],
    [{ node: [18], exclude: [{ node: 18 }] }, /leave no combination/],
    [{ a: Array.from({ length: 20 }, (_, i) => i), b: Array.from({ length: 20 }, (_, i) => i) }, /more than 256/],
  ])
    assert.match(String(matrixOf({ matrix }).why), /** @type {RegExp} */ (why));
});

test('a Node matrix under defaults.run (a login shell, a package folder): one combination drafted, each part named', () => {
  const dir = repo('node-matrix');
  const r = init(dir, ['--from', '.github/workflows/test.yml', '--job', 'unit']);
  assert.equal(r.status, 0, said(r));
  const file = path.join(dir, '.github/dind-bench/unit.yml');
  const composeFile = path.join(dir, '.github/dind-bench/unit.compose.yml');
  const text = readFileSync(file, 'utf8');
  const composeText = readFileSync(composeFile, 'utf8');
  const w = YAML.parse(text);
  assert.deepEqual(w.timeout, { job: '20m', step: '20m' });
  assert.deepEqual(w.registries, [
    {
      address: 'ghcr.io',
      username: { env: 'DIND_BENCH_REGISTRY_USERNAME' },
      password: { env: 'GHCR_TOKEN' },
    },
  ]);
  assert.deepEqual(
    w.steps.map((/** @type {{name: string}} */ s) => s.name),
    ['install', 'write-the-test-settings', 'unit-tests', 'coverage-summary', 'test-report'],
    'the coverage step runs in the combination drafted (coverage: true); the report, if: always(), too',
  );
  const [install, settings, unit, , report] = w.steps;
  // The job's defaults: its folder and its shell (`bash -el {0}`, a login shell), over the workflow's `bash`.
  assert.match(install.run, /^set -e\ncd \.\.\/\.\.\/packages\/api\n/);
  assert.match(install.run, /\nbash -el -c 'npm ci --no-audit --no-fund\n'\n$/);
  // The job's env, each value as the draft knows it: an input's default, a literal, "draft" for the rest.
  for (const line of [
    'export LOG_LEVEL=warn',
    'export API_BASE_URL=draft',
    'export GIT_SHA=draft',
    'export FORCE_COLOR=1',
  ])
    assert.ok(install.run.includes(`\n${line}\n`), `${line}\n${install.run}`);
  // A heredoc is kept whole, in the step's shell.
  assert.match(settings.run, /bash -el -c 'cat > \.env\.test <<EOF\nDATABASE_URL=postgres:\/\/.*\nEOF\n'\n$/s);
  // Continuations kept as written; the matrix's value in the expression; continue-on-error false there.
  assert.match(unit.run, /npx jest --ci \\\n {2}--coverage=true \\\n {2}--reporters=default/);
  assert.match(report.run, /^set -e\ncd \.\.\/\.\.\nexport /, "the step's own working-directory over the default");

  const compose = YAML.parse(composeText);
  assert.deepEqual(compose.services.postgres, {
    image: 'ghcr.io/acme/postgres-ci:16',
    environment: { POSTGRES_PASSWORD: 'postgres' },
    ports: ['5432:5432'],
    tmpfs: ['/var/lib/postgresql/data'],
    healthcheck: { test: ['CMD-SHELL', 'pg_isready -U postgres'], interval: '10s', timeout: '5s', retries: 5 },
  });
  const notes = commentsOf(text);
  for (const says of [
    /not carried: the job's matrix has 3 combinations; drafted for node=20, coverage=true/,
    /not carried: the job's env uses \$\{\{ vars\.STAGING_API_URL \}\}, \$\{\{ github\.sha \}\}, which cannot be evaluated before the run/,
    /not carried: service postgres: the user name of its credentials for ghcr\.io \(\$\{\{ github\.actor \}\}\) is not a secret the draft can name what to do: set DIND_BENCH_REGISTRY_USERNAME to it/,
    /not carried: step 2: uses: actions\/setup-node@v4/,
  ])
    assert.match(notes, says);
  assert.doesNotMatch(notes, /continue-on-error/, 'matrix.experimental is empty in the combination drafted');
  // Each where it stood: the action's note before the first step after it; the credentials' before registries.
  assert.ok(text.indexOf('actions/setup-node') < text.indexOf('- name: install'), text);
  assert.ok(text.indexOf('github.actor') < text.indexOf('registries:'), text);
  notesAgree(r, [text, composeText]);
  assert.match(r.stderr, /^ {2}GHCR_TOKEN: the password or token for ghcr\.io, the workflow's secrets\.GHCR_TOKEN$/m);

  const p = plan(file, { DIND_BENCH_REGISTRY_USERNAME: 'ci', GHCR_TOKEN: 'not-a-real-token' });
  assert.equal(p.status, 0, said(p));
  assert.match(said(p), /checked, no engine asked/);
});

test('a bake-and-compose integration job: the pull, the stack of two files, its last command the test; bake named', () => {
  const dir = repo('compose-bake');
  const r = init(dir, ['--from', '.github/workflows/integration.yml', '--job', 'integration']);
  assert.equal(r.status, 0, said(r));
  const file = path.join(dir, '.github/dind-bench/integration.yml');
  const text = readFileSync(file, 'utf8');
  const w = YAML.parse(text);
  assert.deepEqual(w.timeout, { job: '45m', step: '45m' });
  assert.deepEqual(w.images, [{ name: 'postgres:16-alpine', source: 'pull' }]);
  assert.deepEqual(w.compose, {
    file: '../../compose.yml',
    test: { service: 'tests', command: ['pytest', '-x', '-q', 'tests/integration'] },
  });
  // The bake stays a step, timed as one; up, exec, run and down are the workload's own.
  assert.deepEqual(
    w.steps.map((/** @type {{name: string}} */ s) => s.name),
    ['build-the-images'],
  );
  assert.match(w.steps[0].run, /^set -e\ncd \.\.\/\.\.\nexport COMPOSE_PROJECT_NAME=ci-draft\nexport TAG=draft\n/);
  assert.match(
    w.steps[0].run,
    /docker buildx bake -f docker-bake\.hcl --set '\\''\*\.cache-from=type=gha'\\'' --load api tests/,
  );
  const notes = commentsOf(text);
  for (const says of [
    /not carried: step 4 "Build the images": `docker buildx bake .*` stays in the step: the targets of a bake file are not the workload's builds what to do: write each target the job needs under builds:/,
    /not carried: step 4 "Build the images": its cache type=gha is GitHub's cache service/,
    /not carried: step 5 "Start the stack": compose files after the first \(compose\.ci\.yml\): the draft's stack is \.\.\/\.\.\/compose\.yml alone what to do: a workload takes one compose file: merge the others into it/,
    /not carried: step 6 "Migrate": from `docker compose`: exec: the workload runs its test as `docker compose run --rm`/,
    /not carried: step 7 "Integration tests": the compose api python manage\.py migrate --noinput ran in the stack before this one; the workload runs one command in its stack, the last the job runs \(tests\)/,
    /not carried: step 7 "Integration tests": from `docker compose`: run -e PYTEST_ADDOPTS=-p no:cacheprovider/,
    /not carried: step 8 "Compose logs": runs only when an earlier step failed/,
  ])
    assert.match(notes, says);
  assert.equal((notes.match(/compose files after the first/g) ?? []).length, 1, 'said once, not for each command');
  notesAgree(r, [text]);

  const p = plan(file);
  assert.equal(p.status, 0, said(p));
  assert.match(said(p), /checked, no engine asked/);
});

test('a Go build inside a container: its image and credentials, its env in each step, its options and volumes named', () => {
  const dir = repo('go-container');
  const r = init(dir, ['--from', '.github/workflows/build.yml', '--job', 'build', '--out', 'ci/build.yml']);
  assert.equal(r.status, 0, said(r));
  const file = path.join(dir, 'ci/build.yml');
  const composeFile = path.join(dir, 'ci/build.compose.yml');
  const text = readFileSync(file, 'utf8');
  const composeText = readFileSync(composeFile, 'utf8');
  const w = YAML.parse(text);
  assert.deepEqual(
    w.images.map((/** @type {{name: string}} */ x) => x.name),
    ['ghcr.io/acme/ci-go:1.22', 'redis:7-alpine'],
  );
  assert.deepEqual(w.registries, [
    { address: 'ghcr.io', username: { env: 'DIND_BENCH_REGISTRY_USERNAME' }, password: { env: 'GITHUB_TOKEN' } },
  ]);
  assert.deepEqual(w.builds, [{ name: 'api', context: '..', tag: 'acme/api:ci' }]);
  assert.deepEqual(
    w.steps.map((/** @type {{name: string, timeout?: string}} */ s) => [s.name, s.timeout]),
    [
      ['trust-the-workspace', undefined],
      ['vet-and-test', undefined],
      ['smoke', '2m'],
      ['report', undefined],
    ],
  );
  const [trust, vet] = w.steps;
  // The container's env under the workflow's and the step's; the runner's workspace is the workload's root.
  assert.match(
    vet.run,
    /\nexport CGO_ENABLED=0\nexport GOCACHE=\/cache\/go-build\nexport GOFLAGS=-mod=vendor\nexport REDIS_ADDR=redis:6379\n/,
  );
  assert.match(trust.run, /^set -e\nexport GITHUB_WORKSPACE="\$\(cd \.\. && pwd\)"\ncd \.\.\n/);
  assert.deepEqual(YAML.parse(composeText).services.redis, {
    image: 'redis:7-alpine',
    mem_limit: '256m',
    healthcheck: { test: ['CMD-SHELL', 'redis-cli ping'], interval: '5s', retries: 10 },
  });
  const notes = commentsOf(text);
  for (const says of [
    /not carried: the job's steps ran inside ghcr\.io\/acme\/ci-go:1\.22 \(container:\)/,
    /not carried: the container's options: "--user 1001 --cpus 2"/,
    /not carried: the container's volumes: \["\/var\/run\/docker\.sock:\/var\/run\/docker\.sock","go-cache:\/cache"\]/,
    /not carried: the container's env \(CGO_ENABLED, GOCACHE\) is set in each step as the container had it/,
    /not carried: container:: the user name of its credentials for ghcr\.io/,
    /not carried: step 4 "Build the image": from `docker build`: --secret id=netrc,src=\$HOME\/\.netrc: a workload gives a build secret from an environment variable only/,
    /not carried: step 4 "Build the image": from `docker build`: --build-arg VERSION=\$\{GITHUB_SHA::8\}: a variable the draft does not know/,
    /not carried: step 6 "Report": continue-on-error/,
  ])
    assert.match(notes, says);
  // The container's notes beside its image; the build step's where it stood, between the steps around it.
  assert.ok(text.indexOf("the container's options") < text.indexOf('- name: ghcr.io/acme/ci-go:1.22'), text);
  const netrc = text.indexOf('src=$HOME/.netrc');
  assert.ok(text.indexOf('- name: vet-and-test') < netrc && netrc < text.indexOf('- name: smoke'), text);
  notesAgree(r, [text, composeText]);

  const p = plan(file, { DIND_BENCH_REGISTRY_USERNAME: 'ci', GITHUB_TOKEN: 'not-a-real-token' });
  assert.equal(p.status, 0, said(p));
  assert.match(said(p), /checked, no engine asked/);
});
