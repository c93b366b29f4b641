// Benchmark parameters: each benchmark's own per profile, overridden per benchmark from a JSON config
// file (`dind-bench run --config FILE`), e.g. {"fio": {"size": "64M"}, "stress-ng": {"seconds": 5}}.
// Validated against the benchmarks' own parameters, so a typo is an error naming the file, the key and
// the valid choices, never a silently ignored setting.
import { BENCHMARKS } from '../benchmarks/index.js';
import { readJsonFile } from '../results/read-json.js';
import { profileParams } from './profiles.js';

/**
 * @typedef {Record<string, Record<string, string | number | boolean>>} ParamOverrides
 * @typedef {Record<string, import('../benchmarks/benchmark.js').Benchmark>} BenchmarkRegistry
 *   where benchmark names are looked up; the default everywhere is every benchmark (BENCHMARKS)
 */

export class ConfigError extends Error {}

/**
 * @param {string} file
 * @returns {Promise<ParamOverrides>}
 */
export async function loadParamOverrides(file) {
  const advice = "fix it, or leave out --config to run with the profile's parameters";
  return validateParamOverrides(
    await readJsonFile(file, { what: 'parameter config', advice, ErrorClass: ConfigError }),
    file,
  );
}

/**
 * @param {unknown} doc the parsed config
 * @param {string} file for the messages
 * @param {BenchmarkRegistry} [registry] the benchmarks the overrides are for
 * @returns {ParamOverrides}
 */
export function validateParamOverrides(doc, file, registry = BENCHMARKS) {
  const names = Object.keys(registry);
  if (!isObject(doc)) {
    throw new ConfigError(
      `${file}: expected an object of benchmark names to parameters, e.g. {"fio": {"size": "64M"}}; benchmarks: ${names.join(', ')}`,
    );
  }
  /** @type {ParamOverrides} */
  const out = {};
  for (const [bench, params] of Object.entries(doc)) {
    if (!(bench in registry))
      throw new ConfigError(`${file}: unknown benchmark "${bench}"; valid: ${names.join(', ')}`);
    const known = knownParams(registry[bench]);
    if (!isObject(params)) {
      throw new ConfigError(
        `${file}: "${bench}" must be an object of parameters; valid for ${bench}: ${describe(known)}`,
      );
    }
    out[bench] = {};
    for (const [key, value] of Object.entries(params)) {
      if (!(key in known)) {
        throw new ConfigError(`${file}: "${bench}.${key}" is not a parameter of ${bench}; valid: ${describe(known)}`);
      }
      const want = typeof known[key];
      if (
        typeof value !== want ||
        (want === 'number' && !(Number.isFinite(value) && /** @type {number} */ (value) >= 0))
      ) {
        throw new ConfigError(
          `${file}: "${bench}.${key}" must be a ${want === 'number' ? 'non-negative number' : want} like ${JSON.stringify(known[key])}, got ${JSON.stringify(value)}`,
        );
      }
      out[bench][key] = /** @type {string | number | boolean} */ (value);
    }
  }
  return out;
}

/**
 * The parameters one benchmark runs with in a profile (its own for the profile, see profiles.js), with
 * the overrides applied.
 * @param {string} bench @param {string} profile @param {ParamOverrides} [overrides]
 * @param {BenchmarkRegistry} [registry] where `bench` is found
 */
export function paramsFor(bench, profile, overrides = {}, registry = BENCHMARKS) {
  return { ...profileParams(registry[bench], profile), ...(overrides[bench] ?? {}) };
}

/**
 * Parameter names with an example value (the quick profile's, else the standard's).
 * @param {import('../benchmarks/benchmark.js').Benchmark} bench
 */
function knownParams(bench) {
  const { params } = bench;
  return /** @type {Record<string, unknown>} */ ({ ...(params.standard ?? {}), ...(params.quick ?? {}) });
}

/** @param {Record<string, unknown>} known */
function describe(known) {
  const keys = Object.keys(known);
  return keys.length
    ? keys.map((k) => `${k} (${typeof known[k]})`).join(', ')
    : '(none: this benchmark has no parameters)';
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
