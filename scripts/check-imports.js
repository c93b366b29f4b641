#!/usr/bin/env node
// Imports between src/ layers run downward only. A layer is a folder of src/ (or a top-level file such
// as doctor.js); LAYERS lists them from the top. A module may import from its own layer's folder and
// from any layer below its own; an import from a layer above, or from another folder of the same row
// (a sideways import), fails the check, naming the file, the line and the rule. Used by `.ci/run` and
// `npm run check:imports`; tested in test/scripts/check-imports.test.js.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** From the top down. A row's layers may not import from each other. */
export const LAYERS = [
  ['cli'],
  ['run', 'compare', 'site', 'doctor.js'],
  ['history'],
  ['benchmarks'],
  // A workload's job runs in an environment (its job engine, its registry address): workload sits above
  // environments, under the benchmark that runs it.
  ['workload'],
  ['environments', 'results', 'workflow'],
  ['images'],
  ['reading'],
  ['engine', 'parsers', 'stats'],
  // Secrets out of what the run writes: every writer above scrubs with it; it needs nothing of src/.
  ['redact'],
  ['text'],
  ['model'],
];

/** @param {string} layer @param {string[][]} layers */
const rankOf = (layer, layers) => layers.findIndex((row) => row.includes(layer));

/**
 * Every relative import of every .js file under `srcDir` that does not run downward.
 * @param {string} srcDir
 * @param {string[][]} [layers]
 * @returns {Promise<string[]>} one line per problem: FILE:LINE: what, and the rule
 */
export async function checkImports(srcDir, layers = LAYERS) {
  const problems = [];
  for (const file of await jsFiles(srcDir)) {
    const rel = path.relative(srcDir, file);
    const from = rel.split(path.sep)[0];
    const fromRank = rankOf(from, layers);
    if (fromRank < 0) {
      problems.push(`${rel}: layer ${from} is in no row of LAYERS (scripts/check-imports.js): add it where it belongs`);
      continue;
    }
    const lines = (await readFile(file, 'utf8')).split('\n');
    for (const [i, line] of lines.entries()) {
      for (const spec of importsOf(line)) {
        const target = path.relative(srcDir, path.resolve(path.dirname(file), spec));
        if (target.startsWith('..')) continue; // outside src/ (package.json, schema/): not a layer
        const to = target.split(path.sep)[0];
        if (to === from) continue;
        const toRank = rankOf(to, layers);
        if (toRank > fromRank) continue;
        const how =
          toRank < 0
            ? `layer ${to} is in no row of LAYERS`
            : toRank === fromRank
              ? 'sideways, within one row'
              : 'upward';
        problems.push(
          `${rel}:${i + 1}: imports ${spec} (${from} -> ${to}, ${how}); layers import only downward: ${layers.map((r) => r.join('/')).join(' -> ')}`,
        );
      }
    }
  }
  return problems;
}

/** Relative module specifiers of static imports, re-exports and import() types in one line. @param {string} line */
function importsOf(line) {
  const out = [];
  for (const m of line.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) out.push(m[1]);
  return out;
}

/** Every .js file under `dir`, sorted (count-any.js walks src/ the same way). @param {string} dir @returns {Promise<string[]>} */
export async function jsFiles(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await jsFiles(p)));
    else if (e.name.endsWith('.js')) out.push(p);
  }
  return out.sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const src = fileURLToPath(new URL('../src/', import.meta.url));
  const problems = await checkImports(src);
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`check-imports: ${problems.length} import(s) against the layer order`);
    process.exitCode = 1;
  } else
    console.log(`check-imports: every import in src/ runs downward (${LAYERS.map((r) => r.join('/')).join(' -> ')})`);
}
