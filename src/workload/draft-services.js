// A workflow job's `container:` and `services:`, drafted into a workload (./from-workflow.js): the container's
// image and each service's are the workload's images, the services a compose stack written beside the
// drafted file (health options as its healthchecks), each `credentials:` a registry login by the secrets'
// names. What a compose file cannot carry (a service's volumes, an option with no compose field) is a note.
import { addImage, addRegistry, idOf, isReference } from './draft-parts.js';
import { parseReference } from './reference.js';
import { expand } from './workflow-expr.js';
import { isMapping } from './workflow-file.js';
import { tokens } from './workflow-shell.js';

/**
 * @typedef {import('./draft-parts.js').Draft} Draft
 * @typedef {import('./workflow-expr.js').ExprContext} ExprContext
 */

/**
 * The job's `container:` image is pulled as one of the workload's images; its steps do not run in it. Its
 * `env:` is what every step saw: returned, to be the steps' (under the job's own env). Its `options:` and
 * `volumes:` shaped the container the steps ran in: named.
 * @param {Draft} d @param {unknown} container @param {ExprContext} ctx
 * @returns {Record<string, string>} the container's variables (literal; those from a secret are named)
 */
export function draftContainer(d, container, ctx) {
  if (container === undefined) return {};
  const spec = /** @type {Record<string, unknown>} */ (
    typeof container === 'string' ? { image: container } : isMapping(container) ? container : {}
  );
  const image = expand(String(spec.image ?? ''), ctx).text;
  if (!image) return {};
  addImage(d, image, 'container:', ['images']);
  credentialsOf(d, spec.credentials, image, 'container:');
  const at = ['images', d.workload.images.findIndex((x) => x.name === image)];
  d.notes.push({
    at,
    text: `the job's steps ran inside ${image} (container:); a workload step runs in the runner's shell`,
    todo: `run a step that needs the image's tools in it: docker run --rm -v "$PWD:$PWD" -w "$PWD" ${image} sh -c '…' (a DinD engine sees the run's copy at that path when the workload has a compose stack)`,
  });
  for (const key of ['options', 'volumes', 'ports'])
    if (spec[key] !== undefined)
      d.notes.push({
        at,
        text: `the container's ${key}: ${JSON.stringify(spec[key]).slice(0, 160)}`,
        todo:
          key === 'volumes'
            ? "a workload step sees the run's copy of its root; give a step the files it needs there (a mounted docker socket is the one DOCKER_HOST gives)"
            : "pass them to the docker run of a step that needs the image's tools",
      });
  /** @type {Record<string, string>} */
  const env = {};
  /** @type {string[]} */
  const unresolved = [];
  for (const [k, v] of Object.entries(isMapping(spec.env) ? spec.env : {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(k)) continue;
    const e = expand(String(v ?? ''), ctx, () => 'draft');
    if (e.secrets.length || e.unresolved.length)
      unresolved.push(`${k} (${[...e.secrets.map((x) => `secrets.${x}`), ...e.unresolved].join(', ')})`);
    else env[k] = e.text;
  }
  if (Object.keys(env).length)
    d.notes.push({
      at,
      text: `the container's env (${Object.keys(env).join(', ')}) is set in each step as the container had it, on the runner`,
      todo: "check each still holds there: a path of the container (a volume's) is not the runner's",
    });
  if (unresolved.length)
    d.notes.push({
      at,
      text: `the container's env ${unresolved.join(', ')} has no value before the run; left out of the steps`,
      todo: 'write the value the job should use at the top of the steps that need it',
    });
  return env;
}

/**
 * A service's or the container's `credentials:` as a registry login, its variables by the secrets' names.
 * @param {Draft} d @param {unknown} credentials @param {string} image @param {string} where
 */
function credentialsOf(d, credentials, image, where) {
  if (!isMapping(credentials)) return;
  const registry = isReference(image) ? (parseReference(image).registry ?? 'docker.io') : 'docker.io';
  const varOf = (/** @type {unknown} */ v, /** @type {string} */ fallback, /** @type {string} */ what) => {
    const m = /^\s*\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/.exec(String(v ?? ''));
    if (m) d.secretOf[m[1]] = m[1];
    else
      d.notes.push({
        at: ['registries'],
        text: `${where}: the ${what} of its credentials for ${registry} (${String(v ?? 'none').slice(0, 80)}) is not a secret the draft can name`,
        todo: `set ${fallback} to it where dind-bench runs`,
      });
    return m ? m[1] : fallback;
  };
  addRegistry(
    d,
    registry,
    {
      username: varOf(credentials.username, 'DIND_BENCH_REGISTRY_USERNAME', 'user name'),
      password: varOf(credentials.password, 'DIND_BENCH_REGISTRY_PASSWORD', 'password'),
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
export function draftServices(d, services, ctx, composeName) {
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
    '--tmpfs': [svc, 'tmpfs', (v) => [...(Array.isArray(svc.tmpfs) ? svc.tmpfs : []), v]],
    '--memory': [svc, 'mem_limit', String],
    '-m': [svc, 'mem_limit', String],
    '--cpus': [svc, 'cpus', (v) => (/^[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : v)],
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
