// A workflow job's steps, drafted into a workload (./from-workflow.js): a `run:` step becomes a workload
// step with its `env:`, `working-directory` and `shell` written into its script, less the docker commands
// the workload carries as its own parts (./draft-docker.js); a `uses:` step is ./draft-actions.js's.
// A step only for `if: failure()`, an expression with no value before the run: a note.
import path from 'node:path';
import { draftUses } from './draft-actions.js';
import { carryDockerLines } from './draft-docker.js';
import { LIMITS, idOf, uniqueId } from './draft-parts.js';
import { expand, wholeSecret } from './workflow-expr.js';
import { isMapping } from './workflow-file.js';
import { shellQuote } from './workflow-shell.js';

/**
 * @typedef {import('./draft-parts.js').Draft} Draft
 * @typedef {import('./draft-parts.js').Note} Note
 * @typedef {import('./workflow-expr.js').ExprContext} ExprContext
 * @typedef {{ shell?: unknown, 'working-directory'?: unknown }} RunDefaults
 * @typedef {{ ctx: ExprContext, defaults: RunDefaults, exists: (p: string) => boolean }} StepContext
 *   ctx: what expressions evaluate against (env: the workflow's and the job's literal variables);
 *   defaults: `defaults.run` of the job over the workflow's; exists: whether a file of the repository exists
 */

const MAX_RUN = 4000;
/** Why a step's secret is not carried, and what to do (also said of the job's env). */
export const NO_SECRET = "a workload step gets no variable of the run's environment (PATH, HOME and DOCKER_HOST only)";
export const SECRET_TODO = 'measure the job without it, or give it to a build as a build secret or to a registry login';

/**
 * @param {Draft} d @param {Record<string, unknown>} step @param {number} i its index in the job
 * @param {StepContext} sc
 */
export function draftStep(d, step, i, sc) {
  const label = stepLabel(step, i);
  // Placed before the next step kept (placePending), or after the last one.
  const note = (/** @type {string} */ text, /** @type {string} */ todo) =>
    d.pending.push({ at: ['steps'], text: `${label}: ${text}`, todo });
  const when = conditionOf(step.if, sc.ctx);
  if (when === 'skipped')
    return note(
      `the workflow skips it in the combination drafted (if: ${String(step.if)} is false there)`,
      'nothing, unless you measure a combination where it runs',
    );
  if (when === 'failure')
    return note(
      `runs only when an earlier step failed (if: ${String(step.if)})`,
      'nothing: a workload step that fails ends the job',
    );
  if (when === 'other')
    note(
      `the workflow runs it only when ${String(step.if)}; the draft runs it every time`,
      'remove the step if that is not so for the job you measure',
    );
  if (
    step['continue-on-error'] === true ||
    (typeof step['continue-on-error'] === 'string' && !falsy(step['continue-on-error'], sc.ctx))
  )
    note(
      'continue-on-error',
      'a failing workload step fails the job: make the command succeed (`|| true`) if its failure does not matter',
    );
  if (typeof step.uses === 'string') return draftUses(d, step, label, sc, note);
  if (typeof step.run !== 'string') return note('neither run: nor uses:', 'nothing to carry');
  draftRun(d, step, label, sc, note);
}

/** @param {Record<string, unknown>} step @param {number} i */
function stepLabel(step, i) {
  const name = typeof step.name === 'string' ? step.name : typeof step.id === 'string' ? step.id : '';
  return `step ${i + 1}${name ? ` "${name.slice(0, 80)}"` : ''}`;
}

/**
 * 'failure': only after a failure (or on cancel); 'skipped': a condition the draft evaluates to false (a
 * matrix value, an input's default); 'other': a condition the draft cannot evaluate.
 * @param {unknown} cond @param {ExprContext} ctx
 */
function conditionOf(cond, ctx) {
  if (cond === undefined || cond === true) return 'always';
  if (cond === false) return 'skipped';
  const c = String(cond)
    .replace(/^\s*\$\{\{|\}\}\s*$/g, '')
    .trim();
  const value = expand(`\${{ ${c} }}`, ctx);
  if (!value.unresolved.length && !value.secrets.length) return isFalsy(value.text) ? 'skipped' : 'always';
  if (/^(success|always)\(\)$/.test(c) || c === 'true' || c === '!cancelled()') return 'always';
  if (/\b(failure|cancelled)\(\)/.test(c) && !/\balways\(\)/.test(c)) return 'failure';
  return 'other';
}

