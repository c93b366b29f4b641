// A workload file: a team's own CI job, described the way the job runs it (images, BuildKit builds, a
// compose stack with a test, docker-CLI steps), in YAML. Untrusted input like a results file: bounded,
// parsed, checked against schema/workload.v1.schema.json and then against its folder (every path
// relative, inside the folder, present, and no link leading out; only files, folders and links in it; the
// compose file a compose file) before anything runs. Every error names the file, the field and what is
// expected, in words (never a raw pattern). What only the runner's engine can tell (a seed image there, the
// compose plugin) is checked next, still before anything runs (./preflight.js).
import { readFileSync } from 'node:fs';
import { lstat, readFile, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import Ajv from 'ajv';
import YAML from 'yaml';
import { logText } from '../text/escape.js';
import { findPlugin } from '../engine/cli.js';
import { checkComposeBinds } from './compose-binds.js';
import { checkComposeModel } from './compose-model.js';
import { readBoundedText } from './bounded-file.js';
import { checkCredentials } from './credentials.js';
import { adoptPassedSecrets, namedVariables } from './passed-secrets.js';
import { checkTrust } from './registry-trust.js';
import { parseReference } from './reference.js';
import { checkTimes } from './time.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/workload.v1.schema.json', import.meta.url), 'utf8'));
// verbose: each error carries the value it was about, so a message can say what was given.
const ajv = new Ajv.default({ allErrors: true, strict: false, verbose: true }); // CommonJS: see ../results/schema.js
const validate = ajv.compile(schema);

/** A workload file is a page of YAML: anything larger is not one. */
export const MAX_WORKLOAD_BYTES = 64 * 1024;
/** What a job's folder may hold: the run copies it (so the job sees a snapshot) and sends build contexts. */
export const MAX_FOLDER_FILES = 20_000;
export const MAX_FOLDER_BYTES = 1024 ** 3;
/** A compose file is read whole to be checked: larger than any real one is refused. */
export const MAX_COMPOSE_BYTES = 1024 ** 2;
const ADVICE = 'see docs/workloads.md for the format';

export class WorkloadError extends Error {}

/**
 * @typedef {{ name: string, source: 'pull' | 'archive' | 'present', seed?: string, archive?: string, from?: string }} WorkloadImage
 * @typedef {{ name: string, context: string, dockerfile?: string, target?: string, args?: Record<string, string>, tag?: string, timeout?: string, secrets?: { id: string, env: string }[] }} WorkloadBuild
 * @typedef {{ file: string, test?: { service: string, command?: string[] } }} WorkloadCompose
 * @typedef {{ name: string, run: string, timeout?: string, background?: boolean, registries?: boolean }} WorkloadStep
 * @typedef {import('./credentials.js').WorkloadRegistry} WorkloadRegistry
 * @typedef {{
 *   version: 1, name: string, description?: string, root?: string, runner?: { persist?: boolean }, registries?: WorkloadRegistry[],
 *   images?: WorkloadImage[], builds?: WorkloadBuild[], compose?: WorkloadCompose, steps?: WorkloadStep[],
 *   timeout?: import('./time.js').WorkloadTimeout, states?: import('./time.js').BuildState[], expected?: Record<string, string>,
 * }} WorkloadDoc
 * @typedef {WorkloadDoc & { file: string, dir: string, rootDir?: string }} Workload
 *   file: the workload file's absolute path; dir: its folder, which every path is relative to; rootDir: the
 *   folder the job's files come from (the file's `root`, real path; its folder when it names none), which
 *   every path must stay inside
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
  const rootDir = await rootOf(checked, dir, where);
  await checkPaths(checked, dir, where, rootDir);
  await checkFolder(rootDir, where);
  if (checked.compose) await checkCompose(checked.compose, await realpath(dir), where);
  // Compose's own model of the file, where its plugin is here (without it ./preflight.js stops the run).
  if (checked.compose && findPlugin('docker-compose'))
    await checkComposeModel(
      rootDir,
      await realpath(path.join(dir, checked.compose.file)),
      `${where}: field /compose/file`,
      (m) => new WorkloadError(m),
    );
  await adoptPassedSecrets(namedVariables(checked), (m) => new WorkloadError(m));
  checkCredentials(checked, where, (m) => new WorkloadError(m));
  await checkTrust(checked, dir, rootDir, where, (m) => new WorkloadError(m));
  return { ...checked, file: path.resolve(file), dir, rootDir };
}

/** @param {string} file @param {string} where */
const readBounded = (file, where) =>
  readBoundedText(file, {
    maxBytes: MAX_WORKLOAD_BYTES,
    fail: (m) => new WorkloadError(m),
    unreadable: (code) => `${where}: cannot read the workload file (${code}); give the path of a workload YAML file`,
    notFile: `${where}: not a regular file (a link or a folder); give the workload YAML file itself`,
    tooLarge: (size) =>
      `${where}: ${size} bytes, more than a workload file may have (${MAX_WORKLOAD_BYTES}); ${ADVICE}`,
  });

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
    const problems = (validate.errors ?? []).slice(0, 10).map(describeError);
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
  checkTimes(w, where, (m) => new WorkloadError(m));
  unique(w.images ?? [], (x) => x.name, 'images', where);
  unique(w.builds ?? [], (x) => x.name, 'builds', where);
  unique(w.steps ?? [], (x) => x.name, 'steps', where);
  // Every metric of an image is keyed by its name made plain (imageKey): two names of one key would merge
  // their timings into one series without a word.
  unique(
    w.images ?? [],
    (x) => imageKey(x.name),
    'images',
    where,
    (i, other) => {
      const first = logText(/** @type {WorkloadImage[]} */ (w.images)[other].name);
      return `the name ${logText(/** @type {WorkloadImage[]} */ (w.images)[i].name)} gives the same metric key (image.${imageKey(/** @type {WorkloadImage[]} */ (w.images)[i].name)}.*) as ${first} (field /images/${other}/name), so their timings would merge; give names that differ in more than their punctuation`;
    },
  );
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
 * @param {(i: number, other: number) => string} [says] what to say when item i has the key of item other
 */
