// A compose file's host paths as compose itself reads them: `docker compose config --format json` applies
// merge keys (<<), interpolation (${VAR:-/etc}), `include` and `extends` and resolves every relative path,
// so what the run's `compose up` would mount is checked, not what the raw YAML seems to say
// (./compose-binds.js reads the raw file first, for what the model drops: env files, include and extends
// files). Run with the environment the job's compose commands get (PATH and HOME, ../engine/cli.js), so
// it interpolates as they will. Each host path must stay inside the workload's root: a bind mount's
// source, a build context, its Dockerfile and SSH key files, a named volume bound to a host `device`, a
// file config or secret, a label file; a service's host `devices` never are. A refusal
// names the compose file, the field of the model and the path it resolved to.
import path from 'node:path';
import { cliConfig, dockerCli } from '../engine/cli.js';
import { logText } from '../text/escape.js';
import { realOfExisting } from './compose-binds.js';

/** @typedef {{ field: string, source: string, what: string }} ModelPath */
/**
 * The parts of compose's model (`config --format json`) that name host paths. Compose writes it, from the
 * team's file: each value is still checked before use, so the leaves are unknown.
 * @typedef {{ volumes?: { type?: unknown, source?: unknown }[], devices?: unknown[], label_file?: unknown,
 *   build?: { context?: unknown, dockerfile?: unknown, ssh?: unknown, additional_contexts?: Record<string, unknown> } }} ModelService
 * @typedef {{ services?: Record<string, ModelService>, volumes?: Record<string, { driver_opts?: { device?: unknown } }>,
 *   configs?: Record<string, { file?: unknown }>, secrets?: Record<string, { file?: unknown }> }} ComposeModel
 */

/**
 * The host paths of a compose model (compose's JSON), with their fields.
 * @param {unknown} json compose's output parsed @returns {ModelPath[]}
 */
export function modelPaths(json) {
  const model = /** @type {ComposeModel} */ (json && typeof json === 'object' ? json : {});
  /** @type {ModelPath[]} */
  const out = [];
  for (const [name, s] of Object.entries(model.services ?? {})) {
    for (const [i, v] of (Array.isArray(s?.volumes) ? s.volumes : []).entries())
      if (v?.type === 'bind' && typeof v.source === 'string')
        out.push({ field: `services.${name}.volumes[${i}].source`, source: v.source, what: 'a bind mount' });
    const context = s?.build?.context;
    // A remote context (git URL, https://) is no host path.
    if (typeof context === 'string' && path.isAbsolute(context))
      out.push({ field: `services.${name}.build.context`, source: context, what: 'a build context' });
    out.push(...buildFiles(name, s?.build), ...deviceAndLabelFiles(name, s));
    for (const [key, extra] of Object.entries(s?.build?.additional_contexts ?? {}))
      if (typeof extra === 'string' && path.isAbsolute(extra))
        out.push({
          field: `services.${name}.build.additional_contexts.${key}`,
          source: extra,
          what: 'a build context',
        });
  }
  for (const [name, volume] of Object.entries(model.volumes ?? {})) {
    const device = volume?.driver_opts?.device;
    if (typeof device === 'string' && device.startsWith('/'))
      out.push({ field: `volumes.${name}.driver_opts.device`, source: device, what: "a named volume's host device" });
  }
  for (const kind of /** @type {const} */ (['configs', 'secrets']))
    for (const [name, entry] of Object.entries(model[kind] ?? {})) {
      const file = entry?.file;
      if (typeof file === 'string')
        out.push({ field: `${kind}.${name}.file`, source: file, what: `a file ${kind.slice(0, -1)}` });
    }
  return out;
}

/**
 * A build's Dockerfile (relative to its context, as the builder reads it; an absolute one as it is) and
 * its SSH key files (`id=path` entries; `default`, the agent, names no file).
 * @param {string} name @param {ModelService['build']} build @returns {ModelPath[]}
 */
