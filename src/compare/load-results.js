// Reading a results.json for comparison: a clear answer for a missing file, bad JSON or another schema version.
import { RESULTS_ADVICE, readJsonFile } from '../results/read-json.js';
import { SCHEMA_VERSION, validateResults } from '../results/schema.js';

export class CompareInputError extends Error {}

export { RESULTS_ADVICE } from '../results/read-json.js';

/**
 * @param {string} file
 * @returns {Promise<any>} a valid results document
 */
export async function loadResults(file) {
  const doc = await readJsonFile(file, { what: 'results file', advice: RESULTS_ADVICE, ErrorClass: CompareInputError });
  const version = doc?.schemaVersion;
  // There is only one schema version so far, so there is nothing to migrate from; a newer file needs a newer dind-bench.
  if (version !== SCHEMA_VERSION) {
    throw new CompareInputError(
      `${file}: results schemaVersion ${JSON.stringify(version)}; this dind-bench compares schemaVersion ${SCHEMA_VERSION} only` +
        (typeof version === 'number' && version > SCHEMA_VERSION
          ? ' (the file is newer: upgrade dind-bench)'
          : ' (re-run `dind-bench run` to produce it)'),
    );
  }
  try {
    return validateResults(doc, file);
  } catch (e) {
    throw new CompareInputError(/** @type {Error} */ (e).message);
  }
}
