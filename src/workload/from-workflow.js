// `dind-bench workload init --from WORKFLOW --job ID`: a team's own GitHub Actions job drafted into a
// workload file, so the job is measured without writing a benchmark. Carried: its run steps (with their
// env, working-directory and shell: ./draft-steps.js), its services and container image (a compose stack
// written beside the file: ./draft-services.js), the docker builds, pulls, logins and compose commands of
// its steps (the workload's images, builds, registries and stack), its timeout-minutes, and each secret it
// needs by name. What it cannot carry is named in the drafted file as a comment where it stood
// (./draft-yaml.js), and returned for the terminal with what to do. This module reads the job, drafts it,
// checks the draft as a workload before it is written, and overwrites nothing unless asked.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { logText } from '../text/escape.js';
import { idOf } from './draft-parts.js';
import { draftContainer, draftServices } from './draft-services.js';
import { NO_SECRET, SECRET_TODO, draftStep, envOf, minutesOf } from './draft-steps.js';
import { yamlWithNotes } from './draft-yaml.js';
import { WorkloadError, checkDocument } from './load.js';
import { secretsMapLines } from './passed-secrets.js';
import { matrixOf } from './workflow-expr.js';
import { WorkflowError, isMapping, readWorkflowJob } from './workflow-file.js';

/**
 * @typedef {import('./draft-parts.js').Draft} Draft
 * @typedef {import('./draft-parts.js').Note} Note
 * @typedef {import('./workflow-expr.js').ExprContext} ExprContext
 * @typedef {{ file: string, compose: string | null, notes: Note[], needs: [string, string][],
 *   counts: { steps: number, images: number, builds: number, registries: number, services: number } }} Drafted
 *   file, compose: the files written (absolute); needs: each variable the run needs set, and what it holds
 */

/**
 * Drafts the workload and writes it (with its compose file when the job has services).
 * @param {{ from: string, job: string, out?: string, force?: boolean }} o
 * @returns {Promise<Drafted>}
 */
export async function draftFromWorkflow({ from, job, out, force = false }) {
  const wf = await readWorkflowJob(from, job);
  const workspace = workspaceOf(path.resolve(from));
  const name = idOf(job, 'job');
  const file = path.resolve(out ?? path.join(workspace, '.github', 'dind-bench', `${name}.yml`));
  if (!file.startsWith(workspace + path.sep))
    throw new WorkflowError(
      `--out ${logText(out)}: the drafted file must be inside the repository ${logText(workspace)}, the workload's root (its steps and builds read it)`,
    );
  const outDir = path.dirname(file);
  const composeName = `${path.basename(file).replace(/\.ya?ml$/i, '')}.compose.yml`;
  const d = draftJob(wf, { workspace, outDir, name, composeName });
  const workload = finish(d);
  checkDraft(workload, wf, d);
  const compose =
    Object.keys(d.services).length && d.workload.compose?.file === composeName ? path.join(outDir, composeName) : null;
  await writeDrafts(draftFiles(d, wf, workload, file, compose), force);
  return {
    file,
    compose,
    notes: d.notes,
    needs: [...d.needs],
    counts: {
      steps: d.workload.steps.length,
      images: d.workload.images.length,
      builds: d.workload.builds.length,
      registries: d.workload.registries.length,
      services: Object.keys(d.services).length,
    },
  };
}

/**
 * The files to write: the workload with its notes, and the services' compose file with theirs.
 * @param {Draft} d @param {import('./workflow-file.js').WorkflowJob} wf @param {import('./load.js').WorkloadDoc} workload
 * @param {string} file @param {string | null} compose @returns {[string, string][]}
 */
function draftFiles(d, wf, workload, file, compose) {
  /** @type {[string, string][]} */
  const files = [
    [
      file,
      yamlWithNotes(
        workload,
        d.notes.filter((n) => !n.file),
        headerOf(wf, d),
      ),
    ],
  ];
  const from = logText(path.relative(d.workspace, path.resolve(wf.file)));
  const header = [` The services of job ${logText(wf.jobId)} (${from}), drafted by dind-bench workload init.`];
  if (compose)
    files.push([
      compose,
      yamlWithNotes(
        { services: d.services },
        d.notes.filter((n) => n.file),
        header,
      ),
    ]);
  return files;
}

/**
 * The repository a workflow file is in: the folder holding `.github/workflows/`; else the file's folder.
 * @param {string} file absolute
 */
function workspaceOf(file) {
  const dir = path.dirname(file);
  return path.basename(dir) === 'workflows' && path.basename(path.dirname(dir)) === '.github'
    ? path.dirname(path.dirname(dir))
    : dir;
}

