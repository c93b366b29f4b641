// A job's registry logins, made before it pulls as a runner's job makes them.
import { dockerLogin, storeLogin } from '../engine/cli.js';
import { capability } from '../environments/environment.js';
import { scrubSecrets } from '../redact/secrets.js';

/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */
/** @typedef {import('./shared.js').Shared} Shared */
/** @typedef {import('./clock.js').JobContext} JobContext */

/**
 * Logs the job's engine in, untimed, as a runner's job does before it pulls (`docker login
 * --password-stdin`, the run's own DOCKER_CONFIG): to the run's registry where it reaches it, and to each
 * registry the workload gives a credential for that the run's registry does not stand in for. The raw
 * output names the registry and the outcome, never the user name or the password.
 * @param {import('../environments/environment.js').Environment} env @param {JobEngine} engine @param {Shared} s
 * @param {JobContext} ctx
 */
export async function logIn(env, engine, s, ctx) {
  /** @type {{ address: string, username: string, password: string }[]} */
  const logins = [];
  if (s.registry && s.registryLogin)
    logins.push({ address: await capability(env, 'registryAddress')(s.registry), ...s.registryLogin });
  const seeded = s.registryLogin && s.registry ? new Set(s.registry.users.map((u) => u.username)) : new Set();
  for (const c of s.credentials) if (!seeded.has(c.username)) logins.push(c);
  for (const login of logins) {
    // How the environment takes a credential is its descriptor's: Podman's Docker API cannot log in to a
    // plain-HTTP registry (storeLogin says why), so its pulls carry the credential the CLI stored instead.
    if (env.descriptor.credential === 'store') {
      await storeLogin({ config: s.config, ...login });
      continue;
    }
    const r = await dockerLogin({ socket: engine.socket, config: s.config, ...login, timeoutMs: ctx.clock.limit().ms });
    if (r.exitCode !== 0) {
      const said = (scrubSecrets(r.stderr).trim().split('\n').at(-1) ?? '').slice(0, 300);
      throw Object.assign(new Error(`step login: docker login ${login.address} failed (exit ${r.exitCode}): ${said}`), {
        step: 'login',
      });
    }
  }
}
