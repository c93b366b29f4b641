// Export for github-action-benchmark's "customBiggerIsBetter" / "customSmallerIsBetter" tools: a JSON array
// of { name, unit, value, range?, extra? } per file, one file per direction, so users of that action can
// chart dind-bench's results with it. The value is the median of the samples, rounded to what its interval
// supports; range is the bootstrap interval's larger half-width in the `± x` form that action's own tools
// write (its pages show `range` verbatim), and the interval itself is in `extra`.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { halfWidth, roundToInterval } from '../stats/display.js';
import { summarize } from '../stats/index.js';

/**
 * @param {any} results
 * @returns {{ bigger: any[], smaller: any[] }}
 */
export function gabEntries(results) {
  /** @type {{ bigger: any[], smaller: any[] }} */
  const out = { bigger: [], smaller: [] };
  for (const cell of results.cells.filter((/** @type {any} */ c) => c.status === 'ok')) {
    for (const m of cell.metrics) {
      if (m.samples.length === 0) continue;
      const s = summarize(m.samples);
      const half = halfWidth(s.median, s.low, s.high);
      const entry = {
        name: `${cell.benchmark} ${m.metric} [${cell.environmentKey}/${cell.distro}]`,
        unit: m.unit,
        value: roundToInterval(s.median, half),
        ...(half > 0 ? { range: `± ${half}` } : {}),
        extra: `95% CI ${fmt(s.low)} .. ${fmt(s.high)}; median of ${s.n} samples; run ${results.run.id}`,
      };
      (m.better === 'higher' ? out.bigger : out.smaller).push(entry);
    }
  }
  return out;
}

/**
 * Writes DIR/bigger-is-better.json and DIR/smaller-is-better.json; returns their paths.
 * @param {any} results @param {string} dir
 */
export async function writeGabExport(results, dir) {
  const { bigger, smaller } = gabEntries(results);
  await mkdir(dir, { recursive: true });
  const files = [path.join(dir, 'bigger-is-better.json'), path.join(dir, 'smaller-is-better.json')];
  await writeFile(files[0], JSON.stringify(bigger, null, 2) + '\n');
  await writeFile(files[1], JSON.stringify(smaller, null, 2) + '\n');
  return files;
}

/** @param {number} x */
const fmt = (x) => String(Number(x.toPrecision(6)));
