// No secret reaches what a run writes or publishes (issue 52, item 1), on the real engine: a workload whose
// build prints its build secret and fails, and one whose step, given the registry logins (`registries: true`),
// prints the team's password in a URL's userinfo, base64 encoded, its docker config as it is, without quotes
// and decoded, the runner's host name and runner name in two cases, and fails. Each is run as a job in docker
// under a host name of its own (a UTS namespace), its folder redacted as the run action does (`redact all`),
// published with `--redact all` and made a site: no password, build secret or base64 of them, nor the host or
// runner name in any case, is in the run's folder (results.json, report.md, report.html, raw/), the history
// or the site's data; the run's own scrub is seen working (its mask is where the values were).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { validateResults } from '../../src/results/schema.js';
import { onEngine } from '../helpers/engine.js';
import { BIN, runCli } from '../helpers/run-cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-secret-scrub-'));
after(() => rmSync(work, { recursive: true, force: true }));

const tag = randomBytes(4).toString('hex');
const USER = `ci-bot-${tag}`;
const PASSWORD = `pw-${randomBytes(18).toString('base64url')}`;
const TOKEN = `tok-${randomBytes(16).toString('hex')}`;
const RUNNER = `scrub-runner-${tag}`;
const HOST = `scrub-host-${tag}`;
const REGISTRY = 'registry.scrub.example:5000';

/** The forms no file may hold: each value, base64 and base64url, and those of `user:password`. */
const FORBIDDEN = [PASSWORD, TOKEN, `${USER}:${PASSWORD}`].flatMap((v) => [
  v,
  Buffer.from(v).toString('base64').replace(/=+$/, ''),
  Buffer.from(v).toString('base64url'),
]);

/** A host name of its own for the run (and the steps it starts) when a UTS namespace can be made here. */
const UTS = spawnSync('unshare', ['--uts', 'true']).status === 0;
/** The names that identify this runner, looked for in any case (the machine's own when no namespace: if long enough to tell). */
const IDENTITIES = [RUNNER, ...(UTS ? [HOST] : hostname().length >= 3 ? [hostname()] : [])];

/** @param {string} name @param {string[]} lines @param {Record<string, string>} [files] */
function workload(name, lines, files = {}) {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), text);
  }
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, ['version: 1', `name: ${name}`, ...lines, ''].join('\n'));
  return file;
}

/**
 * The team's registry with its credential, and an image of it the run seeds its own registry with: the run's
 * registry stands in for it, and the job logs in there with the team's user name and a password of the run's.
 */
const TEAM_REGISTRY = [
  'registries:',
  `  - address: ${REGISTRY}`,
  '    username: { env: SCRUB_TEST_USER }',
  '    password: { env: SCRUB_TEST_PASSWORD }',
  'images:',
  `  - { name: ${REGISTRY}/team/tools:1, source: pull, seed: dind-bench/lifecycle:debian }`,
];

/**
 * `dind-bench run` of `file` in docker under the test's host name (when it can have one) and runner name,
 * with the team's credential and the build secret in its environment.
 * @param {string} file @param {string} out
 */
function run(file, out) {
  const args = [BIN, 'run', '--workload', file, '--env', 'docker', '--iterations', '1', '--out', out];
  const [cmd, argv] = UTS
    ? ['unshare', ['--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', HOST, process.execPath, ...args]]
    : [process.execPath, args];
  return spawnSync(cmd, argv, {
    encoding: 'utf8',
    timeout: 400_000,
    env: {
      ...process.env,
      GITHUB_ACTIONS: '',
      RUNNER_NAME: RUNNER,
      SCRUB_TEST_USER: USER,
      SCRUB_TEST_PASSWORD: PASSWORD,
      SCRUB_TEST_TOKEN: TOKEN,
    },
  });
}

/** Every file under `dir` with its text. @param {string} dir @returns {[string, string][]} */
const textsUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => statSync(f).size < 64 * 2 ** 20)
    .map((f) => [f, readFileSync(f).toString('latin1')]);

/** What of the secrets and identities `text` holds. @param {string} text @param {boolean} identities */
function leaks(text, identities) {
  const lower = text.toLowerCase();
  return [
    ...FORBIDDEN.filter((f) => text.includes(f)),
    ...(identities ? IDENTITIES.filter((n) => lower.includes(n.toLowerCase())) : []),
  ];
}

/** The one cell of workload `name` in the run in `out`. @param {string} out @param {string} name */
function cellOf(out, name) {
  const doc = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  const cell = doc.cells.find((c) => c.benchmark === `workload.${name}`);
  assert.ok(cell, `a cell of workload.${name}`);
  return cell;
}

