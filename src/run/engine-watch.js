// An engine that goes away mid-run is waited for or re-created, not given up on. Before every step (and
// after a step that failed) the run asks: does the runner's engine answer /_ping, and does the step's
// environment still have its own engine (DinD: the inner daemon)?
//
// - The runner's engine gone (restarted, upgraded, crashed): wait for it a bounded time. When it is back,
//   every environment's containers died with it, so each environment that was set up is set up again.
// - An environment's own engine gone (the inner dockerd killed): that environment is re-created, once.
//
// Each recovery is recorded (run.engineEvents in the results: when, at which step, what, how long) and the
// step runs again. What cannot come back stops the run as interrupted: its partial results say so, and
// `run --resume DIR` continues once the engine answers. A step that failed while every engine answered is
// the benchmark's own failure and stays one.
import { pingWithin } from '../engine/client.js';

/** How long the runner's engine is waited for, unless DIND_BENCH_ENGINE_WAIT_S says otherwise. */
export const DEFAULT_ENGINE_WAIT_MS = 120_000;
const PING_TIMEOUT_MS = 5_000;
const POLL_MS = 500;
/** How long a lost inner engine, and a failed re-creation, watch the runner's engine for a shutdown under way. */
const SETTLE_MS = 15_000;
const SHUTDOWN_MS = 30_000;

/**
 * @typedef {{
 *   at: string, step: string, engine: 'runner' | 'environment', environment?: string,
 *   outcome: 'came back' | 're-created' | 'did not come back', waitedMs: number, detail?: string,
 * }} EngineEvent
 *   engine: the runner's engine, or the environment's own (DinD: the inner daemon); waitedMs: from noticing
 *   the loss to the engine answering again (set-up again included), or to giving up
 * @typedef {'ok' | 'recovered' | 'lost'} Health
 */

export class EngineWatch {
  /**
   * @param {{
   *   outer: import('dockerode'), envs: Map<string, import('./runner.js').Environment>,
   *   setUpAgain: (key: string) => Promise<void>, log: (msg: string) => void, waitMs?: number,
   *   closing?: () => boolean,
   * }} o setUpAgain: tears the environment down and sets it up again as the run first did; closing: the
   *   run is being interrupted (its cleanup takes the engines away): nothing is set up again then
   */
  constructor({ outer, envs, setUpAgain, log, waitMs = engineWaitMs(), closing = () => false }) {
    this.closing = closing;
    this.outer = outer;
    this.envs = envs;
    this.setUpAgain = setUpAgain;
    this.log = log;
    this.waitMs = waitMs;
    /** @type {EngineEvent[]} */
    this.events = [];
    /** @type {Set<string>} environments re-created once already */
    this.recreated = new Set();
    /** @type {string | null} why the run had to stop, once an engine did not come back */
    this.lost = null;
  }

  /**
   * Checks the engines `key`'s steps need; recovers what it can.
   * @param {string} key the step's environment @param {string} step the step, for the log and the record
   * @param {string[]} ready the environments set up so far (set up again after the runner's engine returns)
   * @returns {Promise<Health>}
   */
  async check(key, step, ready) {
    if (this.lost) return 'lost';
    if (this.closing()) return 'ok';
    if (!(await answers(this.outer))) return this.waitForRunnerEngine(step, ready);
    const env = this.envs.get(key);
    if (!env?.healthy || (await env.healthy())) return 'ok';
    return this.recreate(key, step, ready);
  }

