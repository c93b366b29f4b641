// Images built by dind-bench carry their recipe hash, so a run can tell a stale image (built from an
// older images/) from a current one and rebuild only what changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RECIPE_LABEL, bakeTargets } from '../../src/images/build.js';
import { podmanImage } from '../../src/images/catalog.js';
import { imageLabels } from '../../src/images/describe.js';
import { engineOrSkip, ensureImages } from '../helpers/engine.js';

test('the images the tests use carry the recipe of the current images/', async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  await ensureImages(outer);
  const targets = await bakeTargets({
    distros: ['debian'],
    engines: ['20.10'],
    benchImages: ['lifecycle', 'sysbench', 'pgbench'],
  });
  assert.equal(targets.length, 4);
  for (const target of targets) {
    const labels = await imageLabels(outer, target.ref);
    assert.equal(labels?.[RECIPE_LABEL], target.recipe, `${target.ref}: ${JSON.stringify(labels)}`);
  }
});

test("the podman environment's image is in the matrix, built offline with its recipe", async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  await ensureImages(outer, [], ['4.3']);
  const targets = await bakeTargets({ distros: [], engines: [], benchImages: [], podman: ['4.3'] });
  assert.deepEqual(
    targets.map((x) => [x.target, x.ref, x.baseVariable]),
    [['podman-4-3', podmanImage('4.3'), 'DEBIAN_BASE']],
  );
  const labels = await imageLabels(outer, targets[0].ref);
  assert.equal(labels?.[RECIPE_LABEL], targets[0].recipe, JSON.stringify(labels));
  assert.equal(labels?.['dind-bench.podman'], '4.3');
});
