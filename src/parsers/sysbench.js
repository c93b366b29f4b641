// Parser for sysbench 1.0 text output (cpu, threads, memory, fileio), run with `--histogram=on`.
// sysbench prints one configurable percentile; the histogram gives the rest (p50, p95, p99).
import { ParseError } from './parse-error.js';

/** @typedef {{metric: string, unit: string, better: 'higher' | 'lower', value: number}} Metric */

const TOOL = 'sysbench';

/**
 * @param {string} text the complete stdout of `sysbench <test> ... run`
 * @param {'cpu' | 'threads' | 'memory' | 'fileio'} test
 * @returns {Metric[]}
 */
export function parseSysbench(text, test) {
  const lines = text.split('\n');
  if (!/^sysbench \d+\.\d+/.test(lines[0] ?? '')) {
    throw new ParseError(TOOL, 'not sysbench output (no "sysbench <version>" banner)', { lineNumber: 1, line: lines[0] ?? '' });
  }
  /** @type {Metric[]} */
  const metrics = [];
  const add = (/** @type {string} */ metric, /** @type {string} */ unit, /** @type {'higher'|'lower'} */ better, /** @type {number} */ value) =>
    metrics.push({ metric, unit, better, value });

  /** Finds `label: number` and returns the number; a label with a non-number is an offending line. */
  const field = (/** @type {RegExp} */ label, /** @type {boolean} */ required = true) => {
    for (let i = 0; i < lines.length; i++) {
      const m = lines[i].match(label);
      if (!m) continue;
      const value = Number(m[1]);
      if (m[1] === undefined || !Number.isFinite(value)) {
        throw new ParseError(TOOL, 'expected a number', { lineNumber: i + 1, line: lines[i] });
      }
      return value;
    }
    if (!required) return null;
    throw new ParseError(TOOL, `missing ${label.source.replace(/\\s[*+]|\\|\^|\(.*$/g, ' ').trim()} (${test} test)`, lastLine(lines));
  };

  const totalTime = /** @type {number} */ (field(/^\s*total time:\s+(\S+?)s\s*$/));
  const events = /** @type {number} */ (field(/^\s*total number of events:\s+(\S+)\s*$/));
  add('events_total', 'events', 'higher', events);
  add('latency_avg_ms', 'ms', 'lower', /** @type {number} */ (field(/^\s*avg:\s+(\S+)\s*$/)));
  add('latency_max_ms', 'ms', 'lower', /** @type {number} */ (field(/^\s*max:\s+(\S+)\s*$/)));

  switch (test) {
    case 'cpu':
      add('events_per_second', 'events/s', 'higher', /** @type {number} */ (field(/^\s*events per second:\s+(\S+)\s*$/)));
      break;
    case 'threads':
      add('events_per_second', 'events/s', 'higher', round(events / totalTime));
      break;
    case 'memory': {
      const i = lines.findIndex((l) => /MiB transferred/.test(l));
      const m = i >= 0 ? lines[i].match(/^([\d.]+) MiB transferred \(([\d.]+) MiB\/sec\)\s*$/) : null;
      if (!m) throw new ParseError(TOOL, 'expected "<n> MiB transferred (<n> MiB/sec)"', i >= 0 ? { lineNumber: i + 1, line: lines[i] } : lastLine(lines));
      add('throughput_mib_per_s', 'MiB/s', 'higher', Number(m[2]));
      add('operations_per_second', 'ops/s', 'higher', /** @type {number} */ (field(/^Total operations: \d+ \((\S+) per second\)\s*$/)));
      break;
    }
    case 'fileio':
      add('reads_per_s', 'ops/s', 'higher', /** @type {number} */ (field(/^\s*reads\/s:\s+(\S+)\s*$/)));
      add('writes_per_s', 'ops/s', 'higher', /** @type {number} */ (field(/^\s*writes\/s:\s+(\S+)\s*$/)));
      add('fsyncs_per_s', 'ops/s', 'higher', /** @type {number} */ (field(/^\s*fsyncs\/s:\s+(\S+)\s*$/)));
      add('read_mib_per_s', 'MiB/s', 'higher', /** @type {number} */ (field(/^\s*read, MiB\/s:\s+(\S+)\s*$/)));
      add('written_mib_per_s', 'MiB/s', 'higher', /** @type {number} */ (field(/^\s*written, MiB\/s:\s+(\S+)\s*$/)));
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
    if (!m || !Number.isFinite(Number(m[2]))) throw new ParseError(TOOL, 'expected a number', { lineNumber: i + 1, line: lines[i] });
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
  if (rows.length === 0) throw new ParseError(TOOL, 'empty latency histogram', { lineNumber: start + 1, line: lines[start] });
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