/**
 * The draft of one job, with its notes (no file written).
 * @param {import('./workflow-file.js').WorkflowJob} wf
 * @param {{ workspace: string, outDir: string, name: string, composeName: string, exists?: (p: string) => boolean }} o
 * @returns {Draft}
 */
export function draftJob(wf, { workspace, outDir, name, composeName, exists = existsSync }) {
  const { workflow, job } = wf;
  /** @type {Draft} */
  const d = {
    workload: {
      version: 1,
      name,
      description: `drafted from ${path.relative(workspace, path.resolve(wf.file))}, job ${wf.jobId}`.slice(0, 300),
      root: path.relative(outDir, workspace) || '.',
      registries: [],
      images: [],
      builds: [],
      steps: [],
    },
    services: {},
    notes: [],
    pending: [],
    needs: new Map(),
    secretOf: {},
    workspace,
    outDir,
    composeFile: null,
  };
  const { ctx, secrets } = contextOf(d, workflow, job);
  draftTimeout(d, job['timeout-minutes']);
  // The container's env is what each step saw under the workflow's and the job's (docker exec -e over it).
  const containerEnv = draftContainer(d, job.container, ctx);
  draftServices(d, job.services, ctx, composeName);
  const defaults = { ...runDefaults(workflow.defaults), ...runDefaults(job.defaults) };
  const stepCtx = { ...ctx, env: { ...containerEnv, ...ctx.env } };
  for (const [i, step] of /** @type {Record<string, unknown>[]} */ (job.steps).entries())
    draftStep(d, step, i, { ctx: stepCtx, defaults, exists });
  for (const n of d.pending) d.notes.push({ ...n, at: ['steps'], after: true });
  d.pending = [];
  for (const [v, secret] of secrets)
    if (!d.needs.has(v))
      d.notes.push({
        at: ['name'],
        text: `the job's env ${v} is the secret ${secret}: ${NO_SECRET}`,
        todo: SECRET_TODO,
      });
  if (Object.keys(d.services).length && d.workload.steps.length)
    d.notes.push({
      at: ['compose'],
      text: "the workflow's steps ran while its services were up; a workload brings its stack up, runs its compose test and takes the stack down before its steps",
      todo: `to time a step against the services, add it to ${composeName} as a service with the step's command and name it in compose.test`,
    });
  return d;
}

/**
 * What expressions evaluate against: the matrix combination drafted, the workflow's and the job's literal
 * variables, the inputs' defaults.
 * @param {Draft} d @param {Record<string, unknown>} workflow @param {Record<string, unknown>} job
 * @returns {{ ctx: ExprContext, secrets: [string, string][] }} secrets: the variables of the job set from a secret
 */
function contextOf(d, workflow, job) {
  const m = matrixOf(job.strategy);
  if (m.values === null)
    d.notes.push({
      at: ['name'],
      text: `the job's matrix cannot be resolved (${m.why}): every \${{ matrix.* }} stands as "draft"`,
      todo: 'write the values of the combination to measure',
    });
  else if (m.combinations > 1)
    d.notes.push({
      at: ['name'],
      text: `the job's matrix has ${m.combinations} combinations; drafted for ${Object.entries(m.values)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
      todo: 'each combination is a job of its own: edit the values to measure another',
    });
  /** @type {ExprContext} */
  const ctx = { matrix: m.values, env: {}, inputs: inputDefaults(workflow.on) };
  const wfEnv = envOf(d, workflow.env, ctx);
  const jobEnv = envOf(d, job.env, { ...ctx, env: wfEnv.literal });
  const unresolved = [...wfEnv.unresolved, ...jobEnv.unresolved];
  if (unresolved.length)
    d.notes.push({
      at: ['name'],
      text: `the job's env uses ${[...new Set(unresolved)].join(', ')}, which cannot be evaluated before the run; each stands as "draft"`,
      todo: 'write the value the job should use',
    });
  return {
    ctx: { ...ctx, env: { ...wfEnv.literal, ...jobEnv.literal } },
    secrets: [...wfEnv.secrets, ...jobEnv.secrets],
  };
}

/** Defaults of workflow_dispatch and workflow_call inputs. @param {unknown} on @returns {Record<string, string>} */
function inputDefaults(on) {
  /** @type {Record<string, string>} */
  const out = {};
  if (!isMapping(on)) return out;
  for (const event of ['workflow_dispatch', 'workflow_call']) {
    const trigger = on[event];
    const inputs = isMapping(trigger) ? trigger.inputs : undefined;
    for (const [k, v] of Object.entries(isMapping(inputs) ? inputs : {}))
      if (isMapping(v) && ['string', 'number', 'boolean'].includes(typeof v.default)) out[k] = String(v.default);
  }
  return out;
}

