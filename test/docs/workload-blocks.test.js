// Every workload quoted in the docs is one (issue 55): each ```yaml block of docs/*.md and README.md that is
// a workload file (a mapping with `version: 1` and a `name`) parses and passes the workload's checks that
// need no folder (the schema, the rules between fields, image references, times); one that names no file
// and no variable (complete as it stands) is also planned by the real CLI with no engine.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import YAML from 'yaml';
import { checkDocument } from '../../src/workload/load.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-doc-workloads-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** @returns {{ where: string, text: string }[]} every ```yaml block, with its file and line */
function yamlBlocks() {
  const files = [
    'README.md',
    ...readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const out = [];
  for (const file of files) {
    const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() !== '```yaml') continue;
      const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
      out.push({ where: `${file}:${i + 1}`, text: lines.slice(i + 1, end).join('\n') });
      i = end;
    }
  }
  return out;
}

// A workload by its text (top-level `version: 1` and `name:`), so a block that no longer parses is still
// found, and failed; workflow snippets (`jobs:`) are not workloads.
const isWorkload = (/** @type {string} */ text) =>
  /^version: 1\b/m.test(text) && /^name: /m.test(text) && !/^jobs:/m.test(text);

const workloads = yamlBlocks()
  .filter((b) => isWorkload(b.text))
  .map((b) => ({ ...b, doc: YAML.parseDocument(b.text) }));

test('the docs quote at least the reference workload', () => {
  assert.ok(
    workloads.some((b) => b.where.startsWith('docs/workloads.md')),
    workloads.map((b) => b.where).join(', '),
  );
});

test('every workload quoted in the docs parses and passes the checks that need no folder', () => {
  for (const b of workloads) {
    assert.deepEqual(b.doc.errors, [], `${b.where}: not valid YAML`);
    assert.doesNotThrow(() => checkDocument(b.doc.toJS({ maxAliasCount: 0 }), b.where), b.where);
  }
});

test('every complete workload quoted in the docs plans with no engine', () => {
  const complete = workloads.filter((b) => {
    const w = b.doc.toJS();
    return !w.builds && !w.compose && !w.registries && !(w.images ?? []).some((/** @type {any} */ x) => x.archive);
  });
  for (const b of complete) {
    const dir = mkdtempSync(path.join(work, 'w-'));
    writeFileSync(path.join(dir, 'workload.yml'), b.text);
    const r = runCli(['plan', '--workload', path.join(dir, 'workload.yml'), '--env', 'docker,dind']);
    assert.equal(r.status, 0, `${b.where}: ${r.stderr}`);
  }
});