function unique(items, key, field, where, says) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  for (const [i, x] of items.entries()) {
    const other = seen.get(key(x));
    if (other !== undefined)
      throw new WorkloadError(
        `${where}: field /${field}/${i}: ${says ? says(i, other) : `the name ${logText(key(x))} is used twice; give each a name of its own`}`,
      );
    seen.set(key(x), i);
  }
}

/** A metric key for an image reference: "team/app:1" -> "team_app_1". @param {string} ref */
export const imageKey = (ref) =>
  ref
    .replace(/@.*$/, '')
    .replace(/[^a-z0-9._-]/g, '_')
    .slice(0, 60);

/**
 * What the schema asks of a field, in words, by where in the schema the rule is: a message never shows a
 * raw pattern. Keys are Ajv's schemaPath of the rule.
 * @type {Record<string, string>}
 */
const EXPECTED = {
  '#/definitions/id/pattern':
    'a name of 1 to 40 characters: lower-case letters, digits, "_" and "-", starting with a letter or digit (e.g. app-build)',
  '#/definitions/path/pattern': 'a path without control characters (tabs, newlines)',
  '#/definitions/imageRef/pattern': 'an image reference as `docker pull` takes it, such as team/app:1',
  '#/definitions/text/pattern': 'text without NUL characters',
  '#/definitions/duration/pattern': 'a time such as 90s, 3m, 2m30s or 1h30m',
  '#/properties/expected/propertyNames/pattern': 'job, build or an environment name',
  '#/properties/builds/items/properties/target/pattern':
    'a build stage name of up to 64 letters, digits, "_", "." and "-", starting with a letter or digit',
  '#/properties/builds/items/properties/args/propertyNames/pattern':
    'a build argument name: letters, digits and "_", not starting with a digit, up to 64 characters',
  '#/properties/builds/items/properties/args/additionalProperties/pattern':
    'a value on one line (no newline or other control characters)',
  '#/properties/compose/properties/test/properties/service/pattern':
    'a compose service name: letters, digits, "_", "." and "-", starting with a letter or digit, up to 64 characters',
};

/**
 * One schema error as "field F: what is expected (got V)".
 * @param {any} e an Ajv error (verbose)
 */