test('a build and a step that print their secrets fail; no secret nor the runner reaches results, reports, raw/, history or site', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  if (!UTS)
    t.diagnostic(`no UTS namespace here (unshare --uts): the host name checked is the machine's (${hostname()})`);
  const build = workload(
    'leaky-build',
    ['builds:', '  - name: app', '    context: app', '    secrets: [{ id: token, env: SCRUB_TEST_TOKEN }]'],
    {
      'app/Dockerfile': [
        'FROM dind-bench/lifecycle:debian',
        // The build prints its secret as it is and base64 encoded (with and without its newline), then fails.
        'RUN --mount=type=secret,id=token cat /run/secrets/token; echo; base64 /run/secrets/token; ' +
          '(cat /run/secrets/token; echo) | base64; echo "error: the token $(cat /run/secrets/token) is refused"; exit 3',
        '',
      ].join('\n'),
    },
  );
  const b64 = (/** @type {string} */ s) => Buffer.from(s).toString('base64');
  // The step holds the password as a script would after reading its secret; the registry logins are its.
  const step = workload('leaky-step', [
    ...TEAM_REGISTRY,
    'steps:',
    '  - name: leak',
    '    registries: true',
    '    run: |',
    '      cat "$DOCKER_CONFIG/config.json"',
    `      sed 's/"//g' "$DOCKER_CONFIG/config.json"`,
    `      grep -o '"auth": *"[^"]*"' "$DOCKER_CONFIG/config.json" | cut -d'"' -f4 | base64 -d; echo`,
    `      echo "basic $(printf %s '${USER}:${PASSWORD}' | base64)"`,
    `      echo "password $(printf %s '${PASSWORD}' | base64) on $(hostname)"`,
    `      hostname | tr a-z A-Z; echo "runner ${RUNNER.toUpperCase()} ${RUNNER}"`,
    `      echo "error: https://${USER}:${PASSWORD}@${REGISTRY}/v2/ refused ${b64(PASSWORD)} on $(hostname)" >&2`,
    '      exit 4',
  ]);
  const outs = { build: path.join(work, 'build-out'), step: path.join(work, 'step-out') };
  const started = performance.now();
  for (const [name, file] of /** @type {const} */ ([
    ['build', build],
    ['step', step],
  ])) {
    const r = run(file, outs[name]);
    assert.equal(
      r.status,
      3,
      `exit 3: the cell failed, results written\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`,
    );
    assert.deepEqual(leaks(r.stdout + r.stderr, false), [], `the run's log (${name})`);
    // The run's own scrub, before any redaction: no secret in any file it wrote.
    for (const [f, text] of textsUnder(outs[name])) assert.deepEqual(leaks(text, false), [], f);
  }
  t.diagnostic(`both runs: ${Math.round((performance.now() - started) / 1000)} s`);

  const built = cellOf(outs.build, 'leaky-build');
  assert.equal(built.status, 'failed');
  assert.match(built.reason ?? '', /step build-app/);
  const stepped = cellOf(outs.step, 'leaky-step');
  assert.equal(stepped.status, 'failed');
  // The reason names the script's first line; the rest of the message, the step's last words among them, is its tail.
  assert.match(
    `${stepped.reason}\n${stepped.logTail}`,
    new RegExp(`error: https://\\*\\*\\*@${REGISTRY}/v2/ refused \\*\\*\\* on `),
  );
  // The output was there and was scrubbed where it was: the masks stand in for the values.
  const raw = (/** @type {string} */ out, /** @type {RegExp} */ name) =>
    textsUnder(path.join(out, 'raw')).find(([f]) => name.test(f))?.[1] ?? '';
  assert.match(raw(outs.build, /build-app\.txt$/), /the token \*\*\* is refused/);
  const config = raw(outs.step, /step-leak\.txt$/);
  assert.match(config, /"auth": "\*\*\*"/, 'the docker config as it is');
  assert.match(config, /auth: \*\*\*/, 'without quotes: the run knows its own registry password');
  assert.match(config, new RegExp(`${USER}:\\*\\*\\*`), 'decoded');
  assert.match(config, /^basic \*\*\*$/m);

  // As the workflow goes on: the run action redacts the folder, publish redacts again, the site is built.
  const history = path.join(work, 'history');
  const site = path.join(work, 'site');
  for (const out of Object.values(outs)) {
    const redacted = runCli(['redact', out, '--redact', 'all']);
    assert.equal(redacted.status, 0, redacted.stderr);
    const published = runCli(['publish', path.join(out, 'results.json'), '--history', history, '--redact', 'all']);
    assert.equal(published.status, 0, published.stderr);
  }
  const made = runCli(['site', 'build', '--history', history, '--out', site]);
  assert.equal(made.status, 0, made.stderr);
  const files = [...Object.values(outs), history, site].flatMap(textsUnder);
  for (const want of ['results.json', 'report.md', 'report.html', 'step-leak.txt', 'build-app.txt'])
    assert.ok(
      files.some(([f]) => f.endsWith(want)),
      `${want} was written`,
    );
  for (const [f, text] of files) assert.deepEqual(leaks(text, true), [], f);
  await setup.leftAsFound();
});
