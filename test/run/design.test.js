// One run design for run, plan and workflow matrix (src/run/design.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { designOf, profileSelection, runIdOf } from '../../src/run/design.js';
import { makePlan } from '../../src/run/plan.js';

const base = { environments: ['docker', 'dind'], engines: ['20.10', '26.1'] };

test("designOf: the profile's iterations, warm-up and budget unless given", () => {
  const quick = designOf({ ...base, profile: 'quick' });
  assert.deepEqual([quick.iterations, quick.warmup, quick.budgetMs], [5, 0, 450_000]);
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

test("quick's first run also asks the upgrade question: lifecycle in dind on the next Engine line, unless --engine is given", () => {
  const o = { profile: 'quick', environments: ['native', 'docker', 'dind', 'dind-vfs'], engines: ['20.10'] };
  const all = ['lifecycle', 'sysbench'];
  assert.deepEqual(designOf({ ...o, benchmarks: all, named: [] }).nextLine, {
    engine: '26.1',
    environment: 'dind',
    benchmarks: ['lifecycle'],
  });
  // Chosen on the command line, the lines are the user's; without dind, lifecycle or a known selection, none.
  assert.equal(designOf({ ...o, benchmarks: all, named: ['engine'] }).nextLine, null);
  assert.equal(designOf({ ...o, benchmarks: ['sysbench'], named: [] }).nextLine, null);
  assert.equal(designOf({ ...o, environments: ['docker', 'dind-vfs'], benchmarks: all, named: [] }).nextLine, null);
  assert.equal(designOf({ ...o, engines: ['20.10', '26.1'], benchmarks: all, named: [] }).nextLine, null);
  assert.equal(designOf({ ...o, benchmarks: all, named: [], profile: 'standard' }).nextLine, null);
  assert.equal(designOf(o).nextLine, null);
});

test("the quick profile's own cells unless the command line chose them; dind-vfs only where storage is the subject", () => {
  const all = { benchmarks: ['lifecycle', 'fio'], environments: ['native', 'docker', 'dind', 'dind-vfs'] };
  const own = profileSelection('quick', { ...all, named: [] });
  assert.deepEqual(own.benchmarks, ['lifecycle', 'sysbench', 'memory', 'iozone', 'iperf3', 'redis', 'build']);
  assert.deepEqual(own.environments, ['docker', 'dind', 'dind-vfs']);
  const plan = makePlan({ ...own, distros: ['debian'], engines: ['20.10'], iterations: 1, warmup: 0, only: own.only });
  const vfs = plan.cells.filter((c) => c.env === 'dind-vfs@20.10').map((c) => c.benchmark);
  assert.deepEqual(vfs, ['lifecycle', 'iozone']);
  assert.ok(!plan.cells.some((c) => c.env === 'native'), 'native is described only: not in the first answer');
  // What the command line names is what runs, whole.
  const named = profileSelection('quick', { ...all, named: ['bench', 'env'] });
  assert.deepEqual([named.benchmarks, named.environments, named.only], [all.benchmarks, all.environments, null]);
  assert.deepEqual(profileSelection('quick', { ...all, named: ['bench'] }).environments, own.environments);
  assert.equal(profileSelection('quick', { ...all, named: ['bench'] }).only, null);
  // Other profiles have no cells of their own.
  assert.deepEqual(profileSelection('standard', { ...all, named: [] }), { ...all, only: null });
});
