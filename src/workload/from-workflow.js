// `dind-bench workload init --from WORKFLOW --job ID`: a team's own GitHub Actions job drafted into a
// workload file, so the job is measured without writing a benchmark. Carried: its run steps (with their
// env, working-directory and shell), its services (a compose stack written beside the file), its
// container image, the docker builds, pulls, logins and compose commands of its steps (the workload's
// images, builds, registries and stack), its timeout-minutes, and each secret it needs by name. What it
// cannot carry is named in the drafted file as a comment where it stood, and returned for the terminal
// with what to do. The draft is checked as a workload before it is written, and nothing is overwritten
// unless asked.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { logText } from '../text/escape.js';
import { addImage, addRegistry, idOf, isReference } from './draft-parts.js';
import { NO_SECRET, SECRET_TODO, draftStep, envOf, minutesOf } from './draft-steps.js';
import { WorkloadError, checkDocument } from './load.js';
import { secretsMapLines } from './passed-secrets.js';
import { parseReference } from './reference.js';
import { expand, matrixOf } from './workflow-expr.js';
import { WorkflowError, isMapping, readWorkflowJob } from './workflow-file.js';
import { tokens } from './workflow-shell.js';

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
  draftContainer(d, job.container, ctx);
  draftServices(d, job.services, ctx, composeName);
  const defaults = { ...runDefaults(workflow.defaults), ...runDefaults(job.defaults) };
  for (const [i, step] of /** @type {Record<string, unknown>[]} */ (job.steps).entries())
    draftStep(d, step, i, { ctx, defaults, exists });
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

/**
 * The job's `container:` image is pulled as one of the workload's images; its steps do not run in it.
 * @param {Draft} d @param {unknown} container @param {ExprContext} ctx
 */
function draftContainer(d, container, ctx) {
  if (container === undefined) return;
  const spec = /** @type {Record<string, unknown>} */ (
    typeof container === 'string' ? { image: container } : isMapping(container) ? container : {}
  );
  const image = expand(String(spec.image ?? ''), ctx).text;
  if (!image) return;
  addImage(d, image, 'container:', ['images']);
  credentialsOf(d, spec.credentials, image, 'container:');
  d.notes.push({
    at: ['images', d.workload.images.findIndex((x) => x.name === image)],
    text: `the job's steps ran inside ${image} (container:); a workload step runs in the runner's shell`,
    todo: `run a step that needs the image's tools in it: docker run --rm -v "$PWD:$PWD" -w "$PWD" ${image} sh -c '…' (a DinD engine sees the run's copy at that path when the workload has a compose stack)`,
  });
}

/**
 * A service's or the container's `credentials:` as a registry login, its variables by the secrets' names.
 * @param {Draft} d @param {unknown} credentials @param {string} image @param {string} where
 */
function credentialsOf(d, credentials, image, where) {
  if (!isMapping(credentials)) return;
  const varOf = (/** @type {unknown} */ v, /** @type {string} */ fallback) => {
    const m = /^\s*\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/.exec(String(v ?? ''));
    if (m) d.secretOf[m[1]] = m[1];
    return m ? m[1] : fallback;
  };
  const registry = isReference(image) ? (parseReference(image).registry ?? 'docker.io') : 'docker.io';
  addRegistry(
    d,
    registry,
    {
      username: varOf(credentials.username, 'DIND_BENCH_REGISTRY_USERNAME'),
      password: varOf(credentials.password, 'DIND_BENCH_REGISTRY_PASSWORD'),
    },
    where,
    ['registries'],
  );
}

/**
 * The job's `services:` as a compose stack (written beside the drafted file), each image one of the
 * workload's images. Health options become the service's healthcheck, which `compose up --wait` waits on
 * as the runner waits on a service's health before the job's steps.
 * @param {Draft} d @param {unknown} services @param {ExprContext} ctx @param {string} composeName
 */
function draftServices(d, services, ctx, composeName) {
  if (!isMapping(services)) return;
  for (const [id, raw] of Object.entries(services)) {
    const spec = /** @type {Record<string, unknown>} */ (
      typeof raw === 'string' ? { image: raw } : isMapping(raw) ? raw : {}
    );
    const image = expand(String(spec.image ?? ''), ctx).text;
    const name = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/.test(id)
      ? id
      : idOf(id, `service-${Object.keys(d.services).length + 1}`);
    if (!image || !addImage(d, image, `service ${id}`, ['images'])) continue;
    credentialsOf(d, spec.credentials, image, `service ${id}`);
    d.services[name] = serviceOf(d, name, spec, image, ctx);
  }
  if (Object.keys(d.services).length) d.workload.compose = { file: composeName };
}

/**
 * @param {Draft} d @param {string} name @param {Record<string, unknown>} spec @param {string} image @param {ExprContext} ctx
 * @returns {Record<string, unknown>}
 */
