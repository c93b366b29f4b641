// Validation of results documents against schema/results.v1.schema.json.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { logText } from '../text/escape.js';

/** @type {1} */
export const SCHEMA_VERSION = 1;
const schema = JSON.parse(readFileSync(new URL('../../schema/results.v1.schema.json', import.meta.url), 'utf8'));
// ajv and ajv-formats are CommonJS: the default import is their module.exports, whose `default` is the
// constructor / function (they set it so), which is how their types name it.
const ajv = new Ajv.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateV1 = ajv.compile(schema);

// A hostile document can hold a million errors: the message names the first ones.
const MAX_PROBLEMS = 20;

/**
 * What to do about a benchmark or metric name the schema refuses (definitions/seriesName): such a name is
 * a word of the workflow outputs (worst, sentence), which a caller's `run:` step may inline, so it is
 * refused before anything is built from the file.
 */
const SERIES_NAME_ADVICE =
  "a benchmark or metric name is one word of ASCII letters, digits and _ . : / - (1-100 characters, starting with a letter or digit), since it reaches the workflow outputs a caller may inline into a shell; rename it where the results were made (a workload's name, step, build or image names) and run again";

/**
 * The value at a JSON pointer of `doc` (an Ajv instancePath), for the message. @param {unknown} doc
 * @param {string} pointer
 */
function valueAt(doc, pointer) {
  let v = doc;
  for (const key of pointer.split('/').slice(1)) {
    const k = key.replace(/~1/g, '/').replace(/~0/g, '~');
    v = v !== null && typeof v === 'object' ? /** @type {Record<string, unknown>} */ (v)[k] : undefined;
  }
  return v;
}

/** One problem, by its JSON path: Ajv's message, or for a refused name, the name and what to do. @param {unknown} doc @param {import('ajv').ErrorObject} e */
function problem(doc, e) {
  const where = logText((e.instancePath || '/').slice(0, 200));
  if (e.keyword === 'pattern' && e.schemaPath.startsWith('#/definitions/seriesName/')) {
    const value = JSON.stringify(String(valueAt(doc, e.instancePath)).slice(0, 80));
    return `${where} is ${logText(value)}: ${SERIES_NAME_ADVICE}`;
  }
  return `${where} ${e.message}`;
}

/**
 * Throws with its problems (the first MAX_PROBLEMS), each named by its JSON path, when `doc` is not a valid results document.
 * @param {unknown} doc @param {string} where the file, for the message
 * @returns {import('#model/results.js').Results} the document, typed
 */
export function validateResults(doc, where) {
  const version = /** @type {{schemaVersion?: unknown} | null | undefined} */ (doc)?.schemaVersion;
  // The file's path and the JSON paths (keys) come from data and end up in logs: escaped (logText).
  if (version !== SCHEMA_VERSION) {
    throw new Error(
      `${logText(where)}: schemaVersion ${logText(JSON.stringify(version)?.slice(0, 60))} is not supported; this dind-bench reads version ${SCHEMA_VERSION}`,
    );
  }
  if (!validateV1(doc)) {
    const errors = validateV1.errors || [];
    const problems = errors.slice(0, MAX_PROBLEMS).map((e) => problem(doc, e));
    if (errors.length > MAX_PROBLEMS) problems.push(`... and ${errors.length - MAX_PROBLEMS} more`);
    throw new Error(`${logText(where)}: not a valid results document:\n  ${problems.join('\n  ')}`);
  }
  return /** @type {import('#model/results.js').Results} */ (doc);
}
