// Every relative link of the README, SECURITY.md and docs/ points at a file that exists, so the docs index
// (docs/README.md) and the guides' cross-references cannot rot as files move.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FILES = [
  'README.md',
  'SECURITY.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('docs/README.md indexes every guide in docs/', () => {
  const index = readFileSync(path.join(ROOT, 'docs/README.md'), 'utf8');
  for (const f of FILES.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md'))
    assert.ok(index.includes(`](${path.basename(f)})`), `docs/README.md links ${f}`);
});

for (const file of FILES) {
  test(`${file}: every relative link resolves`, () => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const links = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)].map((m) => m[1]);
    const broken = links
      .filter((l) => !/^[a-z]+:/i.test(l))
      .filter((l) => !existsSync(path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(l))));
    assert.deepEqual(broken, [], `${file} links to missing files`);
  });
}
