// Validation of results documents against schema/results.v1.schema.json.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

export const SCHEMA_VERSION = 1;
const schema = JSON.parse(readFileSync(new URL('../../schema/results.v1.schema.json', import.meta.url), 'utf8'));
// ajv and ajv-formats are CommonJS; their default export is the constructor / function.
const ajv = new /** @type {any} */ (Ajv)({ allErrors: true, strict: false });
/** @type {any} */ (addFormats)(ajv);
const validateV1 = ajv.compile(schema);

/**
 * Throws with every problem, each named by its JSON path, when `doc` is not a valid results document.
 * @param {unknown} doc @param {string} where the file, for the message
 */
export function validateResults(doc, where) {
  const version = /** @type {any} */ (doc)?.schemaVersion;
  if (version !== SCHEMA_VERSION) {
    throw new Error(
      `${where}: schemaVersion ${JSON.stringify(version)} is not supported; this dind-bench reads version ${SCHEMA_VERSION}`,
    );
  }
  if (!validateV1(doc)) {
    const problems = (validateV1.errors || []).map((/** @type {any} */ e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`${where}: not a valid results document:\n  ${problems.join('\n  ')}`);
  }
  return /** @type {any} */ (doc);
}