function serviceOf(d, name, spec, image, ctx) {
  const note = (/** @type {string} */ text, /** @type {string} */ todo) =>
    d.notes.push({ at: ['services', name], file: 'compose', text: `service ${name}: ${text}`, todo });
  /** @type {Record<string, unknown>} */
  const svc = { image };
  /** @type {Record<string, string>} */
  const environment = {};
  for (const [k, v] of Object.entries(isMapping(spec.env) ? spec.env : {})) {
    const e = expand(String(v ?? ''), ctx, () => 'draft');
    for (const s of e.secrets)
      note(
        `${k} is the secret ${s}; written as "draft"`,
        'a fresh service takes any value: keep it, or write the one the job needs',
      );
    if (e.unresolved.length)
      note(`${k} uses ${e.unresolved.join(', ')}; written as "draft"`, 'write the value the job should use');
    environment[k] = e.text;
  }
  if (Object.keys(environment).length) svc.environment = environment;
  if (Array.isArray(spec.ports)) svc.ports = spec.ports.map((p) => String(p));
  if (spec.volumes !== undefined) note('its volumes', 'add the volumes it needs, inside the repository, in this file');
  if (spec.options !== undefined) serviceOptions(svc, String(spec.options), note);
  return svc;
}

/**
 * `docker create` options of a service, as compose fields: the health check and what shapes the container.
 * @param {Record<string, unknown>} svc @param {string} options @param {(text: string, todo: string) => void} note
 */
function serviceOptions(svc, options, note) {
  const all = tokens(options);
  if (!all) return note('its options', 'add what they do to the service in this file');
  const words = all.filter((w) => typeof w === 'string');
  /** @type {Record<string, unknown>} */
  const health = {};
  const FIELDS = /** @type {Record<string, [Record<string, unknown>, string, (v: string) => unknown]>} */ ({
    '--health-cmd': [health, 'test', (v) => ['CMD-SHELL', v]],
    '--health-interval': [health, 'interval', String],
    '--health-timeout': [health, 'timeout', String],
    '--health-retries': [health, 'retries', (v) => (/^[0-9]{1,4}$/.test(v) ? Number(v) : v)],
    '--health-start-period': [health, 'start_period', String],
    '--shm-size': [svc, 'shm_size', String],
    '--user': [svc, 'user', String],
    '--hostname': [svc, 'hostname', String],
    '--entrypoint': [svc, 'entrypoint', String],
  });
  for (let i = 0; i < words.length; i++) {
    const w = /** @type {string} */ (words[i]);
    const eq = w.indexOf('=');
    const flag = eq > 0 ? w.slice(0, eq) : w;
    const value = eq > 0 ? w.slice(eq + 1) : /** @type {string | undefined} */ (words[i + 1]);
    const field = FIELDS[flag];
    if (field && value !== undefined) {
      field[0][field[1]] = field[2](value);
      if (eq < 0) i++;
    } else if (flag.startsWith('-')) {
      note(`the option ${flag}`, 'add what it does to the service in this file');
      if (eq < 0 && words[i + 1] !== undefined && !String(words[i + 1]).startsWith('-')) i++;
    }
  }
  if (Object.keys(health).length) svc.healthcheck = health;
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
 * YAML with each note as a comment where it stood: before the key or item its `at` names, below the list
 * for `after`, at the end when that node is not in the file.
 * @param {unknown} value @param {Note[]} notes @param {string[]} header comment lines
 */
export function yamlWithNotes(value, notes, header) {
  const doc = new YAML.Document(value);
  doc.commentBefore = header.join('\n');
  /** @type {string[]} */
  const trailing = [];
  for (const n of notes) {
    const text = commentOf(n);
    const node = n.after ? doc.getIn(n.at, true) : keyNode(doc, n.at);
    if (!YAML.isNode(node)) trailing.push(text);
    else if (n.after) node.comment = join(node.comment, text);
    else node.commentBefore = join(node.commentBefore, text);
  }
  if (trailing.length) doc.comment = trailing.join('\n');
  return doc.toString({ lineWidth: 0 });
}

/**
 * The node a comment goes before: a mapping's key, a list's item.
 * @param {YAML.Document} doc @param {(string | number)[]} at @returns {YAML.Node | null}
 */
function keyNode(doc, at) {
  if (!at.length) return null;
  const parent = at.length === 1 ? doc.contents : doc.getIn(at.slice(0, -1), true);
  const last = at[at.length - 1];
  if (YAML.isMap(parent)) {
    const pair = parent.items.find((p) => YAML.isScalar(p.key) && p.key.value === last);
    return pair && YAML.isScalar(pair.key) ? pair.key : null;
  }
  if (YAML.isSeq(parent) && typeof last === 'number') {
    const item = parent.items[last];
    return YAML.isNode(item) ? item : null;
  }
  return null;
}

/** @param {string | null | undefined} a @param {string} b */
const join = (a, b) => (a ? `${a}\n${b}` : b);

/** A note as comment lines of about 100 columns at most, its values escaped. @param {Note} n */
const commentOf = (n) =>
  [...wrap(`not carried: ${logText(n.text)}`), ...wrap(`  what to do: ${logText(n.todo)}`)].join('\n');

/** @param {string} text @returns {string[]} lines, each after the first indented under it */
function wrap(text) {
  const indent = text.startsWith('  ') ? '    ' : '  ';
  const lines = [''];
  for (const w of text.split(' ')) {
    if (lines[lines.length - 1].length + w.length > 96 && lines[lines.length - 1].trim()) lines.push(indent);
    lines[lines.length - 1] += ` ${w}`;
  }
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
