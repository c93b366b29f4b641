// The README stays a front door (issue 44): at most 300 lines, the two-command quick start near its top,
// and a Layout that is true to src/: every folder (and top-level module) of src/ is named in it, every
// path it names exists, and its import order is the one scripts/check-imports.js enforces. The rest of
// what the README once held lives in docs/, linked (docs/links.test.js checks the links resolve).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LAYERS } from '../../scripts/check-imports.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The text of a `## ` section, heading excluded, up to the next one. @param {string} md @param {string} title */
function section(md, title) {
  const start = md.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `the README has a "## ${title}" section`);
  const body = md.slice(start + title.length + 5);
  const end = body.indexOf('\n## ');
  return end < 0 ? body : body.slice(0, end);
}

/** The Layout's code block: one `path   what it is` row per line. @param {string} layout */
const rowsOf = (layout) => (layout.match(/^```\n([\s\S]*?)^```$/m)?.[1] ?? '').split('\n').filter(Boolean);

/** The import order under the Layout, as rows of layers: `cli -> run, compare -> ...`. @param {string} layout */
const orderOf = (layout) =>
  layout
    .split('\n')
    .filter((l) => /^ {4}/.test(l) && l.includes('->'))
    .join(' ')
    .split('->')
    .map((row) => row.trim())
    .filter(Boolean)
    .map((row) => row.split(/,\s*/));

/**
 * What the Layout gets wrong about src/: an entry of src/ it does not name, a src/ path it names that is
 * not there.
 * @param {string} layout @param {string[]} entries src/'s folders as `name/` and its modules as `name.js`
 * @param {(rel: string) => boolean} exists
 */
function layoutProblems(layout, entries, exists) {
  const named = rowsOf(layout).map((row) => row.split(/\s+/)[0]);
  const problems = entries
    .filter((e) => !named.includes(`src/${e}`))
    .map((e) => `src/${e} is in src/ but not in the README's Layout`);
  for (const p of named) if (!exists(p)) problems.push(`the README's Layout names ${p}, which does not exist`);
  return problems;
}

const srcEntries = () =>
  readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith('.js'))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));

test('the README is at most 300 lines; the rest is in docs/, linked', () => {
  const lines = README.trimEnd().split('\n').length;
  assert.ok(lines <= 300, `README.md is ${lines} lines: move a whole section into docs/ and link it`);
  for (const doc of ['docs/README.md', 'docs/commands.md', 'docs/contributing.md', 'docs/study.md'])
    assert.ok(README.includes(`](${doc})`), `the README links ${doc}`);
});

test('the two-command quick start stays near the top', () => {
  const quick = section(README, 'Quick start (two commands)');
  assert.match(quick, /^\.\/quickstart {2,}#/m);
  assert.match(quick, /^npm test {2,}#/m);
  const sections = [...README.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.ok(sections.indexOf('Quick start (two commands)') <= 1, sections.join(' | '));
});

test("the README's Layout names every folder and module of src/, and only paths that exist", () => {
  const layout = section(README, 'Layout');
  const entries = srcEntries();
  assert.ok(entries.includes('reading/') && entries.includes('model/'), entries.join(' '));
  assert.deepEqual(
    layoutProblems(layout, entries, (p) => existsSync(path.join(ROOT, p))),
    [],
  );
  // The check sees a folder the Layout leaves out, and a row for one that is gone.
  const without = layout.replace(/^src\/reading\/ .*\n/m, '');
  assert.notEqual(without, layout);
  assert.deepEqual(
    layoutProblems(without, entries, () => true),
    ["src/reading/ is in src/ but not in the README's Layout"],
  );
  assert.deepEqual(
    layoutProblems(layout.replace('src/model/ ', 'src/gone/  '), entries, (p) => p !== 'src/gone/'),
    [
      "src/model/ is in src/ but not in the README's Layout",
      "the README's Layout names src/gone/, which does not exist",
    ],
  );
});

test("the Layout's import order is the one npm run check:imports enforces", () => {
  assert.deepEqual(orderOf(section(README, 'Layout')), LAYERS);
});
