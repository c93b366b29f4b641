// The reusable workflow's own fork barrier (issue 37): a runner group can admit only the jobs defined in
// the workflows it lists, so a caller's group lists reusable-bench.yml, and then admits any workflow that
// calls it, a fork's pull request's too. The workflow therefore refuses, in a hosted `guard` job before any
// other job and in its self-hosted jobs' own `if:`, every event but a dispatch, the schedule and a push to
// the default branch. Checked on the generated file as written, then run by act (the real expression
// evaluator of a runner, jobs on this host): a caller of reusable-bench.yml triggered by each event a fork
// can cause fails in `guard` naming the event, and no other job starts; the admitted events pass the guard.
// The other barrier, for the jobs holding write tokens (issue 52): on a runner that does not say it is
// GitHub-hosted (a self-hosted runner carrying a GitHub-hosted label), bench.yml's publish job stops at its
// first step, before its first git command.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { HOSTED_ONLY_STEP, SOURCE, TARGET } from '../../src/workflow/reusable.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'dind-bench-fork-barrier-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const FORK_EVENTS = {
  pull_request: { number: 7, pull_request: { number: 7, head: { ref: 'patch', repo: { fork: true } } } },
  pull_request_target: { number: 7, pull_request: { number: 7, head: { ref: 'patch', repo: { fork: true } } } },
  pull_request_review: { pull_request: { number: 7 }, review: { state: 'approved' } },
  pull_request_review_comment: { pull_request: { number: 7 }, comment: { body: 'x' } },
  issue_comment: { issue: { number: 7, pull_request: {} }, comment: { body: '/bench' } },
  issues: { action: 'opened', issue: { number: 8 } },
  discussion_comment: { discussion: { number: 9 }, comment: { body: 'x' } },
  workflow_run: { workflow_run: { event: 'pull_request', head_branch: 'patch', head_repository: { fork: true } } },
  merge_group: { merge_group: { head_ref: 'refs/heads/gh-readonly-queue/main/pr-7' } },
  fork: { forkee: { full_name: 'stranger/copy' } },
  watch: { action: 'started' },
  repository_dispatch: { action: 'bench' },
};
const REPOSITORY = { repository: { default_branch: 'main', full_name: 'owner/repo' } };

/**
 * Runs a caller of reusable-bench.yml (as a local reusable workflow) for one event under act, jobs on this
 * host, with repository variables `vars`. The reusable file is the generated one, unchanged.
 * @param {string} event @param {Record<string, any>} payload @param {Record<string, string>} [vars]
 */
