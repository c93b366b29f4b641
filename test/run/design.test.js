// One run design for run, plan and workflow matrix (src/run/design.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { designOf, runIdOf } from '../../src/run/design.js';

const base = { environments: ['docker', 'dind'], engines: ['20.10', '26.1'] };

test("designOf: the profile's iterations, warm-up and budget unless given", () => {
  const quick = designOf({ ...base, profile: 'quick' });
  assert.deepEqual([quick.iterations, quick.warmup, quick.budgetMs], [5, 0, 15 * 60_000]);
  const standard = designOf({ ...base, profile: 'standard' });
  assert.deepEqual([standard.iterations, standard.warmup, standard.budgetMs], [20, 1, undefined]);
});

test('designOf: an explicit --iterations is a fixed design (no budget); an explicit --budget stays', () => {
  assert.equal(designOf({ ...base, profile: 'quick', iterations: 3 }).budgetMs, undefined);
  assert.equal(designOf({ ...base, profile: 'quick', iterations: 3 }).iterations, 3);
  assert.equal(designOf({ ...base, profile: 'quick', iterations: 3, budgetMs: 60_000 }).budgetMs, 60_000);
});

test('designOf: inner Engine lines only when an environment has an inner engine', () => {
  assert.deepEqual(designOf({ ...base, profile: 'quick' }).engines, ['20.10', '26.1']);
  assert.deepEqual(designOf({ ...base, environments: ['native', 'docker', 'dood'], profile: 'quick' }).engines, []);
  assert.deepEqual(designOf({ ...base, environments: ['dind-rootless'], profile: 'quick' }).engines, ['20.10', '26.1']);
});

test('designOf: an unknown profile is named', () => {
  assert.throws(() => designOf({ ...base, profile: 'huge' }), /unknown profile "huge": one of quick, standard, tiny/);
});

test('runIdOf: the start time as a path-safe, sortable segment and the process', () => {
  assert.equal(runIdOf(new Date('2026-11-24T10:11:12.345Z'), 42), '2026-11-24T10-11-12-345Z-42');
});
