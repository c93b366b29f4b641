// The budget bounds the whole run, not only the adaptive rounds after the plan. Before each step the run
// projects what its planned rounds still cost on this machine (the plan's estimates, corrected by what the
// finished steps took: ./progress.js). When they cannot fit in what is left of the budget, it says so at
// once and leaves out comparisons until they fit, or, with a strict budget, stops before spending more.
//
// What goes first: a comparison is a non-baseline cell (DinD, an alternative) against its benchmark's
// Docker cell. Before it has samples nothing says one comparison is worth more than another (the
// detectable-change model that steers the adaptive rounds needs samples of both sides), so each counts
// alike and the dearest goes first: the one whose remaining planned rounds cost the most (dind-vfs, whose
// every container copies its image's layers, is the usual one). A benchmark whose last comparison goes
// takes its baseline with it. Only comparisons that have run here are left out: a benchmark not started
// yet counts at its plan estimate (scaling it by the run so far let one benchmark's slow first steps
// inflate every other and leave whole benchmarks out), and is judged once its own first round has run
// (the check is made at each round's start). What is kept keeps every planned round, so every comparison kept has at
// least the profile's samples a side (5 in quick). Pure decisions here; ./steps.js applies them.

/**
 * @typedef {{ key: string, benchmark: string, distro: string, baseline: boolean, remainingS: number, measured: boolean }} PendingCell
 *   a cell with planned rounds still to run; baseline: the Docker cell the benchmark's comparisons are made
 *   against; measured: it has run on this machine, so its cost is known, not extrapolated
 * @typedef {{ keep: boolean, drop: PendingCell[], needS: number, leftS: number }} Fit
 *   needS: what the planned rounds still cost; leftS: what the budget leaves for them
 */

/**
 * Which pending cells to leave out so the planned rounds fit in `leftS` seconds.
 * @param {PendingCell[]} cells in plan order @param {number} leftS
 * @returns {Fit} keep: true when everything fits as planned
 */
export function fitPlan(cells, leftS) {
  const needS = sum(cells);
  if (needS <= leftS) return { keep: true, drop: [], needS, leftS };
  const kept = [...cells];
  /** @type {PendingCell[]} */
  const drop = [];
  while (sum(kept) > leftS) {
    const comparisons = kept.filter((c) => !c.baseline);
    if (!comparisons.length) {
      drop.push(...kept.splice(0)); // only baselines left: no comparison can be made within the budget
      break;
    }
    // the dearest; on a tie the later in the plan (the earlier ones may already have samples)
    const dearest = comparisons.reduce((a, c) => (c.remainingS >= a.remainingS ? c : a));
    drop.push(...kept.splice(kept.indexOf(dearest), 1));
    const orphaned = kept.filter(
      (c) =>
        c.baseline &&
        c.benchmark === dearest.benchmark &&
        c.distro === dearest.distro &&
        !kept.some((o) => !o.baseline && o.benchmark === c.benchmark && o.distro === c.distro),
    );
    for (const o of orphaned) drop.push(...kept.splice(kept.indexOf(o), 1));
  }
  // Only what has run here is left out now: a benchmark not started yet is costed from the plan's estimate,
  // not this machine's. Chosen, it is judged again at its own first round; until then it still counts, so
  // nothing cheaper is left out in its place.
  const now = drop.filter((c) => c.measured);
  return { keep: now.length === 0, drop: now, needS, leftS };
}

/** @param {PendingCell[]} cells */
const sum = (cells) => cells.reduce((s, c) => s + c.remainingS, 0);

/**
 * The log line (and a dropped cell's reason) for a fit that does not keep everything.
 * @param {Fit} fit @param {number} budgetS
 */
export function fitMessage(fit, budgetS) {
  return `${overMessage(fit, budgetS)}; leaving out ${fit.drop.map((c) => c.key).join(', ')}`;
}

/** "budget: the planned rounds need about N s more, M s are left of B s" @param {Fit} fit @param {number} budgetS */
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
