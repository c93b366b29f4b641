// SECURITY.md's "What runs where" tables are generated from the workflows (src/workflow/security-tables.js,
// `npm run docs:actions`): they are current, they change when a workflow does, and an artifact or a runner
// the generator cannot describe stops it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { format } from 'prettier';
import { SOURCE } from '../../src/workflow/reusable.js';
import { DOC, withSecurityTables } from '../../src/workflow/security-tables.js';

const BENCH = readFileSync(SOURCE, 'utf8');
const doc = readFileSync(DOC, 'utf8');
const pretty = (/** @type {string} */ md) =>
  format(md, { parser: 'markdown', filepath: DOC, proseWrap: 'preserve', printWidth: 120 });

test("SECURITY.md's job and artifact tables are the workflows' (npm run docs:actions rewrites them)", async () => {
  assert.equal(
    await pretty(withSecurityTables(doc, BENCH)),
    await pretty(doc),
    'SECURITY.md is stale: run npm run docs:actions',
  );
  // What the tables say of the jobs holding write tokens and of the artifacts.
  assert.match(
    doc,
    /\| `publish` +\| bench\.yml, reusable-bench\.yml \| GitHub-hosted \(`DIND_BENCH_HOSTED_RUNNER`, hosted labels only\); its first step stops unless the runner says `RUNNER_ENVIRONMENT=github-hosted` \| contents: write/,
  );
  // Every job holding a write permission says so; the others do not.
  for (const line of doc.split('\n').filter((l) => /^\| `[a-z]+` /.test(l))) {
    const writes = /: write/.test(line.split('|')[4]);
    assert.equal(line.includes('its first step stops unless the runner says'), writes, line);
  }
  assert.match(doc, /\| `guard` +\| reusable-bench\.yml +\| GitHub-hosted \(`ubuntu-latest`, written out\) +\| none/);
  assert.match(
    doc,
    /\| `bench` +\| bench\.yml, reusable-bench\.yml \| \*\*self-hosted\*\*.*`DIND_BENCH_REGISTRY_PASSWORD`/,
  );
  for (const a of ['results', 'comparison-report', 'pr-comment', 'github-pages'])
    assert.ok(doc.includes(`| \`${a}\${{ env.ARTIFACT_SUFFIX }}\``), a);
});

test('a workflow change changes the tables; an artifact without a description stops the generator', () => {
  const moved = BENCH.replace(
    '      contents: read\n      pull-requests: write\n',
    '      contents: read\n      pull-requests: write\n      issues: write\n',
  );
  assert.notEqual(moved, BENCH);
  assert.notEqual(withSecurityTables(doc, moved), withSecurityTables(doc, BENCH));
  const extra = BENCH.replace(
    '      - uses: actions/upload-pages-artifact@',
    '      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2\n        with:\n          name: runner-dump\n          path: /\n      - uses: actions/upload-pages-artifact@',
  );
  assert.throws(() => withSecurityTables(doc, extra), /uploads runner-dump: say what it holds in ARTIFACT_NOTES/);
});
