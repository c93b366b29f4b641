// Writes the tables of docs/runners.md that list the benchmark workflow's inputs, the reusable workflow's
// outputs and the repository variables the workflow reads, from .github/workflows/bench.yml and
// ./reusable.js, between markers, so the docs cannot drift from the workflow (a test checks they are
// current; `npm run docs:actions` rewrites them with the actions' READMEs). The prose around the markers is
// hand-written.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { OUTPUTS_NOTE } from './action-readme.js';
import { CALL_OUTPUTS, HOSTED_LABELS, SOURCE, reusableWorkflow } from './reusable.js';

export const DOC = fileURLToPath(new URL('../../docs/runners.md', import.meta.url));
const BEGIN = '<!-- tables from bench.yml: npm run docs:actions -->';
const END = '<!-- end of workflow tables -->';

/**
 * What the variables that stand for no input do. A variable the workflow reads that is neither paired with
 * an input nor listed here stops the generator: every variable is documented.
 */
const VARIABLE_NOTES = {
  DIND_BENCH_GAB_BRANCH:
    "the branch github-action-benchmark commits its data to (default `gh-pages`; dind-bench's own site is deployed by Actions)",
  DIND_BENCH_SITE_URL:
    "the history site's address, linked from the job summary's and the comment's first lines (https only)",
  DIND_BENCH_HOSTED_RUNNER: `where every job but bench runs (the jobs holding write tokens among them): one of ${HOSTED_LABELS.map((l) => `\`${l}\``).join(', ')}, GitHub-hosted labels only; any other value is refused and the jobs stay on \`ubuntu-latest\` (no input decides it, [SECURITY.md](../SECURITY.md#workflows-and-runners))`,
  DIND_BENCH_DISPATCH_REFS:
    'reusable workflow: the refs besides the default branch a dispatch may run on, full and comma-separated (`refs/heads/bench-pr,refs/tags/bench-1`); set by administrators only, so a branch anyone can push does not reach the runners ([SECURITY.md](../SECURITY.md#workflows-and-runners))',
  DIND_BENCH_REDACT:
    'what a public site and history leave out: `hostnames`, `emails`, `labels` or `all` ([SECURITY.md](../SECURITY.md#what-the-site-publishes))',
};

/** A table cell: one line, and `|`, `<`, `>` and `*` kept as text (docker-<version> is no HTML tag). @param {unknown} s */
const cell = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\*/g, '\\*')
    .trim();

/**
 * Every `vars.NAME` the workflow reads, with the inputs that appear in the same expression (the input it
 * stands for when the run has none: a schedule, a push, or a call that leaves the input out).
 * @param {string} yml bench.yml's text
 * @returns {Map<string, Set<string>>}
 */
export function variablesOf(yml) {
  /** @type {Map<string, Set<string>>} */
  const vars = new Map();
  for (const [, expr] of yml.matchAll(/\$\{\{([\s\S]*?)\}\}/g)) {
    const inputs = [...expr.matchAll(/\binputs\.([a-z][a-z0-9-]*)/g)].map((m) => m[1]);
    for (const [, name] of expr.matchAll(/\bvars\.([A-Z][A-Z0-9_]*)/g)) {
      const set = vars.get(name) ?? new Set();
      for (const i of inputs) set.add(i);
      vars.set(name, set);
    }
  }
  return new Map([...vars].sort(([a], [b]) => a.localeCompare(b)));
}

/** The dispatch inputs of bench.yml. @param {string} yml */
export const inputsOf = (yml) => /** @type {Record<string, any>} */ (parse(yml).on?.workflow_dispatch?.inputs ?? {});

/** The Markdown tables of the workflow. @param {string} yml bench.yml's text */
export function workflowTables(yml) {
  const inputs = Object.entries(inputsOf(yml)).map(([name, i]) => {
    const def = i.default === undefined || i.default === '' ? '' : `\`${cell(i.default)}\``;
    const choice = i.type === 'choice' ? ` (${i.options.map((/** @type {string} */ o) => `\`${o}\``).join(', ')})` : '';
    return `| \`${name}\` | ${def} | ${cell(i.description)}${choice} |`;
  });
  const outputs = Object.entries(CALL_OUTPUTS).map(([name, o]) => `| \`${name}\` | ${cell(o.description)} |`);
  // The reusable workflow's own (its guard's) too.
  const variables = [...variablesOf(`${yml}\n${reusableWorkflow(yml)}`)].map(([name, paired]) => {
    const note = /** @type {Record<string, string>} */ (VARIABLE_NOTES)[name];
    if (!paired.size && !note)
      throw new Error(
        `bench.yml reads vars.${name}, which stands for no input: say what it does in VARIABLE_NOTES of src/workflow/workflow-docs.js`,
      );
    const what = paired.size
      ? `the input ${[...paired].map((i) => `\`${i}\``).join(', ')} when the run has none (schedule, push, or a call that leaves it out)`
      : note;
    return `| \`${name}\` | ${what} |`;
  });
  return [
    '### Inputs',
    '',
    'The reusable workflow takes the same inputs (a choice input is a string there). An input a repository variable stands in for (below) takes it in a scheduled or pushed run and in a call that leaves the input out, else the default here.',
    '',
    '| input | default | description |',
    '|---|---|---|',
    ...inputs,
    '',
    '### Outputs of the reusable workflow',
    '',
    OUTPUTS_NOTE,
    '',
    '| output | description |',
    '|---|---|',
    ...outputs,
    '',
    '### Repository variables',
    '',
    '| variable | what it sets |',
    '|---|---|',
    ...variables,
  ].join('\n');
}

/** The doc's text with its tables replaced. @param {string} doc @param {string} yml */
export function withWorkflowTables(doc, yml) {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/runners.md lacks the markers ${BEGIN} ... ${END}`);
  return `${doc.slice(0, start + BEGIN.length)}\n\n${workflowTables(yml)}\n\n${doc.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DOC, withWorkflowTables(readFileSync(DOC, 'utf8'), readFileSync(SOURCE, 'utf8')));
  console.log('docs/runners.md');
}
