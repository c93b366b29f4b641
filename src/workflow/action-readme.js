// Writes the input and output tables of actions/<name>/README.md from its action.yml, between markers, so
// the tables cannot drift from the actions (a test checks they are current; `npm run docs:actions`
// rewrites them). The prose around the markers is hand-written.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ACTIONS = fileURLToPath(new URL('../../actions', import.meta.url));
const BEGIN = '<!-- tables from action.yml: npm run docs:actions -->';
const END = '<!-- end of tables -->';

/** @param {string} s */
const cell = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();

/**
 * Said above every table of outputs: they carry names from untrusted results. Each is one shell word of
 * inert characters (src/compare/outputs.js), but a caller's `run:` should not depend on that.
 */
export const OUTPUTS_NOTE =
  'Pass outputs through `env:`, never inline `${{ }}` in `run:`. (Each output is one shell word all the same: inert characters only, its words joined by a no-break space, so `W=${{ ... }}` runs nothing.)';

/** The Markdown tables of one action.yml. @param {string} yml */
export function tables(yml) {
  const a = parse(yml);
  const inputs = Object.entries(a.inputs ?? {}).map(
    ([name, i]) =>
      `| \`${name}\` | ${i.required ? 'yes' : 'no'} | ${i.default === undefined || i.default === '' ? '' : `\`${i.default}\``} | ${cell(i.description)} |`,
  );
  const outputs = Object.entries(a.outputs ?? {}).map(([name, o]) => `| \`${name}\` | ${cell(o.description)} |`);
  return [
    '### Inputs',
    '',
    '| input | required | default | description |',
    '|---|---|---|---|',
    ...inputs,
    '',
    '### Outputs',
    '',
    ...(outputs.length ? [OUTPUTS_NOTE, ''] : []),
    '| output | description |',
    '|---|---|',
    ...outputs,
  ].join('\n');
}

/** README text with its tables replaced. @param {string} readme @param {string} yml */
export function withTables(readme, yml) {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README lacks the markers ${BEGIN} ... ${END}`);
  return `${readme.slice(0, start + BEGIN.length)}\n${tables(yml)}\n${readme.slice(end)}`;
}

export function actionNames() {
  return readdirSync(ACTIONS)
    .filter((d) => !d.includes('.'))
    .sort();
}

/** @param {string} name */
export const actionFiles = (name) => ({
  yml: path.join(ACTIONS, name, 'action.yml'),
  readme: path.join(ACTIONS, name, 'README.md'),
});

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of actionNames()) {
    const f = actionFiles(name);
    writeFileSync(f.readme, withTables(readFileSync(f.readme, 'utf8'), readFileSync(f.yml, 'utf8')));
    console.log(`actions/${name}/README.md`);
  }
}
