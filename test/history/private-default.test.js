// Private by default (issue 36): the workflow and the publish action leave host names, runner labels and
// e-mail addresses out of the history, and so out of the site, unless the caller says `redact: none`. The
// publish action's own scripts run here as the workflow runs them with no input and no variable set (its
// publish step, then its site build step), and no file of the built site holds the run's host name, a
// label or an e-mail address; with `none` (the control) every one of them is there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { fixture, tmpDir } from './helpers.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const SECRETS = {
  hostname: 'build-host-17.corp.example',
  runner: 'arc-runner-x7k2p',
  label: 'gpu-pool-secret',
  author: 'dev@corp.example',
  committer: 'ops.lead@corp.example',
};

/** A run that carries each where a real one does (host, runner, caller from a push event). */
function run() {
  const r = fixture();
  r.host.hostname = SECRETS.hostname;
  r.runner.name = SECRETS.runner;
  r.runner.labels = ['self-hosted', 'linux', SECRETS.label];
  // As the workflow's bench job records them (run --runner-labels): the planted label reached the site so.
  r.run.args = { ...r.run.args, runnerLabels: ['self-hosted', SECRETS.label] };
  r.caller = {
    repository: 'acme/app',
    commit: 'a'.repeat(40),
    ref: 'refs/heads/main',
    author: { name: 'Dev', email: SECRETS.author, username: 'dev' },
    committer: { name: 'Ops', email: SECRETS.committer, username: 'ops' },
  };
  const dir = tmpDir('private-run');
  writeFileSync(path.join(dir, 'results.json'), JSON.stringify(r));
  return dir;
}

/** Every file's text under `dir`, by its path. @param {string} dir */
function files(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => ({ file: path.relative(dir, f), text: readFileSync(f, 'utf8') }));
}

/**
 * The publish action's steps as the workflow runs them: publish-history.sh with REDACT as given (unset:
 * the workflow's expression with no input and no variable), then its site build.
 * @param {string | undefined} redact
 */
function publishAndBuild(redact) {
  const history = tmpDir('private-history');
  const site = tmpDir('private-site');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SUITE: ROOT, RESULTS: run(), HISTORY: history };
  const p = spawnSync('bash', [path.join(ROOT, 'actions/publish/publish-history.sh')], {
    env: redact === undefined ? env : { ...env, REDACT: redact },
    encoding: 'utf8',
  });
  assert.equal(p.status, 0, p.stderr);
  const b = runCli(['site', 'build', '--history', history, '--out', site]);
  assert.equal(b.status, 0, b.stderr);
  return files(site);
}

test('the workflow and the publish action redact by default; only an explicit none turns it off', () => {
  const bench = parse(readFileSync(path.join(ROOT, '.github/workflows/bench.yml'), 'utf8'));
  const step = bench.jobs.publish.steps.find((/** @type {any} */ s) => s.uses === './actions/publish');
  assert.equal(step.with.redact, "${{ inputs.redact || vars.DIND_BENCH_REDACT || 'all' }}");
  assert.equal(bench.on.workflow_dispatch.inputs.redact.default, '');
  const action = parse(readFileSync(path.join(ROOT, 'actions/publish/action.yml'), 'utf8'));
  assert.equal(action.inputs.redact.default, 'all');
  const publish = action.runs.steps.find((/** @type {any} */ s) => s.id === 'publish');
  assert.equal(publish.env.REDACT, '${{ inputs.redact }}');
});

test('the site of a default run holds no host name, runner label or e-mail address in any file', () => {
  // The workflow with no input and no variable gives 'all'; an empty value (a caller's empty input) is
  // the same.
  for (const redact of ['all', '', undefined]) {
    const site = publishAndBuild(redact);
    assert.ok(site.length > 10, 'a site was built');
    assert.ok(
      site.some((f) => f.file.startsWith('data/runs/')),
      'with the run itself',
    );
    for (const [what, secret] of Object.entries(SECRETS)) {
      const found = site.filter((f) => f.text.includes(secret)).map((f) => f.file);
      assert.deepEqual(found, [], `redact ${JSON.stringify(redact)}: the ${what} ${secret} is published`);
    }
    // The site says what it publishes.
    const index = site.find((f) => f.file === 'index.html')?.text ?? '';
    assert.match(
      index,
      /What this site publishes: .*Host names, runner labels and e-mail addresses only when whoever\s+published a run chose so: the benchmark workflow and the publish action leave them out/s,
    );
  }
});

test('with redact none (the control) each of them is in the site: the check above can see them', () => {
  const site = publishAndBuild('none');
  for (const [what, secret] of Object.entries(SECRETS)) {
    assert.ok(
      site.some((f) => f.text.includes(secret)),
      `the ${what} is published when asked`,
    );
  }
});
