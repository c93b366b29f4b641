// The parts of a workload being drafted from a workflow job (./from-workflow.js): its images, builds,
// registries and compose stack, each added once, within the workload's bounds (schema/workload.v1.schema.json),
// and every path made relative to the drafted file's folder. What cannot be added is a note: named in the
// file as a comment where it stood, and on the terminal with what to do.
import path from 'node:path';
import { parseReference } from './reference.js';

/**
 * @typedef {import('./load.js').WorkloadDoc} WorkloadDoc
 * @typedef {import('./load.js').WorkloadBuild} WorkloadBuild
 * @typedef {(string | number)[]} NodePath a path into the drafted YAML (['steps', 2])
 * @typedef {{ at: NodePath, after?: boolean, text: string, todo: string, file?: 'compose' }} Note
 *   at: the node the comment goes before (after: below it); file: the drafted compose file rather than the workload
 * @typedef {{
 *   workload: Required<Pick<WorkloadDoc, 'images' | 'builds' | 'registries' | 'steps'>> & WorkloadDoc,
 *   services: Record<string, Record<string, unknown>>, notes: Note[], pending: Note[],
 *   needs: Map<string, string>, secretOf: Record<string, string>,
 *   workspace: string, outDir: string, composeFile: string | null,
 * }} Draft
 *   pending: notes of dropped steps, waiting for the next step kept (they go before it);
 *   needs: each environment variable the run needs set, with where its value comes from;
 *   secretOf: the job's variables set from a secret (VAR -> the secret's name);
 *   workspace: the repository (the job's working folder), absolute; outDir: the drafted file's folder;
 *   composeFile: the job's own compose file, relative to outDir, when its steps bring one up
 */

export const LIMITS = { images: 20, builds: 10, registries: 10, steps: 20 };
const ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const ENV = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
const ADDRESS = /^[A-Za-z0-9[][A-Za-z0-9.:[\]-]{0,254}$/;
const TARGET = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const SECRET_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A name as the workload's ids take it: "Build API" -> "build-api". @param {string} s @param {string} fallback */
export function idOf(s, fallback) {
  const id = s
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return ID.test(id) ? id : fallback;
}

/** `base`, else `base-2`, `base-3`…: one not in `taken`. @param {string} base @param {Set<string>} taken */
export function uniqueId(base, taken) {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base.slice(0, 36)}-${n}`;
  return id;
}

/** @param {string} ref */
export function isReference(ref) {
  try {
    parseReference(ref);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path as the drafted file gives it (relative to its folder), or null when it leaves the repository.
 * @param {Draft} d @param {string} cwd the step's folder (absolute) @param {string} p as the job wrote it
 */
export function pathFor(d, cwd, p) {
  const abs = path.resolve(cwd, p);
  if (abs !== d.workspace && !abs.startsWith(d.workspace + path.sep)) return null;
  const rel = path.relative(d.outDir, abs) || '.';
  // The workload's paths: at most 200 characters, none a control character.
  return rel.length <= 200 && !CONTROL.test(rel) ? rel : null;
}

/** @param {Draft} d @param {string} name @param {string} where it came from @param {NodePath} at */
export function addImage(d, name, where, at) {
  if (d.workload.images.some((x) => x.name === name)) return true;
  if (!isReference(name)) {
    d.notes.push({
      at,
      text: `the image ${name} (${where}) is not a reference the engine takes`,
      todo: 'add it under images: as name:tag',
    });
    return false;
  }
  if (d.workload.images.length >= LIMITS.images) {
    d.notes.push({
      at,
      text: `the image ${name} (${where}): a workload has at most ${LIMITS.images}`,
      todo: 'keep the images that matter to the job',
    });
    return false;
  }
  d.workload.images.push({ name, source: 'pull' });
  return true;
}

/**
 * A registry the job logs in to, its credentials by variable name.
 * @param {Draft} d @param {string} address @param {{ username: string, password: string }} vars
 * @param {string} where @param {NodePath} at
 */
export function addRegistry(d, address, vars, where, at) {
  const known = d.workload.registries.find((r) => r.address.toLowerCase() === address.toLowerCase());
  if (known) return true;
  if (!ADDRESS.test(address) || !ENV.test(vars.username) || !ENV.test(vars.password)) {
    d.notes.push({
      at,
      text: `the login to ${address} (${where})`,
      todo: 'add it under registries: with the variables that hold its user name and password',
    });
    return false;
  }
  if (d.workload.registries.length >= LIMITS.registries) {
    d.notes.push({
      at,
      text: `the login to ${address} (${where}): a workload has at most ${LIMITS.registries} registries`,
      todo: 'keep the ones the job pulls from',
    });
    return false;
  }
  d.workload.registries.push({ address, username: { env: vars.username }, password: { env: vars.password } });
  need(d, vars.username, `the user name for ${address}`);
  need(d, vars.password, `the password or token for ${address}`);
  return true;
}

/** The run needs `name` set; where its value comes from. @param {Draft} d @param {string} name @param {string} what */
export function need(d, name, what) {
  if (d.needs.has(name)) return;
  const secret = d.secretOf[name];
  d.needs.set(name, secret ? `${what}, the workflow's secrets.${secret}` : what);
}

