// Rules the workflows and composite actions must keep, checked on the files themselves:
// every remote action is pinned by a full commit SHA with a version comment, is skipped under act, and
// has its offline stand-in in .actrc (or act would try to fetch it and fail offline); workflow inputs
// reach shell only through env; permissions start read-only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import {
  GUARD_RUNNER,
  HOSTED_LABELS,
  HOSTED_ONLY_SCRIPT,
  HOSTED_ONLY_STEP,
  HOSTED_RUNNER,
  SUITE_REPOSITORY,
} from '../../src/workflow/reusable.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const read = (/** @type {string} */ rel) => readFileSync(path.join(ROOT, rel), 'utf8');
const workflows = readdirSync(path.join(ROOT, '.github/workflows')).map((f) => `.github/workflows/${f}`);
const actions = readdirSync(path.join(ROOT, 'actions')).map((d) => `actions/${d}/action.yml`);

/** Every step of a workflow or composite action, with where it is. @param {string} rel */
function steps(rel) {
  const doc = parse(read(rel));
  if (doc.runs) return doc.runs.steps.map((/** @type {any} */ s) => ({ rel, job: null, step: s }));
  return Object.entries(doc.jobs).flatMap(([job, j]) =>
    /** @type {any} */ (j.steps ?? []).map((/** @type {any} */ s) => ({ rel, job, step: s })),
  );
}
const all = [...workflows, ...actions].flatMap(steps);
// This repository's own actions by reference (reusable-bench.yml) are checked in reusable.test.js.
const isRemote = (/** @type {unknown} */ uses) =>
  typeof uses === 'string' && !uses.startsWith('./') && !uses.startsWith('dind-bench/dind-bench/');
const remote = all.filter((s) => isRemote(s.step.uses));
const actrc = read('.actrc');

test('there are remote actions to check (the parser sees the steps)', () => {
  assert.ok(remote.length >= 8, `found ${remote.length}`);
});