function describeError(e) {
  const field = logText(String(e.instancePath || '/').slice(0, 200));
  const got = e.keyword === 'required' || e.keyword === 'additionalProperties' ? '' : ` (got ${shown(e.data)})`;
  /** @type {string} */
  let says;
  if (e.keyword === 'pattern')
    says = `must be ${EXPECTED[e.schemaPath] ?? 'text of the form this field takes (docs/workloads.md)'}`;
  else if (e.keyword === 'const') says = `must be ${JSON.stringify(e.params.allowedValue)}`;
  else if (e.keyword === 'enum') says = `must be one of ${e.params.allowedValues.join(', ')}`;
  else if (e.keyword === 'type' && typeof e.data === 'number' && /\/duration\//.test(e.schemaPath))
    // A bare number is refused rather than read in one unit: many tools take seconds, GitHub's own
    // timeout-minutes takes minutes. The error says what to write.
    says = `must be a time with its unit: write ${durationsFor(e.data)} (a bare number is not read as seconds or minutes)`;
  else if (e.keyword === 'propertyNames')
    return `field ${field}: ${logText(String(e.params?.propertyName ?? ''))}: a name this field does not take`;
  else if (e.keyword === 'additionalProperties')
    says = `has a field it does not take: "${logText(String(e.params.additionalProperty).slice(0, 80))}"`;
  else says = e.message;
  return `field ${field}: ${says}${got}`;
}

/** "600s or 10m": a number of seconds as the workload's times take it. @param {number} n */
const durationsFor = (n) => {
  const s = Math.max(1, Math.round(Math.abs(n)));
  return s % 60 === 0 ? `${s}s or ${s / 60}m` : `${s}s`;
};

/** A value as given, short and safe to print. @param {unknown} value */
function shown(value) {
  const text = JSON.stringify(value) ?? String(value);
  return logText(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

/**
 * The folder the job's files come from: the file's `root` (relative to its folder, a folder holding it),
 * real path; when it names none, the repository for a file in the repository's `.github` folder (the
 * README's `.github/dind-bench/workload.yml`), else the file's folder.
 * @param {WorkloadDoc} w @param {string} dir @param {string} where @returns {Promise<string>}
 */
async function rootOf(w, dir, where) {
  const here = await realpath(dir);
  if (w.root === undefined) return (await repositoryOf(here)) ?? here;
  const at = `${where}: field /root: ${logText(w.root)}`;
  if (path.isAbsolute(w.root))
    throw new WorkloadError(`${at} must be relative to the workload file's folder (e.g. ../.. for the repository)`);
  const root = await realpath(path.resolve(dir, w.root)).catch(() => null);
  if (root === null || !(await stat(root)).isDirectory())
    throw new WorkloadError(`${at} is not a folder (relative to the workload file's folder)`);
  if (here !== root && !here.startsWith(root + path.sep))
    throw new WorkloadError(
      `${at} does not hold the workload file's folder; give the folder the job's files come from, one the file is in (e.g. ../..)`,
    );
  // The root is copied for the job: above the repository it would hand the job the runner's other files
  // (a home folder, other checkouts).
  const repo = await enclosingRepository(here);
  if (root !== repo && !root.startsWith(repo + path.sep))
    throw new WorkloadError(
      repo === here
        ? `${at} leads above the workload file's folder, and no repository holds the file (no .git above it); ` +
            "outside a repository the root is the file's folder: write root: . (or leave it out), or move the file into the repository it builds"
        : `${at} leads above the repository the file is in (${logText(repo)}); the root stays inside it: write ` +
            `root: ${logText(path.relative(here, repo))} for the whole repository, or a folder inside it`,
    );
  return root;
}

/**
 * The repository a workload file's folder (real path) is in: the nearest folder at or above it with a
 * `.git`; else the nearest one holding a `.github` folder (a checkout without its .git, the workspace a
 * workload was drafted in); else the file's own folder.
 * @param {string} here @returns {Promise<string>}
 */
async function enclosingRepository(here) {
  /** @type {string | null} */
  let github = null;
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (await lstat(path.join(dir, '.git')).catch(() => null)) return dir;
    if (github === null && (await lstat(path.join(dir, '.github')).catch(() => null))?.isDirectory()) github = dir;
    if (path.dirname(dir) === dir) return github ?? here;
  }
}

/**
 * The repository whose `.github` folder holds `dir` (real path): the folder beside `.github` that has a
 * `.git`. Null for a file anywhere else.
 * @param {string} dir @returns {Promise<string | null>}
 */
async function repositoryOf(dir) {
  const parts = dir.split(path.sep);
  const at = parts.lastIndexOf('.github');
  if (at <= 0) return null;
  const repo = parts.slice(0, at).join(path.sep) || path.sep;
  const git = await lstat(path.join(repo, '.git')).catch(() => null);
  return git ? repo : null;
}

/**
 * Every path of the workload: relative to the file's folder, inside the root once links are resolved, and
 * present.
 * @param {WorkloadDoc} w @param {string} dir @param {string} where @param {string} [rootDir] real path
 */
async function checkPaths(w, dir, where, rootDir) {
  /** @type {[string, string, 'file' | 'folder'][]} */
  const paths = [];
  for (const [i, image] of (w.images ?? []).entries())
    if (image.archive) paths.push([`/images/${i}/archive`, image.archive, 'file']);
  for (const [i, b] of (w.builds ?? []).entries()) {
    paths.push([`/builds/${i}/context`, b.context, 'folder']);
    paths.push([`/builds/${i}/dockerfile`, path.join(b.context, b.dockerfile ?? 'Dockerfile'), 'file']);
  }
  if (w.compose) paths.push(['/compose/file', w.compose.file, 'file']);
  const here = await realpath(dir);
  const root = rootDir ?? here;
  for (const [field, rel, kind] of paths) await checkPath(root, rel, kind, `${where}: field ${field}`, here);
  if (w.compose)
    await checkComposeBinds(
      root,
      await realpath(path.join(here, w.compose.file)),
      `${where}: field /compose/file`,
      (m) => new WorkloadError(m),
    );
}

/**
 * @param {string} root @param {string} rel @param {'file' | 'folder'} kind @param {string} at
 * @param {string} [here] the file's folder (real), which `rel` is relative to; the root when not given
 */
async function checkPath(root, rel, kind, at, here = root) {
  const shown = logText(rel);
  const inRoot = (/** @type {string} */ p) => p === root || p.startsWith(root + path.sep);
  if (path.isAbsolute(rel) || !inRoot(path.resolve(here, rel)))
    throw new WorkloadError(
      `${at}: ${shown} must be relative to the workload file's folder and stay inside ${root === here ? 'it' : "the workload's root"} (no ".." above ${root === here ? 'the folder' : 'the root'}, no absolute path)`,
    );
  const real = await realpath(path.join(here, rel)).catch(() => null);
  if (real === null) throw new WorkloadError(`${at}: ${shown} does not exist in the workload's folder`);
  if (!inRoot(real))
    throw new WorkloadError(
      `${at}: ${shown} leads outside the workload's ${root === here ? 'folder' : 'root'} (through a link); keep the job's files inside it`,
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
      else
        // A FIFO would hang the copy of the folder (and a build context's send), a socket or a device is
        // no part of a job's files: refused here rather than mid-run.
        throw new WorkloadError(
          `${where}: ${logText(path.relative(root, full))} in the workload's folder is a ${specialKind(entry)}, not a file or a folder; the folder is copied for every run: remove it or give the job a folder of its own`,
        );
      if (bytes > MAX_FOLDER_BYTES)
        throw new WorkloadError(
          `${where}: the workload's folder holds more than ${MAX_FOLDER_BYTES / 1024 ** 3} GiB; give the job a folder of its own`,
        );
    }
  }
}

/** @param {import('node:fs').Dirent} entry */
function specialKind(entry) {
  if (entry.isFIFO()) return 'named pipe (FIFO)';
  if (entry.isSocket()) return 'socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'device file';
  return 'special file';
}

/**
 * The compose file is YAML with a `services` mapping (what `docker compose` reads), and the test's service
 * is one of them: found here, not when the stack is brought up after the pulls and builds.
 * @param {WorkloadCompose} compose @param {string} root the folder, links resolved @param {string} where
 */
async function checkCompose(compose, root, where) {
  const at = `${where}: field /compose/file: ${logText(compose.file)}`;
  const file = await realpath(path.join(root, compose.file));
  const info = await stat(file);
  if (info.size > MAX_COMPOSE_BYTES)
    throw new WorkloadError(`${at}: ${info.size} bytes, more than a compose file may have here (${MAX_COMPOSE_BYTES})`);
  const docs = YAML.parseAllDocuments(await readFile(file, 'utf8'));
  const errors = Array.isArray(docs) ? docs.flatMap((d) => d.errors) : [];
  if (!Array.isArray(docs) || errors.length) {
    const pos = errors[0]?.linePos?.[0];
    const why = errors[0] ? logText(errors[0].message.split('\n')[0]) : 'not one YAML stream';
    throw new WorkloadError(
      `${at}${pos ? `:${pos.line}:${pos.col}` : ''} is not valid YAML (${why}); give a compose file (https://docs.docker.com/reference/compose-file/)`,
    );
  }
  /** @type {unknown} */
  let doc;
  try {
    // Compose files use anchors and aliases (x- fields); bounded as the YAML library bounds them.
    doc = docs.length === 1 ? docs[0].toJS({ maxAliasCount: 100 }) : null;
  } catch (e) {
    throw new WorkloadError(`${at}: ${logText(/** @type {Error} */ (e).message)}; give a compose file`);
  }
  const services = isMapping(doc) ? doc.services : undefined;
  if (!isMapping(services))
    throw new WorkloadError(
      `${at} is not a compose file: expected one YAML document with a "services" mapping (services: {db: {image: ...}})`,
    );
  const service = compose.test?.service;
  if (service && !Object.hasOwn(services, service))
    throw new WorkloadError(
      `${where}: field /compose/test/service: ${logText(service)} is not a service of ${logText(compose.file)} (its services: ${logText(Object.keys(services).slice(0, 20).join(', ') || 'none')})`,
    );
}

/** @param {unknown} x @returns {x is Record<string, unknown>} */
const isMapping = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