/**
 * A build the job runs (`docker build`, `docker/build-push-action`).
 * @param {Draft} d
 * @param {{ context: string, dockerfile?: string, target?: string, args: Record<string, string>, tags: string[], secrets: { id: string, env: string }[] }} b
 * @param {string} cwd the step's folder (absolute) @param {string} where @param {NodePath} at
 * @returns {boolean} carried
 */
export function addBuild(d, b, cwd, where, at) {
  const context = pathFor(d, cwd, b.context);
  if (context === null) {
    d.notes.push({
      at,
      text: `the build of ${b.context} (${where}) leaves the repository`,
      todo: 'give a context inside it',
    });
    return false;
  }
  if (d.workload.builds.length >= LIMITS.builds) {
    d.notes.push({
      at,
      text: `the build of ${b.context} (${where}): a workload has at most ${LIMITS.builds}`,
      todo: 'keep the builds that matter to the job',
    });
    return false;
  }
  // A build's tag carries no digest.
  const [tag, ...more] = b.tags.filter((t) => isReference(t) && !t.includes('@'));
  const base = idOf(
    tag ? (parseReference(tag).path.split('/').pop() ?? '') : path.basename(path.resolve(cwd, b.context)),
    'build',
  );
  /** @type {WorkloadBuild} */
  const build = { name: uniqueId(base, new Set(d.workload.builds.map((x) => x.name))), context };
  const dockerfile = b.dockerfile && path.relative(path.resolve(cwd, b.context), path.resolve(cwd, b.dockerfile));
  if (dockerfile && dockerfile !== 'Dockerfile') build.dockerfile = dockerfile;
  if (b.target && TARGET.test(b.target)) build.target = b.target;
  else if (b.target)
    d.notes.push({
      at,
      text: `the build target ${b.target} (${where})`,
      todo: 'give the stage name the Dockerfile has',
    });
  const args = Object.entries(b.args).filter(([k, v]) => ENV.test(k) && v.length <= 500 && !CONTROL.test(v));
  if (args.length) build.args = Object.fromEntries(args.slice(0, 30));
  if (tag) build.tag = tag;
  const secrets = b.secrets.filter((x) => SECRET_ID.test(x.id) && ENV.test(x.env));
  if (secrets.length < b.secrets.length)
    d.notes.push({
      at,
      text: `a build secret of ${where} that is not id=ID,env=VARIABLE`,
      todo: 'give each build secret from an environment variable',
    });
  if (secrets.length) build.secrets = secrets.slice(0, 10);
  for (const s of build.secrets ?? []) need(d, s.env, `the build secret ${s.id} of ${build.name}`);
  if (more.length)
    d.notes.push({
      at,
      text: `the build's other tags (${more.join(', ')})`,
      todo: 'a workload build has one tag; tag it again in a step if the job needs the others',
    });
  d.workload.builds.push(build);
  return true;
}

/**
 * The job's own compose file, brought up by its steps.
 * @param {Draft} d @param {string[]} files as the job gave them (none: compose's defaults in its folder)
 * @param {string} cwd @param {(p: string) => boolean} exists @returns {string | null} the file, relative to outDir
 */
export function composeFileOf(d, files, cwd, exists) {
  const names = files.length ? files : ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'];
  const found = names.find((n) => exists(path.resolve(cwd, n)));
  return found === undefined || (files.length && found !== files[0]) ? null : pathFor(d, cwd, found);
}
