// Per-metric thresholds for history verdicts, from an optional JSON file (`compare --config FILE`):
//
//   { "defaults": { "alpha": 0.01, "minChange": 0.05 },
//     "metrics": { "lifecycle/*": { "minChange": 0.15 }, "sysbench/fileio.*": { "minChange": 0.10 } } }
//
// Keys of "metrics" are "benchmark/metric" patterns where * matches anything; every matching entry applies,
// in file order, over the defaults (so put general patterns first, specific ones after).
import Ajv from 'ajv';
import { readJsonFile } from '../results/read-json.js';
import { DEFAULT_RULE } from '../stats/verdicts.js';

const ruleSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    alpha: { type: 'number', exclusiveMinimum: 0, maximum: 0.5, description: 'significance level of the test' },
    minChange: { type: 'number', minimum: 0, description: 'smallest relative change that counts, 0.05 = 5%' },
    minRuns: { type: 'integer', minimum: 2, description: 'earlier runs needed before a verdict' },
    minSamples: { type: 'integer', minimum: 1, description: 'samples a run needs to count' },
    window: { type: 'integer', minimum: 2, description: 'how many latest earlier runs to compare with' },
  },
};
const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { defaults: ruleSchema, metrics: { type: 'object', additionalProperties: ruleSchema } },
};
const validate = new /** @type {any} */ (Ajv)({ allErrors: true }).compile(configSchema);

/** @typedef {{ defaults: import('../stats/verdicts.js').Rule, metrics: Array<[RegExp, Partial<import('../stats/verdicts.js').Rule>]> }} CompareConfig */

/** @returns {CompareConfig} */
export function defaultConfig() {
  return { defaults: { ...DEFAULT_RULE }, metrics: [] };
}

/**
 * @param {string} file
 * @returns {Promise<CompareConfig>}
 */
export async function loadConfig(file) {
  const advice = 'fix it, or leave out --config to use the default thresholds';
  return parseConfig(await readJsonFile(file, { what: 'compare config', advice }), file);
}

/**
 * @param {unknown} doc @param {string} where
 * @returns {CompareConfig}
 */
export function parseConfig(doc, where) {
  if (!validate(doc)) {
    const problems = (validate.errors || []).map(
      (/** @type {any} */ e) =>
        `${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty}; allowed: ${Object.keys(ruleSchema.properties).join(', ')})` : ''}`,
    );
    throw new Error(`${where}: not a valid compare config:\n  ${problems.join('\n  ')}`);
  }
  const d = /** @type {any} */ (doc);
  const defaults = { ...DEFAULT_RULE, ...(d.defaults ?? {}) };
  if (defaults.minRuns > defaults.window)
    throw new Error(
      `${where}: defaults.minRuns (${defaults.minRuns}) is larger than window (${defaults.window}): no verdict could ever be given`,
    );
  return {
    defaults,
    metrics: Object.entries(d.metrics ?? {}).map(([pattern, rule]) => [patternToRegExp(pattern), rule]),
  };
}

/**
 * The rule for one metric: defaults, then every matching pattern in order.
 * @param {CompareConfig} config @param {string} benchmark @param {string} metric
 * @returns {import('../stats/verdicts.js').Rule}
 */
export function ruleFor(config, benchmark, metric) {
  let rule = { ...config.defaults };
  for (const [re, over] of config.metrics) if (re.test(`${benchmark}/${metric}`)) rule = { ...rule, ...over };
  return rule;
}

/** @param {string} pattern */
function patternToRegExp(pattern) {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}
