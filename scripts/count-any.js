#!/usr/bin/env node
// How often src/ gives up on a type: the word `any` in JSDoc type expressions, per file and in all, and a
// ceiling the total may not pass, so a new `any` is a choice someone makes, not a drift. Used by `.ci/run`,
// the CI's types job and `npm run check:any`; tested in test/scripts/count-any.test.js.
//
// The rule, exactly: in every .js file under src/, in every JSDoc comment (from `/**` to the next `*/`),
// each type expression is the brace-balanced `{...}` that directly follows (after blanks) one of the tags
// @type, @param, @returns, @return, @typedef, @property, @prop, @template, @this, @satisfies, @throws,
// @enum, @yields. Inside it, quoted strings ('...', "...", `...`) are left out, and each whole word `any`
// counts once (`Record<string, any>` is one, `any[]` one, `many` none). Prose, {@link ...}, code and
// TypeScript declaration files (.d.ts) are not counted.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsFiles } from './check-imports.js';

/** The most `any` src/ may hold; lower it when the count falls, never raise it to let one in. */
export const CEILING = 44;

const TAG = /@(?:type|param|returns?|typedef|property|prop|template|this|satisfies|throws|enum|yields)\s*\{/g;

/**
 * The type expressions of the JSDoc comments in `text`, each the text between its braces.
 * @param {string} text @returns {string[]}
 */
export function typeExpressions(text) {
  const out = [];
  for (const comment of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
    for (const m of comment.matchAll(TAG)) {
      const open = /** @type {number} */ (m.index) + m[0].length - 1;
      const close = closingBrace(comment, open);
      if (close > open) out.push(comment.slice(open + 1, close));
    }
  }
  return out;
}

/**
 * The index of the brace that closes the one at `open`, skipping quoted strings; -1 when the comment ends first.
 * @param {string} s @param {number} open
 */
function closingBrace(s, open) {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === "'" || c === '"' || c === '`') {
      const end = s.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** How many `any` the JSDoc types of `text` hold (the rule above). @param {string} text */
export function countAny(text) {
  let n = 0;
  for (const type of typeExpressions(text)) {
    const bare = type.replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '');
    n += (bare.match(/\bany\b/g) ?? []).length;
  }
  return n;
}

/**
 * The count of each .js file under `dir` that holds any (its path relative to `dir`), most first.
 * @param {string} dir @returns {Promise<{ file: string, count: number }[]>}
 */
export async function countTree(dir) {
  const counts = [];
  for (const file of await jsFiles(dir)) {
    const count = countAny(await readFile(file, 'utf8'));
    if (count) counts.push({ file: path.relative(dir, file), count });
  }
  return counts.sort((a, b) => b.count - a.count || a.file.localeCompare(b.file));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const src = fileURLToPath(new URL('../src/', import.meta.url));
  const counts = await countTree(src);
  for (const { file, count } of counts) console.log(`${String(count).padStart(4)}  src/${file}`);
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  console.log(`${String(total).padStart(4)}  in all (ceiling ${CEILING})`);
  if (total > CEILING) {
    console.error(
      `count-any: ${total} \`any\` in JSDoc types of src/, above the ceiling of ${CEILING} (scripts/count-any.js): give the new ones real types`,
    );
    process.exitCode = 1;
  }
}