/** GitHub's falsy values, as an expression's text. @param {string} v */
const isFalsy = (v) => v === '' || v === 'false' || v === '0';

/** Whether a value (`${{ matrix.experimental }}`) evaluates to false for the combination drafted. @param {unknown} v @param {ExprContext} ctx */
function falsy(v, ctx) {
  const e = expand(String(v), ctx);
  return !e.unresolved.length && !e.secrets.length && isFalsy(e.text.trim());
}

/**
 * The step's variables: the literal ones written into its script, those from a secret known by name.
 * @param {Draft} d @param {unknown} env @param {ExprContext} ctx
 * @returns {{ literal: Record<string, string>, unresolved: string[], secrets: [string, string][] }}
 *   secrets: each variable set from a secret, with the secret's name
 */
export function envOf(d, env, ctx) {
  /** @type {Record<string, string>} */
  const literal = {};
  /** @type {string[]} */
  const unresolved = [];
  /** @type {[string, string][]} */
  const secrets = [];
  for (const [k, v] of Object.entries(isMapping(env) ? env : {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(k)) continue;
    const secret = wholeSecret(v);
    if (secret) {
      d.secretOf[k] = secret;
      secrets.push([k, secret]);
      continue;
    }
    const e = expand(String(v ?? ''), ctx);
    if (e.secrets.length) {
      // A value built around a secret (`postgres://u:${{ secrets.PW }}@db`) has no value without it.
      d.secretOf[k] = e.secrets[0];
      secrets.push([k, e.secrets.join(', ')]);
      continue;
    }
    unresolved.push(...e.unresolved);
    literal[k] = e.text;
  }
  return { literal, unresolved, secrets };
}

/**
 * @param {Draft} d @param {Record<string, unknown>} step @param {string} label @param {StepContext} sc
 * @param {(text: string, todo: string) => void} note
 */
function draftRun(d, step, label, sc, note) {
  const env = envOf(d, step.env, sc.ctx);
  const ctx = { ...sc.ctx, env: { ...sc.ctx.env, ...env.literal } };
  const wd = expand(String(step['working-directory'] ?? sc.defaults['working-directory'] ?? '.'), ctx);
  let cwd = path.resolve(d.workspace, wd.text);
  if (cwd !== d.workspace && !cwd.startsWith(d.workspace + path.sep)) {
    note(
      `its working-directory ${wd.text} is outside the repository; the draft runs it in the repository`,
      "give a folder of the repository (the workload's root)",
    );
    cwd = d.workspace;
  }
  const script = expand(String(step.run), ctx);
  for (const v of script.secrets) d.secretOf[v] = v;
  const kept = carryDockerLines(d, script.text, cwd, ctx.env, label, note, sc.exists);
  const unresolved = [...new Set([...env.unresolved, ...wd.unresolved, ...script.unresolved])];
  if (unresolved.length)
    note(
      `${unresolved.join(', ')} cannot be evaluated before the run; each stands as "draft"`,
      'write the value the job should use',
    );
  if (!kept.trim()) return;
  // A variable from a secret reaches a build or a login the workload carries (then the run needs it, by
  // name); a step's own command cannot have it.
  const inScript = script.secrets.filter((v) => new RegExp(`\\$\\{?${v}\\b`).test(kept));
  for (const [v, secret] of [...env.secrets.filter(([v]) => !d.needs.has(v)), ...inScript.map((v) => [v, v])])
    note(`${v} is the secret ${secret}: ${NO_SECRET}`, SECRET_TODO);
  runnerVariables(kept, note);
  const run = runScript(d, kept, cwd, ctx.env, step.shell ?? sc.defaults.shell);
  if ('lost' in run) return note(run.lost, 'write the step as a sh script');
  if (run.text.length > MAX_RUN)
    return note(
      `its script is longer than a workload step takes (${MAX_RUN} characters)`,
      'put it in a script file of the repository and run that',
    );
  if (d.workload.steps.length >= LIMITS.steps)
    return note(`a workload has at most ${LIMITS.steps} steps`, 'join steps into one script');
  const name = uniqueId(
    idOf(
      typeof step.name === 'string'
        ? step.name
        : typeof step.id === 'string'
          ? step.id
          : // An unnamed step by its command's first words (`git config --global` -> git-config-global).
            (kept.trim().split('\n')[0] ?? '').split(/\s+/).slice(0, 3).join('-'),
      `step-${d.workload.steps.length + 1}`,
    ),
    new Set(d.workload.steps.map((s) => s.name)),
  );
  /** @type {import('./load.js').WorkloadStep} */
  const out = { name, run: run.text };
  const minutes = minutesOf(step['timeout-minutes']);
  // A step's limit within the job's, as the workload requires (its default job limit is 60m).
  const jobMinutes = d.workload.timeout ? Number.parseInt(String(d.workload.timeout.job), 10) : 60;
  if (minutes && minutes <= jobMinutes) out.timeout = `${minutes}m`;
  else if (minutes)
    note(
      `timeout-minutes ${minutes} is over the job's limit of ${jobMinutes}m`,
      "give the job's timeout: {job: …} at least the step's",
    );
  else if (step['timeout-minutes'] !== undefined)
    note(
      `timeout-minutes ${String(step['timeout-minutes'])} is not whole minutes from 1 to 360`,
      'give the step a timeout such as 10m',
    );
  placePending(d);
  d.workload.steps.push(out);
}

/**
 * The runner's own variables a script reads (`$RUNNER_TEMP`, `$GITHUB_SHA`): a workload step has none of
 * them but GITHUB_WORKSPACE, which the draft sets.
 * @param {string} script @param {(text: string, todo: string) => void} note
 */
function runnerVariables(script, note) {
  const names = [...script.matchAll(/\$\{?((?:GITHUB|RUNNER)_[A-Z_]+)/g)].map((m) => m[1]);
  const unset = [...new Set(names)].filter((n) => n !== 'GITHUB_WORKSPACE');
  if (unset.length)
    note(
      `it reads the runner's ${unset.map((n) => `$${n}`).join(', ')}, which a workload step does not have`,
      'set each at the top of the step (e.g. RUNNER_TEMP=$(mktemp -d)), or write its value',
    );
}

/** Notes of dropped steps go before the step kept after them. @param {Draft} d */
function placePending(d) {
  for (const n of d.pending) d.notes.push({ ...n, at: ['steps', d.workload.steps.length] });
  d.pending = [];
}

/** Whole minutes 1..360, or null. @param {unknown} v */
export function minutesOf(v) {
  const n = typeof v === 'string' && /^[0-9]{1,3}$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 360 ? n : null;
}

/**
 * The script as the workload runs it: `sh -c` in the drafted file's folder, so it goes to the step's
 * folder, sets its variables and runs the script under the shell the workflow gives it (GitHub runs a
 * step with no `shell` as `bash -e {0}`, `shell: bash` as `bash --noprofile --norc -eo pipefail {0}`).
 * @param {Draft} d @param {string} script @param {string} cwd @param {Record<string, string>} env @param {unknown} shell
 * @returns {{ text: string } | { lost: string }}
 */
function runScript(d, script, cwd, env, shell) {
  const lines = ['set -e'];
  // The runner's GITHUB_WORKSPACE is the repository: the workload's root in the run's copy.
  if (/\$\{?GITHUB_WORKSPACE\b/.test(script))
    lines.push(`export GITHUB_WORKSPACE="$(cd ${shellQuote(path.relative(d.outDir, d.workspace) || '.')} && pwd)"`);
  const dir = path.relative(d.outDir, cwd);
  if (dir) lines.push(`cd ${shellQuote(dir)}`);
  for (const [k, v] of Object.entries(env)) lines.push(`export ${k}=${shellQuote(v)}`);
  const body = script.replace(/\s+$/, '');
  const s = typeof shell === 'string' ? shell.trim() : '';
  // A shell of its own (`bash -l {0}`, `sh -eu {0}`): its options kept, the script given with -c.
  const own = /^((?:bash|sh)(?: -{1,2}[A-Za-z][A-Za-z-]*| pipefail)*) \{0\}$/.exec(s);
  if (s === 'sh') lines.push(body);
  else if (s === '') lines.push(`bash -e -c ${shellQuote(`${body}\n`)}`);
  else if (s === 'bash') lines.push(`bash --noprofile --norc -eo pipefail -c ${shellQuote(`${body}\n`)}`);
  else if (own) lines.push(`${own[1]} -c ${shellQuote(`${body}\n`)}`);
  else if (s === 'python') lines.push(`python3 -c ${shellQuote(`${body}\n`)}`);
  else if (s === 'pwsh') lines.push(`pwsh -command ${shellQuote(body)}`);
  else
    return {
      lost: `its shell (${s}) is not one the draft writes (bash, sh, python, pwsh, or bash/sh with options and {0})`,
    };
  return { text: `${lines.join('\n')}\n` };
}
