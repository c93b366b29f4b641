// Numbers for people and dashboards: a median with as many digits as its interval supports, so
// 855.2189999999999 with an interval of ± 12 is shown as 855, and 4.385 ± 2.4 as 4.39.

/**
 * The half-width of an interval around a value, for a `± x` display: the larger side, so an
 * asymmetric bootstrap interval is never shown narrower than it is. Two significant digits.
 * @param {number} value @param {number} low @param {number} high
 */
export function halfWidth(value, low, high) {
  const h = Math.max(Math.abs(high - value), Math.abs(value - low));
  return Number.isFinite(h) && h > 0 ? Number(h.toPrecision(2)) : 0;
}

/**
 * `value` rounded to the decimal of the interval's second significant digit, keeping at least 3 and at
 * most 6 significant digits of the value (a zero-width interval keeps 6).
 * @param {number} value @param {number} half a half-width from halfWidth()
 */
export function roundToInterval(value, half) {
  if (!Number.isFinite(value) || value === 0) return value;
  let digits = 6;
  if (Number.isFinite(half) && half > 0) {
    const decimals = 1 - Math.floor(Math.log10(half));
    digits = Math.floor(Math.log10(Math.abs(value))) + 1 + decimals;
  }
  return Number(value.toPrecision(Math.min(6, Math.max(3, digits))));
}
