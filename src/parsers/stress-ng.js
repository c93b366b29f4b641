// Parser for stress-ng 0.15 output: the YAML documents of `--yaml /dev/stdout` (one per stress-ng run,
// machine-readable, preferred over the `--metrics-brief` table) and the `--timestamp -v` log on stderr,
// whose "<stressor>: started" line is the first instant the workload itself records while working.
import { LineCounter, parseAllDocuments } from 'yaml';
import { ParseError } from './parse-error.js';

/** @typedef {import('./parse-error.js').Metric} Metric */

const TOOL = 'stress-ng';

/**
 * Throughput per stressor from the YAML documents: bogo ops per second of wall-clock time (what the
 * job gets done) and per second of CPU time (how efficiently the CPU time it got was used).
 * @param {string} text stdout: one or more YAML documents
 * @param {string[]} stressors those that must be present, e.g. ["cpu", "vm"]
 * @returns {Metric[]}
 */
export function parseStressNgYaml(text, stressors) {
  const lineCounter = new LineCounter();
  const lines = text.split('\n');
  const at = (/** @type {number} */ offset) => {
    const { line } = lineCounter.linePos(offset);
    return { lineNumber: line, line: lines[line - 1] ?? '' };
  };
  /** @type {Map<string, {entry: Record<string, unknown>, offset: number}>} */
  const found = new Map();
  for (const doc of parseAllDocuments(text, { lineCounter })) {
    if (doc.errors.length) throw new ParseError(TOOL, `not YAML (${doc.errors[0].code})`, at(doc.errors[0].pos[0]));
    const metrics = doc.get('metrics', true);
    if (!metrics) continue;
    const node = /** @type {{items?: unknown, range?: number[]}} */ (metrics);
    const items = node.items;
    if (!Array.isArray(items)) throw new ParseError(TOOL, '"metrics" is not a list', at(node.range?.[0] ?? 0));
    for (const item of items) {
      const entry = item.toJSON();
      if (!entry || typeof entry.stressor !== 'string')
        throw new ParseError(TOOL, 'a metrics entry without "stressor"', at(item.range?.[0] ?? 0));
      found.set(entry.stressor, { entry, offset: item.range?.[0] ?? 0 });
    }
  }
  /** @type {Metric[]} */
  const out = [];
  for (const s of stressors) {
    const f = found.get(s);
    if (!f) throw new ParseError(TOOL, `no metrics for the ${s} stressor`, lastLine(lines));
    const num = (/** @type {string} */ key) => {
      const v = f.entry[key];
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        const i = lines.findIndex((l, n) => n + 1 >= at(f.offset).lineNumber && l.trim().startsWith(`${key}:`));
        throw new ParseError(
          TOOL,
          `${s}: expected a number for ${key}`,
          i >= 0 ? { lineNumber: i + 1, line: lines[i] } : at(f.offset),
        );
      }
      return v;
    };
    out.push({
      metric: `${s}.bogo_ops_per_s`,
      unit: 'bogo-ops/s',
      better: 'higher',
      value: round(num('bogo-ops-per-second-real-time')),
    });
    out.push({
      metric: `${s}.bogo_ops_per_cpu_s`,
      unit: 'bogo-ops/s',
      better: 'higher',
      value: round(num('bogo-ops-per-second-usr-sys-time')),
    });
  }
  return out;
}

/**
 * When the first instance of `stressor` started working, from the `--timestamp -v` log (run with
 * TZ=UTC), as ms since the epoch. stress-ng prints hundredths of a second, truncated: the middle of that
 * 10 ms interval is returned, so the error is at most +-5 ms and not biased.
 * @param {string} log stderr of stress-ng
 * @param {string} stressor e.g. "cpu"
 * @param {number} nearEpochMs a time within 12 h of the event (the start call) that supplies the date
 */
export function parseStressNgStart(log, stressor, nearEpochMs) {
  const lines = log.split('\n');
  const re = new RegExp(`^stress-ng: (\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d\\d) debug: \\[\\d+\\] ${stressor}: started \\[`);
  const i = lines.findIndex((l) => l.includes(`${stressor}: started [`));
  if (i < 0)
    throw new ParseError(
      TOOL,
      `no "${stressor}: started" line in the log (was it run with --timestamp -v?)`,
      lastLine(lines),
    );
  const m = lines[i].match(re);
  if (!m)
    throw new ParseError(TOOL, 'expected "stress-ng: HH:MM:SS.cc debug: [pid] <stressor>: started"', {
      lineNumber: i + 1,
      line: lines[i],
    });
  const day = new Date(nearEpochMs);
  let t = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), +m[1], +m[2], +m[3], +m[4] * 10 + 5);
  // Around midnight the log's clock may be on the next (or previous) day.
  if (t - nearEpochMs > 12 * 3600_000) t -= 86400_000;
  else if (nearEpochMs - t > 12 * 3600_000) t += 86400_000;
  return t;
}

/** @param {string[]} lines */
function lastLine(lines) {
  let i = lines.length - 1;
  while (i > 0 && lines[i].trim() === '') i--;
  return { lineNumber: i + 1, line: lines[i] ?? '' };
}

const round = (/** @type {number} */ x) => Math.round(x * 100) / 100;
