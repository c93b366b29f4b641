// Secrets a workload names, passed through the reusable workflow. A caller of a reusable workflow cannot set
// the called job's `env:`, so it passes one secret, DIND_BENCH_SECRETS, a JSON map of the names the
// workload reads to their values (docs/workloads.md, "In GitHub Actions"), and the bench job hands it to the
// run in DIND_BENCH_WORKLOAD_SECRETS. Why a map the caller writes and not `secrets: inherit` with the whole
// secrets context: the caller chooses each secret that leaves its repository (least privilege), and one
// declared secret covers any workload. Only the variables the workload names (its registries' username and
// password, its build secrets, a CA given by variable) are taken from it, each masked in the job's log; the
// map leaves the process environment when the command starts (holdPassedSecrets), so no child process and
// no file sees it. A variable already set wins: the `run` action's own `env:` stays the first way.

/** The variable the bench job passes the secrets in. */
export const PASSED_SECRETS = 'DIND_BENCH_WORKLOAD_SECRETS';
/** The reusable workflow's secret the caller writes the map into. */
export const SECRETS_MAP = 'DIND_BENCH_SECRETS';
/** Bound on the map (a secret holds at most 48 KB in GitHub Actions; this leaves room to spare). */
export const MAX_PASSED_BYTES = 64 * 1024;

/**
 * @typedef {{ registries?: { username: { env: string }, password: { env: string }, ca?: { env?: string } }[],
 *   builds?: { secrets?: { env: string }[] }[] }} NamesVariables
 */

/**
 * The environment variables a workload reads its secrets from.
 * @param {NamesVariables} w @returns {string[]}
 */
export function namedVariables(w) {
  const names = new Set();
  for (const r of w.registries ?? []) {
    names.add(r.username.env);
    names.add(r.password.env);
    if (r.ca?.env) names.add(r.ca.env);
  }
  for (const b of w.builds ?? []) for (const s of b.secrets ?? []) names.add(s.env);
  return [...names];
}

/** The map, once taken out of the environment. @type {string | undefined} */
let held;

/**
 * Takes the passed map out of the process environment, to be read by adoptPassedSecrets only: called first
 * thing by the command line, before any child process starts. @param {NodeJS.ProcessEnv} [env]
 */
export function holdPassedSecrets(env = process.env) {
  if (env[PASSED_SECRETS] !== undefined) held = env[PASSED_SECRETS];
  delete env[PASSED_SECRETS];
}

/**
 * Sets each named variable that is not set yet from the passed map, masks it, and returns the names it set.
 * Throws (through `fail`) on a map that is not a JSON object of strings, naming the secret, never a value.
 * @param {string[]} names @param {(message: string) => Error} fail @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<string[]>}
 */
export async function adoptPassedSecrets(names, fail, env = process.env) {
  holdPassedSecrets(env);
  if (!held) return [];
  const passed = secretsOf(held, fail);
  const set = [];
  for (const name of names) {
    if (env[name] || !passed.has(name)) continue;
    const value = /** @type {string} */ (passed.get(name));
    // @actions/core only where it masks: the command line's start (--help) loads no more than it needs.
    if (env.GITHUB_ACTIONS === 'true') (await import('@actions/core')).setSecret(value);
    env[name] = value;
    set.push(name);
  }
  return set;
}

/**
 * The named values of the map.
 * @param {string} text @param {(message: string) => Error} fail @returns {Map<string, string>}
 */
function secretsOf(text, fail) {
  const where = `the secret ${SECRETS_MAP} (a JSON object of the names the workload reads to their values, e.g. '{"GO_NETRC": \${{ toJSON(secrets.GO_NETRC) }}}')`;
  if (text.length > MAX_PASSED_BYTES)
    throw fail(`${where}: more than ${MAX_PASSED_BYTES} bytes; pass only the secrets the workload names`);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text: a secret. Only where it is.
    throw fail(`${where}: not JSON`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw fail(`${where}: not a JSON object`);
  const out = new Map();
  for (const [k, v] of Object.entries(doc)) {
    if (typeof v !== 'string')
      throw fail(`${where}: the value of ${safeName(k)} is not a string; give each as a string`);
    if (v) out.set(k, v);
  }
  return out;
}

/** A member name as an error may print it (a name, not a value, but it came from outside). @param {string} k */
const safeName = (k) => (/^[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(k) ? k : 'a member with an unusual name');

/**
 * How a caller of the reusable workflow passes `vars` (each a variable the workload reads, with the caller's
 * secret that holds it) in the one map, as comment lines for a drafted workload's header (a caller of a
 * reusable workflow cannot set its `env:`): `DIND_BENCH_SECRETS: '{"GO_NETRC": ${{ toJSON(secrets.GO_NETRC) }}}'`.
 * Names only, never a value. @param {[variable: string, secret: string][]} vars @returns {string[]}
 */
export function secretsMapLines(vars) {
  const members = vars
    .filter(([v, s]) => safeName(v) === v && safeName(s) === s)
    .map(([v, s]) => `"${v}": \${{ toJSON(secrets.${s}) }}`);
  return [
    ` In GitHub Actions, a caller of the reusable workflow passes them in its one secret ${SECRETS_MAP}, a JSON`,
    ' map (docs/workloads.md, "In GitHub Actions"); with the run action, set each in its env: from the secret:',
    `   ${SECRETS_MAP}: '{${members.join(', ')}}'`,
  ];
}
