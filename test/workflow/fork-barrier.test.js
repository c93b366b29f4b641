// The reusable workflow's own fork barrier (issue 37): a runner group can admit only the jobs defined in
// the workflows it lists, so a caller's group lists reusable-bench.yml, and then admits any workflow that
// calls it, a fork's pull request's too. The workflow therefore refuses, in a hosted `guard` job before any
// other job and in its self-hosted jobs' own `if:`, every event but a dispatch on the default branch or on a
// ref the variable DIND_BENCH_DISPATCH_REFS lists, the schedule and a push to the default branch. Checked on
// the generated file as written, the guard's script run by bash, and then by act
// (.ci/e2e/fork-barrier-act.test.js).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ADMITTED, GUARD_RUNNER, HOSTED_RUNNER, TARGET } from '../../src/workflow/reusable.js';

const wf = parse(readFileSync(TARGET, 'utf8'));
/** @type {Record<string, any>} */
const jobs = wf.jobs;

/** Every job `name` waits for, directly or through the jobs it needs. @param {string} name @returns {Set<string>} */
function upstream(name, seen = new Set()) {
  const needs = jobs[name].needs;
  for (const n of needs === undefined ? [] : [needs].flat()) {
    if (!seen.has(n)) {
      seen.add(n);
      upstream(n, seen);
    }
  }
  return seen;
}

test('the guard job runs first, on a GitHub-hosted label written out, with no permissions, and decides every time', () => {
  assert.equal(Object.keys(jobs)[0], 'guard');
  const guard = jobs.guard;
  assert.equal(guard.needs, undefined);
  assert.equal(guard['runs-on'], GUARD_RUNNER);
  assert.equal(GUARD_RUNNER, 'ubuntu-latest');
  assert.deepEqual(guard.permissions, {});
  assert.ok(
    guard.steps.every((/** @type {any} */ s) => !s.uses && !s.if && !s['continue-on-error']),
    'runs nothing of the caller or the suite, and its decision is never skipped',
  );
  assert.equal(guard.steps[0].env.DISPATCH_REFS, '${{ vars.DIND_BENCH_DISPATCH_REFS }}');
  // Every other job waits for it: when it fails, nothing else starts.
  for (const name of Object.keys(jobs)) if (name !== 'guard') assert.ok(upstream(name).has('guard'), name);
});

test('every job not on the hosted label (the self-hosted bench job) has the barrier as its own if:', () => {
  const selfHosted = Object.keys(jobs).filter((n) => ![HOSTED_RUNNER, GUARD_RUNNER].includes(jobs[n]['runs-on']));
  assert.deepEqual(selfHosted, ['bench']);
  for (const name of selfHosted) {
    // Evaluated by GitHub before the job is queued: a refused job never reaches a runner, even if the
    // guard's result were ignored by a later edit of `needs`.
    assert.ok(String(jobs[name].if).includes(`(${ADMITTED})`), `${name}: ${jobs[name].if}`);
    assert.doesNotMatch(String(jobs[name].if), /always\(\)|failure\(\)|cancelled\(\)/, name);
  }
});

/** The guard's script run by bash with one event, ref and variable. */
function guardRun(event, ref, refs = '', defaultBranch = 'main') {
  return spawnSync('bash', ['-c', jobs.guard.steps[0].run], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, EVENT: event, REF: ref, DEFAULT_BRANCH: defaultBranch, DISPATCH_REFS: refs },
  });
}

test('the guard admits a dispatch on the default branch or a listed ref only, exactly, and names the refs when it refuses', () => {
  const listed = 'refs/heads/bench-pr,refs/tags/bench-1';
  for (const [event, ref, refs] of [
    ['workflow_dispatch', 'refs/heads/main', ''],
    ['workflow_dispatch', 'refs/heads/bench-pr', listed],
    ['workflow_dispatch', 'refs/tags/bench-1', listed],
    ['schedule', 'refs/heads/main', ''],
    ['push', 'refs/heads/main', ''],
  ]) {
    const r = guardRun(event, ref, refs);
    assert.equal(r.status, 0, `${event} ${ref}: ${r.stdout}`);
    assert.match(r.stdout, /on an admitted ref: admitted/);
  }
  for (const [event, ref, refs, said] of [
    // Anyone who can push a branch can dispatch on it: refused unless listed.
    ['workflow_dispatch', 'refs/heads/patch', '', 'a workflow_dispatch on refs/heads/patch, which is neither'],
    ['workflow_dispatch', 'refs/heads/patch', listed, 'a workflow_dispatch on refs/heads/patch, which is neither'],
    // GitHub's expressions compare ignoring case; the guard does not.
    [
      'workflow_dispatch',
      'refs/heads/Bench-PR',
      listed,
      'a workflow_dispatch on refs/heads/Bench-PR, which is neither',
    ],
    ['workflow_dispatch', 'refs/heads/MAIN', '', 'a workflow_dispatch on refs/heads/MAIN, which is neither'],
    // A branch whose name holds the list's separator is no listed ref.
    [
      'workflow_dispatch',
      'refs/heads/bench-pr,refs/tags/bench-1',
      listed,
      'a workflow_dispatch on refs/heads/bench-pr?refs/tags/bench-1, which is neither',
    ],
    [
      'workflow_dispatch',
      'refs/heads/bench-pr',
      'refs/heads/bench-pr, refs/heads/x',
      "holds '?refs/heads/x', not a full ref",
    ],
    ['workflow_dispatch', 'refs/heads/x', 'bench-pr', "holds 'bench-pr', not a full ref"],
    [
      'push',
      'refs/heads/patch',
      listed,
      'a push to refs/heads/patch, which is not the default branch (refs/heads/main)',
    ],
    ['pull_request', 'refs/pull/7/merge', listed, 'the event pull_request (ref refs/pull/7/merge)'],
  ]) {
    const r = guardRun(event, ref, refs);
    assert.equal(r.status, 1, `${event} ${ref} ${refs}`);
    assert.ok(
      r.stdout.startsWith('::error title=dind-bench fork barrier::refused: this run was started by ') &&
        r.stdout.includes(said),
      r.stdout,
    );
    // It names what is admitted: the default branch and the refs listed.
    assert.ok(r.stdout.includes('workflow_dispatch on the default branch (refs/heads/main)'), r.stdout);
    if (refs === listed)
      assert.ok(r.stdout.includes('DIND_BENCH_DISPATCH_REFS (refs/heads/bench-pr, refs/tags/bench-1)'), r.stdout);
    if (refs === '') assert.ok(r.stdout.includes('DIND_BENCH_DISPATCH_REFS (none listed)'), r.stdout);
  }
  // A payload without the default branch's name admits no push and no dispatch on a branch.
  assert.equal(guardRun('push', 'refs/heads/', '', '').status, 1);
});

// Each event as act reads it: the event name and the payload GitHub would send.

// The same barrier run by act, jobs on this host: .ci/e2e/fork-barrier-act.test.js, a stage of .ci/run (act is
// a CI tool, .ci/install-ci-tools.sh; the README's `npm test` does not need it).