for (const { rel, job, step } of remote) {
  const where = `${rel}${job ? ` job ${job}` : ''}: ${step.uses}`;
  test(`pinned by commit SHA with a version comment: ${where}`, () => {
    assert.match(step.uses, /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
    const line = read(rel)
      .split('\n')
      .find((l) => l.includes(step.uses));
    assert.match(String(line), /# v\d+(\.\d+)*/, 'the version the SHA stands for, as a comment');
  });
  if (step.uses.startsWith('actions/checkout@')) continue; // act checks out the local repository itself
  if (rel.endsWith('ci.yml')) continue; // the project's CI runs on GitHub only
  test(`skipped under act and stood in for in .actrc: ${where}`, () => {
    assert.match(String(step.if), /!env\.ACT/);
    assert.ok(
      actrc.includes(`--local-repository ${step.uses}=.github/act/offline-action`),
      `.actrc lacks ${step.uses}`,
    );
  });
}

test('inputs, matrix values and event fields reach shell only through env', () => {
  for (const { rel, step } of all) {
    if (typeof step.run !== 'string') continue;
    assert.doesNotMatch(
      step.run,
      /\$\{\{\s*(inputs|matrix|github\.event|steps|needs)\./,
      `${rel}: ${step.name ?? step.run.slice(0, 40)}`,
    );
  }
});

test('workflows start with read-only permissions', () => {
  for (const rel of workflows) assert.deepEqual(parse(read(rel)).permissions, { contents: 'read' }, rel);
});

test('no workflow runs pull_request_target', () => {
  for (const rel of workflows) assert.equal(parse(read(rel)).on.pull_request_target, undefined, rel);
});

test('every action has a README whose input and output tables match its action.yml (npm run docs:actions)', async () => {
  const { actionNames, actionFiles, withTables } = await import('../../src/workflow/action-readme.js');
  assert.deepEqual(actionNames(), ['build-images', 'compare', 'publish', 'run', 'setup']);
  for (const name of actionNames()) {
    const f = actionFiles(name);
    const readme = readFileSync(f.readme, 'utf8');
    assert.equal(
      readme,
      withTables(readme, readFileSync(f.yml, 'utf8')),
      `actions/${name}/README.md is stale: run npm run docs:actions`,
    );
    for (const input of Object.keys(parse(readFileSync(f.yml, 'utf8')).inputs ?? {})) {
      assert.ok(
        parse(readFileSync(f.yml, 'utf8')).inputs[input].description,
        `actions/${name}: input ${input} has no description`,
      );
    }
  }
});

test('write tokens only where they write: report reads, comment runs only for a named pull request, publish only from the default branch and never cancelled', () => {
  for (const file of ['.github/workflows/bench.yml', '.github/workflows/reusable-bench.yml']) {
    const jobs = parse(read(file)).jobs;
    assert.deepEqual(jobs.report.permissions, { contents: 'read' }, `${file}: report holds no write token`);
    const writers = Object.entries(jobs)
      .filter(([, j]) => /** @type {any} */ (j).permissions?.['pull-requests'] === 'write')
      .map(([name]) => name);
    assert.deepEqual(writers, ['comment'], `${file}: only the comment job may write to pull requests`);
    assert.match(jobs.comment.if, /inputs\.pr != ''/, `${file}: comment runs only when a pull request is named`);
    assert.equal(jobs.publish.concurrency, undefined, `${file}: a concurrency group would cancel pending publishes`);
    assert.equal(jobs.publish.environment, 'dind-bench-history');
    assert.deepEqual(jobs.publish.steps[0], HOSTED_ONLY_STEP, `${file}: publish opens with the hosted-only step`);
    const guard = jobs.publish.steps[1];
    assert.match(guard.run, /refs\/heads\/\$DEFAULT_BRANCH/, `${file}: publish refuses any ref but the default branch`);
    assert.equal(guard.env.REF, '${{ github.ref }}');
  }
});

test('the comment job runs only after a report that succeeded, and posts only the comment that report wrote (its digest)', () => {
  for (const file of ['.github/workflows/bench.yml', '.github/workflows/reusable-bench.yml']) {
    const { report, comment } = parse(read(file)).jobs;
    // A failed report may have uploaded nothing, so the run's only `pr-comment` artifact could be another job's.
    assert.match(comment.if, /needs\.report\.result == 'success'/, `${file}: comment needs a report that succeeded`);
    assert.doesNotMatch(comment.if, /needs\.report\.result != /, `${file}: no weaker condition on the report`);
    // The report names the comment it wrote by its SHA-256, computed from the file compare and `comment` wrote.
    const id = /^\$\{\{ steps\.([\w-]+)\.outputs\.sha256 \}\}$/.exec(report.outputs['comment-sha256'])?.[1];
    assert.ok(id, `${file}: the report job's output comment-sha256 is a step's sha256`);
    const digest = report.steps.find((/** @type {any} */ s) => s.id === id);
    assert.match(digest.run, /sha256sum/);
    assert.equal(digest.env.COMMENT, '${{ steps.dirs.outputs.compare }}/pr-comment.md');
    const upload = report.steps.findIndex((/** @type {any} */ s) => /^pr-comment\b/.test(s.with?.name ?? ''));
    assert.ok(report.steps.indexOf(digest) < upload, `${file}: the digest is of the file uploaded`);
    // The comment job hands that digest to pr-comment.sh, which refuses any other file (action-scripts.test.js).
    const post = comment.steps.find((/** @type {any} */ s) => /pr-comment\.sh/.test(s.run ?? ''));
    assert.equal(post.env.COMMENT_SHA256, '${{ needs.report.outputs.comment-sha256 }}', file);
  }
});

test('the jobs holding write tokens run only on GitHub-hosted runners: no input chooses, the variable may name only hosted labels', () => {
  // What the hosted expression can evaluate to, whatever DIND_BENCH_HOSTED_RUNNER holds: its list and default.
  const m =
    /^\$\{\{ contains\(fromJSON\('(\[[^']*\])'\), vars\.DIND_BENCH_HOSTED_RUNNER\) && vars\.DIND_BENCH_HOSTED_RUNNER \|\| '([^']+)' \}\}$/.exec(
      HOSTED_RUNNER,
    );
  assert.ok(m, HOSTED_RUNNER);
  const hostedLabel = /^ubuntu-(latest|\d\d\.\d\d)(-arm)?$/;
  for (const label of [...JSON.parse(m[1]), m[2]]) assert.match(label, hostedLabel);
  assert.deepEqual(JSON.parse(m[1]), HOSTED_LABELS);
  for (const file of [
    '.github/workflows/bench.yml',
    '.github/workflows/reusable-bench.yml',
    '.github/workflows/seed.yml',
  ]) {
    const doc = parse(read(file));
    const on = doc.on ?? doc[/** @type {any} */ (true)];
    const inputs = on.workflow_dispatch?.inputs ?? on.workflow_call?.inputs ?? {};
    assert.equal(inputs['hosted-runner'], undefined, `${file}: no input decides where a job runs`);
    if (inputs['fail-on-regression']) assert.equal(inputs['fail-on-regression'].default, false);
    for (const [name, job] of Object.entries(doc.jobs)) {
      const j = /** @type {any} */ (job);
      const writes = Object.entries(j.permissions ?? {})
        .filter(([, v]) => v === 'write')
        .map(([k]) => k);
      if (name === 'bench') {
        assert.deepEqual(writes, [], `${file}: the self-hosted job holds no write token`);
        continue;
      }
      if (name === 'guard') assert.equal(j['runs-on'], GUARD_RUNNER, `${file}: the guard's runner is written out`);
      else assert.equal(j['runs-on'], HOSTED_RUNNER, `${file}: job ${name} (writes: ${writes.join(', ') || 'none'})`);
    }
    if (doc.jobs.report) {
      assert.equal(
        doc.jobs.report.steps.find((/** @type {any} */ s) => s.with?.['fail-on-regression'])?.with[
          'fail-on-regression'
        ],
        "${{ inputs.fail-on-regression && 'true' || 'false' }}",
      );
    }
  }
  assert.equal(GUARD_RUNNER, 'ubuntu-latest');
  // prepare's first step refuses a variable naming anything else, naming it; a hosted label or none passes.
  const step = parse(read('.github/workflows/bench.yml')).jobs.prepare.steps[0];
  assert.equal(step.env.HOSTED, '${{ vars.DIND_BENCH_HOSTED_RUNNER }}');
  const check = (/** @type {string} */ value) =>
    spawnSync('bash', ['-c', step.run], { encoding: 'utf8', env: { PATH: process.env.PATH, HOSTED: value } });
  for (const ok of ['', ...HOSTED_LABELS]) assert.equal(check(ok).status, 0, ok);
  for (const bad of ['self-hosted', 'my-org-runner', 'ubuntu-latest,self-hosted', 'UBUNTU-LATEST', 'ubuntu-latest ']) {
    const r = check(bad);
    assert.equal(r.status, 1, bad);
    assert.match(
      r.stdout,
      /::error title=dind-bench hosted runner::the variable DIND_BENCH_HOSTED_RUNNER is '.*', not a GitHub-hosted label/,
    );
  }
});

/** Every workflow file of the repository and its examples. @param {string} dir @returns {string[]} */
function workflowFiles(dir) {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return workflowFiles(rel);
    return /\/workflows\/[^/]+\.ya?ml$/.test(rel) ? [rel] : [];
  });
}
const everyWorkflow = [...workflows, ...workflowFiles('examples')];

/**
 * What a job may do with its token: its own permissions, else the workflow's (a job or workflow without
 * `permissions:` gets the repository's default token, which may write: counted as writing).
 * @param {any} doc @param {any} job @returns {string[]} the scopes it may write
 */
function writes(doc, job) {
  const p = job.permissions ?? doc.permissions;
  if (p === undefined || p === 'write-all') return ['(everything: no permissions given)'];
  if (p === 'read-all' || typeof p !== 'object' || p === null) return [];
  return Object.entries(p)
    .filter(([, v]) => v === 'write')
    .map(([k]) => k);
}

/**
 * Each job of a workflow that holds a write permission (id-token: write too: an OIDC token is a credential)
 * and does not open with HOSTED_ONLY_STEP; a job calling a workflow passes when it calls this repository's
 * reusable workflow, whose own jobs are held to this (it is among the files checked).
 * @param {string} rel @param {any} doc @returns {string[]}
 */
function unguardedWriters(rel, doc) {
  return Object.entries(doc.jobs).flatMap(([name, job]) => {
    const j = /** @type {any} */ (job);
    const w = writes(doc, j);
    if (!w.length) return [];
    if (typeof j.uses === 'string') {
      const reusable =
        j.uses === './.github/workflows/reusable-bench.yml' ||
        j.uses.startsWith(`${SUITE_REPOSITORY}/.github/workflows/reusable-bench.yml@`);
      return reusable
        ? []
        : [`${rel} job ${name} (writes ${w.join(', ')}) calls ${j.uses}, whose jobs are not checked`];
    }
    const first = j.steps?.[0];
    const opens = first && first.name === HOSTED_ONLY_STEP.name && first.run === HOSTED_ONLY_SCRIPT && !first.if;
    const rest = Object.keys(first ?? {}).filter((k) => !['name', 'run'].includes(k));
    return opens && !rest.length
      ? []
      : [`${rel} job ${name} (writes ${w.join(', ')}) does not open with the hosted-only step`];
  });
}

test('every job holding a write permission, in every workflow and example, opens with the step that fails unless RUNNER_ENVIRONMENT is github-hosted', () => {
  assert.ok(everyWorkflow.length >= 7 && everyWorkflow.some((f) => f.startsWith('examples/')), everyWorkflow.join(' '));
  const problems = everyWorkflow.flatMap((rel) => unguardedWriters(rel, parse(read(rel))));
  assert.deepEqual(problems, []);
  // The jobs it holds to it, so that a check finding none passes nothing: the write tokens and the OIDC ones.
  const guarded = everyWorkflow.flatMap((rel) => {
    const doc = parse(read(rel));
    return Object.entries(doc.jobs)
      .filter(([, j]) => writes(doc, j).length && !(/** @type {any} */ (j).uses))
      .map(([n]) => `${path.basename(rel)}:${n}`);
  });
  assert.deepEqual(guarded.sort(), [
    'bench.yml:comment',
    'bench.yml:pages',
    'bench.yml:publish',
    'reusable-bench.yml:comment',
    'reusable-bench.yml:pages',
    'reusable-bench.yml:publish',
    'reusable-bench.yml:suite',
    'seed.yml:seed',
  ]);
  // A job without it, with it second, skippable or allowed to fail, or calling another workflow, is found.
  const bench = parse(read('.github/workflows/bench.yml'));
  const variants = {
    'no step': (/** @type {any} */ j) => j.steps.shift(),
    second: (/** @type {any} */ j) => j.steps.unshift({ name: 'before', run: 'true' }),
    skippable: (/** @type {any} */ j) => (j.steps[0].if = '${{ env.ACT }}'),
    'allowed to fail': (/** @type {any} */ j) => (j.steps[0]['continue-on-error'] = true),
    'another script': (/** @type {any} */ j) => (j.steps[0].run = 'true'),
  };
  for (const [what, change] of Object.entries(variants)) {
    const doc = structuredClone(bench);
    change(doc.jobs.pages);
    assert.deepEqual(
      unguardedWriters('bench.yml', doc),
      ['bench.yml job pages (writes pages, id-token) does not open with the hosted-only step'],
      what,
    );
  }
  const caller = {
    permissions: { contents: 'read' },
    jobs: { x: { permissions: { contents: 'write' }, uses: 'someone/else/.github/workflows/w.yml@v1' } },
  };
  assert.equal(unguardedWriters('caller.yml', caller).length, 1);
  const noPermissions = { jobs: { x: { 'runs-on': 'ubuntu-latest', steps: [{ run: 'true' }] } } };
  assert.equal(unguardedWriters('default.yml', noPermissions).length, 1, "the repository's default token may write");
});

test('the hosted-only step passes on github-hosted only, and names what the runner said, escaped', () => {
  const check = (/** @type {string | null} */ value) =>
    spawnSync('bash', ['-c', HOSTED_ONLY_SCRIPT], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...(value === null ? {} : { RUNNER_ENVIRONMENT: value }) },
    });
  assert.equal(check('github-hosted').status, 0);
  assert.equal(check('github-hosted').stdout, '');
  for (const [bad, shown] of [
    ['self-hosted', 'self-hosted'],
    [null, 'unset'],
    ['', 'unset'],
    ['GitHub-Hosted', 'GitHub-Hosted'],
    ['github-hosted ', 'github-hosted?'],
    ['x\n::warning::$(id)', 'x???warning????id?'],
  ]) {
    const r = check(bad);
    assert.equal(r.status, 1, String(bad));
    assert.equal(r.stdout.split('\n').length, 2, 'one line');
    assert.ok(
      r.stdout.startsWith('::error title=dind-bench hosted runner::refused: this job holds a write token') &&
        r.stdout.includes(
          `but this runner says RUNNER_ENVIRONMENT=${shown}. A self-hosted runner carries a GitHub-hosted label`,
        ),
      `${JSON.stringify(bad)}: ${r.stdout}`,
    );
  }
});
