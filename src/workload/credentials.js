// Registry credentials of a workload: the file names environment variables (a secret passed through a
// workflow's `env:`), never values. Checked when the workload is loaded (every variable named is set),
// so a missing secret is refused before anything runs; the error names the variable, never a value.
// The values are read only where the job logs in (`docker login --password-stdin` into the run's own
// DOCKER_CONFIG), and made secrets of the run (../redact/secrets.js: scrubbed from its raw output, reasons and
// results in every form a tool prints them, and masked in GitHub Actions' logs). The job's commands get no
// variable of the run's environment but PATH and HOME (../engine/cli.js): a step sees the login, not the secret.
import { knowCredential, knowSecret } from '../redact/secrets.js';

/**
 * @typedef {{ address: string, username: { env: string }, password: { env: string },
 *   ca?: { file?: string, env?: string }, insecure?: boolean }} WorkloadRegistry
 * @typedef {{ address: string, username: string, password: string }} Credential
 */

/**
 * Where a variable's value comes from, as a refusal advises it: every way names something that exists.
 * @param {string} name
 */
export const howToPass = (name) =>
  `with the \`run\` action, give it in the step's \`env:\` (${name}: \${{ secrets.YOUR_SECRET }}); calling the ` +
  `reusable workflow, pass the secret DIND_BENCH_SECRETS: '{"${name}": \${{ toJSON(secrets.YOUR_SECRET) }}}' ` +
  `(docs/workloads.md, "In GitHub Actions"); on a shell, export it`;

/**
 * Every variable the workload names is set and non-empty; each address given once. Returns nothing:
 * values are read again where they are used, so none is kept in the workload (which results record).
 * Build secrets' variables likewise.
 * @param {{ registries?: WorkloadRegistry[], builds?: { secrets?: { id: string, env: string }[] }[] }} w
 * @param {string} where the file, for messages @param {(message: string) => Error} fail @param {NodeJS.ProcessEnv} [env]
 */
export function checkCredentials(w, where, fail, env = process.env) {
  for (const [i, b] of (w.builds ?? []).entries())
    for (const [j, secret] of (b.secrets ?? []).entries())
      if (!env[secret.env])
        throw fail(
          `${where}: field /builds/${i}/secrets/${j}/env: the environment variable ${secret.env} is not set (or empty); ` +
            `set it to the build secret ${secret.id}: ${howToPass(secret.env)}`,
        );
  const seen = new Set();
  for (const [i, r] of (w.registries ?? []).entries()) {
    const address = r.address.toLowerCase();
    if (seen.has(address))
      throw fail(`${where}: field /registries/${i}/address: ${r.address} is given twice; give each registry once`);
    seen.add(address);
    for (const key of /** @type {const} */ (['username', 'password'])) {
      const name = r[key].env;
      if (!env[name])
        throw fail(
          `${where}: field /registries/${i}/${key}: the environment variable ${name} is not set (or empty); ` +
            `set it to the ${key} for ${r.address}: ${howToPass(name)}`,
        );
    }
  }
}

/**
 * The credentials, read from the environment and made secrets of the run: scrubbed from what it writes,
 * and masked in GitHub Actions' logs (the runner then replaces them with *** wherever a later line of the
 * job would show them), each password with `user:password`, as they are and base64 encoded.
 * @param {{ registries?: WorkloadRegistry[] }} w @param {NodeJS.ProcessEnv} [env]
 * @returns {Credential[]}
 */
export function readCredentials(w, env = process.env) {
  const out = (w.registries ?? []).map((r) => ({
    address: r.address,
    username: String(env[r.username.env] ?? ''),
    password: String(env[r.password.env] ?? ''),
  }));
  for (const c of out) knowCredential(c.username, c.password, env);
  return out;
}

/**
 * The values of a build's secrets, by variable name, for the build's environment only (the build gets
 * `--secret id=ID,env=VAR`: the value is on no command line), made a secret of the run (see readCredentials).
 * @param {{ secrets?: { id: string, env: string }[] }} build @param {NodeJS.ProcessEnv} [env]
 * @returns {Record<string, string>}
 */
export function buildSecretEnv(build, env = process.env) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const s of build.secrets ?? []) {
    out[s.env] = String(env[s.env] ?? '');
    knowSecret(out[s.env], env);
  }
  return out;
}
