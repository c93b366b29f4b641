// Writes .github/workflows/reusable-bench.yml, the benchmark workflow for other repositories, from
// bench.yml, so the two cannot drift apart (a test checks the file is current; `npm run
// workflows:reusable` rewrites it). What differs, and why:
// - `on:` is `workflow_call` with bench.yml's dispatch inputs (a choice becomes a string naming its options;
//   one a repository variable stands in for has no default, so the variable applies to a call that leaves it
//   out) and the outputs a caller's later job reads (CALL_OUTPUTS).
// - The caller's repository is not dind-bench: no checkout of it (but the bench job's, when a workload file
//   of the caller's is given).
// - Pinning all the way down: a first job, `suite`, finds the commit of this workflow file, whatever ref the
//   caller wrote (a SHA, a tag, a branch), from the job's OIDC token (claims job_workflow_ref and
//   job_workflow_sha: GitHub has no context for a called workflow's own ref). Every job that runs the
//   suite fetches that commit into SUITE_DIR and runs `./SUITE_DIR/actions/NAME` from it, so
//   `reusable-bench.yml@<sha>` runs the actions of that SHA, and results record it (actions/setup/suite.sh).
//   The token is the only source: without it (a caller that did not grant id-token: write) the suite job
//   fails, naming the permission, so a fork or a mirror never runs another repository's code.
// - A first job, `guard` (on a GitHub-hosted runner, written out), and the self-hosted jobs' own `if:` refuse
//   every event but a dispatch on the default branch or a listed ref, the schedule and a push to the default
//   branch (ADMITTED): the runner group a caller gives it must list this workflow, which admits every workflow
//   that calls it, on any ref, a fork's pull request's included.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMap, isNode, isSeq, parseDocument } from 'yaml';

/**
 * The repository and moving major tag other repositories call (docs/releasing.md): the generated file's
 * header and the examples name them. The workflow itself never does: it reads its own from the OIDC token.
 */
export const SUITE_REPOSITORY = 'dind-bench/dind-bench';
export const MAJOR = 'v1';

const WORKFLOWS = fileURLToPath(new URL('../../.github/workflows/', import.meta.url));
export const SOURCE = `${WORKFLOWS}bench.yml`;
export const TARGET = `${WORKFLOWS}reusable-bench.yml`;

const HEADER = `# GENERATED from bench.yml by \`npm run workflows:reusable\` (src/workflow/reusable.js): do not edit.
# The benchmark workflow for other repositories, called as
#   uses: ${SUITE_REPOSITORY}/.github/workflows/reusable-bench.yml@${MAJOR}
# It needs nothing of dind-bench in the caller's repository: each action comes with the whole suite. The
# caller grants the permissions its jobs need (docs/use-in-your-repository.md). Its self-hosted jobs run only
# when the caller's run was started by workflow_dispatch on the default branch or on a ref listed in the
# variable DIND_BENCH_DISPATCH_REFS, schedule or a push to the default branch: the first job, guard, fails
# naming any other (SECURITY.md, "Workflows and runners").
`;

/** Where each job puts the suite at the workflow's own commit (relative: `uses: ./...` needs it so). */
export const SUITE_DIR = '.dind-bench-suite';

/**
 * The `suite` job's script: this workflow's repository, ref and commit as step outputs, read only from the
 * job's OIDC token (ACTIONS_ID_TOKEN_REQUEST_URL/TOKEN, which GitHub sets when the calling job grants
 * id-token: write). Without them it fails closed, naming that permission: there is no other repository or
 * ref to fall back on, so a fork, a mirror or a renamed copy runs its own code, never upstream's. Under act
 * (no token service) the token comes from a stand-in (.ci/consumer-e2e.sh) or the job fails the same way.
 * The request token reaches curl on its standard input (its -H option reading a header file from stdin, fed
 * by the shell's builtin printf), so no process's command line holds it. The token minted is masked, never
 * printed or stored: only its claims are read, and checked before use (a repository name, a ref and a
 * 40-hex commit), or the job fails.
 */
