// A workload's job in its parts, so a team sees where the time goes: the engine ready, each image's pull or
// load, each build, compose up, its test and down, each step, and what is timed beside the job (a fresh
// engine's stop, the build states). Per candidate against its baseline (DinD against Docker): each side's
// median with its 95% interval, and the difference with its own 95% interval. A part is described, never
// decided (the job's total is the question), and its difference is the ratio of medians times the baseline's
// median: the two medians' difference, so the numbers in a row add up. Built once for the Reading
// (./read-run.js); every output lays out its tables.
import { num } from '../model/numbers.js';

/**
 * @typedef {import('./index.js').Comparison} Comparison
 * @typedef {{ title: string, header: string[], rows: string[][], note: string }} PartsTable
 */

/** The job's total: the question itself, said by the answer, not a part. */
const TOTAL = 'job.total_ms';

/** A part's rank in a job's order, then its words. @type {[RegExp, number, (m: RegExpExecArray) => string][]} */
const PARTS = [
  [/^engine\.ready_ms$/, 0, () => 'engine ready'],
  [/^image\.(.+)\.pull_ms$/, 1, (m) => `pull ${m[1]}`],
  [/^image\.(.+)\.load_ms$/, 1, (m) => `load ${m[1]}`],
  [/^build\.([^.]+)_ms$/, 2, (m) => `build ${m[1]}`],
  [/^compose\.up_ms$/, 3, () => 'compose up (until healthy)'],
  [/^compose\.test_ms$/, 4, () => 'compose test'],
  [/^compose\.down_ms$/, 5, () => 'compose down'],
  [/^step\.(.+)_ms$/, 6, (m) => `step ${m[1]}`],
  [/^engine\.stop_ms$/, 7, () => 'engine stop (after the job, not in its total)'],
  [/^build\.([^.]+)\.(cold|warm|cache_import)_ms$/, 8, (m) => `build ${m[1]}, ${m[2]} (beside the job)`],
];

/** @param {string} metric @returns {{ rank: number, label: string } | null} */
function partOf(metric) {
  for (const [re, rank, label] of PARTS) {
    const m = re.exec(metric);
    if (m) return { rank, label: label(m) };
  }
  return null;
}

/** "2.31 s", "0.0440 s": three significant digits, so a row's difference is its medians' to the last digit. @param {number} ms */
const seconds = (ms) => `${num(ms / 1000)} s`;
/** @param {number} ms */
const signed = (ms) => `${ms < 0 ? '-' : '+'}${seconds(Math.abs(ms))}`;
/** A side: "2.3 s [2.1–2.6]". @param {{ median: number, low: number, high: number }} s */
const side = (s) => `${seconds(s.median)} [${seconds(s.low).slice(0, -2)}–${seconds(s.high)}]`;

/**
 * The difference of one part, with its interval: the baseline's median times the ratio of medians, less
 * one, so it is the medians' difference; no interval when the baseline's median is 0 (a ratio has none).
 * @param {Comparison} c
 */
function differenceText(c) {
  const base = c.baseline.median;
  if (!(base > 0) || !Number.isFinite(c.ratio.low) || !Number.isFinite(c.ratio.high))
    return `${signed(c.candidate.median - base)} (no interval: ${c.baseline.env}'s is 0)`;
  return `${signed(c.candidate.median - base)} [${signed(base * (c.ratio.low - 1)).slice(0, -2)}, ${signed(base * (c.ratio.high - 1))}]`;
}

/**
 * Each workload job's parts, one table per workload, distribution and candidate against its baseline.
 * @param {Comparison[]} comparisons the Reading's, of the pairs it asks (DinD against Docker, an A/B)
 * @returns {PartsTable[]}
 */
export function jobParts(comparisons) {
  /** @type {Map<string, Comparison[]>} */
  const by = new Map();
  for (const c of comparisons) {
    if (!c.benchmark.startsWith('workload.') || c.metric === TOTAL || c.unit !== 'ms' || !partOf(c.metric)) continue;
    const key = `${c.benchmark} (${c.candidate.distro}): where the time goes, ${c.candidate.env} against ${c.baseline.env}`;
    by.set(key, [...(by.get(key) ?? []), c]);
  }
  return [...by].map(([title, cs]) => {
    const parts = cs
      .map((c) => ({ c, part: /** @type {{ rank: number, label: string }} */ (partOf(c.metric)) }))
      .sort((a, b) => a.part.rank - b.part.rank || a.part.label.localeCompare(b.part.label));
    const { baseline, candidate } = cs[0];
    return {
      title,
      header: [
        'part',
        `${baseline.env}, median [95% interval]`,
        `${candidate.env}, median [95% interval]`,
        'difference [95% interval]',
      ],
      rows: parts.map(({ c, part }) => [part.label, side(c.baseline), side(c.candidate), differenceText(c)]),
      note:
        "Each part's median is the middle of its own samples: the parts need not add up to the job's median. " +
        'Described, not decided: the job as a whole is the question (the answer above).',
    };
  });
}
