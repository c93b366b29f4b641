// The `uses:` steps of a drafted job (./draft-steps.js): docker's login and build-push actions become a
// registry and a build of the workload, actions/checkout is the workload's copy of its root, buildx and
// QEMU set-up need nothing; every other action is a note saying what to do instead.
import { addBuild, addRegistry } from './draft-parts.js';
import { expand, wholeSecret } from './workflow-expr.js';
import { isMapping } from './workflow-file.js';

/**
 * @typedef {import('./draft-parts.js').Draft} Draft
 * @typedef {import('./draft-steps.js').StepContext} StepContext
 */

/**
 * @param {Draft} d @param {Record<string, unknown>} step @param {string} label @param {StepContext} sc
 * @param {(text: string, todo: string) => void} note
 */
export function draftUses(d, step, label, sc, note) {
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
