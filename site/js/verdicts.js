// How the page shows a history verdict. The verdict itself is decided once, at publish time, by the rule
// `compare --history` uses (src/stats/verdicts.js): the page shows that word, never one of its own.
// The names here are exactly src/reading/history.js HISTORY_STATUSES (a test checks it), and "no change",
// which overviews written before the four outcomes still hold.

/** @typedef {'regression' | 'improvement' | 'inconclusive' | 'insufficient data' | 'equivalent' | 'baseline' | 'no change'} Verdict */

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
  inconclusive: {
    css: 'insufficient',
    meaning: 'neither a change nor proven equivalent: this series could not have seen a change of the threshold',
  },
  'insufficient data': { css: 'insufficient', meaning: 'too few earlier runs or samples for a verdict yet' },
  equivalent: { css: 'no-change', meaning: 'within ±T of its earlier runs, a change this series could have seen' },
  'no change': {
    css: 'no-change',
    meaning: 'within the spread of its earlier runs (an overview before the four outcomes)',
  },
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
 * The outcome against Docker (`vsDocker[env].verdict`), decided at publish time by the reading `compare`
 * reads a run with (src/reading/, src/model/change.js outcomeOf), and its CSS class. The older words are
 * those of overviews written before the four outcomes.
 */
const WITHIN_CSS = Object.freeze({
  regression: 'worse',
  improvement: 'better',
  equivalent: 'same',
  inconclusive: 'insufficient',
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
 * The outcome as a badge, as `compare` prints it ("regression", "equivalent", "inconclusive"); '–' without one.
 * @param {string | null | undefined} word @param {(s: string) => string} esc
 */
export const withinBadge = (word, esc) =>
  word ? `<span class="badge" data-within="${esc(word)}">${esc(word)}</span>` : '<span class="badge">–</span>';
