// A/B of two environments of one run: `compare RESULTS --baseline KEY --candidate KEY --fail-on regression`.
// The real quick run holds dind@20.10; a second Engine line is made from it with one metric really slowed
// (every sample x1.6), so the gate must stop on that metric and on nothing the lines share.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { AbError, abAnswer, compareEnvironments } from '../../src/compare/ab.js';
import { EXIT_REGRESSION } from '../../src/compare/command.js';
import { BIN, fixture, tmpDir } from '../history/helpers.js';

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

test('two Engine lines: the slowed metric is the regression, the shared ones are not', () => {
  const { results } = twoLines(['container.create_ms']);
  const rows = compareEnvironments(results, 'dind@20.10', 'dind@26.1');
  assert.ok(rows.length >= 10, `${rows.length} metrics compared`);
  const regressed = rows.filter((r) => r.verdict === 'regression').map((r) => r.metric);
  assert.deepEqual(regressed, ['container.create_ms']);
  assert.ok(rows.filter((r) => r.metric !== 'container.create_ms').every((r) => r.verdict === 'no change'));
  const create = rows.find((r) => r.metric === 'container.create_ms');
  assert.ok(create && Math.abs(create.change - 0.6) < 1e-9, '1.6 times the time reads +60%');
  assert.match(
    abAnswer(rows, 'dind@20.10', 'dind@26.1'),
    /^dind@26\.1 against dind@20\.10: worse in 1 of \d+ metrics \(most: lifecycle container\.create_ms \+60% ▲ worse\)/,
  );
});

test('compare --baseline --candidate --fail-on regression: exit 4 on a regression, 0 without; the answer first', () => {
  const slowed = twoLines(['container.create_ms']);
  const out = tmpDir('ab-out');
  const r = spawnSync(
    process.execPath,
    [
      BIN,
      'compare',
      slowed.file,
      '--baseline',
      'dind@20.10',
      '--candidate',
      'dind@26.1',
      '--fail-on',
      'regression',
      '--markdown',
      path.join(out, 'ab.md'),
      '--json',
      path.join(out, 'ab.json'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, EXIT_REGRESSION, r.stderr);
  assert.match(r.stdout.split('\n')[0], /^dind@26\.1 against dind@20\.10: worse in 1 of/);
  assert.match(
    readFileSync(path.join(out, 'ab.md'), 'utf8').split('\n')[0],
    /worse in 1 of \d+ metrics \(most: lifecycle container\.create_ms \+60% ▲ worse\)/,
  );
  assert.equal(
    JSON.parse(readFileSync(path.join(out, 'ab.json'), 'utf8')).rows.filter(
      (/** @type {any} */ x) => x.verdict === 'regression',
    ).length,
    1,
  );
  const same = twoLines([]);
  const ok = spawnSync(
    process.execPath,
    [BIN, 'compare', same.file, '--baseline', 'dind@20.10', '--candidate', 'dind@26.1', '--fail-on', 'regression'],
    { encoding: 'utf8' },
  );
  assert.equal(ok.status, 0, ok.stderr);
});

test('an environment the run does not have is refused, naming those it has', () => {
  assert.throws(
    () => compareEnvironments(fixture(), 'dind@20.10', 'dind@29.8'),
    (e) =>
      e instanceof AbError &&
      /no environment "dind@29\.8" in this run; its environments: native, docker, dind@20\.10/.test(e.message),
  );
  const r = spawnSync(process.execPath, [BIN, 'compare', twoLines([]).file, '--baseline', 'dind@20.10'], {
    encoding: 'utf8',
  });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--baseline and --candidate go together/);
});
