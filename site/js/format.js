// Numbers and words as a person reads them.

/** @param {number} x */
export function num(x) {
  if (x == null || !Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  return a >= 1000 ? Math.round(x).toLocaleString('en') : a >= 100 ? x.toFixed(0) : a >= 1 ? x.toFixed(2) : x.toFixed(3);
}

/**
 * A ratio (candidate / baseline) as a signed percentage where + is worse for the metric's direction.
 * @param {number} r @param {'higher'|'lower'} better
 */
export const worsePct = (r, better) => (better === 'lower' ? (r - 1) * 100 : (1 - r) * 100);

/** @param {number} p */
export const pct = (p) => (Number.isFinite(p) ? `${p > 0 ? '+' : ''}${p.toFixed(Math.abs(p) < 10 ? 1 : 0)}%` : '–');

/** An interval on a ratio as a "worse %" interval, lower bound first. @param {{low: number, high: number}} ci @param {'higher'|'lower'} better */
export function worseInterval(ci, better) {
  const a = worsePct(ci.low, better);
  const b = worsePct(ci.high, better);
  return [Math.min(a, b), Math.max(a, b)];
}

export const shortCommit = (/** @type {string|null} */ c) => (c ? c.slice(0, 7) : 'unknown');
export const date = (/** @type {string} */ iso) => new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** @param {string} s */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
