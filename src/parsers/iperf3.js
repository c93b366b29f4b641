// iperf3 --json: throughput as the receiver saw it (what crossed the path), and the sender's TCP
// retransmits (a sign of drops on the path, e.g. an MTU mismatch). Also the median of the counted
// intervals' throughput (the client's, i.e. the sender's, per `-i` interval; those in the `-O` ramp are
// left out): a stall in one interval moves the end total but not the median.
import { ParseError } from './parse-error.js';

/**
 * @param {string} text iperf3 --json output of one client run
 * @returns {{throughput_mbps: number, retransmits: number | null, bytes_received: number,
 *   interval_median_mbps: number | null, intervals: number}}
 *   interval_median_mbps: null when iperf3 reported no counted interval (`-i 0`); intervals: how many counted
 */
export function parseIperf3(text) {
  /** @type {any} */
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const lines = text.split('\n');
    const i = Math.max(
      0,
      lines.findIndex((l) => l.trim() !== ''),
    );
    throw new ParseError('iperf3', `not JSON (${/** @type {Error} */ (e).message}); was --json passed?`, {
      lineNumber: i + 1,
      line: lines[i] ?? '',
    });
  }
  if (doc.error) throw new ParseError('iperf3', `iperf3 reported an error: ${doc.error}`, null);
  const received = doc.end?.sum_received;
  const sent = doc.end?.sum_sent;
  if (!received || typeof received.bits_per_second !== 'number' || typeof received.bytes !== 'number') {
    throw new ParseError('iperf3', 'no end.sum_received with bits_per_second and bytes (a UDP or aborted test?)', null);
  }
  if (received.bytes <= 0) throw new ParseError('iperf3', 'the receiver got 0 bytes', null);
  const counted = countedIntervals(doc.intervals);
  return {
    throughput_mbps: received.bits_per_second / 1e6,
    retransmits: typeof sent?.retransmits === 'number' ? sent.retransmits : null,
    bytes_received: received.bytes,
    interval_median_mbps: counted.length ? median(counted) / 1e6 : null,
    intervals: counted.length,
  };
}

/**
 * Bits per second of each interval iperf3 counted (not `omitted`); an interval without a finite rate is
 * refused, as iperf3 never writes one.
 * @param {unknown} intervals the document's `intervals`
 * @returns {number[]}
 */
function countedIntervals(intervals) {
  if (intervals === undefined) return [];
  if (!Array.isArray(intervals)) throw new ParseError('iperf3', '"intervals" is not a list', null);
  /** @type {number[]} */
  const rates = [];
  for (const [i, interval] of intervals.entries()) {
    const sum = interval?.sum;
    if (sum?.omitted === true) continue;
    if (typeof sum?.bits_per_second !== 'number' || !Number.isFinite(sum.bits_per_second))
      throw new ParseError('iperf3', `interval ${i + 1} has no sum.bits_per_second`, null);
    rates.push(sum.bits_per_second);
  }
  return rates;
}

/** @param {number[]} xs non-empty */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
