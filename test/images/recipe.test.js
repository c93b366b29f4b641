// Image recipes: the hash that tells an image built from the current images/ apart from a stale one
// (an older Dockerfile or other build arguments under the same tag), so `run` rebuilds the stale one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { bakeTargets, buildxVersion, recipeHash } from '../../src/images/build.js';

test('every target of the matrix has its own recipe, the same on every reading', async (t) => {
  if (!(await buildxVersion())) return t.skip('docker buildx is not installed: `bash .ci/install.sh` installs it');
  const want = {
    distros: ['debian', 'alpine'],
    engines: ['20.10', '26.1'],
    benchImages: ['lifecycle', 'sysbench', 'pgbench', 'storage'],
  };
  const first = await bakeTargets(want);
  const again = await bakeTargets(want);
  assert.equal(first.length, 10);
  for (const target of first) assert.match(target.recipe, /^[0-9a-f]{16}$/, target.target);
  assert.equal(
    new Set(first.map((x) => x.recipe)).size,
    first.length,
    'targets with other arguments or Dockerfiles differ',
  );
  assert.deepEqual(
    again.map((x) => x.recipe),
    first.map((x) => x.recipe),
  );
});

test('a changed Dockerfile, context file or build argument changes the recipe', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-recipe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'Dockerfile.debian'), 'FROM base\nRUN true\n');
  writeFileSync(path.join(dir, 'helper.sh'), 'echo one\n');
  const target = { context: dir, dockerfile: 'Dockerfile.debian', args: { PACKAGES: 'fio', BASE: 'b' } };
  const base = await recipeHash(target);
  assert.equal(
    await recipeHash({ ...target, args: { BASE: 'b', PACKAGES: 'fio' } }),
    base,
    'argument order does not matter',
  );
  assert.notEqual(await recipeHash({ ...target, args: { ...target.args, PACKAGES: 'fio python3' } }), base);
  writeFileSync(path.join(dir, 'helper.sh'), 'echo two\n');
  const helperChanged = await recipeHash(target);
  assert.notEqual(helperChanged, base);
  writeFileSync(path.join(dir, 'Dockerfile.debian'), 'FROM base\nRUN false\n');
  assert.notEqual(await recipeHash(target), helperChanged);
});
