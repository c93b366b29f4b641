// The docker CLI on a job's engine, as the job's script runs it: each command under its limit (./clock.js),
// its output saved raw, a failure in the tool's own words (./failure.js).
import { dockerCli } from '../engine/cli.js';
import { buildSecretEnv } from './credentials.js';
import { stepError } from './failure.js';

/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */
/** @typedef {import('./shared.js').Shared} Shared */
/** @typedef {import('./clock.js').JobContext} JobContext */
/**
 * Runs one docker CLI command of the job; resolves to the milliseconds it took. item: the build whose own
 * timeout it runs under, and whose secrets its environment carries (its arguments name them, never hold them).
 * @typedef {(step: string, args: string[], item?: { timeout?: string, secrets?: { id: string, env: string }[] }) => Promise<number>} JobCli
 */

/**
 * A runner of the docker CLI on the job's engine: saves the output, fails with the tool's own words.
 * @param {JobEngine} engine @param {Shared} s @param {JobContext} ctx @param {string} rawPrefix
 * @returns {JobCli}
 */
export function cliOn(engine, s, ctx, rawPrefix) {
  return async (step, args, item) => {
    const limit = ctx.clock.limit(item);
    const env = buildSecretEnv(item ?? {});
    const r = await dockerCli({
      socket: engine.socket,
      args,
      env,
      cwd: s.dir,
      timeoutMs: limit.ms,
      config: s.config,
      builder: engine.builder,
    });
    await ctx.saveRaw(`${rawPrefix}${step}`, `$ docker ${args.join(' ')}\n${r.stdout}\n--- stderr ---\n${r.stderr}`);
    const e = stepError(step, `docker ${args.join(' ')}`, r, limit.what);
    if (e) throw e;
    return r.ms;
  };
}