/** @param {unknown} defaults @returns {import('./draft-steps.js').RunDefaults} */
function runDefaults(defaults) {
  const run = isMapping(defaults) && isMapping(defaults.run) ? defaults.run : {};
  return Object.fromEntries(Object.entries(run).filter(([k]) => k === 'shell' || k === 'working-directory'));
}

/**
 * The job's timeout-minutes is the workload's job limit, and each step's (a GitHub step has no limit of its
 * own but the job's), so a long step is not ended at the workload's default 20m.
 * @param {Draft} d @param {unknown} v
 */
function draftTimeout(d, v) {
  if (v === undefined) return;
  const minutes = minutesOf(v);
  if (minutes) d.workload.timeout = { job: `${minutes}m`, step: `${minutes}m` };
  else
    d.notes.push({
      at: ['name'],
      text: `timeout-minutes ${logText(String(v).slice(0, 80))} is not whole minutes from 1 to 360`,
      todo: 'give timeout: {job: 30m} (the workload default is 60m)',
    });
}

/** The order the drafted file gives its fields in (docs/workloads.md's). */
const ORDER = [
  'version',
  'name',
  'description',
  'root',
  'timeout',
  'registries',
  'images',
  'builds',
  'compose',
  'steps',
];

/**
 * The workload as written: its fields in the documented order, empty lists left out.
 * @param {Draft} d @returns {import('./load.js').WorkloadDoc}
 */
function finish(d) {
  const w = /** @type {Record<string, unknown>} */ (d.workload);
  const kept = ORDER.filter(
    (k) => w[k] !== undefined && !(Array.isArray(w[k]) && !(/** @type {unknown[]} */ (w[k]).length)),
  );
  return /** @type {import('./load.js').WorkloadDoc} */ (Object.fromEntries(kept.map((k) => [k, w[k]])));
}

/**
 * The draft is a valid workload before it is written: a job with nothing to carry is refused, saying what
 * it held; any other refusal is a fault of this module.
 * @param {import('./load.js').WorkloadDoc} w @param {import('./workflow-file.js').WorkflowJob} wf @param {Draft} d
 */
function checkDraft(w, wf, d) {
  const at = `${wf.where}: job ${logText(wf.jobId)}`;
  if (!w.images && !w.builds && !w.compose && !w.steps)
    throw new WorkflowError(
      `${at} has nothing a workload carries (no run step, service, container or docker command): ${d.notes.map((n) => logText(n.text)).join('; ') || 'no steps'}; give a job that runs its own commands`,
    );
  try {
    checkDocument(w, `${at} (drafted)`);
  } catch (e) {
    if (!(e instanceof WorkloadError)) throw e;
    throw new WorkflowError(`the draft is not a valid workload, a fault of workload init: ${e.message}`);
  }
}

/** @param {import('./workflow-file.js').WorkflowJob} wf @param {Draft} d @returns {string[]} */
function headerOf(wf, d) {
  const lines = [
    ` Drafted by \`dind-bench workload init\` from ${logText(path.relative(d.workspace, path.resolve(wf.file)))}, job ${logText(wf.jobId)}.`,
    ' Check it with no engine: dind-bench plan --workload THIS_FILE (docs/workloads.md).',
    ' "not carried:" comments name what the job did that this file does not, and what to do.',
  ];
  if (d.needs.size) {
    lines.push(' The run needs these environment variables set (plan and run refuse without them):');
    for (const [name, what] of d.needs) lines.push(`   ${name}: ${logText(what)}`);
    lines.push(...secretsMapLines([...d.needs.keys()].map((v) => [v, d.secretOf[v] ?? v])));
  }
  if (!d.workload.timeout)
    lines.push(
      " The job sets no timeout-minutes (GitHub ends a job after 360 min): the workload's limits are its defaults (60m a job, 20m a step).",
    );
  return lines;
}

/**
 * Each file, refused when it exists unless `force` (`wx`: no race between the check and the write).
 * @param {[string, string][]} files @param {boolean} force
 */
async function writeDrafts(files, force) {
  if (!force)
    for (const [file] of files)
      if (existsSync(file))
        throw new WorkflowError(`${logText(file)} exists; give --force to overwrite it, or another --out`);
  for (const [file, text] of files) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text, { flag: force ? 'w' : 'wx' });
  }
}