const RESOLVE_SCRIPT = `set -euo pipefail
fail() { echo "::error title=dind-bench suite::$*"; exit 1; }
if [ -z "\${ACTIONS_ID_TOKEN_REQUEST_URL:-}" ] || [ -z "\${ACTIONS_ID_TOKEN_REQUEST_TOKEN:-}" ]; then
  if [ -n "\${ACT:-}" ]; then
    fail "no OIDC token in this job: act has no token service; stand one in and pass ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN with --env (as .ci/consumer-e2e.sh does)"
  fi
  fail "no OIDC token in this job: grant the permission id-token: write on the job that calls this workflow (permissions: id-token: write next to its uses:). dind-bench takes its own repository and commit only from that token, and runs nothing without it"
fi
response=$(printf 'Authorization: bearer %s\\n' "$ACTIONS_ID_TOKEN_REQUEST_TOKEN" \\
  | curl -sS --fail --max-time 30 -H @- "$ACTIONS_ID_TOKEN_REQUEST_URL&audience=dind-bench") \\
  || fail "the OIDC token request failed (curl's message above); this job needs its own token to tell which dind-bench to run"
token=$(jq -r '.value // empty' <<<"$response" 2>/dev/null || true)
[[ "$token" =~ ^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_.-]*$ ]] || fail "the OIDC token service answered without a token"
echo "::add-mask::$token"
claims=$(cut -d. -f2 <<<"$token" | tr '_-' '/+')
while [ $(( \${#claims} % 4 )) -ne 0 ]; do claims+='='; done
claims=$(base64 -d <<<"$claims" 2>/dev/null || true)
workflow=$(jq -r '.job_workflow_ref // empty' <<<"$claims" 2>/dev/null || true)
sha=$(jq -r '.job_workflow_sha // empty' <<<"$claims" 2>/dev/null || true)
repo=\${workflow%%/.github/workflows/*}
ref=\${workflow#*@}
if ! [[ "$repo" =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$ ]] || ! [[ "$sha" =~ ^[0-9a-f]{40}$ ]] \\
  || ! [[ "$ref" =~ ^[A-Za-z0-9][A-Za-z0-9/_.-]*$ ]] || ! [[ "$workflow" =~ ^[A-Za-z0-9/_.-]+@[A-Za-z0-9/_.-]+$ ]]; then
  fail "cannot tell this workflow's own commit from its OIDC token (repository '\${repo//[^A-Za-z0-9_.-]/?}', commit '\${sha//[^0-9a-f]/?}')"
fi
echo "dind-bench: this workflow is $workflow (commit $sha), from the job's OIDC token"
{ echo "repository=$repo"; echo "ref=$ref"; echo "sha=$sha"; } >> "$GITHUB_OUTPUT"
`;

/** Each job's first step before the suite's actions: that commit, fetched into SUITE_DIR. */
const FETCH_SCRIPT = `set -euo pipefail
[[ "$SUITE_SHA" =~ ^[0-9a-f]{40}$ ]] || { echo "::error title=dind-bench suite::the suite job gave no commit"; exit 1; }
url=$GITHUB_SERVER_URL/$SUITE_REPOSITORY
if [ -n "\${ACT:-}" ]; then url=\${DIND_BENCH_SUITE_GIT:?under act, DIND_BENCH_SUITE_GIT names a git repository of dind-bench}; fi
rm -rf ${SUITE_DIR}
git init -q ${SUITE_DIR}
git -C ${SUITE_DIR} fetch -q --depth 1 --no-tags "$url" "$SUITE_SHA"
git -C ${SUITE_DIR} -c advice.detachedHead=false checkout -q FETCH_HEAD
{ echo "DIND_BENCH_WORKFLOW_REPOSITORY=$SUITE_REPOSITORY"; echo "DIND_BENCH_WORKFLOW_REF=$SUITE_REF"; } >> "$GITHUB_ENV"
echo "dind-bench: $SUITE_REPOSITORY@$SUITE_REF, commit $(git -C ${SUITE_DIR} rev-parse HEAD), in ${SUITE_DIR}"
`;

/**
 * The GitHub-hosted labels DIND_BENCH_HOSTED_RUNNER may name (standard Linux runners; a larger runner's
 * label is the organisation's own, so it cannot be told from a self-hosted one by its name).
 */
export const HOSTED_LABELS = ['ubuntu-latest', 'ubuntu-24.04', 'ubuntu-22.04', 'ubuntu-24.04-arm', 'ubuntu-22.04-arm'];

/**
 * Where every job but bench runs (bench.yml's own expression): the variable when it names one of
 * HOSTED_LABELS, else ubuntu-latest. So no value of it, and no input (there is none), puts a job holding a
 * write token (publish, pages, comment, suite's id-token) on a runner a job could keep; prepare's first step
 * refuses any other value, naming it.
 */
