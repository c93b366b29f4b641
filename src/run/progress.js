// Elapsed time and an ETA for progress lines: "(elapsed 12m05s, ETA 1h02m)". The ETA starts from plan's
// estimates (src/run/estimate.js) and is refined as steps finish: the remaining steps of a benchmark in an
// environment are scaled by how its finished steps there compared with their estimates (the tool's time
// is what the estimate gets most wrong on another machine, and native differs from a container); with
// none finished there yet, by the benchmark's ratio in other environments, else by the run's so far.
// A long step (a workload's job) whose first run in an environment is far from its plan re-plans the rest
// there: the progress line says so, with both figures, once.

/**
 * @typedef {{benchmark: string, environment: string, seconds: number}} StepEstimate
 */

export class Progress {
  /**
   * @param {StepEstimate[]} steps every step of the plan, in order
   * @param {{now?: () => number}} [opts] now: milliseconds (a clock a test controls)
   */
  constructor(steps, { now = () => performance.now() } = {}) {
    this.steps = steps;
    this.now = now;
    this.startedAt = now();
    /** @type {Map<string, {estimated: number, actual: number}>} finished steps by benchmark and by benchmark|env */
    this.byKey = new Map();
    this.total = { estimated: 0, actual: 0 };
    /** @type {Set<number>} steps that will not run (done in an earlier attempt, or their cell stopped) */
    this.skipped = new Set();
    /** @type {Set<number>} */
    this.done = new Set();
    /** @type {string | null} what the last finished step re-planned, said once by the next note */
    this.replanned = null;
  }

  /** A step that will not run: it leaves the ETA. @param {number} index */
  skip(index) {
    this.skipped.add(index);
  }

  /** @param {number} index @param {number} seconds how long it took */
  finished(index, seconds) {
    const { benchmark, environment, seconds: estimated } = this.steps[index];
    this.done.add(index);
    const first = !this.byKey.has(`${benchmark}|${environment}`);
    if (first && Math.max(seconds, estimated) >= REPLAN_MIN_S && Math.abs(seconds / estimated - 1) > REPLAN_OFF)
      this.replanned = `re-planned from the first ${benchmark} in ${environment}: ${duration(seconds)}, planned ${duration(estimated)}`;
    for (const key of [benchmark, `${benchmark}|${environment}`]) {
      const b = this.byKey.get(key) ?? { estimated: 0, actual: 0 };
      b.estimated += estimated;
      b.actual += seconds;
      this.byKey.set(key, b);
    }
    this.total.estimated += estimated;
    this.total.actual += seconds;
  }

  /** Seconds still to go, by the refined estimates. @param {(index: number) => boolean} [willRun] */
  remainingSeconds(willRun = () => true) {
    let left = 0;
    for (const i of this.steps.keys()) if (willRun(i)) left += this.secondsOf(i);
    return left;
  }

  /**
   * What a step still costs by the refined estimate: 0 once done or skipped. A benchmark not started yet
   * takes the run's ratio so far, unless `extrapolate` is false: then its plan estimate as it is (the
   * budget's choice, ../run/budget.js, which one benchmark's first steps must not skew).
   * @param {number} index @param {{extrapolate?: boolean}} [opts]
   */
  secondsOf(index, { extrapolate = true } = {}) {
    if (this.done.has(index) || this.skipped.has(index)) return 0;
    const s = this.steps[index];
    const b = this.byKey.get(`${s.benchmark}|${s.environment}`) ?? this.byKey.get(s.benchmark);
    return s.seconds * (b ? ratio(b) : extrapolate ? ratio(this.total) : 1);
  }

  /** Whether any step has finished in this attempt: estimates are corrected from then on. */
  get measured() {
    return this.done.size > 0;
  }

  /** "(elapsed 1m05s, ETA 12m)" @param {(index: number) => boolean} [willRun] */
  note(willRun) {
    const elapsed = (this.now() - this.startedAt) / 1000;
    const replanned = this.replanned ? `, ${this.replanned}` : '';
    this.replanned = null;
    return `(elapsed ${duration(elapsed)}, ETA ${duration(this.remainingSeconds(willRun))}${replanned})`;
  }
}

/** A first step this long (taken or planned) that is this far from its plan is said to re-plan the rest. */
export const REPLAN_MIN_S = 30;
export const REPLAN_OFF = 0.25;

/** actual / estimated, 1 before anything finished. @param {{estimated: number, actual: number}} x */
const ratio = (x) => (x.estimated > 0 ? x.actual / x.estimated : 1);

/** 45s, 12m05s, 3h07m. @param {number} s */
export function duration(s) {
  const t = Math.max(0, Math.round(s));
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
}
