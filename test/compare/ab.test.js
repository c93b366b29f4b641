// A/B of two environments of one run: `compare RESULTS --baseline KEY --candidate KEY --fail-on regression`.
// The real quick run holds dind@20.10; a second Engine line is made from it with one metric really slowed
// (every sample x1.6), so the gate must stop on that metric and on nothing the lines share.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { AbError, compareEnvironments } from '../../src/compare/ab.js';
import { EXIT_INCONCLUSIVE, EXIT_REGRESSION } from '../../src/compare/command.js';
import { gatedBy } from '../../src/reading/gate.js';
import { fixture, tmpDir } from '../history/helpers.js';
import { runCli } from '../helpers/run-cli.js';

/** The quick run with a copy of its DinD line as dind@26.1, `slow` metrics of it scaled. @param {string[]} slow */
function twoLines(slow) {
  const r = fixture();
  const copies = r.cells
    .filter((/** @type {any} */ c) => c.environmentKey === 'dind@20.10')
    .map((/** @type {any} */ c) => {
      const copy = structuredClone(c);
      copy.environmentKey = 'dind@26.1';
      copy.engine = '26.1';
      for (const m of copy.metrics)
        if (slow.includes(m.metric))
          m.samples = m.samples.map((/** @type {number} */ x) => (m.better === 'lower' ? x * 1.6 : x / 1.6));
      return copy;
    });
  r.cells.push(...copies);
  const env = structuredClone(r.environments.find((/** @type {any} */ e) => e.key === 'dind@20.10'));
  r.environments.push({ ...env, key: 'dind@26.1', engine: '26.1' });
  const file = path.join(tmpDir('ab'), 'results.json');
  writeFileSync(file, JSON.stringify(r));
  return { results: r, file };
}

test('two Engine lines: gated on the slowed metric, it is the regression; nothing the lines share is', () => {
  const { results } = twoLines(['container.create_ms']);
  const gated = gatedBy(['lifecycle/container.create_ms']);
  const rows = compareEnvironments(results, 'dind@20.10', 'dind@26.1', { gated });
  assert.ok(rows.length >= 10, `${rows.length} metrics compared`);
  const regressed = rows.filter((r) => r.outcome === 'regression').map((r) => r.metric);
  assert.deepEqual(regressed, ['container.create_ms']);
  const create = rows.find((r) => r.metric === 'container.create_ms');
  assert.ok(create && Math.abs(create.worse - 0.6) < 1e-9, '1.6 times the time reads +60%');
  assert.equal(create?.family, 'decision');
  // The shared metrics are the same samples on both sides: never a regression, and never "no change":
  // equivalent where the interval fits inside ±T, else inconclusive.
  // (A metric whose median is 0 has no change to read: no outcome, and a gate counts it inconclusive.)
  for (const r of rows.filter((x) => x.metric !== 'container.create_ms' && x.outcome !== null))
    assert.ok(['equivalent', 'inconclusive'].includes(/** @type {string} */ (r.outcome)), `${r.metric}: ${r.outcome}`);
});

test("without a gate, a metric outside the run's questions is described: its change and interval, no outcome", () => {
  const { results } = twoLines(['container.create_ms']);
  const rows = compareEnvironments(results, 'dind@20.10', 'dind@26.1');
  const create = rows.find((r) => r.metric === 'container.create_ms');
  assert.ok(create && create.described && create.outcome === null, `${create?.outcome}`);
  assert.ok(create && Math.abs(create.worse - 0.6) < 1e-9);
  // Only the decision metrics the A/B has are decided (this older run has no start-up waterfall: none).
  assert.deepEqual(
    rows.filter((r) => r.decision).map((r) => `${r.benchmark}/${r.metric}`),
    rows
      .filter((r) => r.benchmark === 'sysbench' && r.metric === 'cpu.events_per_second')
      .map((r) => `${r.benchmark}/${r.metric}`),
  );
});

test('compare --baseline --candidate --fail-on: exit 4 on a gated regression, 5 on an inconclusive one, 0 when decided', () => {
  const slowed = twoLines(['container.create_ms']);
  const out = tmpDir('ab-out');
  const ab = (/** @type {string} */ file, /** @type {string[]} */ more) =>
    runCli(['compare', file, '--baseline', 'dind@20.10', '--candidate', 'dind@26.1', ...more]);
  const r = ab(slowed.file, [
    '--fail-on',
    'regression',
    '--gate',
    'lifecycle/container.create_ms',
    '--markdown',
    path.join(out, 'ab.md'),
    '--json',
    path.join(out, 'ab.json'),
  ]);
  assert.equal(r.status, EXIT_REGRESSION, r.stderr);
  assert.match(
    r.stdout.replace(/\s+/g, ' '),
    /Gate: Regression in 1 of 1 gated metrics; the worst: lifecycle container\.create_ms on dind@26\.1\/debian \+60\.0%/,
  );
  assert.match(readFileSync(path.join(out, 'ab.md'), 'utf8'), /\+60% ▲ regression/);
  const doc = JSON.parse(readFileSync(path.join(out, 'ab.json'), 'utf8'));
  assert.equal(doc.gate.verdict, 'regression');
  assert.equal(doc.rows.filter((/** @type {any} */ x) => x.outcome === 'regression').length, 1);
  // Every metric gated, 5 samples a side: the gate cannot see, and fails closed when asked to.
  const blind = ab(twoLines([]).file, ['--fail-on', 'inconclusive']);
  assert.equal(blind.status, EXIT_INCONCLUSIVE, blind.stderr);
  assert.match(blind.stdout, /Gate: Inconclusive: \d+ of \d+ gated metrics could not be judged/);
  const passes = ab(twoLines([]).file, ['--fail-on', 'regression']);
  assert.equal(passes.status, 0, passes.stderr);
});

test('--config is read in the A/B too: a missing file or a key that matches no metric is refused', () => {
  const { file } = twoLines([]);
  const dir = tmpDir('ab-config');
  const missing = runCli([
    'compare',
    file,
    '--baseline',
    'dind@20.10',
    '--candidate',
    'dind@26.1',
    '--config',
    path.join(dir, 'nope.json'),
  ]);
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /compare config/);
  const typo = path.join(dir, 'typo.json');
  writeFileSync(typo, JSON.stringify({ metrics: { 'lifecycle/container.craete_ms': { threshold: 0.2 } } }));
  const bad = runCli(['compare', file, '--baseline', 'dind@20.10', '--candidate', 'dind@26.1', '--config', typo]);
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /typo\.json: metrics "lifecycle\/container\.craete_ms" match no metric of this run/);
  const negative = path.join(dir, 'negative.json');
  writeFileSync(negative, JSON.stringify({ defaults: { threshold: -0.1 } }));
  const neg = runCli(['compare', file, '--baseline', 'dind@20.10', '--candidate', 'dind@26.1', '--config', negative]);
  assert.notEqual(neg.status, 0);
  assert.match(neg.stderr, /negative\.json: not a valid compare config:[\s\S]*\/defaults\/threshold/);
});

test('an environment the run does not have is refused, naming those it has', () => {
  assert.throws(
    () => compareEnvironments(fixture(), 'dind@20.10', 'dind@29.8'),
    (e) =>
      e instanceof AbError &&
      /no environment "dind@29\.8" in this run; its environments: native, docker, dind@20\.10/.test(e.message),
  );
  const r = runCli(['compare', twoLines([]).file, '--baseline', 'dind@20.10']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--baseline and --candidate go together/);
});
