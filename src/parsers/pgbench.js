// pgbench: the summary (tps, average latency, failed transactions) and latency percentiles computed
// from its per-transaction log (-l), because pgbench itself prints only averages.
import { quantileSorted } from 'simple-statistics';
import { ParseError } from './parse-error.js';

export const LOG_MARKER = '--- per-transaction log ---';

/**
 * @param {string} text pgbench's output, then LOG_MARKER, then the -l log files
 * @returns {{tps: number, latency_avg_ms: number, p50_ms: number, p95_ms: number, p99_ms: number, transactions: number, failed: number}}
 */
export function parsePgbench(text) {
  const lines = text.split('\n');
  const marker = lines.indexOf(LOG_MARKER);
  const summaryEnd = marker < 0 ? lines.length : marker;
  /** @type {Record<string, number>} */
  const s = {};
  for (let i = 0; i < summaryEnd; i++) {
    const line = lines[i];
    let m;
    if ((m = line.match(/^tps = ([\d.]+) \(without initial connection time\)/))) s.tps = Number(m[1]);
    else if ((m = line.match(/^latency average = ([\d.]+) ms/))) s.latency_avg_ms = Number(m[1]);
    else if ((m = line.match(/^number of transactions actually processed: (\d+)/))) s.transactions = Number(m[1]);
    else if ((m = line.match(/^number of failed transactions: (\d+)/))) s.failed = Number(m[1]);
    else if (/^pgbench: error|FATAL|could not connect/.test(line))
      throw new ParseError('pgbench', 'pgbench reported an error', { lineNumber: i + 1, line });
  }
  for (const k of ['tps', 'latency_avg_ms', 'transactions']) {
    if (!(k in s)) {
      const i = lines.findIndex((l) => l.trim() !== '');
      throw new ParseError(
        'pgbench',
        `no ${k} in the summary (did the run finish?)`,
        i < 0 ? null : { lineNumber: i + 1, line: lines[i] },
      );
    }
  }
  if (marker < 0)
    throw new ParseError('pgbench', `no "${LOG_MARKER}" section: percentiles need the per-transaction log (-l)`, null);
  // Log lines: client_id transaction_no latency_us script_no epoch_s epoch_us (latency in microseconds).
  const latencies = [];
  for (let i = marker + 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const f = line.split(/\s+/);
    const us = Number(f[2]);
    if (f.length < 6 || !Number.isFinite(us)) {
      if (f[2] === 'failed' || f[2] === 'skipped') continue; // pgbench logs these without a latency
      throw new ParseError('pgbench', 'not a per-transaction log line (client txno latency_us script epoch us)', {
        lineNumber: i + 1,
        line: lines[i],
      });
    }
    latencies.push(us / 1000);
  }
  if (latencies.length === 0)
    throw new ParseError('pgbench', 'the per-transaction log is empty', { lineNumber: marker + 1, line: LOG_MARKER });
  if (latencies.length !== s.transactions) {
    throw new ParseError(
      'pgbench',
      `the log has ${latencies.length} transactions but the summary says ${s.transactions}`,
      { lineNumber: marker + 1, line: LOG_MARKER },
    );
  }
  latencies.sort((a, b) => a - b);
  return {
    tps: s.tps,
    latency_avg_ms: s.latency_avg_ms,
    p50_ms: quantileSorted(latencies, 0.5),
    p95_ms: quantileSorted(latencies, 0.95),
    p99_ms: quantileSorted(latencies, 0.99),
    transactions: s.transactions,
    failed: s.failed ?? 0,
  };
}
