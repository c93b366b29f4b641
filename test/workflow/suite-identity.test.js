// The reusable workflow's `suite` job (src/workflow/reusable.js, RESOLVE_SCRIPT) takes the suite's
// repository and commit only from its own OIDC token. Its script, as generated into reusable-bench.yml, is
// run here with bash as the runner runs it: without a token it fails closed naming the permission, and
// contacts nothing (no fallback repository); with one, the request token reaches curl on its standard
// input, never on a command line: a loopback stand-in of the token service records the header it got and,
// while curl waits for its answer, reads every process's command line in /proc. A copy under another
// owner and name reads its own identity, with no edit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { MAJOR, SUITE_REPOSITORY, TARGET } from '../../src/workflow/reusable.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'dind-bench-suite-identity-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const suiteStep = parse(readFileSync(TARGET, 'utf8')).jobs.suite.steps.find((/** @type {any} */ s) => s.id === 'suite');
const SCRIPT = path.join(tmp, 'suite.sh');
writeFileSync(SCRIPT, suiteStep.run);

/** Stubs of `curl` and `git` that only record being called: for runs that must contact nothing. */
const spy = path.join(tmp, 'spy');
const calls = path.join(tmp, 'spy-calls');
mkdirSync(spy);
for (const name of ['curl', 'git']) {
  writeFileSync(path.join(spy, name), `#!/bin/sh\necho "${name} $*" >> '${calls}'\nexit 1\n`);
  chmodSync(path.join(spy, name), 0o755);
}

/**
 * Runs the suite step's script as the runner does (bash --noprofile --norc -eo pipefail FILE) in a folder
 * of its own, with only the environment given (never the caller's ACT or ACTIONS_ID_TOKEN_REQUEST_*).
 * @param {Record<string, string>} env @param {{spy?: boolean}} [o]
 */
