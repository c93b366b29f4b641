// `compare --history` and the history itself read a cell's engines with one function, from the
// environment's descriptor: a series of an environment with an engine of its own that is not named dind*
// (podman, sysbox) gets its engine's version on both sides, so an unchanged engine adds no "changed with
// Engine ... -> none" to its verdict.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { compareWithHistory } from '../../src/compare/against-history.js';
import { InMemoryHistory } from '../../src/compare/in-memory-history.js';
import { pointsOf, seriesKey } from '../../src/history/points.js';

/** @returns {any} the podman fixture with its dind cells also run as sysbox on the same Engine line */
function withSysbox() {
  const run = JSON.parse(
    readFileSync(new URL('../fixtures/results/podman-lifecycle-quick.json', import.meta.url), 'utf8'),
  );
  const dind = run.environments.find((/** @type {any} */ e) => e.key === 'dind@20.10');
  run.environments.push({ ...structuredClone(dind), key: 'sysbox@20.10', name: 'sysbox' });
  for (const c of run.cells.filter((/** @type {any} */ c) => c.environmentKey === 'dind@20.10'))
    run.cells.push({ ...structuredClone(c), environment: 'sysbox', environmentKey: 'sysbox@20.10' });
  return run;
}

/** A history of six earlier runs like this one, as `publish` would have stored them. @param {any} run */
function historyOf(run) {
  const history = new InMemoryHistory();
  for (let i = 0; i < 6; i++) {
    for (const { series, point } of pointsOf(run)) {
      const { key, benchmark, metric, environmentKey, distro, unit, better } = series;
      const info = { key, benchmark, metric, environmentKey, distro, unit, better };
      history.add(info, { ...point, runId: `earlier-${i}` });
    }
  }
  return history;
}

test('podman and sysbox series: no engine change is noted when the engine did not change', async () => {
  const run = withSysbox();
  const verdicts = await compareWithHistory(run, historyOf(run), { seriesKey });
  for (const key of ['podman', 'sysbox@20.10', 'dind@20.10', 'docker']) {
    const of = verdicts.filter((v) => v.environmentKey === key);
    assert.ok(of.length > 0, `${key} has verdicts`);
    for (const v of of) assert.equal(v.engineChange, null, `${key} ${v.metric}: ${v.reason}`);
  }
});

test("a Podman upgrade is noted with Podman's versions, never as an engine gone", async () => {
  const run = withSysbox();
  const history = historyOf(run);
  const upgraded = structuredClone(run);
  upgraded.environments.find((/** @type {any} */ e) => e.key === 'podman').facts.engineVersion = '5.4.2';
  const verdicts = await compareWithHistory(upgraded, history, { seriesKey });
  const podman = verdicts.filter((v) => v.environmentKey === 'podman');
  assert.ok(podman.length > 0);
  for (const v of podman) assert.equal(v.engineChange, 'changed with Engine 4.3 -> 5.4');
  for (const v of verdicts) assert.doesNotMatch(String(v.engineChange), /-> none/);
});
