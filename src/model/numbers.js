// Numbers as every report prints them (terminal, Markdown, job summary, verdict reasons, report.html and
// the site, which loads this very file): one module, so a number reads the same wherever it appears.
// Import-free (no Node APIs): part of the results model (see ./README.md).

/**
 * A measured value with about three significant digits; '–' for a missing one. Large counts in k and M
 * keep the tables narrow (three digits are what the spread supports).
 * @param {number} x
 */
export const num = (x) => {
  if (!Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  if (a >= 1e6) return `${(x / 1e6).toPrecision(3)}M`;
  if (a >= 1e5) return `${(x / 1e3).toFixed(0)}k`;
  return a >= 1000 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toPrecision(3);
};

/**
 * A magnitude with one decimal below `below`, then whole with thousands grouped ("4.2", "12", "9,205").
 * @param {number} x at least 0 @param {number} [below]
 */
export const magnitude = (x, below = 10) => (x < below ? x.toFixed(1) : Math.round(x).toLocaleString('en'));

/** A relative change's size in percent, as shortPct gives it without the sign ("2.7%", "12%"). @param {number} change */
export const unsignedPct = (change) => `${magnitude(Math.abs(change * 100))}%`;

/**
 * A change in percent, short: one decimal under 10%, whole percents above, thousands grouped
 * ("+2.7%", "-12%", "+9,205%").
 * @param {number} change relative (0.027 = +2.7%)
 */
export function shortPct(change) {
  if (!Number.isFinite(change)) return '–';
  const digits = magnitude(Math.abs(change * 100));
  return `${change < 0 && digits !== '0.0' ? '-' : '+'}${digits}%`;
}

/** A p-value: three decimals, '<0.001' below that. @param {number} p */
export const pValue = (p) => (!Number.isFinite(p) ? '–' : p < 0.001 ? '<0.001' : p.toFixed(3));

/** A relative change's size in percent, one decimal: -0.123 -> "12.3%". @param {number} change */
export const pct1 = (change) => `${Math.abs(change * 100).toFixed(1)}%`;

/** A relative change as a signed percentage, one decimal: 0.123 -> "+12.3%". @param {number} change */
export const signedPct = (change) => `${change >= 0 ? '+' : '-'}${pct1(change)}`;

/** Milliseconds as a chart label: whole from 100 up, one decimal below; '–' for a missing one. @param {number} x */
export const ms = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toFixed(1)) : '–');

/**
 * A value with at most `digits` significant digits and no trailing zeros (1234.5678 -> "1234.57"): for
 * machine-read exports, where a measured value needs no more.
 * @param {number} x @param {number} [digits]
 */
export const significant = (x, digits = 6) => String(Number(x.toPrecision(digits)));

/** A p-value in a sentence ("p = 2.3e-5"): three decimals, scientific below 0.001. @param {number} p */
export const pExact = (p) => (p < 0.001 ? p.toExponential(1) : p.toFixed(3));
