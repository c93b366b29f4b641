// Per-metric thresholds, from an optional JSON file (`compare --config FILE`), in every mode (within a run,
// an A/B, against history):
//
//   { "defaults": { "alpha": 0.01, "threshold": 0.1 },
//     "metrics": { "lifecycle/*": { "threshold": 0.15 }, "sysbench/cpu.*": { "threshold": 0.03 } } }
//
// `threshold` is T, the practical threshold of the four outcomes (../model/change.js): the change that
// counts as a regression or improvement, and the band an equivalence must be proven within; without it,
// the family's default (FAMILY_THRESHOLDS). The other keys tune the history verdict (../stats/verdicts.js).
// Keys of "metrics" are "benchmark/metric" patterns where * matches anything; every matching entry applies,
// in file order, over the defaults (so put general patterns first, specific ones after). A pattern that
// matches no metric of the run is an error (checkPatterns), so a typo is never a silent default.
import Ajv from 'ajv';
import { readJsonFile } from '../results/read-json.js';
import { DEFAULT_RULE } from '../stats/verdicts.js';
import { defaultThreshold } from '../model/change.js';
import { patternToRegExp } from '../reading/gate.js';

const ruleSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    alpha: { type: 'number', exclusiveMinimum: 0, maximum: 0.5, description: 'significance level of the test' },
    minChange: { type: 'number', minimum: 0, description: 'smallest relative change that counts, 0.05 = 5%' },
    minRuns: { type: 'integer', minimum: 2, description: 'earlier runs needed before a verdict' },
    minSamples: { type: 'integer', minimum: 1, description: 'samples a run needs to count' },
    window: { type: 'integer', minimum: 2, description: 'how many latest earlier runs to compare with' },
    threshold: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 10,
      description: 'T: the change that counts, and the band equivalence is proven within, 0.1 = 10%',
    },
  },
};
const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { defaults: ruleSchema, metrics: { type: 'object', additionalProperties: ruleSchema } },
};
const validate = new Ajv.default({ allErrors: true }).compile(configSchema); // CommonJS: see ../results/schema.js

/**
 * @typedef {import('../stats/verdicts.js').Rule & { threshold?: number }} MetricRule
 * @typedef {{ defaults: MetricRule, metrics: Array<[RegExp, Partial<MetricRule>, string]>, file: string | null }} CompareConfig
 */

/** @returns {CompareConfig} */
export function defaultConfig() {
  return { defaults: { ...DEFAULT_RULE }, metrics: [], file: null };
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
    metrics: Object.entries(d.metrics ?? {}).map(([pattern, rule]) => [patternToRegExp(pattern), rule, pattern]),
    file: where,
  };
}

/**
 * The rule for one metric: defaults, then every matching pattern in order.
 * @param {CompareConfig} config @param {string} benchmark @param {string} metric
 * @returns {MetricRule}
 */
export function ruleFor(config, benchmark, metric) {
  let rule = { ...config.defaults };
  for (const [re, over] of config.metrics) if (re.test(`${benchmark}/${metric}`)) rule = { ...rule, ...over };
  return rule;
}

/**
 * T for one metric: the config's, else the family's default.
 * @param {CompareConfig} config
 * @returns {(benchmark: string, metric: string) => number}
 */
export const thresholdOf = (config) => (benchmark, metric) =>
  ruleFor(config, benchmark, metric).threshold ?? defaultThreshold(benchmark);

/**
 * Every "metrics" pattern of a config must match a metric of the run it is used on: a typo would otherwise
 * leave that metric at the default without a word.
 * @param {CompareConfig} config @param {Array<{ benchmark: string, metric: string }>} metrics the run's
 */
export function checkPatterns(config, metrics) {
  const names = metrics.map((m) => `${m.benchmark}/${m.metric}`);
  const unknown = config.metrics.filter(([re]) => !names.some((n) => re.test(n))).map(([, , p]) => p);
  if (unknown.length)
    throw new Error(
      `${config.file}: metrics ${unknown.map((p) => JSON.stringify(p)).join(', ')} match no metric of this run ` +
        `(its metrics look like ${JSON.stringify(names[0] ?? 'lifecycle/container.create_ms')}): fix the key or leave it out`,
    );
}
