// A workload file: a team's own CI job, described the way the job runs it (images, BuildKit builds, a
// compose stack with a test, docker-CLI steps), in YAML. Untrusted input like a results file: bounded,
// parsed, checked against schema/workload.v1.schema.json and then against its folder (every path
// relative, inside the folder, present, and no link leading out) before anything runs. Every error names
// the file, the field and what to do.
import { readFileSync } from 'node:fs';
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import Ajv from 'ajv';
import YAML from 'yaml';
import { logText } from '../text/escape.js';
import { checkComposeBinds } from './compose-binds.js';
import { checkCredentials } from './credentials.js';
import { parseReference } from './reference.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/workload.v1.schema.json', import.meta.url), 'utf8'));
const ajv = new /** @type {any} */ (Ajv)({ allErrors: true, strict: false });
const validate = ajv.compile(schema);

/** A workload file is a page of YAML: anything larger is not one. */
export const MAX_WORKLOAD_BYTES = 64 * 1024;
/** What a job's folder may hold: the run copies it (so the job sees a snapshot) and sends build contexts. */
export const MAX_FOLDER_FILES = 20_000;
export const MAX_FOLDER_BYTES = 1024 ** 3;
const ADVICE = 'see docs/workloads.md for the format';

export class WorkloadError extends Error {}

/**
 * @typedef {{ name: string, source: 'pull' | 'archive' | 'present', seed?: string, archive?: string, from?: string }} WorkloadImage
 * @typedef {{ name: string, context: string, dockerfile?: string, target?: string, args?: Record<string, string>, tag?: string }} WorkloadBuild
 * @typedef {{ file: string, test?: { service: string, command?: string[] } }} WorkloadCompose
 * @typedef {{ name: string, run: string }} WorkloadStep
 * @typedef {import('./credentials.js').WorkloadRegistry} WorkloadRegistry
 * @typedef {{
 *   version: 1, name: string, description?: string, runner?: { persist?: boolean }, registries?: WorkloadRegistry[],
 *   images?: WorkloadImage[], builds?: WorkloadBuild[], compose?: WorkloadCompose, steps?: WorkloadStep[],
 * }} WorkloadDoc
 * @typedef {WorkloadDoc & { file: string, dir: string }} Workload
 *   file: the workload file's absolute path; dir: its folder, which every path is relative to
 */

/**
 * Reads, parses and checks a workload file and its folder.
 * @param {string} file
 * @returns {Promise<Workload>}
 */
export async function loadWorkload(file) {
  const where = logText(file);
  const text = await readBounded(file, where);
  const doc = parseYaml(text, where);
  const checked = checkDocument(doc, where);
  const dir = path.dirname(path.resolve(file));
  await checkPaths(checked, dir, where);
  await checkFolder(dir, where);
  checkCredentials(checked, where, (m) => new WorkloadError(m));
  return { ...checked, file: path.resolve(file), dir };
}

/** @param {string} file @param {string} where */
async function readBounded(file, where) {
  const info = await lstat(file).catch((e) => {
    throw new WorkloadError(
      `${where}: cannot read the workload file (${e.code ?? e.message}); give the path of a workload YAML file`,
    );
  });
  if (!info.isFile())
    throw new WorkloadError(`${where}: not a regular file (a link or a folder); give the workload YAML file itself`);
  if (info.size > MAX_WORKLOAD_BYTES)
    throw new WorkloadError(
      `${where}: ${info.size} bytes, more than a workload file may have (${MAX_WORKLOAD_BYTES}); ${ADVICE}`,
    );
  const handle = await open(file, 'r');
  try {
    return (await handle.readFile({ encoding: 'utf8' })).slice(0, MAX_WORKLOAD_BYTES);
  } finally {
    await handle.close();
  }
}

