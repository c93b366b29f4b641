// How the page shows a history verdict. The verdict itself is decided once, at publish time, by the rule
// `compare --history` uses (src/stats/verdicts.js): the page shows that word, never one of its own.
// The names here are exactly that module's VERDICTS (a test checks it).

/** @typedef {'regression' | 'improvement' | 'insufficient data' | 'no change' | 'baseline'} Verdict */

/** Each verdict's CSS class (a word without spaces) and what it means, worst news first. */
export const VERDICT_DISPLAY = Object.freeze({
  regression: {
    css: 'regression',
    meaning: 'worse than its earlier runs, beyond their spread and the practical threshold',
  },
  improvement: {
    css: 'improvement',
    meaning: 'better than its earlier runs, beyond their spread and the practical threshold',
  },
  'insufficient data': { css: 'insufficient', meaning: 'too few earlier runs or samples for a verdict yet' },
  'no change': { css: 'no-change', meaning: 'within the spread of its earlier runs' },
  baseline: { css: 'baseline', meaning: 'first run of this series: the baseline later runs are judged against' },
});

/**
 * A series' trend from the overview file (`{status, change, pastRuns, reason}`), as a badge with the
 * verdict's word; an overview written before verdicts were unified has none: shown as a dash.
 * @param {{status?: string} | null | undefined} trend @param {(s: string) => string} esc
 */
export function verdictBadge(trend, esc) {
  const d = trend?.status ? VERDICT_DISPLAY[/** @type {Verdict} */ (trend.status)] : undefined;
  if (!trend?.status || !d) return '–';
  return `<span class="badge ${d.css}" data-verdict="${esc(trend.status)}" title="${esc(d.meaning)}">${esc(trend.status)}</span>`;
}

/** @param {{status?: string} | null | undefined} trend */
export const verdictCss = (trend) =>
  trend?.status ? (VERDICT_DISPLAY[/** @type {Verdict} */ (trend.status)]?.css ?? '') : '';

/**
 * The within-run word against Docker (`vsDocker[env].verdict`), decided at publish time by the rule
 * `compare` reads a run with (src/results/within-run.js withinRunWord), and its CSS class. "same" is what
 * an overview written before that rule was shared said for both "no diff" and "too few".
 */
const WITHIN_CSS = Object.freeze({
  worse: 'worse',
  better: 'better',
  'no diff': 'same',
  'too few': 'same',
  same: 'same',
});

/** @param {string | null | undefined} word */
export const withinCss = (word) =>
  word && Object.hasOwn(WITHIN_CSS, word) ? WITHIN_CSS[/** @type {keyof typeof WITHIN_CSS} */ (word)] : '';

/**
 * The word as a badge, as `compare` prints it ("worse", "no diff", "too few"); '–' without one.
 * @param {string | null | undefined} word @param {(s: string) => string} esc
 */
export const withinBadge = (word, esc) =>
  word ? `<span class="badge" data-within="${esc(word)}">${esc(word)}</span>` : '<span class="badge">–</span>';
