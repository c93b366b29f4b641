// A history point of an environment with an engine of its own that has no Docker Engine line (podman):
// its engine's version is the point's inner engine, so a Podman upgrade is seen as the engine changing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { pointsOf } from '../../src/history/points.js';

const run = JSON.parse(
  readFileSync(new URL('../fixtures/results/podman-lifecycle-quick.json', import.meta.url), 'utf8'),
);

test("podman's points carry its own version as the inner engine, and its storage driver; docker's carry none", () => {
  const points = pointsOf(run);
  const of = (/** @type {string} */ key) => points.filter((p) => p.series.environmentKey === key);
  assert.ok(of('podman').length > 0);
  for (const p of of('podman')) {
    assert.equal(p.point.engines.inner, '4.3.1');
    assert.equal(p.point.storageDriver, 'overlay');
  }
  for (const p of of('dind@20.10')) assert.match(String(p.point.engines.inner), /^20\.10\./);
  for (const p of of('docker')) assert.equal(p.point.engines.inner, null);
});