function actRun(event, payload, vars = {}) {
  const repo = mkdtempSync(path.join(tmp, `${event}-`));
  mkdirSync(path.join(repo, '.github/workflows'), { recursive: true });
  copyFileSync(TARGET, path.join(repo, '.github/workflows/reusable-bench.yml'));
  const caller = {
    name: 'caller',
    on: [event],
    permissions: { contents: 'read' },
    jobs: {
      'dind-bench': {
        permissions: { contents: 'read', 'id-token': 'write' },
        uses: './.github/workflows/reusable-bench.yml',
        with: { runners: 'self-hosted,linux,dind-bench' },
      },
    },
  };
  writeFileSync(path.join(repo, '.github/workflows/caller.yml'), JSON.stringify(caller));
  const git = (/** @type {string[]} */ ...a) => spawnSync('git', ['-C', repo, ...a], { stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@localhost', 'commit', '-qm', 'caller');
  const eventFile = path.join(repo, '..', `${path.basename(repo)}.json`);
  writeFileSync(eventFile, JSON.stringify({ ...REPOSITORY, ...payload }));
  const home = path.join(repo, '..', `${path.basename(repo)}-home`);
  mkdirSync(home);
  // Never this process's token service, if it has one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ACTIONS_ID_TOKEN_')));
  // -v: act's debug lines say why each job was skipped (the bench job: its own `if:` evaluated to false).
  const r = spawnSync(
    'act',
    [
      '-v',
      event,
      '-e',
      eventFile,
      '-W',
      '.github/workflows/caller.yml',
      '--platform',
      'ubuntu-latest=-self-hosted',
      '--platform',
      'self-hosted=-self-hosted',
      '--no-cache-server',
      '--action-cache-path',
      path.join(home, 'act'),
      ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`]),
    ],
    {
      cwd: repo,
      encoding: 'utf8',
      env: { ...env, HOME: home, XDG_CACHE_HOME: home, XDG_CONFIG_HOME: home },
      timeout: 120_000,
    },
  );
  const log = `${r.stdout}${r.stderr}`
    .split('\n')
    .filter((l) => !/level=debug|\[DEBUG\] (?!Skipping job)/.test(l))
    .join('\n');
  // The jobs act set up: `[caller job/workflow name/job] ⭐ Run Set up job`.
  const started = [...log.matchAll(/^\[([^\]]+)\] ⭐ Run Set up job/gm)].map((m) => m[1].split('/').at(-1));
  return { status: r.status, log, started };
}

/**
 * actRun until its log holds `expected`: act (0.2.89) sometimes drops the last lines a failed or short step
 * printed (seen in 1 of 6 runs of the same event), so a run is taken again, at most three times.
 * @param {string} event @param {Record<string, any>} payload @param {string} expected
 * @param {Record<string, string>} [vars]
 */
function actRunSaying(event, payload, expected, vars = {}) {
  let r = actRun(event, payload, vars);
  for (let i = 1; i < 3 && !r.log.includes(expected); i++) r = actRun(event, payload, vars);
  return r;
}

const act = spawnSync('act', ['--version'], { encoding: 'utf8' });
// A stage of .ci/run, after .ci/install-ci-tools.sh installed act: without it this fails, never skips.
if (act.status !== 0) throw new Error('act is not installed: bash .ci/install-ci-tools.sh installs it');
const noAct = false;

test(
  'each event a fork can cause, and a dispatch on a ref not listed, is refused by the guard, naming it, before any other job starts (act)',
  { skip: noAct },
  () => {
    const cases = {
      ...FORK_EVENTS,
      // A push anyone with write access makes to a branch (a fork's branch pushed into the repository, too).
      'push to a branch': { ref: 'refs/heads/patch' },
      'push of a tag': { ref: 'refs/tags/v9' },
      // A dispatch on a branch anyone with write access can push, not listed by the administrators.
      'dispatch on a branch': { ref: 'refs/heads/patch', inputs: {} },
    };
    const vars = { DIND_BENCH_DISPATCH_REFS: 'refs/heads/bench-pr' };
    for (const [name, payload] of Object.entries(cases)) {
      const event = name.startsWith('push') ? 'push' : name.startsWith('dispatch') ? 'workflow_dispatch' : name;
      const said =
        event === 'push'
          ? `a push to ${payload.ref}, which is not`
          : event === 'workflow_dispatch'
            ? `a workflow_dispatch on ${payload.ref}, which is neither the default branch nor a listed ref`
            : `the event ${event} `;
      const { status, log, started } = actRunSaying(event, payload, said, vars);
      assert.notEqual(status, 0, `${name}: act succeeded\n${log}`);
      assert.deepEqual(started, ['guard'], `${name}: only the guard job starts\n${log}`);
      // As act prints an error annotation (the script's own text is in the log too).
      assert.match(log, /❗\s+::error title=dind-bench fork barrier::refused: this run was started by /, name);
      assert.ok(log.includes(said), `${name}: names the event\n${log}`);
      assert.ok(
        log.includes('DIND_BENCH_DISPATCH_REFS (refs/heads/bench-pr)'),
        `${name}: names the refs admitted\n${log}`,
      );
      if (event === 'push') assert.ok(log.includes(`${said} the default branch (refs/heads/main)`), log);
      // The self-hosted job's own `if:` refuses it too, whatever the guard did.
      assert.match(
        log,
        /Skipping job 'bench \(\$\{\{ matrix\.name \}\}\)' due to '\$\{\{ \(\(github\.event_name ==/,
        name,
      );
    }
  },
);

test(
  'a dispatch on the default branch or a listed ref, the schedule and a push to the default branch pass the guard; the next job runs on a hosted label whatever the variable says (act)',
  { skip: noAct },
  () => {
    /** @type {Record<string, [string, Record<string, any>]>} */
    const cases = {
      'dispatch on main': ['workflow_dispatch', { ref: 'refs/heads/main', inputs: {} }],
      'dispatch on bench-pr, listed': ['workflow_dispatch', { ref: 'refs/heads/bench-pr', inputs: {} }],
      schedule: ['schedule', { schedule: '17 3 * * 1' }],
      push: ['push', { ref: 'refs/heads/main' }],
    };
    // A variable naming a runner the organisation keeps: the jobs after the guard still get ubuntu-latest
    // (act knows no other platform here: a job on any other label would not start).
    const vars = { DIND_BENCH_DISPATCH_REFS: 'refs/heads/bench-pr', DIND_BENCH_HOSTED_RUNNER: 'my-org-runner' };
    for (const [name, [event, payload]] of Object.entries(cases)) {
      const { log, started } = actRunSaying(event, payload, 'on an admitted ref: admitted', vars);
      assert.doesNotMatch(log, /❗\s+::error title=dind-bench fork barrier/, name);
      assert.ok(log.includes(`dind-bench: started by ${event} on `), `${name}\n${log}`);
      // The next job starts (it then stops: this act run says no runner is GitHub-hosted, and act has no OIDC
      // token service; neither is this test's matter).
      assert.deepEqual(started.slice(0, 2), ['guard', 'suite'], `${name}\n${log}`);
    }
  },
);

/** .actrc's offline stand-in for each remote action the workflow pins (act fetches them before the first step). */
const OFFLINE_ACTIONS = readFileSync(new URL('../../.actrc', import.meta.url), 'utf8')
  .split('\n')
  .flatMap((l) => /^--local-repository (\S+)=\.github\/act\/offline-action$/.exec(l)?.[1] ?? [])
  .flatMap((a) => [
    '--local-repository',
    `${a}=${new URL('../../.github/act/offline-action', import.meta.url).pathname}`,
  ]);

/**
 * bench.yml's publish job as written, alone (without the jobs it waits for and its condition on them), run
 * by act on this host for a dispatch on the default branch, with `RUNNER_ENVIRONMENT` as given (absent when
 * null) and a `git` on PATH that records every call. Returns act's exit status, its log, the steps it
 * started and the git calls.
 * @param {string | null} runnerEnvironment
 */
function publishAlone(runnerEnvironment) {
  const repo = mkdtempSync(path.join(tmp, 'publish-'));
  mkdirSync(path.join(repo, '.github/workflows'), { recursive: true });
  const bench = parse(readFileSync(SOURCE, 'utf8'));
  const publish = { ...bench.jobs.publish };
  for (const key of ['needs', 'if', 'environment']) delete publish[key];
  const workflow = { name: 'publish', on: ['workflow_dispatch'], permissions: bench.permissions, env: bench.env };
  writeFileSync(path.join(repo, '.github/workflows/publish.yml'), JSON.stringify({ ...workflow, jobs: { publish } }));
  const git = (/** @type {string[]} */ ...a) => spawnSync('git', ['-C', repo, ...a], { stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@localhost', 'commit', '-qm', 'publish');
  const eventFile = `${repo}.json`;
  writeFileSync(eventFile, JSON.stringify({ ...REPOSITORY, ref: 'refs/heads/main', inputs: {} }));
  // A git that records each call, then is the real one.
  const shims = `${repo}-shims`;
  const calls = `${repo}-git-calls`;
  mkdirSync(shims);
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(path.join(shims, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${calls}'\nexec '${real}' "$@"\n`);
  chmodSync(path.join(shims, 'git'), 0o755);
  const home = `${repo}-home`;
  mkdirSync(home);
  // Only what this call says: never this process's token service, or its own RUNNER_ENVIRONMENT.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('ACTIONS_ID_TOKEN_') && k !== 'RUNNER_ENVIRONMENT'),
  );
  const r = spawnSync(
    'act',
    [
      'workflow_dispatch',
      '-e',
      eventFile,
      '-W',
      '.github/workflows/publish.yml',
      '--platform',
      'ubuntu-latest=-self-hosted',
      '--no-cache-server',
      '--action-cache-path',
      path.join(home, 'act'),
      ...OFFLINE_ACTIONS,
      ...(runnerEnvironment === null ? [] : ['--env', `RUNNER_ENVIRONMENT=${runnerEnvironment}`]),
    ],
    {
      cwd: repo,
      encoding: 'utf8',
      env: { ...env, PATH: `${shims}:${process.env.PATH}`, HOME: home, XDG_CACHE_HOME: home, XDG_CONFIG_HOME: home },
      timeout: 120_000,
    },
  );
  const log = `${r.stdout}${r.stderr}`;
  const steps = [...log.matchAll(/^\[[^\]]+\] ⭐ Run Main (.+)$/gm)].map((m) => m[1].trim());
  const gitCalls = existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : [];
  return { status: r.status, log, steps, gitCalls };
}

test(
  "a job holding a write token (bench.yml's publish) on a runner that does not say it is GitHub-hosted fails at its first step, before its first git command (act)",
  { skip: noAct },
  () => {
    const publish = parse(readFileSync(SOURCE, 'utf8')).jobs.publish;
    assert.deepEqual(publish.steps[0], HOSTED_ONLY_STEP, 'publish opens with the hosted-only step');
    for (const kind of ['self-hosted', null]) {
      const said = `RUNNER_ENVIRONMENT=${kind ?? 'unset'}.`;
      // act can drop the last lines a failed step printed (actRunSaying): taken again, at most three times.
      let run = publishAlone(kind);
      for (let i = 1; i < 3 && !run.log.includes(said); i++) run = publishAlone(kind);
      const { status, log, steps, gitCalls } = run;
      assert.notEqual(status, 0, `${kind}: act succeeded\n${log}`);
      assert.match(log, /❗\s+::error title=dind-bench hosted runner::refused: this job holds a write token/, log);
      assert.ok(log.includes(said), `${kind}: names what the runner said\n${log}`);
      // Nothing after it: not the checkout (the first git command on GitHub), nor any later step.
      assert.deepEqual(steps, [HOSTED_ONLY_STEP.name], `${kind}: only the first step ran\n${log}`);
      assert.deepEqual(gitCalls, [], `${kind}: git ran`);
    }
    // The control: on a runner that says github-hosted the step passes and the steps after it start (here
    // the checkout, then the suite's setup, which this bare repository lacks).
    const { log, steps } = publishAlone('github-hosted');
    assert.doesNotMatch(log, /::error title=dind-bench hosted runner/, log);
    assert.equal(steps[0], HOSTED_ONLY_STEP.name);
    assert.ok(
      steps.some((s) => s.startsWith('actions/checkout@')),
      `the steps after it start: ${JSON.stringify(steps)}\n${log}`,
    );
  },
);
