// The front door (issue 36): the README's first screen asks both questions (does DinD fit my job; what does
// the next Engine line do to it) with their commands and links; the caller snippet of each is at most 30
// lines and uses only inputs and outputs the reusable workflow has; the inputs, outputs and repository
// variables docs/runners.md lists are the workflow's own (generated, and checked here); the artifact names
// the docs give are ones the workflow uploads; the alternatives list names every alternative environment.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { CALL_OUTPUTS, SOURCE, TARGET } from '../../src/workflow/reusable.js';
import { DOC, variablesOf, withWorkflowTables } from '../../src/workflow/workflow-docs.js';
import { DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES } from '../../src/environments/names.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const read = (/** @type {string} */ rel) => readFileSync(path.join(ROOT, rel), 'utf8');
const README = read('README.md');
const BENCH = readFileSync(SOURCE, 'utf8');
const CALL_INPUTS = Object.keys(parse(readFileSync(TARGET, 'utf8')).on.workflow_call.inputs);

/** The README's first screen: everything before its first second-level heading. */
const firstScreen = () => README.slice(0, README.indexOf('\n## '));

/** Every ```yaml block of a Markdown text, with the line it starts on. @param {string} md */
const yamlBlocks = (md) =>
  [...md.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((m) => ({
    text: m[1],
    line: md.slice(0, m.index).split('\n').length,
  }));

test('the first screen asks both questions, each with its command and its links (upgrades included)', () => {
  const top = firstScreen();
  assert.ok(top.split('\n').length <= 90, `${top.split('\n').length} lines before the first section`);
  assert.match(top, /\*\*Does DinD fit my job\?\*\*/);
  assert.match(top, /`\.\/quickstart --workload examples\/workloads\/[\w-]+\/workload\.yml`/);
  assert.match(top, /\[docs\/workloads\.md\]\(docs\/workloads\.md\)/);
  assert.match(top, /\*\*What does the next Engine line do to it\?\*\*/);
  assert.match(
    top,
    /`dind-bench run --env dind --engine 20\.10,26\.1 --baseline dind@20\.10 --candidate dind@26\.1 --out ab`/,
  );
  assert.match(
    top,
    /`dind-bench compare ab\/results\.json --baseline dind@20\.10 --candidate dind@26\.1 --fail-on inconclusive`/,
  );
  assert.match(top, /\[docs\/upgrades\.md\]\(docs\/upgrades\.md\)/);
  assert.match(top, /\[docs\/runners\.md\]\(docs\/runners\.md#inputs\)/);
  // Each question's caller is on the first screen too, and the questions link to it.
  for (const anchor of [
    'does-dind-fit-my-job-in-your-repository',
    'what-does-the-next-engine-line-do-to-it-in-your-repository',
  ]) {
    assert.ok(top.includes(`](#${anchor})`), anchor);
    const heading = top.split('\n').find((l) => l.startsWith('### ') && slug(l.slice(4)) === anchor);
    assert.ok(heading, `a heading for #${anchor}`);
  }
});

/** GitHub's anchor of a heading. @param {string} h */
const slug = (h) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

test('each question has a caller of at most 30 lines, with only inputs and outputs the workflow has', () => {
  const callers = yamlBlocks(firstScreen());
  assert.equal(callers.length, 2, 'one caller per question');
  for (const { text, line } of callers) {
    const lines = text.trimEnd().split('\n').length;
    assert.ok(lines <= 30, `README.md:${line}: the caller is ${lines} lines (at most 30)`);
    const w = parse(text);
    const call = Object.values(w.jobs).find((j) => /reusable-bench\.yml@/.test(/** @type {any} */ (j).uses ?? ''));
    assert.ok(call, `README.md:${line}: calls the reusable workflow`);
    assert.equal(
      /** @type {any} */ (call).permissions['id-token'],
      'write',
      `README.md:${line}: grants id-token: write`,
    );
  }
  // The first reads the cost, the second the verdict: outputs a later job of the caller reads.
  assert.match(callers[0].text, /needs\.dind-bench\.outputs\.cost\b/);
  assert.match(callers[1].text, /needs\.dind-bench\.outputs\.verdict\b/);
  // Each asks about the team's job at the least cost: one interleaved job (docker and dind, or the two
  // Engine lines, taking turns), the cheapest benchmark beside the workload; the second judges the job's
  // time on each line. .ci/readme-callers-e2e.sh runs both under act.
  for (const { text, line } of callers) {
    const w = parse(text);
    const inputs = /** @type {any} */ (Object.values(w.jobs).find((j) => /** @type {any} */ (j).uses)).with;
    assert.equal(inputs.layout, 'interleaved', `README.md:${line}: layout`);
    assert.equal(inputs.benchmarks, 'lifecycle', `README.md:${line}: benchmarks`);
    assert.equal(inputs.workload, '.github/dind-bench/workload.yml', `README.md:${line}: workload`);
  }
  assert.equal(parse(callers[1].text).jobs['dind-bench'].with.gate, 'workload.*/job.total_ms');
});

test('every caller in the README and the docs uses only inputs and outputs the reusable workflow has', () => {
  const files = [
    'README.md',
    ...['runners', 'use-in-your-repository', 'upgrades', 'workloads', 'long-runs'].map((d) => `docs/${d}.md`),
  ];
  let calls = 0;
  for (const file of files) {
    for (const { text, line } of yamlBlocks(read(file))) {
      if (!text.includes('reusable-bench.yml@')) continue;
      const w = parse(text);
      for (const [id, job] of Object.entries(/** @type {Record<string, any>} */ (w.jobs))) {
        if (!/reusable-bench\.yml@/.test(job.uses ?? '')) continue;
        calls++;
        for (const input of Object.keys(job.with ?? {}))
          assert.ok(
            CALL_INPUTS.includes(input),
            `${file}:${line}: job ${id} sets ${input}, which the workflow has no input of`,
          );
      }
      for (const [, output] of text.matchAll(/needs\.[\w-]+\.outputs\.([\w-]+)/g))
        assert.ok(output in CALL_OUTPUTS, `${file}:${line}: reads the output ${output}, which the workflow has not`);
    }
  }
  assert.ok(calls >= 5, `${calls} calls checked`);
});

test("docs/runners.md lists the workflow's inputs, outputs and repository variables as the workflow has them", () => {
  const doc = readFileSync(DOC, 'utf8');
  assert.equal(doc, withWorkflowTables(doc, BENCH), 'docs/runners.md is stale: run npm run docs:actions');
  for (const input of CALL_INPUTS) assert.ok(doc.includes(`| \`${input}\` |`), `input ${input}`);
  for (const output of Object.keys(CALL_OUTPUTS)) assert.ok(doc.includes(`| \`${output}\` |`), `output ${output}`);
  const vars = [...variablesOf(BENCH).keys()];
  assert.ok(vars.length >= 18, vars.join(' '));
  for (const v of vars) assert.ok(doc.includes(`| \`${v}\` |`), `variable ${v}`);
  // The check sees a disagreement: an input, or a variable, the docs do not list.
  const more = BENCH.replace(
    '    inputs:\n      profile:',
    '    inputs:\n      extra:\n        description: an input the docs do not list\n        default: x\n      profile:',
  );
  assert.notEqual(more, BENCH);
  assert.notEqual(withWorkflowTables(doc, more), doc);
  const undocumented = BENCH.replace('vars.DIND_BENCH_GAB_BRANCH', 'vars.DIND_BENCH_SOMETHING');
  assert.notEqual(undocumented, BENCH);
  assert.throws(() => withWorkflowTables(doc, undocumented), /vars\.DIND_BENCH_SOMETHING, which stands for no input/);
});

test('artifact names in the docs are the ones the workflow uploads', () => {
  // The workflow's upload names, for a call without and with artifact-suffix (NAME), placeholders as *.
  const expand = (/** @type {string} */ name, /** @type {string} */ suffix) =>
    name
      .replace('${{ env.SHARD_PREFIX }}', suffix ? `shard.${suffix}.` : 'shard-')
      .replace('${{ env.ARTIFACT_SUFFIX }}', suffix ? `.${suffix}` : '')
      .replace('${{ matrix.id }}', '*');
  const uploaded = Object.values(/** @type {Record<string, any>} */ (parse(BENCH).jobs))
    .flatMap((j) => j.steps ?? [])
    .map((/** @type {any} */ st) =>
      /^actions\/upload-(pages-)?artifact@/.test(st.uses ?? '')
        ? st.with?.name
        : /actions\/compare$/.test(st.uses ?? '')
          ? st.with?.['report-artifact']
          : null,
    )
    .filter(Boolean);
  assert.ok(uploaded.length >= 5, uploaded.join(' '));
  const known = new Set(uploaded.flatMap((n) => [expand(n, ''), expand(n, '*')]));
  for (const file of ['docs/runners.md', 'docs/use-in-your-repository.md', 'docs/long-runs.md']) {
    for (const [, name] of read(file).matchAll(
      /`((?:results|comparison-report|pr-comment|github-pages|shard)[-.][^`\s]*)`/g,
    )) {
      if (/\.json$/.test(name)) continue; // results.json is a file, not an artifact
      const pattern = name
        .replace(/<[^>]+>/g, '*')
        .replace(/^shard\.[\w-]+\./, 'shard.*.')
        .replace(/^(results|comparison-report|pr-comment|github-pages)\.[\w-]+$/, '$1.*')
        .replace(/\*+/g, '*');
      // (a name that ends in - or . is the start of names: `shard-`)
      const found = /[-.]$/.test(pattern) ? [...known].some((k) => k.startsWith(pattern)) : known.has(pattern);
      assert.ok(found, `${file}: artifact \`${name}\` is none the workflow uploads (${[...known].join(', ')})`);
    }
  }
});

test('the alternatives list names every alternative environment, dind-mirror included, and no doc calls it not built', () => {
  const sentence = README.split('\n\n').find((p) => p.includes('The alternatives a CI engineer weighs against DinD'));
  assert.ok(sentence);
  for (const env of ENVIRONMENT_NAMES.filter((e) => !DEFAULT_ENVIRONMENTS.includes(e)))
    assert.ok(sentence.includes(`\`${env}\``), `README alternatives: ${env}`);
  const workloads = read('docs/workloads.md');
  assert.match(workloads, /`dind-mirror`/);
  assert.doesNotMatch(workloads, /mirror[^.]*not built/i);
});
