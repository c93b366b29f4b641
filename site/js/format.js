// Numbers and words as a person reads them.

/** @param {number} x */
export function num(x) {
  if (x == null || !Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  return a >= 1000
    ? Math.round(x).toLocaleString('en')
    : a >= 100
      ? x.toFixed(0)
      : a >= 1
        ? x.toFixed(2)
        : x.toFixed(3);
}

/**
 * A ratio (candidate / baseline) as a signed percentage where + is worse for the metric's direction.
 * @param {number} r @param {'higher'|'lower'} better
 */
export const worsePct = (r, better) => (better === 'lower' ? (r - 1) * 100 : (1 - r) * 100);

/**
 * How many times worse (2 = twice as bad, 0.5 = twice as good) from a ratio candidate / baseline, for
 * either direction: symmetric on a log axis, so one +9,000% cell does not flatten every other bar.
 * @param {number} r @param {'higher'|'lower'} better
 */
export const costFactor = (r, better) => (better === 'lower' ? r : 1 / r);

/** A tick of a cost-factor log axis: "same", "2× worse", "5× better". @param {number} f */
export const factorLabel = (f) =>
  Math.abs(f - 1) < 1e-9 ? 'same' : f > 1 ? `${+f.toPrecision(3)}× worse` : `${+(1 / f).toPrecision(3)}× better`;

/**
 * Ticks at 1, 2 and 5 times powers of ten between min and max (a log axis of factors).
 * @param {number} min @param {number} max
 */
export function factorTicks(min, max) {
  const out = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of [1, 2, 5]) {
      const f = m * 10 ** e;
      if (f >= min * (1 - 1e-9) && f <= max * (1 + 1e-9)) out.push({ value: f });
    }
  }
  return out;
}

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