export const HOSTED_RUNNER = `\${{ contains(fromJSON('${JSON.stringify(HOSTED_LABELS)}'), vars.DIND_BENCH_HOSTED_RUNNER) && vars.DIND_BENCH_HOSTED_RUNNER || 'ubuntu-latest' }}`;

/**
 * The first step of every job that holds a write permission (`contents`, `pull-requests`, `pages`,
 * `actions`, `id-token`: an OIDC token is a credential too, and the suite job's decides which code every
 * later job runs). runs-on names labels, and a self-hosted runner can carry a GitHub-hosted one
 * (`ubuntu-latest`): it would then get the job and its token. The runner itself says which kind it is
 * (RUNNER_ENVIRONMENT, set by the runner: github-hosted or self-hosted), so the job stops there, before its
 * first git command or action. A tripwire against a mislabelled runner, not against its owner, who could set
 * the variable: the brokers and the Kubernetes values check refuse GitHub-hosted labels for dind-bench's own
 * runners (SECURITY.md, Workflows and runners). Under act, the host stands in for a GitHub-hosted runner and
 * .actrc says so (`--env RUNNER_ENVIRONMENT=github-hosted`). Bash: the steps' default shell on Linux.
 */
export const HOSTED_ONLY_SCRIPT = `if [ "\${RUNNER_ENVIRONMENT:-}" != github-hosted ]; then
  kind=\${RUNNER_ENVIRONMENT:-unset}
  kind=\${kind//[^A-Za-z0-9_-]/?}
  echo "::error title=dind-bench hosted runner::refused: this job holds a write token and runs only on a GitHub-hosted runner, but this runner says RUNNER_ENVIRONMENT=\${kind:0:40}. A self-hosted runner carries a GitHub-hosted label (ubuntu-*, windows-*, macos-*): remove that label from it (SECURITY.md, Workflows and runners)"
  exit 1
fi
`;

/** HOSTED_ONLY_SCRIPT as the step each job holding a write permission opens with. */
export const HOSTED_ONLY_STEP = { name: 'GitHub-hosted runner only', run: HOSTED_ONLY_SCRIPT };

/** The guard's own runner: a GitHub-hosted label, written out (no variable or input decides it). */
export const GUARD_RUNNER = 'ubuntu-latest';

/**
 * The fork barrier of the workflow itself (issues 37, 46). A runner group restricted by workflow admits only
 * the jobs defined in the workflows it lists, so a caller's group must list this workflow (at a commit SHA),
 * and then it admits every workflow that calls it, on any ref, a fork's pull request's included. So the
 * workflow checks who called it: a called workflow's `github` context is its caller's, and its self-hosted
 * jobs run only for the events no fork can cause in the caller's repository, on refs the caller's
 * administrators chose: a dispatch on the default branch or on a ref listed in the repository variable
 * DIND_BENCH_DISPATCH_REFS (full refs, comma-separated: repository variables are set by administrators
 * only, while anyone who can push a branch can dispatch on it), the schedule (the default branch's workflow)
 * and a push to the default branch (who can merge). Anything else (a dispatch on another branch or tag,
 * pull_request and pull_request_target, issue_comment, workflow_run, a push to another branch or a tag,
 * merge_group, repository_dispatch, ...) is refused. A pull request reaches the runners the project's way:
 * a maintainer pushes its reviewed head to a listed ref (bench-pr) and dispatches there (SECURITY.md).
 * The expression is the self-hosted jobs' own `if:` (GitHub evaluates it before the job is queued, so a
 * refused job never reaches a runner). GitHub compares strings ignoring case, so the guard job decides
 * again with exact, case-sensitive comparisons (GUARD_SCRIPT), and every job waits for it.
 */
export const ADMITTED =
  "(github.event_name == 'workflow_dispatch' && (github.ref == format('refs/heads/{0}', github.event.repository.default_branch) || " +
  "contains(format(',{0},', vars.DIND_BENCH_DISPATCH_REFS), format(',{0},', github.ref)))) || github.event_name == 'schedule' || " +
  "(github.event_name == 'push' && github.ref == format('refs/heads/{0}', github.event.repository.default_branch))";

/**
 * The guard job's decision, exact: admits what ADMITTED admits, compared case-sensitively, and refuses
 * anything else naming the event, the ref and the refs a dispatch is admitted on. A malformed
 * DIND_BENCH_DISPATCH_REFS refuses every dispatch on a listed ref (fails closed), naming the entry.
 */
