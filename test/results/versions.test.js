// Versioning: `--version` and results.suite name the suite's own version, ref and commit (never the
// caller's GITHUB_SHA); results.caller names the repository and commit that ran it. Old files still read.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { openHistory } from '../../src/history/store.js';
import { callerFacts } from '../../src/results/provenance.js';
import { validateResults } from '../../src/results/schema.js';
import { fixture, tmpDir } from '../history/helpers.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const PKG = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const OTHER_SHA = 'abcdefabcdefabcdefabcdefabcdefabcdefabcd';

/** HEAD of the suite's checkout, or null when the suite is not a git checkout here. */
function head() {
  try {
    return execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

test('--version prints the package version and the checkout commit, not GITHUB_SHA', () => {
  const r = runCli(['--version'], { env: { ...process.env, GITHUB_SHA: OTHER_SHA } });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.startsWith(`${PKG.version}`), r.stdout);
  assert.doesNotMatch(r.stdout, new RegExp(OTHER_SHA));
  const sha = head();
  if (sha) assert.match(r.stdout, new RegExp(`commit ${sha}`));
});

test('an action passes the ref it was called at; a malformed one is refused, naming the variable', () => {
  const ok = runCli(['-V'], { env: { ...process.env, DIND_BENCH_SUITE_REF: 'v1' } });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /\(v1\b/);
  const bad = runCli(['-V'], { env: { ...process.env, DIND_BENCH_SUITE_REF: 'v1; rm -rf /' } });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /DIND_BENCH_SUITE_REF=.* is not valid/);
});

test("callerFacts: null outside Actions; repository, commit, ref and the push commit's people inside", () => {
  assert.equal(callerFacts({}), null);
  const event = path.join(tmpDir('event'), 'event.json');
  writeFileSync(
    event,
    JSON.stringify({
      head_commit: {
        author: { name: 'Ada\u0007 Lovelace', email: 'ada@example.com', username: 'ada' },
        committer: { name: 'x'.repeat(500), email: 'c@example.com', username: 'web-flow' },
      },
    }),
  );
  const env = {
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_SHA: OTHER_SHA,
    GITHUB_REF: 'refs/heads/main',
    GITHUB_ACTOR: 'octo',
    GITHUB_EVENT_PATH: event,
  };
  const c = callerFacts(env);
  assert.deepEqual(
    { ...c, committer: null },
    {
      repository: 'acme/app',
      commit: OTHER_SHA,
      ref: 'refs/heads/main',
      author: { name: 'Ada  Lovelace', email: 'ada@example.com', username: 'ada' },
      committer: null,
    },
  );
  assert.equal(c?.committer?.name?.length, 100, 'bounded');
  // No push payload (schedule, workflow_dispatch): the actor stands in, so a dashboard has a name to show.
  const scheduled = callerFacts({ ...env, GITHUB_EVENT_PATH: '/nonexistent/event.json' });
  assert.deepEqual(scheduled?.author, { name: null, email: null, username: 'octo' });
  assert.throws(() => callerFacts({ ...env, GITHUB_SHA: 'not-a-sha' }), /GITHUB_SHA="not-a-sha" is not valid/);
});

test('schema: files without caller still read; a caller with a malformed commit is refused', () => {
  const old = fixture();
  assert.equal(old.caller, undefined);
  validateResults(old, 'old.json');
  validateResults({ ...old, caller: null }, 'local.json');
  const caller = {
    repository: 'acme/app',
    commit: OTHER_SHA,
    ref: 'refs/heads/main',
    author: null,
    committer: { name: 'A', email: null, username: 'a' },
  };
  validateResults({ ...old, caller, suite: { ...old.suite, ref: 'v1', repository: 'owner/dind-bench' } }, 'new.json');
  assert.throws(
    () => validateResults({ ...old, caller: { ...caller, commit: 'zzz' } }, 'bad.json'),
    /bad\.json: not a valid results document/,
  );
});

test("history points carry the caller's commit; the run catalog keeps the caller", async () => {
  const r = fixture();
  r.caller = {
    repository: 'acme/app',
    commit: OTHER_SHA,
    ref: 'refs/heads/main',
    author: { name: 'Ada', email: null, username: 'ada' },
    committer: null,
  };
  const file = path.join(tmpDir('runs'), 'results.json');
  writeFileSync(file, JSON.stringify(r));
  const dir = tmpDir('hist');
  await publishRun(dir, file);
  const h = await openHistory(dir);
  const [s] = h.listSeries();
  assert.equal((await h.readSeries(s.key))[0].commit, OTHER_SHA);
  const catalog = JSON.parse(readFileSync(path.join(dir, 'runs', '2026-11', 'catalog.json'), 'utf8'));
  assert.equal(catalog.runs[0].caller.author.username, 'ada');
});

test('publish refuses a partial run, saying how to finish it', async () => {
  const r = fixture();
  r.run.state = 'interrupted';
  r.run.complete = false;
  const file = path.join(tmpDir('runs'), 'results.json');
  writeFileSync(file, JSON.stringify(r));
  await assert.rejects(publishRun(tmpDir('hist'), file), /is a partial run \(state interrupted\).*run --resume/);
});
