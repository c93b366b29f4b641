// The reusable workflow's own fork barrier (issue 37): a runner group can admit only the jobs defined in
// the workflows it lists, so a caller's group lists reusable-bench.yml, and then admits any workflow that
// calls it, a fork's pull request's too. The workflow therefore refuses, in a hosted `guard` job before any
// other job and in its self-hosted jobs' own `if:`, every event but a dispatch, the schedule and a push to
// the default branch. Checked on the generated file as written, then run by act (the real expression
// evaluator of a runner, jobs on this host): a caller of reusable-bench.yml triggered by each event a fork
// can cause fails in `guard` naming the event, and no other job starts; the admitted events pass the guard.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ADMITTED, HOSTED_RUNNER, TARGET } from '../../src/workflow/reusable.js';

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

test('the guard job runs first, on the hosted-runner label, with no permissions, and fails on any other event', () => {
  assert.equal(Object.keys(jobs)[0], 'guard');
  const guard = jobs.guard;
  assert.equal(guard.needs, undefined);
  assert.equal(guard['runs-on'], HOSTED_RUNNER);
  assert.deepEqual(guard.permissions, {});
  assert.ok(
    guard.steps.every((/** @type {any} */ s) => !s.uses),
    'runs nothing of the caller or the suite',
  );
  assert.equal(guard.steps[0].if, `\${{ !(${ADMITTED}) }}`);
  assert.match(guard.steps[0].run, /exit 1\s*$/);
  // Every other job waits for it: when it fails, nothing else starts.
  for (const name of Object.keys(jobs)) if (name !== 'guard') assert.ok(upstream(name).has('guard'), name);
});

test('every job not on the hosted-runner label (the self-hosted bench job) has the barrier as its own if:', () => {
  const selfHosted = Object.keys(jobs).filter((n) => jobs[n]['runs-on'] !== HOSTED_RUNNER);
  assert.deepEqual(selfHosted, ['bench']);
  for (const name of selfHosted) {
    // Evaluated by GitHub before the job is queued: a refused job never reaches a runner, even if the
    // guard's result were ignored by a later edit of `needs`.
    assert.ok(String(jobs[name].if).includes(`(${ADMITTED})`), `${name}: ${jobs[name].if}`);
    assert.doesNotMatch(String(jobs[name].if), /always\(\)|failure\(\)|cancelled\(\)/, name);
  }
});

// Each event as act reads it: the event name and the payload GitHub would send.

// The same barrier run by act, jobs on this host: .ci/e2e/fork-barrier-act.test.js, a stage of .ci/run (act is
// a CI tool, .ci/install-ci-tools.sh; the README's `npm test` does not need it).
