// Writes .github/workflows/reusable-bench.yml, the benchmark workflow for other repositories, from
// bench.yml, so the two cannot drift apart (a test checks the file is current; `npm run
// workflows:reusable` rewrites it). What differs, and why:
// - `on:` is `workflow_call` with bench.yml's dispatch inputs (a choice becomes a string naming its options)
//   and the outputs a caller's later job reads (CALL_OUTPUTS).
// - The caller's repository is not dind-bench: no checkout (but the bench job's, when a workload file of
//   the caller's is given); every `./actions/NAME` becomes
//   `SUITE_REPOSITORY/actions/NAME@MAJOR`, which brings the whole suite with it (see actions/setup/suite.sh).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMap, isSeq, parseDocument } from 'yaml';

/** The repository and moving major tag other repositories call (docs/releasing.md). */
export const SUITE_REPOSITORY = 'dind-bench/dind-bench';
export const MAJOR = 'v1';

const WORKFLOWS = fileURLToPath(new URL('../../.github/workflows/', import.meta.url));
export const SOURCE = `${WORKFLOWS}bench.yml`;
export const TARGET = `${WORKFLOWS}reusable-bench.yml`;

const HEADER = `# GENERATED from bench.yml by \`npm run workflows:reusable\` (src/workflow/reusable.js): do not edit.
# The benchmark workflow for other repositories, called as
#   uses: ${SUITE_REPOSITORY}/.github/workflows/reusable-bench.yml@${MAJOR}
# It needs nothing of dind-bench in the caller's repository: each action comes with the whole suite. The
# caller grants the permissions its jobs need (docs/use-in-your-repository.md). Self-hosted runners must
# be reached only from events a fork cannot edit: never call it from a pull_request workflow (SECURITY.md).
`;

/** What a caller's later job reads (`needs.<job>.outputs.verdict`): the report job's answer and the site. */
export const CALL_OUTPUTS = {
  verdict: {
    description:
      'regression, improvement, no change or insufficient data, over every series judged against its history',
    value: '${{ jobs.report.outputs.verdict }}',
  },
  regressions: { description: 'how many series regressed', value: '${{ jobs.report.outputs.regressions }}' },
  worst: {
    description: 'the worst regression with its change (empty without one)',
    value: '${{ jobs.report.outputs.worst }}',
  },
  'report-url': {
    description: "the comparison report artifact's address",
    value: '${{ jobs.report.outputs.report-url }}',
  },
  'site-url': {
    description: 'the deployed history site (empty when not published)',
    value: '${{ jobs.pages.outputs.site-url }}',
  },
};

/**
 * bench.yml's dispatch inputs as workflow_call inputs.
 * @param {Record<string, any>} dispatch
 */
export function callInputs(dispatch) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const [name, input] of Object.entries(dispatch)) {
    const { options, type, ...rest } = input;
    if (type === 'choice') {
      out[name] = { ...rest, description: `${rest.description} (${options.join(', ')})`, type: 'string' };
    } else out[name] = { ...rest, type: type ?? 'string' };
  }
  return out;
}

/**
 * The reusable workflow's text from bench.yml's.
 * @param {string} source
 */
export function reusableWorkflow(source) {
  const doc = parseDocument(source);
  const dispatch = doc.toJS().on?.workflow_dispatch?.inputs;
  if (!dispatch) throw new Error('bench.yml has no workflow_dispatch inputs');
  doc.set('on', doc.createNode({ workflow_call: { inputs: callInputs(dispatch), outputs: CALL_OUTPUTS } }));
  const jobs = doc.get('jobs');
  if (!isMap(jobs)) throw new Error('bench.yml has no jobs');
  for (const job of jobs.items) {
    const steps = /** @type {any} */ (job.value).get('steps');
    if (!isSeq(steps)) continue;
    const isCheckout = (/** @type {any} */ step) => String(step.get('uses') ?? '').startsWith('actions/checkout@');
    // The bench job checks the caller's repository out only for its workload file (docs/workloads.md).
    if (String(job.key) === 'bench') {
      for (const step of /** @type {any[]} */ (steps.items).filter(isCheckout)) {
        step.set('name', "The caller's repository, for its workload file");
        step.set('if', "${{ (inputs.workload || vars.DIND_BENCH_WORKLOAD) != '' }}");
        const moved = doc.createNode({ name: step.get('name'), if: step.get('if') });
        step.items = [
          ...moved.items,
          ...step.items.filter((/** @type {any} */ p) => !['name', 'if'].includes(String(p.key))),
        ];
      }
    } else steps.items = steps.items.filter((step) => !isCheckout(step));
    for (const step of /** @type {any[]} */ (steps.items)) {
      const uses = String(step.get('uses') ?? '');
      if (uses.startsWith('./actions/')) step.set('uses', `${SUITE_REPOSITORY}/${uses.slice(2)}@${MAJOR}`);
    }
  }
  // bench.yml's own header speaks of bench.yml: the generated file has its own (HEADER).
  const first = isMap(doc.contents) ? /** @type {any} */ (doc.contents.items[0]?.key) : null;
  if (first) first.commentBefore = null;
  return HEADER + doc.toString({ lineWidth: 0 });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TARGET, reusableWorkflow(readFileSync(SOURCE, 'utf8')));
  console.log(TARGET);
}
