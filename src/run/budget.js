// The budget bounds the whole run, decided at plan time, before the first step, and again after each cell's
// first iteration (below). What the command line named (--bench, --workload, --env, --engine, --distro, or the A/B pair)
// is always kept, at its planned rounds. Only cells the profile added by default may be left out, and only
// when the plan's estimate (src/run/estimate.js) does not fit in what the budget leaves for the planned
// rounds. When even what was named does not fit, the run says so before the first step with the time it
// will take, and runs it anyway with no adaptive rounds (never under the planned samples: quick's 5 a side,
// the minimum for a testable comparison) or, with --budget-strict, refuses to start. The estimates it
// decides on are this machine's (./calibrate.js scales them by a probe before the plan), and after each
// cell's first iteration the plan is re-made by the same rules from the cells' own times (./replan.js):
// default cells that no longer fit go then, named. Past that, a machine slower than the estimates makes
// the run go over its budget: ./steps.js says so once (and stops there with --budget-strict); it leaves no
// cell out after the first round. Pure decisions here; ./command.js and ./steps.js apply them.
//
// Which default cells go first, by the value of each comparison per second it costs. A comparison is a
// non-baseline cell (DinD, an alternative) against its benchmark's Docker cell. Before any sample, nothing
// says one comparison of a kind tells more than another (the detectable-change model that steers the
// adaptive rounds needs samples of both sides), so each counts alike and the dearest, all told, goes first:
// its own planned rounds, the Docker cell it alone kept (a baseline goes with its benchmark's last
// comparison) and the set-up it alone needed (a DinD environment's start, an image load). DinD against
// Docker is what the suite exists for: a default `dind` comparison goes only when no other default cell is
// left to go, and the start-up a job pays (lifecycle, in every environment) never goes. Without anything named, one comparison is always kept: a run that measures nothing answers
// nothing.
import { startsOwnEngine } from '../environments/names.js';

/**
 * @typedef {{
 *   key: string, benchmark: string, distro: string, environment: string, environmentKey: string,
 *   engine: string | null, image: string | null, baseline: boolean, named: boolean, stepsS: number,
 * }} PlanCell
 *   a runnable cell at plan time: baseline: the Docker cell (or the A/B pair's baseline) the benchmark's
 *   comparisons are made against; named: the command line asked for it; stepsS: its planned steps' estimate
 * @typedef {{ startS: number, imageS: number }} SetupCost
 *   what an environment with an engine of its own (every DinD variant, podman: its descriptor) costs to
 *   start, and each image it loads; the same as ./estimate.js counts
 * @typedef {{ fits: boolean, needS: number, keptS: number, leftS: number, leftOut: PlanCell[], namedS: number }} PlanFit
 *   needS: the whole plan's estimate; keptS: what is kept; leftS: what the budget leaves for the planned
 *   rounds; leftOut: default cells left out, in plan order; namedS: what the named cells alone need
 * @typedef {{ benchmarks?: string[], environments?: string[], engines?: string[], distros?: string[], keys?: string[] }} Named
 *   what the command line named: benchmarks (a workload's too), environment names, inner Engine
 *   versions, distributions, environment keys (the A/B pair)
 */

/**
 * Whether the command line asked for a cell: its benchmark, environment, inner Engine or distribution was
 * named there. Only a cell with none of them named was added by the profile's defaults.
 * @param {{ benchmark: string, environment: string, environmentKey: string, engine: string | null, distro: string }} cell
 * @param {Named} named
 */
export function isNamed(cell, named) {
  return Boolean(
    named.benchmarks?.includes(cell.benchmark) ||
    named.environments?.includes(cell.environment) ||
    (cell.engine !== null && named.engines?.includes(cell.engine)) ||
    named.distros?.includes(cell.distro) ||
    named.keys?.includes(cell.environmentKey),
  );
}

/**
 * Seconds the planned rounds of these cells cost, with the set-up of the environments with an engine of their
 * own they need (as ./estimate.js counts it).
 * @param {PlanCell[]} cells @param {SetupCost} setup
 */
export function planCost(cells, setup) {
  /** @type {Map<string, Set<string>>} images per environment with an engine of its own */
  const envs = new Map();
  let s = 0;
  for (const c of cells) {
    s += c.stepsS;
    if (!startsOwnEngine(c.environment)) continue;
    const images = envs.get(c.environmentKey) ?? new Set();
    if (c.image) images.add(c.image);
    envs.set(c.environmentKey, images);
  }
  for (const images of envs.values()) s += setup.startS + setup.imageS * images.size;
  return s;
}

/**
 * Which default cells to leave out so the planned rounds fit in `leftS` seconds (see the top of this file).
 * @param {PlanCell[]} cells the runnable cells, in plan order @param {number} leftS @param {SetupCost} setup
 * @returns {PlanFit} fits: false when what is kept still does not fit (what was named, or the last comparison)
 */
