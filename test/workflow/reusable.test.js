// Use from other repositories: the reusable workflow is bench.yml for callers (generated, current, same
// inputs), it and the example consumer reach dind-bench only by reference at the one major tag, every
// action carries its Marketplace metadata, and self-hosted runners are reached only from events a fork
// cannot edit the workflow of. Pure file checks, no engine.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import {
  MAJOR,
  SOURCE,
  SUITE_DIR,
  SUITE_REPOSITORY,
  TARGET,
  callInputs,
  fallbackOf,
  reusableWorkflow,
} from '../../src/workflow/reusable.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const read = (/** @type {string} */ rel) => readFileSync(path.join(ROOT, rel), 'utf8');
const actionNames = readdirSync(path.join(ROOT, 'actions')).filter((d) =>
  existsSync(path.join(ROOT, 'actions', d, 'action.yml')),
);

/** Every `uses:` of a workflow file, with its job. @param {string} rel */
function uses(rel) {
  const doc = parse(read(rel));
  return Object.entries(doc.jobs).flatMap(([job, /** @type {any} */ j]) => {
    const list = j.uses ? [{ job, uses: j.uses }] : [];
    const steps = (j.steps ?? []).filter((/** @type {any} */ s) => s.uses);
    return [...list, ...steps.map((/** @type {any} */ s) => ({ job, uses: s.uses }))];
  });
}

test('reusable-bench.yml is generated from the current bench.yml (npm run workflows:reusable)', () => {
  assert.equal(readFileSync(TARGET, 'utf8'), reusableWorkflow(readFileSync(SOURCE, 'utf8')));
});

test('the reusable workflow takes the same inputs as bench.yml, with the same defaults (a variable first, where one stands in)', () => {
  const bench = read('.github/workflows/bench.yml');
  const dispatch = parse(bench).on.workflow_dispatch.inputs;
  const call = parse(read('.github/workflows/reusable-bench.yml')).on.workflow_call.inputs;
  assert.deepEqual(Object.keys(call), Object.keys(dispatch));
  let standIns = 0;
  for (const [name, input] of Object.entries(dispatch)) {
    const fallback = fallbackOf(bench, name);
    if (fallback && input.type !== 'boolean' && String(input.default ?? '') !== '') {
      // A call that leaves it out: the repository variable, else bench.yml's default, as the description says.
      standIns++;
      assert.equal(call[name].default, '', name);
      assert.equal(fallback.value, String(input.default), name);
      assert.ok(
        call[name].description.endsWith(`; empty - the variable ${fallback.variable}, else ${input.default}`),
        `${name}: ${call[name].description}`,
      );
    } else assert.equal(String(call[name].default), String(input.default), name);
    assert.equal(call[name].type, input.type === 'boolean' ? 'boolean' : 'string', name);
    for (const option of input.options ?? []) {
      assert.ok(call[name].description.includes(option), `${name} names ${option}`);
    }
  }
  assert.deepEqual(Object.keys(parse(read('.github/workflows/reusable-bench.yml')).on), ['workflow_call']);
  // profile, benchmarks, distributions, engines, runners, layout, max-minutes, billing at least.
  assert.ok(standIns >= 8, `${standIns} inputs a variable stands in for`);
});

test("a call's input a repository variable stands in for has no default of its own; a fallback that disagrees is refused", () => {
  const input = { description: 'Layout', type: 'choice', options: ['a', 'b'], default: 'a' };
  assert.deepEqual(callInputs({ layout: input }, "X: ${{ inputs.layout || vars.DIND_BENCH_LAYOUT || 'a' }}"), {
    layout: {
      description: 'Layout (a, b); empty - the variable DIND_BENCH_LAYOUT, else a',
      default: '',
      type: 'string',
    },
  });
  assert.throws(
    () => callInputs({ layout: input }, "X: ${{ inputs.layout || vars.DIND_BENCH_LAYOUT || 'b' }}"),
    /input layout defaults to a but falls back on 'b'/,
  );
  // A boolean keeps its default: a call cannot leave a boolean empty.
  const flag = { description: 'Publish', type: 'boolean', default: true };
  assert.deepEqual(callInputs({ publish: flag }, "${{ inputs.publish || vars.DIND_BENCH_PUBLISH || 'true' }}"), {
    publish: { description: 'Publish', default: true, type: 'boolean' },
  });
});

