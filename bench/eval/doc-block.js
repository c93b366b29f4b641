// The evaluation scripts write their tables into the docs they support, between markers the docs hold:
// one rewriter for all of them (decisions.js, history-rate.js).
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Rewrites the block between `<!-- NAME -->` and `<!-- /NAME -->` in a Markdown file (the markers must be there).
 * @param {string} file @param {string} name @param {string} text
 */
export function replaceBlock(file, name, text) {
  const doc = readFileSync(file, 'utf8');
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  if (a < 0 || b < a) throw new Error(`${file}: no ${open} ... ${close} block to rewrite`);
  writeFileSync(file, `${doc.slice(0, a + open.length)}\n\n${text}\n${doc.slice(b)}`);
}
