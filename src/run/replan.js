// The plan re-made from each cell's first iteration: the calibrated estimate a cell was planned with
// (./calibrate.js) is replaced by what its own first iteration took, a cell not measured yet is planned at
// the scale the measured ones ran at against theirs (observedScale), and the planned rounds still to run
// are fitted again into what is left of the budget, by the budget's own rules (./budget.js fitAtPlan): only
// cells the profile added by default go, the least value per second first; nothing named, and not the
// start-up a job pays. The set-up is spent by then (every environment is set up before the first step), so
// only the steps left count. Pure decisions here; ./steps.js applies them between steps.
import { fitAtPlan } from './budget.js';

/** The set-up is spent once the steps run: nothing of it is saved by leaving a cell out. */
const SPENT = { startS: 0, imageS: 0 };

/**
 * @typedef {import('./budget.js').PlanCell} PlanCell
 * @typedef {{ fits: boolean, remainingS: number, keptS: number, leftS: number, dropped: PlanCell[] }} Replan
 *   remainingS: what the planned steps left need, by the newest estimates; keptS: what is kept of it;
 *   dropped: default cells left out now, in plan order
 */

/**
 * Seconds each pending cell's planned steps from `from` on still need: each step by its cell's own measured
 * steps (their mean) once it has one, else by the plan's (calibrated) estimate times `scale`.
 * @param {{ cell: string, warmup: boolean }[]} steps the plan's, in order @param {number} from
 * @param {number[]} estimates seconds per step, in plan order @param {Map<string, number[]>} measuredMs per cell
 * @param {(cell: string) => boolean} pending whether the cell will still run
 * @param {number} [scale] a cell not measured yet: its estimate times this (observedScale)
 * @returns {Map<string, number>}
 */
export function remainingByCell(steps, from, estimates, measuredMs, pending, scale = 1) {
  /** @type {Map<string, number>} */
  const left = new Map();
  for (let j = from; j < steps.length; j++) {
    const key = steps[j].cell;
    if (!pending(key)) continue;
    const own = measuredMs.get(key) ?? [];
    const s = own.length ? meanMs(own) / 1000 : (estimates[j] ?? 0) * scale;
    left.set(key, (left.get(key) ?? 0) + s);
  }
  return left;
}

/** @param {number[]} xs non-empty */
const meanMs = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The bounds of observedScale: one cell far off its estimate must not plan the rest at 10x or 0.1x. */
export const SCALE_MIN = 0.5;
export const SCALE_MAX = 3;

/**
 * How the cells measured so far ran against their (calibrated) estimates: the seconds their steps took over
 * the seconds planned for them, bounded (SCALE_MIN, SCALE_MAX); 1 before any cell has run. Why: the probe
 * is one coarse figure for the whole machine, and the first iterations are the machine itself. Cells not
 * measured yet are re-planned at this scale, so a plan the probe made too bold shrinks after the first
 * cells' iterations (the start-up's, which come first), before the other benchmarks' first steps.
 * @param {{ cell: string }[]} steps the plan's, in order @param {number[]} estimates seconds per step, in plan order
 * @param {Map<string, number[]>} measuredMs per cell
 * @returns {number}
 */
export function observedScale(steps, estimates, measuredMs) {
  let took = 0;
  let planned = 0;
  /** @type {Set<string>} */
  const seen = new Set();
  for (const [j, step] of steps.entries()) {
    const own = measuredMs.get(step.cell);
    if (!own?.length || seen.has(step.cell)) continue;
    seen.add(step.cell);
    took += meanMs(own) / 1000;
    planned += estimates[j] ?? 0;
  }
  if (!(took > 0 && planned > 0)) return 1;
  return Math.min(SCALE_MAX, Math.max(SCALE_MIN, took / planned));
}

/**
 * The plan re-made at this point: which default cells to leave out so the steps left fit in `leftS`.
 * @param {PlanCell[]} cells the pending cells at plan time, in plan order (named, baseline as budget.js has them)
 * @param {Map<string, number>} remaining seconds each still needs (remainingByCell); a cell not in it is done
 * @param {number} leftS what is left of the budget for the planned rounds
 * @returns {Replan}
 */
export function replan(cells, remaining, leftS) {
  const still = cells.filter((c) => remaining.has(c.key)).map((c) => ({ ...c, stepsS: remaining.get(c.key) ?? 0 }));
  const fit = fitAtPlan(still, leftS, SPENT);
  return { fits: fit.fits, remainingS: fit.needS, keptS: fit.keptS, leftS, dropped: fit.leftOut };
}

/**
 * Whether every cell still pending has had its first measured iteration: the re-made plan is then wholly
 * made of measured times, and the run says its time.
 * @param {Iterable<string>} pendingCells @param {Map<string, number[]>} measuredMs
 */
export const allMeasured = (pendingCells, measuredMs) =>
  [...pendingCells].every((k) => (measuredMs.get(k)?.length ?? 0) > 0);
