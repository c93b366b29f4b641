// Parser for sysbench 1.0 text output (cpu, threads, memory, fileio), run with `--histogram=on`.
// sysbench prints one configurable percentile; the histogram gives the rest (p50, p95, p99).
import { ParseError } from './parse-error.js';

/** @typedef {import('./parse-error.js').Metric} Metric */

const TOOL = 'sysbench';

/**
 * @param {string} text the complete stdout of `sysbench <test> ... run`
 * @param {'cpu' | 'threads' | 'memory' | 'fileio'} test
 * @returns {Metric[]}
 */
export function parseSysbench(text, test) {
  const lines = text.split('\n');
  if (!/^sysbench \d+\.\d+/.test(lines[0] ?? '')) {
    throw new ParseError(TOOL, 'not sysbench output (no "sysbench <version>" banner)', {
      lineNumber: 1,
      line: lines[0] ?? '',
    });
  }
  /** @type {Metric[]} */
  const metrics = [];
  const add = (
    /** @type {string} */ metric,
    /** @type {string} */ unit,
    /** @type {'higher'|'lower'} */ better,
    /** @type {number} */ value,
  ) => metrics.push({ metric, unit, better, value });

  /**
   * Finds the line `label: <number><unit>` and returns the number. A line with the label but something
   * else than a number is the offending line; no such line at all is a missing field.
   * @param {string} label text before the colon, e.g. "total time"
   * @param {string} [unit] a suffix printed right after the number, e.g. "s"
   */
  const field = (label, unit = '') => {
    const head = new RegExp(`^\\s*${label.replace(/[/()]/g, '\\$&')}:\\s*(.*?)\\s*$`);
    for (let i = 0; i < lines.length; i++) {
      const m = lines[i].match(head);
      if (!m) continue;
      const text = unit && m[1].endsWith(unit) ? m[1].slice(0, -unit.length) : m[1];
      const value = Number(text);
      if (text === '' || !Number.isFinite(value)) {
        throw new ParseError(TOOL, 'expected a number', { lineNumber: i + 1, line: lines[i] });
      }
      return value;
    }
    throw new ParseError(TOOL, `missing "${label}:" (${test} test)`, lastLine(lines));
  };

  const totalTime = field('total time', 's');
  const events = field('total number of events');
  add('events_total', 'events', 'higher', events);
  add('latency_avg_ms', 'ms', 'lower', field('avg'));
  add('latency_max_ms', 'ms', 'lower', field('max'));

  switch (test) {
    case 'cpu':
      add('events_per_second', 'events/s', 'higher', field('events per second'));
      break;
    case 'threads':
      add('events_per_second', 'events/s', 'higher', round(events / totalTime));
      break;
    case 'memory': {
      const transferred = lines.findIndex((l) => /MiB transferred/.test(l));
      const m =
        transferred >= 0 ? lines[transferred].match(/^([\d.]+) MiB transferred \(([\d.]+) MiB\/sec\)\s*$/) : null;
      if (!m)
        throw new ParseError(
          TOOL,
          'expected "<n> MiB transferred (<n> MiB/sec)"',
          transferred >= 0 ? { lineNumber: transferred + 1, line: lines[transferred] } : lastLine(lines),
        );
      add('throughput_mib_per_s', 'MiB/s', 'higher', Number(m[2]));
      const ops = lines.findIndex((l) => l.startsWith('Total operations:'));
      const o = ops >= 0 ? lines[ops].match(/^Total operations: \d+ \(([\d.]+) per second\)\s*$/) : null;
      if (!o)
        throw new ParseError(
          TOOL,
          'expected "Total operations: <n> (<n> per second)"',
          ops >= 0 ? { lineNumber: ops + 1, line: lines[ops] } : lastLine(lines),
        );
      add('operations_per_second', 'ops/s', 'higher', Number(o[1]));
      break;
    }
    case 'fileio':
      add('reads_per_s', 'ops/s', 'higher', field('reads/s'));
      add('writes_per_s', 'ops/s', 'higher', field('writes/s'));
      add('fsyncs_per_s', 'ops/s', 'higher', field('fsyncs/s'));
      add('read_mib_per_s', 'MiB/s', 'higher', field('read, MiB/s'));
      add('written_mib_per_s', 'MiB/s', 'higher', field('written, MiB/s'));
      break;
    default:
      throw new Error(`unknown sysbench test ${test}`);
  }

  const histogram = parseHistogram(lines);
  if (histogram.length > 0) {
    for (const p of [50, 95, 99]) add(`latency_p${p}_ms`, 'ms', 'lower', percentile(histogram, p));
  } else {
    // Without --histogram, sysbench still prints its one configured percentile.
    const i = lines.findIndex((l) => /^\s*(\d+)th percentile:/.test(l));
    if (i < 0) throw new ParseError(TOOL, 'no latency histogram and no percentile line', lastLine(lines));
    const m = /** @type {RegExpMatchArray} */ (lines[i].match(/^\s*(\d+)th percentile:\s+(\S+)\s*$/));
    if (!m || !Number.isFinite(Number(m[2])))
      throw new ParseError(TOOL, 'expected a number', { lineNumber: i + 1, line: lines[i] });
    add(`latency_p${m[1]}_ms`, 'ms', 'lower', Number(m[2]));
  }
  return metrics;
}

/**
 * Rows of `--histogram=on`: "       1.082 |*****   40". Returns [value_ms, count] in order.
 * @param {string[]} lines
 * @returns {[number, number][]}
 */
function parseHistogram(lines) {
  const start = lines.findIndex((l) => l.startsWith('Latency histogram'));
  if (start < 0) return [];
  /** @type {[number, number][]} */
  const rows = [];
  for (let i = start + 2; i < lines.length && lines[i].trim() !== ''; i++) {
    const m = lines[i].match(/^\s*([\d.]+) \|\**\s+(\d+)\s*$/);
    if (!m) throw new ParseError(TOOL, 'malformed latency histogram row', { lineNumber: i + 1, line: lines[i] });
    rows.push([Number(m[1]), Number(m[2])]);
  }
  if (rows.length === 0)
    throw new ParseError(TOOL, 'empty latency histogram', { lineNumber: start + 1, line: lines[start] });
  return rows;
}

/**
 * The bucket value reached after round(p% of events), as sysbench itself computes its percentile line
 * (so p99 here equals the "99th percentile" sysbench prints with --percentile=99).
 * @param {[number, number][]} rows @param {number} p
 */
function percentile(rows, p) {
  const total = rows.reduce((s, [, c]) => s + c, 0);
  const rank = Math.max(1, Math.floor((p / 100) * total + 0.5));
  let seen = 0;
  for (const [value, count] of rows) {
    seen += count;
    if (seen >= rank) return value;
  }
  return rows[rows.length - 1][0];
}

/** @param {string[]} lines */
function lastLine(lines) {
  let i = lines.length - 1;
  while (i > 0 && lines[i].trim() === '') i--;
  return { lineNumber: i + 1, line: lines[i] ?? '' };
}

const round = (/** @type {number} */ x) => Math.round(x * 100) / 100;