  /** @param {string} step @param {string[]} ready @returns {Promise<Health>} */
  async waitForRunnerEngine(step, ready) {
    const t0 = performance.now();
    this.log(`${step}: the runner's engine does not answer /_ping; waiting up to ${Math.round(this.waitMs / 1000)} s`);
    while (!(await answers(this.outer))) {
      if (performance.now() - t0 > this.waitMs) {
        return this.giveUp(
          { step, engine: 'runner', t0 },
          `the runner's engine did not answer within ${this.waitMs / 1000} s`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    if (this.closing()) return 'ok';
    this.log(`${step}: the runner's engine answers again; setting up ${ready.join(', ') || 'nothing'} again`);
    for (const key of ready) {
      try {
        await this.setUpAgain(key);
      } catch (e) {
        const why = `${key} could not be set up again: ${/** @type {Error} */ (e).message.split('\n')[0]}`;
        return this.giveUp({ step, engine: 'runner', t0 }, why);
      }
    }
    this.record({ step, engine: 'runner', outcome: 'came back', t0 });
    return 'recovered';
  }

  /** @param {string} key @param {string} step @param {string[]} ready @returns {Promise<Health>} */
  async recreate(key, step, ready) {
    const t0 = performance.now();
    if (this.recreated.has(key)) {
      return this.giveUp({ step, engine: 'environment', environment: key, t0 }, `${key}'s engine was lost again`);
    }
    // The inner engine also goes when the runner's engine shuts down (it stops its containers first, and
    // answers /_ping until it exits). Re-creating then fails half-way and leaves half-made objects behind,
    // so first make sure the runner's engine stays.
    this.log(`${step}: ${key}'s own engine does not answer; checking that the runner's engine stays`);
    if (await this.stopsAnswering(SETTLE_MS)) return this.waitForRunnerEngine(step, ready);
    if (this.closing()) return 'ok';
    this.recreated.add(key);
    this.log(`${step}: re-creating ${key} (once per run)`);
    try {
      await this.setUpAgain(key);
    } catch (e) {
      // A runner's engine on its way down still answers /_ping for a while (it stops its containers
      // first, the inner engine with them) but creates nothing ("database not open"): that is the runner's
      // engine going away, to be waited for, not this environment's own failure.
      if (await this.stopsAnswering(SHUTDOWN_MS)) {
        this.recreated.delete(key);
        return this.waitForRunnerEngine(step, ready);
      }
      const why = `${key} could not be re-created: ${/** @type {Error} */ (e).message.split('\n')[0]}`;
      return this.giveUp({ step, engine: 'environment', environment: key, t0 }, why);
    }
    this.record({ step, engine: 'environment', environment: key, outcome: 're-created', t0 });
    return 'recovered';
  }

  /** Whether the runner's engine stops answering within `ms`. @param {number} ms */
  async stopsAnswering(ms) {
    const deadline = performance.now() + ms;
    while (performance.now() < deadline) {
      if (!(await answers(this.outer))) return true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return false;
  }

  /**
   * @param {{step: string, engine: EngineEvent['engine'], environment?: string, t0: number}} what
   * @param {string} why @returns {Health}
   */
  giveUp(what, why) {
    this.record({ ...what, outcome: 'did not come back', detail: why });
    this.lost = why;
    this.log(`${what.step}: ${why}; stopping as interrupted (continue with \`dind-bench run --resume\`)`);
    return 'lost';
  }

  /**
   * @param {{step: string, engine: EngineEvent['engine'], environment?: string, t0: number,
   *   outcome: EngineEvent['outcome'], detail?: string}} e
   */
  record({ t0, ...e }) {
    const waitedMs = Math.round(performance.now() - t0);
    this.events.push({ at: new Date().toISOString(), ...e, waitedMs });
    if (e.outcome !== 'did not come back') this.log(`${e.step}: recovered after ${waitedMs} ms; the step runs again`);
  }
}

/** @param {import('dockerode')} docker */
const answers = (docker) => pingWithin(docker, PING_TIMEOUT_MS);

/** DIND_BENCH_ENGINE_WAIT_S (seconds, 0–3600) or the default. */
export function engineWaitMs() {
  const s = Number(process.env.DIND_BENCH_ENGINE_WAIT_S);
  return process.env.DIND_BENCH_ENGINE_WAIT_S && Number.isFinite(s) && s >= 0 && s <= 3600
    ? s * 1000
    : DEFAULT_ENGINE_WAIT_MS;
}
