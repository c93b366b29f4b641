// How a run's decisions spend their false-alarm rate over the looks of its sampling (issue 53 item 6):
// Bonferroni over decisions × looks (each look alpha / (m K)) against group-sequential spending over the
// looks (src/stats/sequential.js: Pocock-type and O'Brien-Fleming-type, Bonferroni over the m decisions
// only), each run as the whole procedure a quick run takes: every decision looked at 5, 7, 10 and 12
// samples a side, each stopping at the first look that decides it, all of a run's decisions at once.
// Per design: the share of simulated runs with any wrong decision (the family-wise rate the reading
// states, 5%) and the share of decisions decided by the cap, in three settings of the true changes:
//   - A/A: every side's recorded log samples centred (no change): a regression or improvement is wrong;
//   - at the edge: every decision's true change exactly +T (the least favourable for a wrong
//     equivalence): an equivalence or an improvement is wrong;
//   - as measured: each side as recorded (the real change between the environments kept): what a run on
//     this noise decides, and after how many samples a side.
// "Decided at the first look" is what a budgeted run that never reaches a second look decides (the quick run
// often spends its budget before one): the design that decides most by the cap may decide least there.
import { FALSE_ALARM_RATE, decideOne } from '../../src/reading/decide.js';
import { DESIGNS, nominalAlphas } from '../../src/stats/sequential.js';
import { wilson } from './aa.js';

/**
 * @typedef {{ name: string, benchmark: string, better: 'higher' | 'lower', threshold: number,
 *   base: number[], cand: number[], baseLogs: number[], candLogs: number[] }} Recorded
 *   base, cand: each side's log samples centred on their mean; baseLogs, candLogs: as recorded
 * @typedef {'aa' | 'edge' | 'measured'} Setting
 */

/** n draws of a side's log samples, shifted, as values. @param {number[]} logs @param {number} n @param {number} shift @param {() => number} random */
const draw = (logs, n, shift, random) =>
  Array.from({ length: n }, () => 100 * Math.exp(shift + logs[Math.floor(random() * logs.length)]));

/** The candidate's log shift for a cost factor. @param {'higher' | 'lower'} better @param {number} factor */
const shiftOf = (better, factor) => (better === 'lower' ? Math.log(factor) : -Math.log(factor));

/**
 * One simulated run: every decision from the first look to the cap, each stopping at the first look that
 * decides it; a look whose alpha is 0 decides nothing.
 * @param {Recorded[]} decisions @param {number[]} looks samples a side @param {number[]} alphas one-sided, per look
 * @param {Setting} setting @param {() => number} random
 */
export function simulatedRun(decisions, looks, alphas, setting, random) {
  const cap = looks[looks.length - 1];
  let wrong = false;
  let decided = 0;
  let samples = 0;
  let first = 0;
  for (const d of decisions) {
    const [bl, cl] = setting === 'measured' ? [d.baseLogs, d.candLogs] : [d.base, d.cand];
    const shift = setting === 'edge' ? shiftOf(d.better, 1 + d.threshold) : 0;
    const b = draw(bl, cap, 0, random);
    const c = draw(cl, cap, shift, random);
    let at = cap;
    for (const [k, n] of looks.entries()) {
      if (!(alphas[k] > 0)) continue;
      const samplesNow = { baseline: b.slice(0, n), candidate: c.slice(0, n) };
      const o = decideOne({ better: d.better, threshold: d.threshold, samples: samplesNow }, 1 - 2 * alphas[k]).outcome;
      if (o === 'inconclusive') continue;
      if (setting === 'aa' && o !== 'equivalent') wrong = true;
      if (setting === 'edge' && o !== 'regression') wrong = true;
      decided++;
      if (k === 0) first++;
      at = n;
      break;
    }
    samples += at;
  }
  return { wrong, decided, samples, first };
}

/**
 * Every design in every setting, on one family of decisions.
 * @param {Recorded[]} family @param {number[]} looks @param {number} trials @param {() => number} random
 * @param {number} [size] the family the rate is spread over (at least the decisions simulated)
 */
export function compareDesigns(family, looks, trials, random, size = family.length) {
  const alpha = FALSE_ALARM_RATE / Math.max(1, size);
  return DESIGNS.map((design) => {
    const alphas = nominalAlphas(looks, alpha, design);
    /** @type {Record<Setting, { wrongRuns: number, decided: number, samples: number, first: number }>} */
    const by = /** @type {any} */ ({});
    for (const setting of /** @type {Setting[]} */ (['aa', 'edge', 'measured'])) {
      const t = { wrongRuns: 0, decided: 0, samples: 0, first: 0 };
      for (let i = 0; i < trials; i++) {
        const r = simulatedRun(family, looks, alphas, setting, random);
        t.wrongRuns += r.wrong ? 1 : 0;
        t.decided += r.decided;
        t.samples += r.samples;
        t.first += r.first;
      }
      by[setting] = t;
    }
    return { design, alphas, ...by };
  });
}

/** @param {number} x */
const pct = (x) => `${(100 * x).toFixed(1)}%`;
/** @param {number} k @param {number} n */
const rate = (k, n) => {
  const w = wilson(k, n);
  return `${pct(w.rate)} [${pct(w.low)}, ${pct(w.high)}]`;
};

/**
 * The Markdown table of compareDesigns.
 * @param {ReturnType<typeof compareDesigns>} rows @param {number} simulated the decisions simulated @param {number[]} looks
 * @param {number} trials
 */
export function designTable(rows, simulated, looks, trials) {
  const per = (/** @type {number} */ x) => x / (trials * simulated);
  return [
    `| design (looks at ${looks.join(', ')} a side) | one-sided alpha per look | A/A: runs with any wrong decision | A/A: decided by the cap | edge (+T): runs with any wrong decision | as measured: decided at the first look | as measured: decided by the cap | as measured: samples a side |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.design === 'bonferroni' ? 'Bonferroni over decisions × looks' : `${r.design === 'pocock' ? 'Pocock' : "O'Brien-Fleming"}-type spending over the looks`} | ${r.alphas.map((a) => a.toPrecision(2)).join(', ')} | ${rate(r.aa.wrongRuns, trials)} | ${pct(per(r.aa.decided))} | ${rate(r.edge.wrongRuns, trials)} | ${pct(per(r.measured.first))} | ${pct(per(r.measured.decided))} | ${(r.measured.samples / (trials * simulated)).toFixed(1)} |`,
    ),
  ].join('\n');
}
