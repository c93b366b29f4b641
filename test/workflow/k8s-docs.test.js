// The docs' ARC workflow examples name labels a scale set has (issue 54). A runner scale set of chart 0.10.1
// has one label, its runnerScaleSetName (runners/k8s/validate.py refuses scaleSetLabels, which that chart
// drops), so a job reaches it with runs-on: that name alone; `self-hosted,linux,arc` would wait for a runner
// that never comes. Every YAML example in the repository's Markdown whose job targets ARC (its job id, or a
// label naming arc, k8s or a dind-bench scale set) must name exactly one shipped scale set, and the Go
// service's example in docs/runners.md must name the dind scale set, the only one with an engine, and ask
// both questions.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import YAML from 'yaml';

const ROOT = new URL('../..', import.meta.url).pathname;
const K8S = path.join(ROOT, 'runners/k8s');

/** The shipped values files' scale set names, by file. */
const SCALE_SETS = Object.fromEntries(
  readdirSync(K8S)
    .filter((f) => /^values-.*\.yaml$/.test(f))
    .map((f) => [f, YAML.parse(readFileSync(path.join(K8S, f), 'utf8')).runnerScaleSetName]),
);
const NAMES = new Set(Object.values(SCALE_SETS));

/** Every Markdown file of the repository but dependencies and generated output. @param {string} dir @returns {string[]} */
function markdown(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'results') return [];
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return markdown(full);
    return e.name.endsWith('.md') ? [full] : [];
  });
}

/** The YAML fenced blocks of a Markdown text. @param {string} text */
const yamlBlocks = (text) => [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => m[1]);

/**
 * Each job's label sets: its runs-on and, for a call of the reusable workflow, its `runners` input (sets
 * separated by ';', labels by ','). @param {any} job @returns {string[][]}
 */
function labelSets(job) {
  const sets = [];
  const runsOn = job['runs-on'];
  if (typeof runsOn === 'string' && !runsOn.includes('${{')) sets.push([runsOn]);
  if (Array.isArray(runsOn)) sets.push(runsOn.map(String));
  const runners = job.with?.runners;
  if (typeof runners === 'string')
    for (const set of runners.split(';'))
      sets.push(
        set
          .split(',')
          .map((l) => l.trim())
          .filter(Boolean),
      );
  return sets;
}

const ARC_LABEL = /^(arc|k8s|kubernetes)$|^dind-bench-(dind|k8s)/i;
const ARC_JOB = /(^|[-_])(arc|k8s)([-_]|$)/i;

/** Every job of the docs' YAML examples that targets ARC: [file, job id, its label sets]. */
function arcJobs() {
  /** @type {[string, string, string[][]][]} */
  const found = [];
  for (const file of markdown(ROOT)) {
    for (const block of yamlBlocks(readFileSync(file, 'utf8'))) {
      let doc;
      try {
        doc = YAML.parse(block);
      } catch {
        continue; // a fragment, not a workflow
      }
      for (const [id, job] of Object.entries(doc?.jobs ?? {})) {
        const sets = labelSets(job);
        if (ARC_JOB.test(id) || sets.some((s) => s.some((l) => ARC_LABEL.test(l))))
          found.push([path.relative(ROOT, file), id, sets]);
      }
    }
  }
  return found;
}

test('the shipped values files name their scale sets as the docs do', () => {
  assert.deepEqual(SCALE_SETS, { 'values-dind.yaml': 'dind-bench-dind', 'values-kubernetes.yaml': 'dind-bench-k8s' });
});

test('every docs example that targets ARC runs on a label its scale set has: a shipped runnerScaleSetName, alone', () => {
  const jobs = arcJobs();
  const where = jobs.map(([file, id]) => `${file}:${id}`);
  // Not vacuous: the examples this test is about are found.
  assert.ok(where.includes('docs/runners.md:go-service'), where.join(', '));
  assert.ok(where.includes('docs/use-in-your-repository.md:gate-arc'), where.join(', '));
  for (const [file, id, sets] of jobs) {
    assert.ok(sets.length, `${file}: job ${id} targets ARC but names no runs-on or runners`);
    for (const set of sets) {
      assert.equal(set.length, 1, `${file}: job ${id} asks for [${set}]: a scale set has one label, its name`);
      assert.ok(
        NAMES.has(set[0]),
        `${file}: job ${id} asks for ${set[0]}, no shipped scale set's name (${[...NAMES]})`,
      );
    }
  }
});

test("docs/runners.md's Go-service example: the dind scale set, the Go service's job, both questions", () => {
  const text = readFileSync(path.join(ROOT, 'docs/runners.md'), 'utf8');
  const at = text.indexOf('<!-- arc-example');
  assert.ok(at > 0, 'the ARC example is marked');
  const [block] = yamlBlocks(text.slice(at));
  const job = YAML.parse(block).jobs['go-service'];
  // The only scale set with an engine: the workload runs in docker and dind.
  assert.equal(job.with.runners, SCALE_SETS['values-dind.yaml']);
  assert.match(job.with.workload, /go-service\/workload\.yml$/);
  const engines = job.with.engines.split(',');
  assert.ok(engines.length >= 2, 'two inner Engine lines: question 2');
  assert.equal(job.with.baseline, `dind@${engines[0]}`);
  assert.equal(job.with.candidate, `dind@${engines[1]}`);
  assert.match(job.uses, /\/\.github\/workflows\/reusable-bench\.yml@/);
  // Each input it sets is one the reusable workflow declares.
  const reusable = YAML.parse(readFileSync(path.join(ROOT, '.github/workflows/reusable-bench.yml'), 'utf8'));
  const call = reusable.on.workflow_call;
  for (const input of Object.keys(job.with)) assert.ok(input in call.inputs, `input ${input}`);
  for (const secret of Object.keys(job.secrets ?? {})) assert.ok(secret in call.secrets, `secret ${secret}`);
});
