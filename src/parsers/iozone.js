// Parser for IOzone 3 automatic-mode output (`iozone -i 0 -i 1 ...`): the header row naming the columns
// ("kB reclen write rewrite read reread ...") and the data row below it, in kBytes/sec.
import { ParseError } from './parse-error.js';

/** @typedef {import('./parse-error.js').Metric} Metric */

const TOOL = 'iozone';
export const IOZONE_TESTS = ['write', 'rewrite', 'read', 'reread'];

/**
 * @param {string} text stdout of iozone
 * @returns {Metric[]} MiB/s per test
 */
export function parseIozone(text) {
  const lines = text.split('\n');
  if (!lines.some((l) => l.includes('Iozone: Performance Test of File I/O'))) {
    throw new ParseError(TOOL, 'not IOzone output (no "Iozone: Performance Test of File I/O" banner)', {
      lineNumber: 1,
      line: lines[0] ?? '',
    });
  }
  if (!lines.some((l) => /Output is in kBytes\/sec/.test(l))) {
    throw new ParseError(TOOL, 'missing "Output is in kBytes/sec" (other units are not supported)', lastLine(lines));
  }
  const h = lines.findIndex((l) => /^\s*kB\s+reclen\s+write\s/.test(l));
  if (h < 0) throw new ParseError(TOOL, 'no result table (header "kB reclen write ...")', lastLine(lines));
  const columns = lines[h].trim().split(/\s+/);
  const row = lines[h + 1] ?? '';
  const values = row.trim().split(/\s+/);
  /** @type {Metric[]} */
  const out = [];
  for (const test of IOZONE_TESTS) {
    const i = columns.indexOf(test);
    const v = Number(values[i]);
    if (i < 0 || values[i] === undefined || !Number.isFinite(v)) {
      throw new ParseError(TOOL, `expected a number in the "${test}" column`, { lineNumber: h + 2, line: row });
    }
    out.push({
      metric: `${test}_mib_per_s`,
      unit: 'MiB/s',
      better: 'higher',
      value: Math.round((v / 1024) * 100) / 100,
    });
  }
  return out;
}

/** @param {string[]} lines */
function lastLine(lines) {
  let i = lines.length - 1;
  while (i > 0 && lines[i].trim() === '') i--;
  return { lineNumber: i + 1, line: lines[i] ?? '' };
}