function buildFiles(name, build) {
  /** @type {ModelPath[]} */
  const out = [];
  const { context, dockerfile, ssh } = build ?? /** @type {NonNullable<ModelService['build']>} */ ({});
  if (
    typeof dockerfile === 'string' &&
    (path.isAbsolute(dockerfile) || (typeof context === 'string' && path.isAbsolute(context)))
  )
    out.push({
      field: `services.${name}.build.dockerfile`,
      source: path.resolve(typeof context === 'string' && path.isAbsolute(context) ? context : '/', dockerfile),
      what: 'a Dockerfile',
    });
  const entries = Array.isArray(ssh)
    ? ssh.map((e, i) => [`[${i}]`, typeof e === 'string' && e.includes('=') ? e.slice(e.indexOf('=') + 1) : null])
    : ssh && typeof ssh === 'object'
      ? Object.entries(ssh).map(([k, v]) => [`.${k}`, v])
      : [];
  for (const [key, file] of entries)
    if (typeof file === 'string' && file !== '')
      out.push({ field: `services.${name}.build.ssh${key}`, source: file, what: 'an SSH key for the build' });
  return out;
}

/**
 * A service's host devices (every one is outside the root) and label files.
 * @param {string} name @param {ModelService | undefined} s @returns {ModelPath[]}
 */
function deviceAndLabelFiles(name, s) {
  /** @type {ModelPath[]} */
  const out = [];
  for (const [i, d] of (Array.isArray(s?.devices) ? s.devices : []).entries()) {
    const source = typeof d === 'string' ? d.split(':')[0] : /** @type {{ source?: unknown }} */ (d)?.source;
    if (typeof source === 'string')
      out.push({ field: `services.${name}.devices[${i}]`, source, what: 'a host device' });
  }
  const labels = typeof s?.label_file === 'string' ? [s.label_file] : s?.label_file;
  for (const [i, f] of (Array.isArray(labels) ? labels : []).entries())
    if (typeof f === 'string')
      out.push({ field: `services.${name}.label_file[${i}]`, source: f, what: 'a label file' });
  return out;
}

/**
 * Checks the model of `composeFile` against `root` (real paths); throws through `fail`. A compose CLI that
 * cannot make the model is said in its own words.
 * @param {string} root @param {string} composeFile absolute, real @param {string} at "workload.yml: field /compose/file"
 * @param {(message: string) => Error} fail
 */
export async function checkComposeModel(root, composeFile, at, fail) {
  const shownFile = logText(path.relative(root, composeFile));
  const config = await cliConfig();
  let r;
  try {
    r = await dockerCli({
      // Never reached: `compose config` asks no engine.
      socket: path.join(config.dir, 'no-engine.sock'),
      args: ['compose', '--file', composeFile, 'config', '--format', 'json'],
      cwd: path.dirname(composeFile),
      timeoutMs: 30_000,
      config: config.dir,
    });
  } finally {
    await config.remove();
  }
  if (r.exitCode !== 0) {
    const said = logText((r.stderr.trim().split('\n').at(-1) ?? '').slice(0, 300));
    throw fail(`${at}: ${shownFile}: \`docker compose config\` refused it (exit ${r.exitCode}): ${said}`);
  }
  /** @type {unknown} */
  let model;
  try {
    model = JSON.parse(r.stdout);
  } catch {
    throw fail(`${at}: ${shownFile}: \`docker compose config --format json\` gave no JSON; is the compose plugin v2?`);
  }
  const inRoot = (/** @type {string} */ p) => p === root || p.startsWith(root + path.sep);
  for (const { field, source, what } of modelPaths(model)) {
    const real = await realOfExisting(path.resolve(path.dirname(composeFile), source));
    if (!inRoot(real))
      throw fail(
        `${at}: ${shownFile}: field ${logText(field)} (as \`docker compose config\` reads the file: merge keys, ` +
          `variables, include and extends applied): ${what} at "${logText(source.slice(0, 200))}" leads outside the ` +
          "workload's root (its folder, unless the file names a root); keep the job's files inside it",
      );
  }
}