test('a choice input becomes a string input naming its options', () => {
  assert.deepEqual(callInputs({ p: { description: 'Profile', type: 'choice', options: ['a', 'b'], default: 'a' } }), {
    p: { description: 'Profile (a, b)', default: 'a', type: 'string' },
  });
});

test("the reusable workflow checks out only the caller for its workload, and runs the suite's actions from its own commit", () => {
  const refs = uses('.github/workflows/reusable-bench.yml');
  assert.ok(refs.length >= 8, `found ${refs.length}`);
  const wf = parse(read('.github/workflows/reusable-bench.yml'));
  for (const { job, uses: u } of refs) {
    // `./` resolves in the job's workspace: only the suite the job fetched itself, never the caller's files.
    if (u.startsWith('./'))
      assert.match(u, new RegExp(`^\\./${SUITE_DIR.replace('.', '\\.')}/actions/[\\w-]+$`), `${job}: ${u}`);
    // The caller's checkout is not dind-bench: only the bench job takes it, and the prepare job that checks and
    // sizes the workload (plan --workload), only for a workload file.
    if (u.startsWith('actions/checkout@'))
      assert.ok(['bench', 'prepare'].includes(job), `${job}: checks out the caller`);
    assert.ok(!u.startsWith(`${SUITE_REPOSITORY}/`), `${job}: ${u} names a ref that is not the workflow's own`);
  }
  for (const job of ['bench', 'prepare']) {
    const checkout = wf.jobs[job].steps.find((/** @type {any} */ s) => String(s.uses).startsWith('actions/checkout@'));
    assert.match(checkout.if, /inputs\.workload \|\| vars\.DIND_BENCH_WORKLOAD\) != ''/);
    assert.equal(checkout.with['persist-credentials'], false);
  }
  const own = refs.filter((r) => r.uses.startsWith(`./${SUITE_DIR}/`));
  const local = uses('.github/workflows/bench.yml').filter((r) => r.uses.startsWith('./actions/'));
  assert.equal(own.length, local.length);
  for (const { uses: u } of own) assert.ok(actionNames.includes(u.split('/').at(-1) ?? ''), `${u}: no such action`);
  // Each job that runs them needs the suite job and fetches its commit before the first of them.
  for (const [name, job] of Object.entries(/** @type {Record<string, any>} */ (wf.jobs))) {
    const first = job.steps.findIndex((/** @type {any} */ s) => String(s.uses ?? '').startsWith(`./${SUITE_DIR}/`));
    if (first < 0) continue;
    assert.equal(job.needs[0], 'suite', `${name} needs the suite job`);
    const fetch = job.steps.findIndex((/** @type {any} */ s) => /git -C \.dind-bench-suite fetch/.test(s.run ?? ''));
    assert.ok(fetch >= 0 && fetch < first, `${name} fetches the suite before its actions`);
    assert.equal(job.steps[fetch].env.SUITE_SHA, '${{ needs.suite.outputs.sha }}');
  }
  // Only the suite job may mint an OIDC token, and it runs nothing of the suite or the caller.
  for (const [name, job] of Object.entries(/** @type {Record<string, any>} */ (wf.jobs))) {
    if (name !== 'suite' && name !== 'pages') assert.notEqual(job.permissions?.['id-token'], 'write', name);
  }
  assert.deepEqual(wf.jobs.suite.permissions, { 'id-token': 'write' });
  assert.ok(wf.jobs.suite.steps.every((/** @type {any} */ s) => !s.uses));
  // It opens with the hosted-only step (it holds id-token: write), then its repository and commit come only
  // from its OIDC token (test/workflow/suite-identity.test.js).
  assert.equal(wf.jobs.suite.steps[0].name, 'GitHub-hosted runner only');
  assert.equal(wf.jobs.suite.steps[1].id, 'suite');
  assert.equal(wf.jobs.suite.steps[1].env, undefined);
});

