// The whole run's budget (src/run/budget.js): planned rounds that cannot fit leave out the dearest
// comparisons first, a benchmark's baseline goes with its last comparison, what fits is kept whole; the
// profile's budget follows the share of the plan that was asked for.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { validateResults } from '../../src/results/schema.js';
import { budgetForSelection, fitMessage, fitPlan } from '../../src/run/budget.js';
import { engineOrSkip, ensureImages } from '../helpers/engine.js';
import { NOTHING, runCli, settled } from '../helpers/run-cli.js';
import { tmpDir } from '../history/helpers.js';

/** @param {string} key @param {number} remainingS @param {boolean} [measured] */
const cell = (key, remainingS, measured = true) => {
  const [benchmark, env, distro] = key.split('/');
  return { key, benchmark, distro, baseline: env === 'docker', remainingS, measured };
};
const PLAN = [
  cell('lifecycle/docker/debian', 20),
  cell('lifecycle/dind@20.10/debian', 30),
  cell('lifecycle/dind-vfs@20.10/debian', 120),
  cell('fio/docker/debian', 40),
  cell('fio/dind@20.10/debian', 45),
  cell('fio/dind-vfs@20.10/debian', 90),
];

test('a plan that fits is kept whole', () => {
  const fit = fitPlan(PLAN, 345);
  assert.equal(fit.keep, true);
  assert.deepEqual(fit.drop, []);
  assert.equal(fit.needS, 345);
});

test('over the budget, the dearest comparisons go first until the rest fits', () => {
  let fit = fitPlan(PLAN, 300);
  assert.equal(fit.keep, false);
  assert.deepEqual(
    fit.drop.map((c) => c.key),
    ['lifecycle/dind-vfs@20.10/debian'],
  );
  fit = fitPlan(PLAN, 200);
  assert.deepEqual(
    fit.drop.map((c) => c.key),
    ['lifecycle/dind-vfs@20.10/debian', 'fio/dind-vfs@20.10/debian'],
  );
  assert.match(
    fitMessage(fit, 900),
    /^budget: the planned rounds need about 345 s more, 200 s are left of 900 s; leaving out lifecycle\/dind-vfs/,
  );
});

test("a benchmark's baseline goes with its last comparison; nothing left when not even one fits", () => {
  const fit = fitPlan(PLAN, 60);
  const dropped = fit.drop.map((c) => c.key);
  assert.ok(dropped.includes('fio/docker/debian'), 'fio has no comparison left, so its Docker cell goes too');
  assert.ok(!dropped.includes('lifecycle/docker/debian'), 'lifecycle keeps a comparison, so it keeps its baseline');
  const kept = PLAN.filter((c) => !dropped.includes(c.key));
  assert.deepEqual(
    kept.map((c) => c.key),
    ['lifecycle/docker/debian', 'lifecycle/dind@20.10/debian'],
  );
  assert.ok(kept.reduce((s, c) => s + c.remainingS, 0) <= 60);
  assert.equal(fitPlan(PLAN, 5).drop.length, PLAN.length);
});

test('a benchmark not started yet is not left out on an extrapolated cost: only what has run here', () => {
  const plan = [
    cell('lifecycle/docker/debian', 20),
    cell('lifecycle/dind-vfs@20.10/debian', 40),
    cell('fio/docker/debian', 40, false),
    cell('fio/dind-vfs@20.10/debian', 300, false),
  ];
  const fit = fitPlan(plan, 100);
  assert.deepEqual(
    fit.drop,
    [],
    'fio is the dearest, and waits for its own first round; lifecycle is not left out in its place',
  );
  assert.equal(fit.keep, true);
  const later = fitPlan(
    plan.map((c) => ({ ...c, measured: true })),
    100,
  );
  assert.deepEqual(
    later.drop.map((c) => c.key),
    ['fio/dind-vfs@20.10/debian', 'fio/docker/debian'],
    'measured, fio goes (with its baseline)',
  );
  assert.equal(
    fitPlan([cell('fio/docker/debian', 40, false), cell('fio/dind@20.10/debian', 300, false)], 10).keep,
    true,
  );
});

test("the profile's budget in proportion to the plan asked for, never below the selection's own rounds, never more than the whole", () => {
  assert.equal(budgetForSelection(900_000, 150, 750, 45_000), 232_500, 'the floor: 150 s x 1.25 + the 45 s reserve');
  assert.equal(budgetForSelection(900_000, 300, 750, 45_000), 420_000, 'in proportion: 300 of 750 s');
  assert.equal(budgetForSelection(900_000, 750, 750, 45_000), 900_000);
  assert.equal(budgetForSelection(900_000, 700, 750, 45_000), 900_000, 'the floor is capped at the whole budget');
  assert.equal(budgetForSelection(900_000, 10, 0, 45_000), 900_000);
});

test(
  'on the real engine: a budget the planned rounds cannot fit leaves comparisons out, named in the report; the kept ones get 5 samples a side; --budget-strict stops instead',
  { timeout: 600_000 },
  async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    await ensureImages(outer);
    const dir = tmpDir('budget');
    const args = ['run', '--profile', 'quick', '--bench', 'lifecycle', '--env', 'docker,dind,dind-vfs', '--no-build'];
    const r = await runCli([...args, '--budget', '100s', '--out', path.join(dir, 'fit')]);
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.ok(
      r.lines.some((l) =>
        /^budget: the planned rounds need about \d+ s more, \d+ s are left of 100 s; leaving out /.test(l),
      ),
      r.lines.join('\n'),
    );
    const results = validateResults(JSON.parse(readFileSync(path.join(dir, 'fit', 'results.json'), 'utf8')), 'fit');
    const left = results.cells.filter((c) => c.sampling?.stopped === 'left out for the budget');
    assert.ok(left.length > 0, 'a comparison was left out');
    for (const c of left) {
      assert.equal(c.status, 'unavailable');
      assert.match(c.reason ?? '', /left out to keep the run within its budget of 100 s/);
    }
    for (const c of results.cells.filter((x) => x.status === 'ok')) {
      for (const m of c.metrics)
        assert.ok(m.samples.length >= 5, `${c.environmentKey} ${m.metric}: ${m.samples.length}`);
    }
    const report = readFileSync(path.join(dir, 'fit', 'report.md'), 'utf8');
    assert.match(report, /left out to keep the run within its budget of 100 s/);

    const strict = await runCli([...args, '--budget', '100s', '--budget-strict', '--out', path.join(dir, 'strict')]);
    assert.equal(strict.code, 1, strict.lines.join('\n'));
    assert.ok(
      strict.lines.some((l) =>
        /budget: the planned rounds need about \d+ s more, \d+ s are left of 100 s; stopped \(--budget-strict\)/.test(
          l,
        ),
      ),
      strict.lines.join('\n'),
    );
    assert.deepEqual(await settled(outer), NOTHING);
  },
);