async function runSuite(env, o = {}) {
  const dir = mkdtempSync(path.join(tmp, 'job-'));
  const output = path.join(dir, 'github-output');
  writeFileSync(output, '');
  const PATH = o.spy ? `${spy}:${process.env.PATH}` : String(process.env.PATH);
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', SCRIPT], {
    cwd: dir,
    env: { PATH, HOME: dir, GITHUB_OUTPUT: output, GITHUB_SERVER_URL: 'http://127.0.0.1:9', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const status = await new Promise((resolve) => child.on('close', resolve));
  const out = Object.fromEntries(
    readFileSync(output, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { status, log, out };
}

/** The command line of every process this test can see, by pid. */
function commandLines() {
  /** @type {Map<string, string>} */
  const lines = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      lines.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return lines;
}

const b64 = (/** @type {object} */ o) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** An unsigned token with these claims, as the stand-in in .ci/consumer-e2e.sh issues. @param {object} claims */
const jwt = (claims) => `${b64({ alg: 'none' })}.${b64(claims)}.`;

/**
 * A loopback stand-in of GitHub's token service: answers `status` with `body`, and records each request's
 * Authorization header, URL, and the command lines of all processes taken while the request is open.
 * @param {number} status @param {object} body
 */
async function tokenService(status, body) {
  /** @type {{authorization?: string, url?: string, lines: Map<string, string>}[]} */
  const requests = [];
  const server = createServer((req, res) => {
    // curl is still waiting for this answer: its process and command line exist now.
    requests.push({ authorization: req.headers.authorization, url: req.url, lines: commandLines() });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/token?api-version=2.0`,
    port,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test('the suite job names no repository or ref of its own: its only source is the OIDC token', () => {
  assert.equal(suiteStep.env, undefined, 'no FALLBACK_REPOSITORY / FALLBACK_REF');
  assert.ok(!suiteStep.run.includes(SUITE_REPOSITORY), `the script names ${SUITE_REPOSITORY}`);
  assert.ok(!/\bv1\b|FALLBACK|ls-remote/.test(suiteStep.run), 'no fallback to a major tag');
  assert.ok(!suiteStep.run.includes(`@${MAJOR}`));
  // Statically too: the request token is an argument only of the shell's builtin printf, piped to curl's
  // standard input (-H @-); curl's own arguments never hold it.
  const uses = suiteStep.run.split('\n').filter((l) => l.includes('$ACTIONS_ID_TOKEN_REQUEST_TOKEN'));
  assert.equal(uses.length, 1, uses.join('\n'));
  assert.match(uses[0], /^response=\$\(printf '[^']*' "\$ACTIONS_ID_TOKEN_REQUEST_TOKEN" \\$/);
  assert.match(suiteStep.run, /\n\s*\| curl [^\n]*-H @- "\$ACTIONS_ID_TOKEN_REQUEST_URL&audience=dind-bench"\)/);
});

test('without the token, outside act, the suite job fails closed naming the permission, and contacts nothing', async () => {
  /** @type {Record<string, string>[]} */
  const cases = [
    {},
    { ACTIONS_ID_TOKEN_REQUEST_URL: 'http://127.0.0.1:9/token?x=1' },
    { ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'x' },
  ];
  for (const env of cases) {
    const r = await runSuite(env, { spy: true });
    assert.notEqual(r.status, 0, r.log);
    assert.match(
      r.log,
      /^::error title=dind-bench suite::no OIDC token in this job: grant the permission id-token: write on the job that calls this workflow/m,
    );
    assert.deepEqual(r.out, {}, 'no repository, ref or commit given to the later jobs');
  }
  assert.throws(() => readFileSync(calls), /ENOENT/, 'neither curl nor git ran');
});

test('under act without a token it fails too, saying how to stand one in (no fallback there either)', async () => {
  const r = await runSuite({ ACT: 'true', DIND_BENCH_SUITE_GIT: 'file:///nonexistent' }, { spy: true });
  assert.notEqual(r.status, 0, r.log);
  assert.match(
    r.log,
    /::error title=dind-bench suite::no OIDC token in this job: act has no token service; .*ACTIONS_ID_TOKEN_REQUEST_TOKEN/,
  );
  assert.deepEqual(r.out, {});
});

test('with the token: no command line holds the request token, and a renamed copy reads its own identity', async () => {
  const secret = `req-${randomBytes(16).toString('hex')}`;
  const sha = randomBytes(20).toString('hex');
  const workflow = 'someone-else/renamed-copy/.github/workflows/measure.yml@refs/heads/trunk';
  const minted = jwt({ job_workflow_ref: workflow, job_workflow_sha: sha, aud: 'dind-bench' });
  const service = await tokenService(200, { value: minted });
  try {
    const r = await runSuite({ ACTIONS_ID_TOKEN_REQUEST_URL: service.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: secret });
    assert.equal(r.status, 0, r.log);
    assert.deepEqual(r.out, { repository: 'someone-else/renamed-copy', ref: 'refs/heads/trunk', sha });
    assert.match(
      r.log,
      new RegExp(`dind-bench: this workflow is ${workflow.replace(/[./]/g, '\\$&')} \\(commit ${sha}\\)`),
    );

    assert.equal(service.requests.length, 1);
    const [request] = service.requests;
    assert.equal(request.authorization, `bearer ${secret}`, 'the service got the request token');
    assert.match(String(request.url), /^\/token\?api-version=2\.0&audience=dind-bench$/);
    // The scan ran while curl was alive (its command line names the service's port) ...
    const curl = [...request.lines.values()].filter((l) => /(^|\/)curl /.test(l) && l.includes(`:${service.port}/`));
    assert.equal(curl.length, 1, [...request.lines.values()].join('\n'));
    // ... and no process's command line held the token.
    const leaks = [...request.lines].filter(([, l]) => l.includes(secret));
    assert.deepEqual(leaks, [], 'the request token is on a command line');
    assert.match(curl[0], / -H @- /);
    // Nor the log; the token minted appears only in its mask command.
    assert.ok(!r.log.includes(secret));
    assert.deepEqual(
      r.log.split('\n').filter((l) => l.includes(minted)),
      [`::add-mask::${minted}`],
    );
  } finally {
    await service.close();
  }
});

test('a refused token request, or claims that are not an identity, fail the job with nothing given on', async () => {
  const refused = await tokenService(403, { message: 'refused' });
  try {
    const r = await runSuite({ ACTIONS_ID_TOKEN_REQUEST_URL: refused.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'x' });
    assert.notEqual(r.status, 0, r.log);
    assert.match(r.log, /::error title=dind-bench suite::the OIDC token request failed/);
    assert.deepEqual(r.out, {});
  } finally {
    await refused.close();
  }
  for (const [claims, why] of /** @type {const} */ ([
    [
      { job_workflow_ref: 'a/b/.github/workflows/w.yml@refs/tags/v1', job_workflow_sha: 'main' },
      'a commit that is not 40 hex',
    ],
    [{ job_workflow_sha: 'a'.repeat(40) }, 'no job_workflow_ref'],
    [
      {
        job_workflow_ref: 'a/b/.github/workflows/w.yml@v1\n::set-output name=sha::x',
        job_workflow_sha: 'a'.repeat(40),
      },
      'a command in a claim',
    ],
  ])) {
    const service = await tokenService(200, { value: jwt(claims) });
    try {
      const r = await runSuite({ ACTIONS_ID_TOKEN_REQUEST_URL: service.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'x' });
      assert.notEqual(r.status, 0, `${why}: ${r.log}`);
      assert.match(r.log, /::error title=dind-bench suite::cannot tell this workflow's own commit/, why);
      assert.deepEqual(r.out, {}, why);
      assert.ok(!r.log.includes('::set-output'), why);
    } finally {
      await service.close();
    }
  }
  const empty = await tokenService(200, { value: 'not a token\n::warning::x' });
  try {
    const r = await runSuite({ ACTIONS_ID_TOKEN_REQUEST_URL: empty.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'x' });
    assert.notEqual(r.status, 0, r.log);
    assert.match(r.log, /::error title=dind-bench suite::the OIDC token service answered without a token/);
    assert.ok(!r.log.includes('::add-mask::'));
  } finally {
    await empty.close();
  }
});
