// The results document's TypeScript types are generated from its JSON Schema: the committed file must be
// what the schema gives today, or a reader is typed against a shape the validator no longer checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { schemaTypes } from '../../scripts/schema-types.js';

test('src/model/results.v1.d.ts is generated from the current schema (npm run types:schema)', async () => {
  const committed = await readFile(new URL('../../src/model/results.v1.d.ts', import.meta.url), 'utf8');
  assert.equal(committed, await schemaTypes());
  assert.match(committed, /export interface DindBenchResultsOneRun \{/);
});
