// Parser for fio 3 `--output-format=json`: per job, IOPS and bandwidth (read + write) and the 99th
// percentile completion latency of the direction(s) that did I/O.
import { ParseError } from './parse-error.js';

/** @typedef {import('./parse-error.js').Metric} Metric */

const TOOL = 'fio';

/**
 * @param {string} text a JSON document: fio's own, or `{"<location>": <fio's document>, ...}`
 * @param {string[]} locations e.g. ["layer", "volume"]; [] when `text` is fio's own document
 * @param {string[]} jobs the job names that must be present
 * @returns {Metric[]} `<location>.<job>.<metric>`
 */
export function parseFio(text, locations, jobs) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ParseError(TOOL, `not JSON (${/** @type {Error} */ (e).message})`, firstBadLine(text));
  }
  /** @type {Metric[]} */
  const out = [];
  const sections = locations.length ? locations.map((l) => [l, doc?.[l]]) : [['', doc]];
  for (const [location, section] of sections) {
    const where = location ? `${location}: ` : '';
    if (!section || !Array.isArray(section.jobs))
      throw new ParseError(TOOL, `${where}no "jobs" array`, firstBadLine(text));
    for (const name of jobs) {
      const job = section.jobs.find((j) => j.jobname === name);
      if (!job) throw new ParseError(TOOL, `${where}no job "${name}"`, null);
      if (job.error) throw new ParseError(TOOL, `${where}job "${name}" failed with error ${job.error}`, null);
      const dirs = ['read', 'write'].map((d) => job[d]).filter((d) => d && d.total_ios > 0);
      if (dirs.length === 0) throw new ParseError(TOOL, `${where}job "${name}" did no I/O`, null);
      const num = (/** @type {unknown} */ v, /** @type {string} */ what) => {
        if (typeof v !== 'number' || !Number.isFinite(v))
          throw new ParseError(TOOL, `${where}job "${name}": ${what} is not a number`, null);
        return v;
      };
      const prefix = location ? `${location}.${name}` : name;
      const iops = dirs.reduce((s, d) => s + num(d.iops, 'iops'), 0);
      const bw = dirs.reduce((s, d) => s + num(d.bw_bytes, 'bw_bytes'), 0);
      const p99 = Math.max(...dirs.map((d) => num(d.clat_ns?.percentile?.['99.000000'], 'clat_ns.percentile.99')));
      out.push({ metric: `${prefix}.iops`, unit: 'IOPS', better: 'higher', value: round(iops) });
      out.push({ metric: `${prefix}.mib_per_s`, unit: 'MiB/s', better: 'higher', value: round(bw / 2 ** 20) });
      out.push({ metric: `${prefix}.clat_p99_ms`, unit: 'ms', better: 'lower', value: round(p99 / 1e6, 3) });
    }
  }
  return out;
}

/** The line where JSON parsing stopped making sense: the first line that does not look like JSON. @param {string} text */
function firstBadLine(text) {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.trim() !== '' && !/^\s*[{}[\]"]/.test(l));
  const n = i >= 0 ? i : 0;
  return { lineNumber: n + 1, line: lines[n] ?? '' };
}

const round = (/** @type {number} */ x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
