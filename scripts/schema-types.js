#!/usr/bin/env node
// Writes src/model/results.v1.d.ts from schema/results.v1.schema.json, so the results document has one
// definition (the schema) and its TypeScript types follow it. `--check` exits 1 when the committed file
// differs from what the schema gives (test/model/schema-types.test.js runs it).
import { readFile, writeFile } from 'node:fs/promises';
import { compile } from 'json-schema-to-typescript';

const SCHEMA = new URL('../schema/results.v1.schema.json', import.meta.url);
const OUT = new URL('../src/model/results.v1.d.ts', import.meta.url);
const BANNER =
  '// Generated from schema/results.v1.schema.json by `npm run types:schema`; do not edit by hand.\n' +
  '// Named aliases (Results, Cell, Metric, ...) are in results.js.';

/** The d.ts text the schema gives. */
export async function schemaTypes() {
  const schema = JSON.parse(await readFile(SCHEMA, 'utf8'));
  // The project's own Prettier settings, so `prettier --check .` passes on the generated file.
  const style = JSON.parse(await readFile(new URL('../.prettierrc.json', import.meta.url), 'utf8'));
  return compile(schema, 'ResultsDocument', { bannerComment: BANNER, format: true, style });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await schemaTypes();
  if (process.argv.includes('--check')) {
    const committed = await readFile(OUT, 'utf8').catch(() => '');
    if (committed !== text) {
      console.error('src/model/results.v1.d.ts is out of date with the schema: run `npm run types:schema`.');
      process.exit(1);
    }
  } else {
    await writeFile(OUT, text);
  }
}
