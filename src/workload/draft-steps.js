// A workflow job's steps, drafted into a workload (./from-workflow.js): a `run:` step becomes a workload
// step with its `env:`, `working-directory` and `shell` written into its script, less the docker commands
// the workload carries as its own parts (./workflow-docker.js); a `uses:` step of docker's login and
// build-push actions becomes a registry and a build; actions/checkout is the workload's copy of its root.
// Every other action, a step only for `if: failure()`, an expression with no value before the run: a note.
import path from 'node:path';
import { LIMITS, addBuild, addImage, addRegistry, composeFileOf, idOf, uniqueId } from './draft-parts.js';
import { dockerCommandOf } from './workflow-docker.js';
import { expand, secretName } from './workflow-expr.js';
import { isMapping } from './workflow-file.js';
import { continuesOnNext, linesSeparable, logicalLines, shellQuote } from './workflow-shell.js';

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
  const when = conditionOf(step.if);
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
  if (step['continue-on-error'] === true || typeof step['continue-on-error'] === 'string')
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

/** 'failure': only after a failure (or on cancel); 'other': a condition the draft cannot evaluate. @param {unknown} cond */
function conditionOf(cond) {
  if (cond === undefined || cond === true) return 'always';
  const c = String(cond)
    .replace(/^\$\{\{|\}\}$/g, '')
    .trim();
  if (/^(success|always)\(\)$/.test(c) || c === 'true' || c === '!cancelled()') return 'always';
  if (/\b(failure|cancelled)\(\)/.test(c) && !/\balways\(\)/.test(c)) return 'failure';
  return 'other';
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

/**
 * The script less the docker commands the workload carries as its own parts.
 * @param {Draft} d @param {string} script @param {string} cwd @param {Record<string, string>} env
 * @param {string} label @param {(text: string, todo: string) => void} note @param {(p: string) => boolean} exists
 */
function carryDockerLines(d, script, cwd, env, label, note, exists) {
  if (!linesSeparable(script)) {
    if (/\bdocker(-compose)?\s+(build|buildx|pull|compose|login|push|up|run)\b/.test(script))
      note(
        'its docker commands stay in the step as written (the script has control flow or a heredoc)',
        "move the builds, pulls and compose commands to lines of their own to time them as the workload's parts",
      );
    return script;
  }
  const kept = [];
  let joined = false;
  for (const line of logicalLines(script)) {
    // A line an operator joins to the one before it is part of that command list: it stays.
    const cmd = joined ? null : dockerCommandOf(line.text, env);
    joined = continuesOnNext(line.text);
    if (cmd === null) kept.push(line.raw);
    else if ('unparsed' in cmd) {
      note(
        `\`${line.text.trim().slice(0, 120)}\` stays in the step: ${cmd.unparsed}`,
        "write it as a plain docker command to time it as the workload's part",
      );
      kept.push(line.raw);
    } else if (joined || !carryCommand(d, cmd, cwd, label, note, exists)) kept.push(line.raw);
  }
  return kept.join('\n');
}

/**
 * @param {Draft} d @param {import('./workflow-docker.js').DockerCommand} cmd @param {string} cwd @param {string} label
 * @param {(text: string, todo: string) => void} note @param {(p: string) => boolean} exists
 * @returns {boolean} carried (the line leaves the step)
 */
function carryCommand(d, cmd, cwd, label, note, exists) {
  const where = label;
  for (const lost of cmd.lost)
    note(`from \`docker ${cmd.kind}\`: ${lost}`, "check that the job's time does not depend on it, or do it in a step");
  if (cmd.kind === 'pull') return addImage(d, cmd.image, where, ['images']);
  if (cmd.kind === 'push') {
    note(
      `docker push ${cmd.image}: the workload does not push`,
      'to time a push, push to $DIND_BENCH_REGISTRY in a step with registries: true',
    );
    return true;
  }
  if (cmd.kind === 'build') return addBuild(d, cmd, cwd, where, ['builds']);
  if (cmd.kind === 'login') return carryLogin(d, cmd, where);
  return carryCompose(d, cmd, cwd, note, exists);
}

/** @param {Draft} d @param {import('./workflow-docker.js').LoginCommand} cmd @param {string} where */
function carryLogin(d, cmd, where) {
  const vars = {
    username: cmd.username ?? 'DIND_BENCH_REGISTRY_USERNAME',
    password: cmd.password ?? 'DIND_BENCH_REGISTRY_PASSWORD',
  };
  if (!cmd.username || !cmd.password)
    d.notes.push({
      at: ['registries'],
      text: `${where}: the login to ${cmd.registry} gives its ${!cmd.username ? 'user name' : 'password'} other than by a variable`,
      todo: `set ${!cmd.username ? vars.username : vars.password} to it where dind-bench runs`,
    });
  return addRegistry(d, cmd.registry, vars, where, ['registries']);
}

/**
 * @param {Draft} d @param {import('./workflow-docker.js').ComposeCommand} cmd @param {string} cwd
 * @param {(text: string, todo: string) => void} note @param {(p: string) => boolean} exists
 */
function carryCompose(d, cmd, cwd, note, exists) {
  if (!['up', 'run', 'exec', 'down', 'build', 'pull'].includes(cmd.sub)) return false;
  const file = composeFileOf(d, cmd.files, cwd, exists);
  if (file === null) {
    note(`docker compose ${cmd.sub}: no compose file found in its folder`, 'give the compose file with -f');
    return false;
  }
  if (cmd.files.length > 1)
    note(
      `compose files after the first (${cmd.files.slice(1).join(', ')})`,
      'a workload takes one compose file: merge them into it',
    );
  if (d.composeFile !== null && d.composeFile !== file) {
    note(`a second compose file (${file})`, 'a workload takes one compose stack');
    return false;
  }
  if (d.composeFile === null) {
    // The job's own stack is the workload's; its services: (drafted into a file of their own) are named.
    if (d.workload.compose)
      note(
        `its compose file ${file} and the job's services: a workload takes one compose stack, so the draft keeps ${file}`,
        `add the job's services to ${file}`,
      );
    d.composeFile = file;
    d.workload.compose = { file };
  }
  const compose = /** @type {import('./load.js').WorkloadCompose} */ (d.workload.compose);
  if (cmd.sub !== 'run' && cmd.sub !== 'exec') return true;
  if (compose.test) {
    note(
      `a second compose test (${cmd.service}) stays a step, which runs after the stack is down`,
      'a workload runs one test in its stack: keep the one that matters',
    );
    return false;
  }
  const command = cmd.command ?? [];
  if (
    !/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/.test(cmd.service ?? '') ||
    command.length > 50 ||
    command.some((c) => c.length > 1000)
  ) {
    note(
      `the compose test ${cmd.service} is not a service name and command the workload takes`,
      'write compose.test: {service, command} by hand',
    );
    return false;
  }
  compose.test = { service: /** @type {string} */ (cmd.service), command };
  return true;
}

/**
 * @param {Draft} d @param {Record<string, unknown>} step @param {string} label @param {StepContext} sc
 * @param {(text: string, todo: string) => void} note
 */
function draftUses(d, step, label, sc, note) {
  const uses = String(step.uses);
  const w = isMapping(step.with) ? step.with : {};
  /** @type {Set<string>} */
  const unresolved = new Set();
  const value = (/** @type {string} */ k) => {
    if (w[k] === undefined) return undefined;
    const e = expand(String(w[k]), sc.ctx, (s) => s);
    for (const u of e.unresolved) unresolved.add(u);
    return e.text;
  };
  draftAction(d, uses, w, value, label, note);
  if (unresolved.size)
    note(
      `${[...unresolved].join(', ')} cannot be evaluated before the run; each stands as "draft"`,
      'write the value the job should use',
    );
}

/**
 * @param {Draft} d @param {string} uses @param {Record<string, unknown>} w its `with:`
 * @param {(k: string) => string | undefined} value a `with:` value, its expressions evaluated
 * @param {string} label @param {(text: string, todo: string) => void} note
 */
function draftAction(d, uses, w, value, label, note) {
  const action = uses.split('@')[0].toLowerCase();
  if (action === 'actions/checkout') {
    if (w.repository !== undefined || w.path !== undefined)
      note(
        `checks out ${String(w.repository ?? 'the repository')} at ${String(w.path ?? '.')}`,
        'the workload copies its root only: put what the job needs in it',
      );
    return;
  }
  if (action === 'docker/login-action') return loginAction(d, w, value, label);
  if (action === 'docker/build-push-action') return buildPushAction(d, w, value, label, note);
  if (action === 'docker/setup-buildx-action' || action === 'docker/setup-qemu-action')
    return note(
      `uses: ${uses}`,
      "nothing: the workload builds with buildx's default docker driver (no docker-container builder, one platform)",
    );
  note(`uses: ${uses}: a workload runs docker and shell steps, not actions`, adviceFor(action));
}

/** @param {string} action */
function adviceFor(action) {
  if (/^actions\/setup-|\/setup-/.test(action))
    return "have the tool on the runner's PATH (a workload step gets dind-bench's PATH)";
  if (/^actions\/cache/.test(action))
    return "nothing: a cache restore is not part of the job measured (a persistent runner keeps its engine's cache: runner.persist)";
  if (/^actions\/(upload|download)-artifact/.test(action)) return 'nothing, or copy the files in a step';
  return "write what it does as a run step, or leave it out if the job's time does not depend on it";
}

/**
 * @param {Draft} d @param {Record<string, unknown>} w @param {(k: string) => string | undefined} value @param {string} label
 */
function loginAction(d, w, value, label) {
  const registry = value('registry') || 'docker.io';
  /** @param {string} key @param {string} fallback */
  const varOf = (key, fallback) => {
    const name = wholeSecret(w[key]);
    if (name) {
      d.secretOf[name] = name;
      return name;
    }
    d.notes.push({
      at: ['registries'],
      text: `${label}: the ${key} for ${registry} is not a secret the draft can name`,
      todo: `set ${fallback} to it where dind-bench runs`,
    });
    return fallback;
  };
  addRegistry(
    d,
    registry,
    {
      username: varOf('username', 'DIND_BENCH_REGISTRY_USERNAME'),
      password: varOf('password', 'DIND_BENCH_REGISTRY_PASSWORD'),
    },
    label,
    ['registries'],
  );
}

/**
 * @param {Draft} d @param {Record<string, unknown>} w @param {(k: string) => string | undefined} value @param {string} label
 * @param {(text: string, todo: string) => void} note
 */
function buildPushAction(d, w, value, label, note) {
  const list = (/** @type {string} */ k) =>
    (value(k) ?? '')
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean);
  /** @type {{ id: string, env: string }[]} */
  const secrets = [];
  for (const line of String(w.secrets ?? '')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [id, v = ''] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
    const name = wholeSecret(v.replace(/^\s*"|"\s*$/g, ''));
    if (id && name) {
      d.secretOf[name] = name;
      secrets.push({ id, env: name });
    } else
      note(
        `the build secret ${id || line.slice(0, 40)} is not a secret the draft can name`,
        'give it as secret-envs: id=VARIABLE',
      );
  }
  for (const pair of list('secret-envs')) {
    const [id, env] = pair.split('=');
    if (id && env) secrets.push({ id, env });
  }
  for (const k of ['push', 'platforms', 'cache-from', 'cache-to', 'outputs', 'ssh', 'build-contexts'])
    if (w[k] !== undefined && !(k === 'push' && String(w[k]) === 'false'))
      note(
        `${k}: ${String(w[k]).slice(0, 80)}`,
        k === 'push'
          ? 'nothing: the workload does not push what it builds'
          : "a workload build is one platform on the engine's own builder",
      );
  const args = Object.fromEntries(
    list('build-args')
      .map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)])
      .filter(([k]) => k),
  );
  const build = {
    context: value('context') || '.',
    dockerfile: value('file'),
    target: value('target'),
    args,
    tags: list('tags'),
    secrets,
  };
  addBuild(d, build, d.workspace, label, ['builds']);
}

/** The secret's name when the value is only `${{ secrets.NAME }}`, else null. @param {unknown} v */
function wholeSecret(v) {
  const m = /^\s*\$\{\{([^}]{1,200})\}\}\s*$/.exec(String(v ?? ''));
  return m ? secretName(m[1]) : null;
}