/** @param {string} text @param {string} where @returns {unknown} */
function parseYaml(text, where) {
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1)
    throw new WorkloadError(`${where}: expected exactly one YAML document; ${ADVICE}`);
  const [doc] = docs;
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    throw new WorkloadError(
      `${where}${at ? `:${at.line}:${at.col}` : ''}: not valid YAML: ${logText(error.message.split('\n')[0])}; ${ADVICE}`,
    );
  }
  try {
    // maxAliasCount 0: no YAML aliases at all (a "billion laughs" file expands through them).
    return doc.toJS({ maxAliasCount: 0 });
  } catch (e) {
    const message = /** @type {Error} */ (e).message;
    if (/alias/i.test(message))
      throw new WorkloadError(
        `${where}: YAML aliases (&name, *name) are not allowed in a workload file; write the value out`,
      );
    throw new WorkloadError(`${where}: ${logText(message)}; ${ADVICE}`);
  }
}

/** Checks the document's shape and its cross-field rules. @param {unknown} doc @param {string} where @returns {WorkloadDoc} */
export function checkDocument(doc, where) {
  if (!validate(doc)) {
    const problems = (validate.errors ?? []).slice(0, 10).map((/** @type {any} */ e) => {
      const field = e.instancePath || '/';
      const extra = e.params?.additionalProperty ? ` "${e.params.additionalProperty}"` : '';
      const allowed = e.params?.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : '';
      return `field ${logText(field.slice(0, 200))}: ${e.message}${logText(extra.slice(0, 80))}${allowed}`;
    });
    throw new WorkloadError(`${where}: not a valid workload: ${problems.join('; ')}; ${ADVICE}`);
  }
  const w = /** @type {WorkloadDoc} */ (doc);
  for (const [i, image] of (w.images ?? []).entries()) {
    const field = `field /images/${i}`;
    if (image.source === 'archive' && !image.archive)
      throw new WorkloadError(`${where}: ${field}: source "archive" needs "archive", the path of a docker save file`);
    if (image.source !== 'archive' && image.archive)
      throw new WorkloadError(`${where}: ${field}: "archive" is only read with source "archive"`);
    if (image.source !== 'pull' && image.seed)
      throw new WorkloadError(`${where}: ${field}: "seed" is only read with source "pull"`);
  }
  checkReferences(w, where);
  unique(w.images ?? [], (x) => x.name, 'images', where);
  unique(w.builds ?? [], (x) => x.name, 'builds', where);
  unique(w.steps ?? [], (x) => x.name, 'steps', where);
  if (!w.images?.length && !w.builds?.length && !w.compose && !w.steps?.length)
    throw new WorkloadError(`${where}: the job does nothing: give at least one of images, builds, compose, steps`);
  return w;
}

/**
 * Every image reference in Docker's grammar (./reference.js): one the engine would refuse mid-run is
 * refused now, saying what is expected.
 * @param {WorkloadDoc} w @param {string} where
 */
function checkReferences(w, where) {
  /** @type {[string, string | undefined][]} */
  const refs = [
    ...(w.images ?? []).flatMap(
      (x, i) =>
        /** @type {[string, string | undefined][]} */ ([
          [`/images/${i}/name`, x.name],
          [`/images/${i}/seed`, x.seed],
          [`/images/${i}/from`, x.from],
        ]),
    ),
    ...(w.builds ?? []).map((x, i) => /** @type {[string, string | undefined]} */ ([`/builds/${i}/tag`, x.tag])),
  ];
  for (const [field, ref] of refs) {
    if (ref === undefined) continue;
    try {
      parseReference(ref);
    } catch (e) {
      throw new WorkloadError(
        `${where}: field ${field}: ${logText(ref.slice(0, 200))} is not an image reference the engine takes: ` +
          `${logText(/** @type {Error} */ (e).message)}; expected [registry[:port]/]path[:tag][@sha256:<64 hex>], ` +
          'e.g. registry.example.internal:5000/team/app:1 or postgres:16@sha256:…',
      );
    }
  }
  for (const [i, x] of (w.images ?? []).entries())
    if (x.source !== 'pull' && parseReference(x.name).digest)
      throw new WorkloadError(
        `${where}: field /images/${i}/name: a digest pins what is pulled; with source "${x.source}" give name:tag`,
      );
  for (const [i, x] of (w.builds ?? []).entries())
    if (x.tag && parseReference(x.tag).digest)
      throw new WorkloadError(`${where}: field /builds/${i}/tag: a build's tag cannot carry a digest; give name:tag`);
}

