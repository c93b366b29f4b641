// sockperf ping-pong: request-response latency. sockperf reports half the round trip (its
// "latency" is RTT/2) in microseconds, with its own percentiles over the valid (post-warm-up) window.
import { ParseError } from './parse-error.js';

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * @param {string} text sockperf ping-pong output (stdout and stderr together)
 * @returns {{avg_us: number, p50_us: number, p90_us: number, p99_us: number, p999_us: number, max_us: number, observations: number}}
 */
export function parseSockperf(text) {
  const lines = text.replace(ANSI, '').split('\n');
  /** @type {Record<string, number>} */
  const found = {};
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    let m;
    if ((m = line.match(/avg-latency=([\d.]+)/))) found.avg_us = num(m[1], i, raw);
    else if ((m = line.match(/Total (\d+) observations/))) found.observations = num(m[1], i, raw);
    else if ((m = line.match(/---> <MAX> observation =\s*([\d.]+)/))) found.max_us = num(m[1], i, raw);
    else if ((m = line.match(/---> percentile ([\d.]+) =\s*([\d.]+)/))) found[`p${m[1]}`] = num(m[2], i, raw);
    else if (/^sockperf: ERROR/i.test(line))
      throw new ParseError('sockperf', 'sockperf reported an error', { lineNumber: i + 1, line: raw });
  }
  const want = {
    avg_us: 'avg-latency',
    observations: 'Total N observations',
    max_us: '<MAX> observation',
    'p50.000': 'percentile 50',
    'p90.000': 'percentile 90',
    'p99.000': 'percentile 99',
    'p99.900': 'percentile 99.9',
  };
  for (const [k, what] of Object.entries(want)) {
    if (!(k in found))
      throw new ParseError(
        'sockperf',
        `no "${what}" line (did the test run? is this ping-pong output?)`,
        firstLine(lines),
      );
  }
  if (found.observations === 0)
    throw new ParseError('sockperf', 'zero observations: no reply came back', firstLine(lines));
  return {
    avg_us: found.avg_us,
    p50_us: found['p50.000'],
    p90_us: found['p90.000'],
    p99_us: found['p99.000'],
    p999_us: found['p99.900'],
    max_us: found.max_us,
    observations: found.observations,
  };
}

/** @param {string} s @param {number} i @param {string} line */
function num(s, i, line) {
  const v = Number(s);
  if (!Number.isFinite(v)) throw new ParseError('sockperf', `not a number: ${s}`, { lineNumber: i + 1, line });
  return v;
}

/** @param {string[]} lines */
function firstLine(lines) {
  const i = lines.findIndex((l) => l.trim() !== '');
  return i < 0 ? null : { lineNumber: i + 1, line: lines[i] };
}
