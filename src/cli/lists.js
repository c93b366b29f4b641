// Parsing of comma-separated option values against the valid names, with an error that lists them.
import { InvalidArgumentError } from 'commander';

/**
 * @param {readonly string[]} valid
 * @param {string} what e.g. "benchmark"
 * @returns {(value: string) => string[]}
 */
export function listOf(valid, what) {
  return (value) => {
    const items = value.split(',').map((s) => s.trim()).filter(Boolean);
    if (items.length === 0) throw new InvalidArgumentError(`no ${what} given; valid: ${valid.join(', ')}`);
    const unknown = items.filter((i) => !valid.includes(i));
    if (unknown.length) {
      throw new InvalidArgumentError(`unknown ${what}${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; valid: ${valid.join(', ')}`);
    }
    return [...new Set(items)];
  };
}

/** @param {string} value */
export function positiveInt(value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number of at least 1, got ${JSON.stringify(value)}`);
  return n;
}
