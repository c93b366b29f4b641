// iperf3 --json: throughput as the receiver saw it (what crossed the path), and the sender's TCP
// retransmits (a sign of drops on the path, e.g. an MTU mismatch).
import { ParseError } from './parse-error.js';

/**
 * @param {string} text iperf3 --json output of one client run
 * @returns {{throughput_mbps: number, retransmits: number | null, bytes_received: number}}
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
  return {
    throughput_mbps: received.bits_per_second / 1e6,
    retransmits: typeof sent?.retransmits === 'number' ? sent.retransmits : null,
    bytes_received: received.bytes,
  };
}