const GUARD_SCRIPT = `set -euo pipefail
safe() { local v=\${1//[^A-Za-z0-9._\\/-]/?}; printf '%s' "\${v:0:200}"; }
event=\${EVENT//[^A-Za-z0-9_]/?}
ref=$(safe "$REF")
default="refs/heads/$(safe "$DEFAULT_BRANCH")"
refuse() {
  echo "::error title=dind-bench fork barrier::refused: this run was started by $1. dind-bench runs its self-hosted jobs only for workflow_dispatch on the default branch ($default) or on a ref listed in the repository variable DIND_BENCH_DISPATCH_REFS (\${listed:-none listed}), schedule, or a push to the default branch: events a fork cannot cause, on refs the repository's administrators chose (a pull request: push its reviewed head to a listed ref and dispatch there; SECURITY.md, Workflows and runners)"
  exit 1
}
# The default branch, exactly (an empty name, which no payload of these events has, is none).
is_default() { [ -n "\${DEFAULT_BRANCH:-}" ] && [ "$REF" = "refs/heads/$DEFAULT_BRANCH" ]; }
listed=
malformed=
match=
IFS=',' read -r -a refs <<<"\${DISPATCH_REFS:-}"
for r in "\${refs[@]}"; do
  if [[ "$r" =~ ^refs/(heads|tags)/[A-Za-z0-9._/-]{1,200}$ ]] && [[ "$r" != *..* ]]; then
    listed+="\${listed:+, }$r"
    if [ "$r" = "$REF" ]; then match=1; fi
  elif [ -n "$r" ]; then malformed=$(safe "$r"); fi
done
case "$event" in
  schedule) ;;
  push) is_default || refuse "a push to \${ref:-no ref}, which is not the default branch ($default)" ;;
  workflow_dispatch)
    if ! is_default; then
      [ -z "$malformed" ] || refuse "a workflow_dispatch on \${ref:-no ref}, while DIND_BENCH_DISPATCH_REFS holds '$malformed', not a full ref (refs/heads/NAME or refs/tags/NAME, comma-separated, no spaces)"
      [ -n "$match" ] || refuse "a workflow_dispatch on \${ref:-no ref}, which is neither the default branch nor a listed ref"
    fi ;;
  *) refuse "the event \${event:-unknown} (ref \${ref:-none})" ;;
esac
echo "dind-bench: started by $event on $ref, an event a fork cannot cause, on an admitted ref: admitted"
`;

/** The first job: refuses an event a fork could cause, or a ref not admitted (ADMITTED), before any other job. */
const guardJob = () => ({
  'runs-on': GUARD_RUNNER,
  // It reads nothing and runs nothing of the caller's or the suite's.
  permissions: {},
  steps: [
    {
      name: 'Refuse an event a fork can cause, or a ref not admitted',
      env: {
        EVENT: '${{ github.event_name }}',
        REF: '${{ github.ref }}',
        DEFAULT_BRANCH: '${{ github.event.repository.default_branch }}',
        DISPATCH_REFS: '${{ vars.DIND_BENCH_DISPATCH_REFS }}',
      },
      run: GUARD_SCRIPT,
    },
  ],
});

/** The job after the guard: which dind-bench this is (RESOLVE_SCRIPT). The only job with id-token: write. */
const suiteJob = () => ({
  needs: 'guard',
  'runs-on': HOSTED_RUNNER,
  permissions: { 'id-token': 'write' },
  outputs: {
    repository: '${{ steps.suite.outputs.repository }}',
    ref: '${{ steps.suite.outputs.ref }}',
    sha: '${{ steps.suite.outputs.sha }}',
  },
  steps: [
    HOSTED_ONLY_STEP,
    {
      name: "This workflow's own commit",
      id: 'suite',
      run: RESOLVE_SCRIPT,
    },
  ],
});

const fetchStep = () => ({
  name: "dind-bench at this workflow's own commit",
  env: {
    SUITE_REPOSITORY: '${{ needs.suite.outputs.repository }}',
    SUITE_REF: '${{ needs.suite.outputs.ref }}',
    SUITE_SHA: '${{ needs.suite.outputs.sha }}',
  },
  run: FETCH_SCRIPT,
});

