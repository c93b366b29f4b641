// Export for github-action-benchmark's "customBiggerIsBetter" / "customSmallerIsBetter" tools: a JSON array
// of { name, unit, value, range?, extra? } per file, one file per direction, so users of that action can
// chart dind-bench's results with it. The value is the median of the samples, rounded to what its interval
// supports; range is the bootstrap interval's larger half-width in the `± x` form that action's own tools
// write (its pages show `range` verbatim), and the interval itself is in `extra`.
//
// That third-party action renders name, unit and extra unescaped (its job summary and commit comments
// are Markdown, its page HTML), so every value from the results file is reduced to plain characters
// first (`gabText`): whatever a results file holds, it stays one inert piece of text there.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { halfWidth, roundToInterval } from '../stats/display.js';
import { summarize } from '../stats/index.js';
import { significant as fmt } from '../model/numbers.js';

/**
 * @param {import('#model/results.js').Results} results
 * @returns {{ bigger: any[], smaller: any[] }}
 */
export function gabEntries(results) {
  /** @type {{ bigger: any[], smaller: any[] }} */
  const out = { bigger: [], smaller: [] };
  for (const cell of results.cells.filter((c) => c.status === 'ok')) {
    for (const m of cell.metrics) {
      if (m.samples.length === 0) continue;
      const s = summarize(m.samples);
      const half = halfWidth(s.median, s.low, s.high);
      const [benchmark, metric, env, distro] = [cell.benchmark, m.metric, cell.environmentKey, cell.distro].map(
        gabText,
      );
      const entry = {
        name: `${benchmark} ${metric} [${env}/${distro}]`,
        unit: gabText(m.unit),
        value: roundToInterval(s.median, half),
        ...(half > 0 ? { range: `± ${half}` } : {}),
        extra: `95% CI ${fmt(s.low)} .. ${fmt(s.high)}; median of ${s.n} samples; run ${gabText(results.run.id)}`,
      };
      (m.better === 'higher' ? out.bigger : out.smaller).push(entry);
    }
  }
  return out;
}

/**
 * Writes DIR/bigger-is-better.json and DIR/smaller-is-better.json; returns their paths.
 * @param {import('#model/results.js').Results} results @param {string} dir
 */
export async function writeGabExport(results, dir) {
  const { bigger, smaller } = gabEntries(results);
  await mkdir(dir, { recursive: true });
  const files = [path.join(dir, 'bigger-is-better.json'), path.join(dir, 'smaller-is-better.json')];
  await writeFile(files[0], JSON.stringify(bigger, null, 2) + '\n');
  await writeFile(files[1], JSON.stringify(smaller, null, 2) + '\n');
  return files;
}

/**
 * A value from data as plain text for github-action-benchmark: only letters, digits, space and
 * `. _ / @ : -` are kept (every other character becomes `-`), at most 200 characters; and what Markdown
 * would still make of those is broken up by a `-`: `_` at a word's edge (emphasis), `://` (a URL),
 * `www.` (an autolink) and an `@` that starts a word (an @mention, which notifies in a commit
 * comment). Real names (`container.create_ms`,
 * `dind@20.10`, `debian`) pass unchanged.
 * @param {unknown} value
 */
export function gabText(value) {
  return String(value ?? '')
    .slice(0, 200)
    .replace(/[^A-Za-z0-9 ._/@:-]/g, '-')
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '-')
    .replace(/:\/\//g, ':-//')
    .replace(/\b(w)(ww\.)/gi, '$1-$2')
    .replace(/(?<![A-Za-z0-9])@/g, '-');
}