test('the example consumer uses dind-bench by reference only, at the major tag', () => {
  const dir = 'examples/consumer/.github/workflows';
  const files = readdirSync(path.join(ROOT, dir)).map((f) => `${dir}/${f}`);
  const refs = files.flatMap(uses);
  const workflow = `${SUITE_REPOSITORY}/.github/workflows/reusable-bench.yml@${MAJOR}`;
  assert.ok(
    refs.some((r) => r.uses === workflow),
    'calls the reusable workflow',
  );
  for (const name of ['setup', 'build-images', 'run', 'compare']) {
    assert.ok(
      refs.some((r) => r.uses === `${SUITE_REPOSITORY}/actions/${name}@${MAJOR}`),
      `uses actions/${name}`,
    );
  }
  for (const { uses: u } of refs) {
    assert.ok(u.startsWith(`${SUITE_REPOSITORY}/`), `${u}: the consumer needs nothing else`);
  }
  // Besides its workflows: its own job's workload file (its own code, measured by dind-bench), nothing of dind-bench.
  assert.deepEqual(readdirSync(path.join(ROOT, 'examples/consumer')).sort(), ['.github', 'README.md', 'workload']);
  assert.deepEqual(readdirSync(path.join(ROOT, 'examples/consumer/workload')), ['workload.yml']);
});

test('every action has its Marketplace metadata: name, description, author, branding', () => {
  assert.ok(actionNames.length >= 5);
  for (const name of actionNames) {
    const a = parse(read(`actions/${name}/action.yml`));
    for (const key of ['name', 'description', 'author']) assert.ok(a[key], `actions/${name}: ${key}`);
    assert.match(String(a.branding?.icon), /^[a-z0-9-]+$/, `actions/${name}: branding.icon`);
    const colors = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'];
    assert.ok(colors.includes(a.branding?.color), `actions/${name}: branding.color`);
  }
});

test('self-hosted runners are reached only from events whose workflow a fork cannot edit', () => {
  const dir = '.github/workflows';
  for (const f of readdirSync(path.join(ROOT, dir))) {
    const doc = parse(read(`${dir}/${f}`));
    const events = Object.keys(doc.on);
    for (const forbidden of ['pull_request_target', 'workflow_run', 'issue_comment']) {
      assert.ok(!events.includes(forbidden), `${f}: ${forbidden}`);
    }
    if (!events.includes('pull_request')) continue;
    // A pull request runs its own copy of the workflow: only GitHub-hosted labels, never an expression.
    for (const [job, j] of Object.entries(doc.jobs)) {
      const runsOn = /** @type {any} */ (j)['runs-on'];
      assert.match(String(runsOn), /^ubuntu-[\w.]+$/, `${f} job ${job}: ${JSON.stringify(runsOn)} for pull requests`);
    }
  }
  assert.ok(!('pull_request' in parse(read('.github/workflows/bench.yml')).on), 'bench.yml has self-hosted jobs');
});

test('README and docs show the same call of the reusable workflow as the example, with the permissions it needs', () => {
  const example = parse(read('examples/consumer/.github/workflows/bench.yml')).jobs['dind-bench'];
  const workflow = `${SUITE_REPOSITORY}/.github/workflows/reusable-bench.yml@${MAJOR}`;
  assert.equal(example.uses, workflow);
  // Every permission a job of the reusable workflow asks for is granted by the example's call.
  const asked = Object.values(parse(read('.github/workflows/reusable-bench.yml')).jobs).flatMap(
    (/** @type {any} */ j) => Object.entries(j.permissions ?? {}),
  );
  const rank = { none: 0, read: 1, write: 2 };
  for (const [scope, level] of asked) {
    const granted = example.permissions[scope] ?? 'none';
    assert.ok(rank[granted] >= rank[level], `the example grants ${scope}: ${level}`);
  }
  for (const rel of ['README.md', 'docs/use-in-your-repository.md']) {
    const calls = read(rel)
      .split('```yaml')
      .slice(1)
      .map((b) => b.split('```')[0])
      .map((b) => parse(b))
      .map((doc) => doc?.jobs?.['dind-bench'])
      .filter(Boolean);
    assert.ok(calls.length, `${rel} has a workflow calling the reusable workflow`);
    for (const job of calls) assert.equal(job.uses, workflow, rel);
    // The whole pipeline (it publishes) grants what the example grants; a call that neither publishes nor
    // comments (the README's two questions) needs only to read and its OIDC token.
    const pipeline = calls.filter((job) => job.with?.publish !== false);
    assert.ok(pipeline.length, `${rel} shows the whole pipeline`);
    for (const job of pipeline)
      assert.deepEqual(job.permissions, example.permissions, `${rel}: the permissions of the example`);
    for (const job of calls.filter((j) => j.with?.publish === false && !j.with?.pr))
      assert.deepEqual(job.permissions, { contents: 'read', 'id-token': 'write' }, `${rel}: a call without publish`);
  }
});
