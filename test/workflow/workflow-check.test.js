// The brokers' workflow check (runners/common/workflow-check.py) holds every workflow a runner group admits
// to the rule test/workflow/workflows.test.js holds dind-bench's own to (issue 52): each job holding a write
// permission opens with the step that fails unless RUNNER_ENVIRONMENT is github-hosted, word for word
// (src/workflow/reusable.js HOSTED_ONLY_STEP). Run as the broker runs it: python3 with PyYAML, the workflow
// on its standard input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { HOSTED_ONLY_STEP } from '../../src/workflow/reusable.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const CHECK = path.join(ROOT, 'runners/common/workflow-check.py');
const read = (/** @type {string} */ rel) => readFileSync(path.join(ROOT, rel), 'utf8');

/** What the check says of a workflow's text: [kind, why]. @param {string} text */
function check(text) {
  const r = spawnSync('python3', [CHECK], { input: text, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [kind, why = ''] = r.stdout.replace(/\n$/, '').split('\t');
  return [kind, why];
}

/** @returns {false | string} */
function pythonOrSkip() {
  const r = spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' });
  if (r.status === 0) return false;
  if (process.env.CI)
    throw new Error('python3 with PyYAML is missing (.ci/install-test-tools.sh installs python3-yaml)');
  return 'python3 with PyYAML is not installed';
}
const skip = pythonOrSkip();

/** Every workflow file of the repository and of its examples. @param {string} dir @returns {string[]} */
function workflowFiles(dir) {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return workflowFiles(rel);
    return /\/workflows\/[^/]+\.ya?ml$/.test(rel) ? [rel] : [];
  });
}

test("every workflow of the repository and its examples passes the broker's writer rule", { skip }, () => {
  const files = [...workflowFiles('.github'), ...workflowFiles('examples')];
  assert.ok(files.length >= 7, files.join(' '));
  for (const rel of files) assert.notEqual(check(read(rel))[0], 'writer', rel);
  // The reusable workflow is still the guarded one the brokers admit, and bench.yml a plain one.
  assert.deepEqual(check(read('.github/workflows/reusable-bench.yml')), ['guarded', '']);
  assert.equal(check(read('.github/workflows/bench.yml'))[0], 'plain');
});

test(
  'a job holding a write permission without the hosted-only first step is found, however it lost it',
  { skip },
  () => {
    const bench = parse(read('.github/workflows/bench.yml'));
    const reusable = parse(read('.github/workflows/reusable-bench.yml'));
    const variants = {
      'no step': (/** @type {any} */ j) => j.steps.shift(),
      second: (/** @type {any} */ j) => j.steps.unshift({ name: 'before', run: 'true' }),
      skippable: (/** @type {any} */ j) => (j.steps[0].if = '${{ env.ACT }}'),
      'allowed to fail': (/** @type {any} */ j) => (j.steps[0]['continue-on-error'] = true),
      'another script': (/** @type {any} */ j) => (j.steps[0].run = HOSTED_ONLY_STEP.run.replace('exit 1', 'exit 0')),
      'another name': (/** @type {any} */ j) => (j.steps[0].name = 'Hosted'),
    };
    for (const [doc, job, scopes] of /** @type {[any, string, string][]} */ ([
      [bench, 'publish', 'contents'],
      [bench, 'pages', 'pages, id-token'],
      [reusable, 'suite', 'id-token'],
    ]))
      for (const [what, change] of Object.entries(variants)) {
        const changed = structuredClone(doc);
        change(changed.jobs[job]);
        assert.deepEqual(
          check(stringify(changed, { lineWidth: 0 })),
          [
            'writer',
            `job ${job} holds a write permission (${scopes}) and does not open with the step that fails unless RUNNER_ENVIRONMENT is github-hosted`,
          ],
          `${job}: ${what}`,
        );
      }
    // The default token (no permissions anywhere) may write; a job calling another workflow runs no steps here.
    assert.equal(
      check(stringify({ on: 'push', jobs: { x: { 'runs-on': 'ubuntu-latest', steps: [{ run: 'true' }] } } }))[0],
      'writer',
    );
    const opened = {
      'runs-on': 'ubuntu-latest',
      permissions: { contents: 'write' },
      steps: [HOSTED_ONLY_STEP, { run: 'git push' }],
    };
    assert.deepEqual(check(stringify({ on: 'push', jobs: { x: opened } })), ['caller', 'no self-hosted job']);
    const call = { permissions: { contents: 'write' }, uses: 'owner/repo/.github/workflows/w.yml@v1' };
    assert.equal(check(stringify({ on: 'push', permissions: {}, jobs: { x: call } }))[0], 'caller');
  },
);