/** What a caller's later job reads (`needs.<job>.outputs.verdict`): the report job's answer and the site. */
export const CALL_OUTPUTS = {
  verdict: {
    description:
      "the gate's verdict over its metrics: regression, inconclusive (could not tell), improvement or equivalent (proven within the threshold)",
    value: '${{ jobs.report.outputs.verdict }}',
  },
  regressions: { description: 'how many gated metrics regressed', value: '${{ jobs.report.outputs.regressions }}' },
  inconclusive: {
    description: 'how many gated metrics could not be judged',
    value: '${{ jobs.report.outputs.inconclusive }}',
  },
  unseen: {
    description: 'the largest change the gate could not have seen (empty when every gated metric was decided)',
    value: '${{ jobs.report.outputs.unseen }}',
  },
  worst: {
    description: 'the worst regression with its change (empty without one)',
    value: '${{ jobs.report.outputs.worst }}',
  },
  cost: {
    description:
      "the cost per job in one sentence (the job summary's first line): seconds with an interval and dollars per 1,000 jobs, in the billing model",
    value: '${{ jobs.report.outputs.cost }}',
  },
  'cost-seconds': {
    description:
      'what the candidate adds to a job, in seconds (empty when the run measured neither a workload nor the start-up)',
    value: '${{ jobs.report.outputs.cost-seconds }}',
  },
  'cost-interval': {
    description: 'the 95% interval of cost-seconds, "low,high"',
    value: '${{ jobs.report.outputs.cost-interval }}',
  },
  'cost-per-1000-jobs': {
    description: 'what the candidate adds per 1,000 jobs, in dollars, in the billing model',
    value: '${{ jobs.report.outputs.cost-per-1000-jobs }}',
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
 * The secrets a caller may pass (`secrets:` of its `uses:` job, or `secrets: inherit`): a registry credential
 * for the workload's private images, and one JSON map of the workload's other secrets, which the bench job
 * hands to the run through `env:` only (a workload file names these variables, docs/workloads.md).
 */
export const CALL_SECRETS = {
  DIND_BENCH_REGISTRY_USERNAME: {
    description: "the user name for the workload's private registry (a workload's registries name this variable)",
    required: false,
  },
  DIND_BENCH_REGISTRY_PASSWORD: {
    description:
      "the password or token for the workload's private registry (masked; given to docker login on stdin only)",
    required: false,
  },
  DIND_BENCH_SECRETS: {
    description:
      "the workload's other secrets (more registries, build secrets, a CA by variable): one JSON object of the names it reads to their values, each written with toJSON (docs/workloads.md); only those names are taken, each masked",
    required: false,
  },
};

/**
 * @typedef {{ description?: string, type?: string, options?: string[], required?: boolean, default?: unknown }} DispatchInput
 * @typedef {import('yaml').YAMLMap<unknown, unknown>} YamlMap
 * @typedef {import('yaml').YAMLSeq<unknown>} YamlSeq
 */

/**
 * The repository variable bench.yml falls back on for an input, and the default after it, from its
 * `inputs.NAME || vars.VARIABLE || 'DEFAULT'`; null when it has none.
 * @param {string} source bench.yml's text @param {string} name
 */
export function fallbackOf(source, name) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const m = source.match(new RegExp(`inputs\\.${escaped} \\|\\| vars\\.([A-Z0-9_]+) \\|\\| '([^']*)'`));
  return m ? { variable: m[1], value: m[2] } : null;
}

/**
 * bench.yml's dispatch inputs as workflow_call inputs. GitHub gives an input a call leaves out its default,
 * which would hide the repository variable bench.yml falls back on (a price, a billing model, a layout set
 * once for every caller): such a string input has no default in the call, and its description says what
 * stands in (the variable, else bench.yml's default, which its fallback must repeat).
 * @param {Record<string, DispatchInput>} dispatch @param {string} [source] bench.yml's text
 */
export function callInputs(dispatch, source = '') {
  /** @type {Record<string, Omit<DispatchInput, 'options'>>} */
  const out = {};
  for (const [name, input] of Object.entries(dispatch)) {
    const { options = [], type, ...rest } = input;
    const call =
      type === 'choice'
        ? { ...rest, description: `${rest.description} (${options.join(', ')})`, type: 'string' }
        : { ...rest, type: type ?? 'string' };
    const fallback = fallbackOf(source, name);
    if (call.type !== 'string' || !fallback || rest.default === undefined || rest.default === '') {
      out[name] = call;
      continue;
    }
    if (fallback.value !== String(rest.default))
      throw new Error(`bench.yml: input ${name} defaults to ${rest.default} but falls back on '${fallback.value}'`);
    out[name] = {
      ...call,
      description: `${call.description}; empty - the variable ${fallback.variable}, else ${fallback.value}`,
      default: '',
    };
  }
  return out;
}

/** A step whose `uses` starts with `prefix`. @param {string} prefix */
const usesFrom = (prefix) => (/** @type {unknown} */ step) =>
  isMap(step) && String(step.get('uses') ?? '').startsWith(prefix);

/** The pairs of a YAML map whose key is not among `keys`. @param {YamlMap} map @param {string[]} keys */
const pairsBut = (map, keys) => map.items.filter((p) => !keys.includes(String(p.key)));

/**
 * A job that runs the suite's actions needs the suite job, fetches its commit first (fetchStep), and runs
 * `./SUITE_DIR/actions/NAME`.
 * @param {import('yaml').Document} doc @param {YamlMap} job @param {YamlSeq} steps
 */
function usesSuite(doc, job, steps) {
  const local = usesFrom('./actions/');
  const first = steps.items.findIndex(local);
  if (first < 0) return;
  for (const step of steps.items)
    if (isMap(step) && local(step)) step.set('uses', `./${SUITE_DIR}/${String(step.get('uses')).slice(2)}`);
  steps.items.splice(first, 0, doc.createNode(fetchStep()));
  const needs = job.get('needs');
  const list = needs === undefined ? [] : isSeq(needs) ? needs.toJSON() : [String(needs)];
  job.set('needs', doc.createNode(['suite', ...list], { flow: true }));
  // `needs` goes first, as in bench.yml's own jobs.
  job.items = [...job.items.filter((p) => String(p.key) === 'needs'), ...pairsBut(job, ['needs'])];
}

/**
 * A job that does not run on HOSTED_RUNNER (the self-hosted `bench` job) runs only for ADMITTED events: its
 * own `if:` says so (with the condition it had), after the jobs it needs (the guard, through `suite`).
 * @param {import('yaml').Document} doc @param {YamlMap} job
 */
function guardSelfHosted(doc, job) {
  if (job.get('runs-on') === HOSTED_RUNNER) return;
  const had = job.get('if');
  const own = had === undefined ? '' : `(${String(had).replace(/^\$\{\{\s*|\s*\}\}$/g, '')}) && `;
  const pair = doc.createPair('if', `\${{ ${own}(${ADMITTED}) }}`);
  const rest = pairsBut(job, ['if']);
  const at = rest.findIndex((p) => String(p.key) === 'needs') + 1;
  job.items = [...rest.slice(0, at), pair, ...rest.slice(at)];
}

/**
 * The reusable workflow's text from bench.yml's.
 * @param {string} source
 */
export function reusableWorkflow(source) {
  const doc = parseDocument(source);
  const dispatch = doc.toJS().on?.workflow_dispatch?.inputs;
  if (!dispatch) throw new Error('bench.yml has no workflow_dispatch inputs');
  doc.set(
    'on',
    doc.createNode({
      workflow_call: { inputs: callInputs(dispatch, source), secrets: CALL_SECRETS, outputs: CALL_OUTPUTS },
    }),
  );
  const jobs = doc.get('jobs');
  if (!isMap(jobs)) throw new Error('bench.yml has no jobs');
  const isCheckout = usesFrom('actions/checkout@');
  for (const job of jobs.items) {
    const spec = job.value;
    const steps = isMap(spec) ? spec.get('steps') : undefined;
    if (!isMap(spec) || !isSeq(steps)) continue;
    usesSuite(doc, spec, steps);
    // The bench job checks the caller's repository out only for its workload file (docs/workloads.md), and
    // the prepare job to check and size it (plan --workload) before any runner is busy.
    if (['bench', 'prepare'].includes(String(job.key))) {
      for (const step of steps.items) {
        if (!isMap(step) || !isCheckout(step)) continue;
        const moved = doc.createNode({
          name: "The caller's repository, for its workload file",
          if: "${{ (inputs.workload || vars.DIND_BENCH_WORKLOAD) != '' }}",
        });
        step.items = [...moved.items, ...pairsBut(step, ['name', 'if'])];
      }
    } else steps.items = steps.items.filter((step) => !isCheckout(step));
  }
  for (const job of jobs.items) if (isMap(job.value)) guardSelfHosted(doc, job.value);
  jobs.items.unshift(doc.createPair('guard', guardJob()), doc.createPair('suite', suiteJob()));
  // bench.yml's own header speaks of bench.yml: the generated file has its own (HEADER).
  const first = isMap(doc.contents) ? doc.contents.items[0]?.key : null;
  if (isNode(first)) first.commentBefore = null;
  return HEADER + doc.toString({ lineWidth: 0 });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TARGET, reusableWorkflow(readFileSync(SOURCE, 'utf8')));
  console.log(TARGET);
}
