// redis-benchmark --csv: requests per second and latency percentiles per command (Redis 7's CSV has
// p50, p95 and p99; older versions only rps, which is refused with the header line).
import { ParseError } from './parse-error.js';

const COLUMNS = [
  'test',
  'rps',
  'avg_latency_ms',
  'min_latency_ms',
  'p50_latency_ms',
  'p95_latency_ms',
  'p99_latency_ms',
  'max_latency_ms',
];

/**
 * @param {string} text
 * @returns {{test: string, rps: number, avg_ms: number, p50_ms: number, p95_ms: number, p99_ms: number, max_ms: number}[]}
 */
export function parseRedisBenchmark(text) {
  const lines = text.split('\n');
  const h = lines.findIndex((l) => l.startsWith('"test"'));
  if (h < 0) {
    const i = lines.findIndex((l) => l.trim() !== '');
    throw new ParseError(
      'redis-benchmark',
      'no CSV header ("test","rps",...): was --csv passed, did it connect?',
      i < 0 ? null : { lineNumber: i + 1, line: lines[i] },
    );
  }
  return rowsOf(lines, h, lines.length);
}

/**
 * The results of one run: its header at line index `h`, its rows up to index `end` (line numbers reported
 * as in the whole output).
 * @param {string[]} lines @param {number} h @param {number} end
 */
function rowsOf(lines, h, end) {
  const header = cells(lines[h]);
  if (COLUMNS.some((c, k) => header[k] !== c)) {
    throw new ParseError('redis-benchmark', `unexpected CSV columns (want ${COLUMNS.join(',')})`, {
      lineNumber: h + 1,
      line: lines[h],
    });
  }
  const rows = [];
  for (let i = h + 1; i < end; i++) {
    if (!lines[i].trim()) continue;
    const c = cells(lines[i]);
    const values = c.slice(1).map(Number);
    if (c.length !== COLUMNS.length || values.some((v) => !Number.isFinite(v))) {
      throw new ParseError('redis-benchmark', 'not a CSV row of numbers', { lineNumber: i + 1, line: lines[i] });
    }
    const [rps, avg, , p50, p95, p99, max] = values;
    if (rps <= 0)
      throw new ParseError('redis-benchmark', 'zero requests per second', { lineNumber: i + 1, line: lines[i] });
    rows.push({ test: c[0], rps, avg_ms: avg, p50_ms: p50, p95_ms: p95, p99_ms: p99, max_ms: max });
  }
  if (!rows.length)
    throw new ParseError('redis-benchmark', 'a CSV header but no results', { lineNumber: h + 1, line: lines[h] });
  return rows;
}

/** @param {string} line */
const cells = (line) => line.split(',').map((s) => s.trim().replace(/^"|"$/g, ''));

/**
 * Several redis-benchmark --csv runs in one output, one after another (each begins with its header line):
 * each run's rows, every run parsed as one.
 * @param {string} text
 * @returns {ReturnType<typeof parseRedisBenchmark>[]}
 */
export function parseRedisBenchmarkRuns(text) {
  const lines = text.split('\n');
  const starts = lines.flatMap((l, i) => (l.startsWith('"test"') ? [i] : []));
  if (starts.length <= 1) return [parseRedisBenchmark(text)];
  return starts.map((s, k) => rowsOf(lines, s, starts[k + 1] ?? lines.length));
}
