// A run's design, decided in one place: `run`, `plan` and `workflow matrix` all ask designOf for the
// iterations, warm-up, budget and inner Engine lines a set of options means, so an estimate and a job
// matrix always describe the run that `run` would make. Light (no Docker client, no benchmarks): the
// CLI's start-up imports it.
import { hasEngineLines } from '../environments/names.js';
import { PROFILES } from './profiles.js';

/**
 * @typedef {{ profile: string, iterations?: number, budgetMs?: number, environments: string[], engines: string[],
 *   benchmarks?: string[], named?: string[] }} DesignOptions
 *   benchmarks and named (the selection options given on the command line): for the next Engine line
 * @typedef {{ engine: string, environment: string, benchmarks: string[] }} NextLine
 *   cells the profile adds on another inner Engine line: these benchmarks in this environment
 * @typedef {{
 *   profile: typeof PROFILES[string], iterations: number, warmup: number, budgetMs: number | undefined, engines: string[],
 *   nextLine: NextLine | null,
 * }} RunDesign
 */

/**
 * What the options make of a run: the profile's settings unless given; an explicit --iterations is a fixed
 * design, so the profile's budget (adaptive sampling) applies only without it; inner Engine lines only
 * when some environment has an inner engine.
 * @param {DesignOptions} o @returns {RunDesign}
 */
export function designOf(o) {
  const profile = PROFILES[o.profile];
  if (!profile)
    throw new Error(`unknown profile ${JSON.stringify(o.profile)}: one of ${Object.keys(PROFILES).join(', ')}`);
  return {
    profile,
    iterations: o.iterations ?? profile.iterations,
    warmup: profile.warmup,
    budgetMs: o.budgetMs ?? (o.iterations === undefined ? profile.budgetMs : undefined),
    engines: o.environments.some(hasEngineLines) ? o.engines : [],
    nextLine: nextLineOf(profile, o),
  };
}

/**
 * The cells a profile measures unless the command line chose them: its own benchmarks (unless --bench was
 * given) and environments (unless --env was), and `only` (an environment measured for some benchmarks
 * only) when it chose neither environments nor benchmarks itself.
 * @param {string} profileName
 * @param {{ benchmarks: string[], environments: string[], named?: string[] }} o
 * @returns {{ benchmarks: string[], environments: string[], only: Record<string, string[]> | null }}
 */
export function profileSelection(profileName, o) {
  const profile = PROFILES[profileName];
  const benchNamed = Boolean(o.named?.includes('bench') || o.named?.includes('workload'));
  const envNamed = Boolean(o.named?.includes('env'));
  return {
    benchmarks: !benchNamed && profile?.benchmarks ? [...profile.benchmarks] : o.benchmarks,
    environments: !envNamed && profile?.environments ? [...profile.environments] : o.environments,
    only: !envNamed && !benchNamed && profile?.only ? profile.only : null,
  };
}

/**
 * The next inner Engine line the profile measures the start-up on (./profiles.js): only when the command
 * line chose no Engine line itself, the run has `dind` and `lifecycle`, and the line is not already one of
 * the run's.
 * @param {typeof PROFILES[string]} profile @param {DesignOptions} o @returns {NextLine | null}
 */
export function nextLineOf(profile, o) {
  const engine = profile.nextEngine;
  if (!engine || !o.benchmarks || o.named?.includes('engine') || o.engines.includes(engine)) return null;
  if (!o.environments.includes('dind') || !o.benchmarks.includes('lifecycle')) return null;
  return { engine, environment: 'dind', benchmarks: ['lifecycle'] };
}

/**
 * A run's id: its start time, sortable and safe as a path segment, and the process, so two runs started in
 * the same millisecond on one machine differ.
 * @param {Date} startedAt @param {number} [pid]
 */
export const runIdOf = (startedAt, pid = process.pid) => `${startedAt.toISOString().replace(/[:.]/g, '-')}-${pid}`;
