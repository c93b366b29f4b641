// What a workload's compose file gives its containers from the host: bind mounts (a service's `volumes`
// with a path as source, short or long syntax), `env_file`s and `label_file`s, file-based `configs` and
// `secrets`, a build's absolute Dockerfile and SSH key files, and host `devices` (always refused). Each
// must stay inside the workload's folder: the run copies that folder, and the engine (the runner's, or a
// DinD engine whose outer container shares the copy at the same path) mounts what the path names, so one
// that leads out (`..`, an absolute or home path, a link) would hand a job's container a host file. Checked
// when the workload is loaded; the error names the compose file and the field.
import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { logText } from '../text/escape.js';

/** A compose file is a page or a few of YAML. */
const MAX_COMPOSE_BYTES = 256 * 1024;

/**
 * @typedef {{ field: string, source: string, device?: boolean }} HostPath
 *   field: where in the compose file ("services.db.volumes[0]"); source: the path as written; device: a
 *   host device given to a container (`devices`), never a file of the root
 */

/**
 * The host paths a compose document names, with their fields. Named volumes and anonymous ones are not
 * host paths and are left out. Anything not shaped as compose expects is skipped here (the compose CLI
 * refuses it itself).
 * @param {unknown} doc @returns {HostPath[]}
 */
export function hostPaths(doc) {
  /** @type {HostPath[]} */
  const out = [];
  const root = /** @type {Record<string, any>} */ (doc && typeof doc === 'object' ? doc : {});
  for (const [name, service] of Object.entries(root.services ?? {})) {
    if (!service || typeof service !== 'object') continue;
    for (const [i, v] of (Array.isArray(service.volumes) ? service.volumes : []).entries()) {
      const field = `services.${name}.volumes[${i}]`;
      if (typeof v === 'string') {
        // SOURCE:TARGET[:MODE]; a source that is a path (., /, ~) is a bind mount, else a named volume; one
        // from a variable may be either until compose interpolates it, so it is taken as a path.
        const source = v.split(':')[0];
        if (v.includes(':') && /^[./~$]/.test(source)) out.push({ field, source });
      } else if (v && typeof v === 'object' && v.type === 'bind' && typeof v.source === 'string')
        out.push({ field: `${field}.source`, source: v.source });
    }
    for (const key of ['env_file', 'label_file']) {
      const files = typeof service[key] === 'string' ? [service[key]] : service[key];
      for (const [i, f] of (Array.isArray(files) ? files : []).entries()) {
        const file = typeof f === 'string' ? f : f?.path;
        if (typeof file === 'string') out.push({ field: `services.${name}.${key}[${i}]`, source: file });
      }
    }
    out.push(...buildPaths(name, service.build));
    // A host device is no file of the root: any is refused (as an absolute path).
    for (const [i, d] of (Array.isArray(service.devices) ? service.devices : []).entries()) {
      const source = typeof d === 'string' ? d.split(':')[0] : d?.source;
      if (typeof source === 'string') out.push({ field: `services.${name}.devices[${i}]`, source, device: true });
    }
  }
  // Files compose reads into the model (include, extends): one outside the folder brings its services in.
  for (const [i, inc] of (Array.isArray(root.include) ? root.include : []).entries()) {
    const files = typeof inc === 'string' ? [inc] : Array.isArray(inc?.path) ? inc.path : [inc?.path];
    for (const f of files) if (typeof f === 'string') out.push({ field: `include[${i}]`, source: f });
  }
  for (const [name, service] of Object.entries(root.services ?? {}))
    if (service && typeof service.extends?.file === 'string')
      out.push({ field: `services.${name}.extends.file`, source: service.extends.file });
  for (const kind of ['configs', 'secrets'])
    for (const [name, entry] of Object.entries(root[kind] ?? {}))
      if (entry && typeof entry === 'object' && typeof entry.file === 'string')
        out.push({ field: `${kind}.${name}.file`, source: entry.file });
  return out;
}

/**
 * The host paths a service's `build` names besides its context (compose's own check reads the context):
 * an absolute Dockerfile (a relative one is inside the context), and each SSH key file (`ssh: [id=path]` or
 * `ssh: {id: path}`; `default`, the agent, names none).
 * @param {string} name @param {unknown} spec @returns {HostPath[]}
 */
