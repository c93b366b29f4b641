// Numbers as every report of the command line prints them (terminal, Markdown, job summary, verdict
// reasons): one module, so a number reads the same wherever it appears. The site has its own, for the
// browser (site/js/format.js).

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
 * A change in percent, short: one decimal under 10%, whole percents above, thousands grouped
 * ("+2.7%", "-12%", "+9,205%").
 * @param {number} change relative (0.027 = +2.7%)
 */
export function shortPct(change) {
  if (!Number.isFinite(change)) return '–';
  const a = Math.abs(change * 100);
  const digits = a < 10 ? a.toFixed(1) : Math.round(a).toLocaleString('en');
  return `${change < 0 && digits !== '0.0' ? '-' : '+'}${digits}%`;
}

/** A p-value: three decimals, '<0.001' below that. @param {number} p */
export const pValue = (p) => (!Number.isFinite(p) ? '–' : p < 0.001 ? '<0.001' : p.toFixed(3));

/** A relative change as a signed percentage, one decimal: 0.123 -> "+12.3%". @param {number} change */
export const signedPct = (change) => `${change >= 0 ? '+' : '-'}${Math.abs(change * 100).toFixed(1)}%`;

/** A p-value in a sentence ("p = 2.3e-5"): three decimals, scientific below 0.001. @param {number} p */
export const pExact = (p) => (p < 0.001 ? p.toExponential(1) : p.toFixed(3));
