// Setting up the run's environments: each one that has a runnable cell, with the images its cells need.
// One that cannot start makes its cells unavailable with the engine's own message; the others go on.
import { builderFacts } from '../engine/cli.js';
import { socketOf } from '../engine/client.js';
import { markUnavailable } from './cells.js';

/**
 * @param {import('./plan.js').PlannedEnvironment[]} planned
 * @param {Map<string, import('./runner.js').Environment>} envs by environment key
 * @param {Map<string, import('./cells.js').CellResult>} cells @param {import('./runner.js').RunContext} run
 * @returns {Promise<import('./runner.js').EnvironmentResult[]>} in plan order
 */
export async function setUpEnvironments(planned, envs, cells, run) {
  /** @type {import('./runner.js').EnvironmentResult[]} */
  const results = [];
  for (const p of planned) {
    if (run.tracker.closing) break;
    const env = /** @type {import('./runner.js').Environment} */ (envs.get(p.key));
    const mine = [...cells.values()].filter((c) => c.environmentKey === p.key);
    if (!mine.some((c) => c.status === 'pending')) {
      results.push({ ...p, status: 'unavailable', reason: 'no runnable cells' });
      continue;
    }
    results.push(await setUpOne(p, env, mine, run));
  }
  return results;
}

/**
 * Environments whose cells all finished in an earlier attempt are not set up again: they keep what that
 * attempt recorded.
 * @param {import('./runner.js').EnvironmentResult[]} fresh
 * @param {import('./runner.js').EnvironmentResult[] | undefined} recorded the resumed attempt's
 */
export function keepRecorded(fresh, recorded) {
  const earlier = (/** @type {import('./runner.js').EnvironmentResult} */ e) => recorded?.find((p) => p.key === e.key);
  return fresh.map((e) => (e.reason === 'no runnable cells' && earlier(e)) || e);
}

/**
 * @param {import('./plan.js').PlannedEnvironment} p @param {import('./runner.js').Environment} env
 * @param {import('./cells.js').CellResult[]} mine its cells @param {import('./runner.js').RunContext} run
 * @returns {Promise<import('./runner.js').EnvironmentResult>}
 */
async function setUpOne(p, env, mine, run) {
  const images = imagesOf(mine);
  run.log(`setting up ${p.key}${images.length ? ` (loading ${images.length} image(s))` : ''} ...`);
  try {
    const facts = await env.setup({ tracker: run.tracker, images });
    // Benchmarks that build (a workload, `build`) record the builder and its version with their results.
    if (mine.some((c) => run.benchmarks[c.benchmark]?.usesBuilder) && env.engineApi)
      facts.builder = await builderFacts(socketOf(env.engineApi().docker), env.engineApi().builder);
    const engine = facts.engineVersion ? `engine ${facts.engineVersion}, storage ${facts.storageDriver}` : 'host';
    const dind = facts.dind
      ? `, started ${facts.dind.mode}, ready in ${Math.round(facts.dind.start_to_ready_ms)} ms`
      : '';
    run.log(`  ${p.key}: ${engine}${dind}`);
    return { ...p, status: 'ok', facts };
  } catch (e) {
    const reason = /** @type {Error} */ (e).message;
    for (const c of mine) if (c.status === 'pending') markUnavailable(c, `${p.key} could not start here: ${reason}`);
    run.log(`  ${p.key}: unavailable: ${reason.split('\n')[0]}`);
    await env.teardown().catch(() => {});
    return { ...p, status: 'unavailable', reason };
  }
}

/**
 * Sets one environment up again, as the run first did, after its engine was lost (./engine-watch.js): what
 * is left of it is removed, then it starts afresh with the images its pending cells need. The facts the
 * first set-up recorded stay: the same engine, started the same way.
 * @param {string} key @param {Map<string, import('./runner.js').Environment>} envs
 * @param {Map<string, import('./cells.js').CellResult>} cells @param {import('./runner.js').RunContext} run
 */
export async function setUpAgain(key, envs, cells, run) {
  const env = /** @type {import('./runner.js').Environment} */ (envs.get(key));
  await env.teardown().catch(() => {});
  const mine = [...cells.values()].filter((c) => c.environmentKey === key);
  run.log(`setting up ${key} again ...`);
  await env.setup({ tracker: run.tracker, images: imagesOf(mine) });
}

/**
 * The images an environment's cells still to run need: pending ones, and one that just failed because the
 * engine was lost (it runs again once the environment is back).
 * @param {import('./cells.js').CellResult[]} mine
 */
function imagesOf(mine) {
  const runs = (/** @type {import('./cells.js').CellResult} */ c) => c.status === 'pending' || c.status === 'failed';
  return [...new Set(mine.filter((c) => runs(c) && c.image).map((c) => /** @type {string} */ (c.image)))];
}