function buildPaths(name, spec) {
  if (!spec || typeof spec !== 'object') return [];
  const build = /** @type {{ dockerfile?: unknown, ssh?: unknown }} */ (spec);
  /** @type {HostPath[]} */
  const out = [];
  const dockerfile = build.dockerfile;
  if (typeof dockerfile === 'string' && /^[/~$]/.test(dockerfile))
    out.push({ field: `services.${name}.build.dockerfile`, source: dockerfile });
  const ssh = Array.isArray(build.ssh)
    ? build.ssh.map((/** @type {unknown} */ e, /** @type {number} */ i) => [
        i,
        typeof e === 'string' && e.includes('=') ? e.slice(e.indexOf('=') + 1) : null,
      ])
    : build.ssh && typeof build.ssh === 'object'
      ? Object.entries(build.ssh)
      : [];
  for (const [key, file] of ssh)
    if (typeof file === 'string' && file !== '')
      out.push({
        field: `services.${name}.build.ssh${typeof key === 'number' ? `[${key}]` : `.${key}`}`,
        source: file,
      });
  return out;
}

/**
 * Checks the host paths of the compose file at `composeFile` (inside `root`, the workload's folder, real
 * path). Throws through `fail` naming the file and the field.
 * @param {string} root @param {string} composeFile absolute @param {string} at "workload.yml: field /compose/file"
 * @param {(message: string) => Error} fail
 */
export async function checkComposeBinds(root, composeFile, at, fail) {
  const shownFile = logText(path.relative(root, composeFile));
  const info = await lstat(composeFile);
  if (info.size > MAX_COMPOSE_BYTES)
    throw fail(`${at}: ${shownFile} is larger than ${MAX_COMPOSE_BYTES / 1024} KiB; a compose file is a few pages`);
  let doc;
  try {
    doc = YAML.parse(await readFile(composeFile, 'utf8'), { maxAliasCount: 100 });
  } catch {
    return; // not YAML: the compose CLI says why, with its own words (not a question of host paths)
  }
  const base = path.dirname(composeFile);
  for (const { field, source, device } of hostPaths(doc)) {
    const where = `${at}: ${shownFile}: field ${logText(field)}`;
    const shown = logText(source.slice(0, 200));
    if (device)
      throw fail(
        `${where}: "${shown}" gives a container a host device, which is outside the workload's root: ` +
          "a job's containers get none of the runner's devices; remove the service's devices entry",
      );
    if (source.includes('$'))
      throw fail(
        `${where}: "${shown}" uses a variable; write the path out (relative, inside the workload's folder) so it can be checked`,
      );
    // Relative to the compose file's folder, as compose reads it: `../testdata` from deploy/compose.yml is
    // inside the root, `../../x` from it may not be.
    const inRoot = (/** @type {string} */ p) => p === root || p.startsWith(root + path.sep);
    if (path.isAbsolute(source) || source.startsWith('~'))
      throw fail(
        `${where}: "${shown}" leads outside the workload's root (its folder, unless the file names a root): ` +
          "it is an absolute or home path; a bind mount's source, an env or label file, a Dockerfile or an SSH key must be a relative path (./data, ../testdata) inside the root",
      );
    if (!inRoot(path.resolve(base, source)))
      throw fail(
        `${where}: "${shown}" leads outside the workload's root (its folder, unless the file names a root), ` +
          "relative to the compose file's folder; keep the mounted files inside it, or give the workload a root (field /root) that holds them",
      );
    const real = await realOfExisting(path.resolve(base, source));
    if (real !== root && !real.startsWith(root + path.sep))
      throw fail(
        `${where}: "${shown}" leads outside the workload's folder through a link; keep the mounted files inside it`,
      );
  }
}

/**
 * The real path of `p`, or of its nearest existing ancestor with the rest appended (the engine creates a
 * missing bind source; what exists decides where it would land).
 * @param {string} p @returns {Promise<string>}
 */
export async function realOfExisting(p) {
  const rest = [];
  let at = p;
  for (;;) {
    const real = await realpath(at).catch(() => null);
    if (real !== null) return path.join(real, ...rest.reverse());
    rest.push(path.basename(at));
    const up = path.dirname(at);
    if (up === at) return p;
    at = up;
  }
}
