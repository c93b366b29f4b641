// Whatever happens, teardown removes every container, volume and network the run created, also on
// SIGINT/SIGTERM. Interrupted, the last state goes to disk as "interrupted" before the teardown, which
// can take a while.
import { cleanupOnSignals } from '../engine/resources.js';

/**
 * Installs the signal handlers for one run. The process exits when the handler is done, so it also waits
 * (bounded) for the step in flight to end and the run's own teardown after it: a step that was about to
 * create a container when the first cleanup swept would otherwise leave it behind.
 * @param {{
 *   outer: import('dockerode'), envs: Map<string, import('./runner.js').Environment>,
 *   tracker: import('../engine/resources.js').ResourceTracker, checkpoint?: import('./checkpoint.js').Checkpoint,
 *   log: (msg: string) => void,
 * }} run
 * @returns {{interrupted: () => boolean, teardown: () => Promise<void>}}
 *   teardown: the run's own, once it ends (also after an interruption: the handler waits for it)
 */
export function guardTeardown({ outer, envs, tracker, checkpoint, log }) {
  const cleanup = async () => {
    for (const env of envs.values()) await env.teardown().catch(() => {});
    const problems = await tracker.cleanup(outer);
    for (const p of problems) log(`cleanup: ${p}`);
  };
  let interrupted = false;
  /** @type {() => void} */
  let torndown = () => {};
  const afterTeardown = new Promise((resolve) => (torndown = () => resolve(undefined)));
  const removeSignalHandlers = cleanupOnSignals(async () => {
    interrupted = true;
    await checkpoint?.interrupted().catch((e) => log(`could not mark the partial results interrupted: ${e.message}`));
    await cleanup();
    await Promise.race([afterTeardown, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
  }, log);
  return {
    interrupted: () => interrupted,
    teardown: async () => {
      log('tearing down ...');
      await cleanup();
      removeSignalHandlers();
      torndown();
    },
  };
}
