// Words and axis labels of the page only. Numbers and the change of a comparison come from the results
// model (src/model/, reached as #model/ through site/index.html's import map and package.json's
// "imports"): the same modules the reports use, so the page and report.md print the same number.

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

export const shortCommit = (/** @type {string|null} */ c) => (c ? c.slice(0, 7) : 'unknown');
export const date = (/** @type {string} */ iso) => new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** @param {string} s */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
