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
    const problems = errors
      .slice(0, MAX_PROBLEMS)
      .map((e) => `${logText((e.instancePath || '/').slice(0, 200))} ${e.message}`);
    if (errors.length > MAX_PROBLEMS) problems.push(`... and ${errors.length - MAX_PROBLEMS} more`);
    throw new Error(`${logText(where)}: not a valid results document:\n  ${problems.join('\n  ')}`);
  }
  return /** @type {import('#model/results.js').Results} */ (doc);
}