/**
 * @template T @param {T[]} items @param {(x: T) => string} key @param {string} field @param {string} where
 */
function unique(items, key, field, where) {
  const seen = new Set();
  for (const [i, x] of items.entries()) {
    if (seen.has(key(x)))
      throw new WorkloadError(
        `${where}: field /${field}/${i}: the name ${logText(key(x))} is used twice; give each a name of its own`,
      );
    seen.add(key(x));
  }
}

/**
 * Every path of the workload: relative, inside the folder once links are resolved, and present.
 * @param {WorkloadDoc} w @param {string} dir @param {string} where
 */
async function checkPaths(w, dir, where) {
  /** @type {[string, string, 'file' | 'folder'][]} */
  const paths = [];
  for (const [i, image] of (w.images ?? []).entries())
    if (image.archive) paths.push([`/images/${i}/archive`, image.archive, 'file']);
  for (const [i, b] of (w.builds ?? []).entries()) {
    paths.push([`/builds/${i}/context`, b.context, 'folder']);
    paths.push([`/builds/${i}/dockerfile`, path.join(b.context, b.dockerfile ?? 'Dockerfile'), 'file']);
  }
  if (w.compose) paths.push(['/compose/file', w.compose.file, 'file']);
  const root = await realpath(dir);
  for (const [field, rel, kind] of paths) await checkPath(root, rel, kind, `${where}: field ${field}`);
  if (w.compose)
    await checkComposeBinds(
      root,
      await realpath(path.join(root, w.compose.file)),
      `${where}: field /compose/file`,
      (m) => new WorkloadError(m),
    );
}

/** @param {string} root @param {string} rel @param {'file' | 'folder'} kind @param {string} at */
async function checkPath(root, rel, kind, at) {
  const shown = logText(rel);
  if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..'))
    throw new WorkloadError(
      `${at}: ${shown} must be relative to the workload file's folder and stay inside it (no "..", no absolute path)`,
    );
  const real = await realpath(path.join(root, rel)).catch(() => null);
  if (real === null) throw new WorkloadError(`${at}: ${shown} does not exist in the workload's folder`);
  if (real !== root && !real.startsWith(root + path.sep))
    throw new WorkloadError(
      `${at}: ${shown} leads outside the workload's folder (through a link); keep the job's files inside it`,
    );
  const info = await stat(real);
  if (kind === 'file' ? !info.isFile() : !info.isDirectory())
    throw new WorkloadError(`${at}: ${shown} is not a ${kind}`);
}

/**
 * The job's folder is copied for every run: bounded, and no link in it may lead outside it.
 * @param {string} dir @param {string} where
 */
async function checkFolder(dir, where) {
  const root = await realpath(dir);
  let files = 0;
  let bytes = 0;
  /** @type {string[]} */
  const queue = [root];
  while (queue.length) {
    const folder = /** @type {string} */ (queue.pop());
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (++files > MAX_FOLDER_FILES)
        throw new WorkloadError(
          `${where}: the workload's folder holds more than ${MAX_FOLDER_FILES} files; give the job a folder of its own`,
        );
      if (entry.isSymbolicLink()) {
        const target = await realpath(full).catch(() => null);
        if (target === null || (target !== root && !target.startsWith(root + path.sep)))
          throw new WorkloadError(
            `${where}: ${logText(path.relative(root, full))} is a link leading outside the workload's folder; replace it with the file`,
          );
      } else if (entry.isDirectory()) queue.push(full);
      else if (entry.isFile()) bytes += (await lstat(full)).size;
      if (bytes > MAX_FOLDER_BYTES)
        throw new WorkloadError(
          `${where}: the workload's folder holds more than ${MAX_FOLDER_BYTES / 1024 ** 3} GiB; give the job a folder of its own`,
        );
    }
  }
}
