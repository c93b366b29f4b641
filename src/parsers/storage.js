// Parser for the storage probe's JSON (src/benchmarks/storage-probe.py): copy-up time and small-file
// metadata rates, on the container layer and on a volume.
import { ParseError } from './parse-error.js';

/** @typedef {import('./parse-error.js').Metric} Metric */

const TOOL = 'storage probe';
export const STORAGE_LOCATIONS = ['layer', 'volume'];
export const METADATA_OPS = ['create', 'stat', 'rename', 'delete'];

/**
 * @param {string} text stdout of the probe: one JSON document
 * @returns {Metric[]}
 */
export function parseStorageProbe(text) {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.trim() !== '');
  const at = { lineNumber: i + 1, line: lines[Math.max(i, 0)] ?? '' };
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ParseError(TOOL, `not JSON (${/** @type {Error} */ (e).message})`, at);
  }
  const num = (/** @type {unknown} */ v, /** @type {string} */ what) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new ParseError(TOOL, `${what} is not a non-negative number`, at);
    return v;
  };
  /** @type {Metric[]} */
  const out = [];
  for (const loc of STORAGE_LOCATIONS) {
    out.push({
      metric: `copy_up.${loc}_ms`,
      unit: 'ms',
      better: 'lower',
      value: round(num(doc?.copyUp?.[loc], `copyUp.${loc}`), 3),
    });
  }
  for (const loc of STORAGE_LOCATIONS) {
    for (const op of METADATA_OPS) {
      out.push({
        metric: `metadata.${loc}.${op}_per_s`,
        unit: 'ops/s',
        better: 'higher',
        value: round(num(doc?.metadata?.[loc]?.[op], `metadata.${loc}.${op}`), 1),
      });
    }
  }
  return out;
}

const round = (/** @type {number} */ x, /** @type {number} */ digits) => Math.round(x * 10 ** digits) / 10 ** digits;