export function fitAtPlan(cells, leftS, setup) {
  const needS = planCost(cells, setup);
  const namedS = planCost(
    cells.filter((c) => c.named),
    setup,
  );
  let kept = [...cells];
  /** @type {PlanCell[]} */
  const leftOut = [];
  while (planCost(kept, setup) > leftS) {
    const next = dearestDefault(kept, setup);
    if (!next) break;
    leftOut.push(...next.cells);
    kept = kept.filter((c) => !next.cells.includes(c));
  }
  const keptS = planCost(kept, setup);
  const order = (/** @type {PlanCell} */ c) => cells.indexOf(c);
  leftOut.sort((a, b) => order(a) - order(b));
  return { fits: keptS <= leftS, needS, keptS, leftS, leftOut, namedS };
}

/**
 * The default comparison to leave out next, with the baselines it alone kept: the lowest value per second
 * (other kinds before `dind`, then the most seconds saved; on a tie the later in the plan). Null when no
 * default cell may go.
 * @param {PlanCell[]} kept @param {SetupCost} setup
 * @returns {{ cells: PlanCell[] } | null}
 */
function dearestDefault(kept, setup) {
  const compared = (/** @type {PlanCell} */ c) => !c.baseline && c.environment !== 'native';
  const comparisons = kept.filter(compared);
  // Nothing named: the last comparison stays, or the run would answer nothing.
  const lastStays = !comparisons.some((c) => c.named) && comparisons.length === 1;
  // The start-up a job pays is the question every run answers first (in dind-vfs too: the trap the suite
  // exists to show): never left out for the budget.
  const candidates = kept.filter((c) => !c.baseline && !c.named && !startUp(c) && !(lastStays && compared(c)));
  const before = planCost(kept, setup);
  let best = null;
  let bestRank = [Infinity, -Infinity];
  for (const c of candidates) {
    const gone = [c, ...orphans(kept, c)];
    const saved =
      before -
      planCost(
        kept.filter((k) => !gone.includes(k)),
        setup,
      );
    const rank = [c.environment === 'dind' ? 1 : 0, saved];
    if (rank[0] < bestRank[0] || (rank[0] === bestRank[0] && rank[1] >= bestRank[1])) {
      best = { cells: gone };
      bestRank = rank;
    }
  }
  return best;
}

/** The start-up a job pays, judged against Docker: a decision every run answers first. @param {PlanCell} c */
const startUp = (c) => c.benchmark === 'lifecycle' && c.environment !== 'native';

/**
 * The default baselines that keep no comparison once `c` goes: same benchmark and distribution.
 * @param {PlanCell[]} kept @param {PlanCell} c
 */
function orphans(kept, c) {
  const same = (/** @type {PlanCell} */ o) => o.benchmark === c.benchmark && o.distro === c.distro;
  if (kept.some((o) => o !== c && !o.baseline && o.environment !== 'native' && same(o))) return [];
  return kept.filter((o) => o.baseline && !o.named && same(o));
}

/**
 * A budget that holds `keptS` seconds of planned rounds after `spentS` already spent and the reserve: what
 * to give --budget, rounded up to a whole minute ("8m").
 * @param {number} keptS @param {number} spentS @param {number} reserveMs
 */
export function budgetToHold(keptS, spentS, reserveMs) {
  const minutes = Math.ceil((keptS + spentS + reserveMs / 1000) / 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)}h${minutes % 60 ? `${minutes % 60}m` : ''}` : `${minutes}m`;
}

/**
 * A strict budget that cannot hold the run: refused before the first step, or stopped before it goes over
 * (its partial results resumable). `run` exits EXIT.OVER_BUDGET (./command.js).
 */
export class BudgetError extends Error {}

/** "budget: the planned rounds need about N s more, M s are left of B s" @param {{needS: number, leftS: number}} fit @param {number} budgetS */
export function overMessage(fit, budgetS) {
  const left = Math.max(0, Math.round(fit.leftS));
  return `budget: the planned rounds need about ${Math.round(fit.needS)} s more, ${left} s are left of ${Math.round(budgetS)} s`;
}

/**
 * The profile's budget for what was asked for: in proportion to the share of the profile's whole plan that
 * the selected benchmarks are estimated to take (two of twelve benchmarks do not get the whole 15 minutes),
 * but never less than the selection's own planned rounds with a quarter to spare and the reserve for the
 * end of the run: a small selection must not lose its comparisons to a fixed reserve. An explicit --budget
 * is taken as given.
 * @param {number} profileBudgetMs @param {number} selectedS estimated seconds of the selected plan
 * @param {number} wholeS estimated seconds of the profile's plan with every benchmark
 * @param {number} reserveMs what the end of the run is kept (teardown, image facts, reports)
 */
export function budgetForSelection(profileBudgetMs, selectedS, wholeS, reserveMs) {
  if (!(wholeS > 0) || selectedS >= wholeS) return profileBudgetMs;
  const share = profileBudgetMs * (selectedS / wholeS);
  const floor = selectedS * 1250 + reserveMs;
  return Math.round(Math.min(profileBudgetMs, Math.max(share, floor)));
}
