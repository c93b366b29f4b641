// The history's series key includes the runner's kind (issue 36): an ARC pod and a VM of one machine type
// have the same hardware but must not share a series. The kind is part of the fingerprint, except the kind
// `machine`, which keeps the fingerprint every run had before kinds were recorded: an existing history's
// series continue, and nothing recorded moves. Checked on a real recorded results file (the quick-run
// fixture, recorded before kinds existed) published with `dind-bench publish`, then read back through the
// store's API.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { hardwareFingerprint, runnerKind } from '../../src/results/provenance.js';
import { validateResults } from '../../src/results/schema.js';
import { openHistory, seriesKey } from '../../src/history/store.js';
import { fixture, tmpDir } from './helpers.js';
import { runCli } from '../helpers/run-cli.js';

test('the runner kind: k8s in a Kubernetes pod, machine elsewhere, or what DIND_BENCH_RUNNER_KIND says (checked)', () => {
  const none = () => false;
  assert.equal(runnerKind({}, none), 'machine');
  assert.equal(runnerKind({ KUBERNETES_SERVICE_HOST: '10.0.0.1' }, none), 'k8s');
  // A pod whose environment was trimmed still has its service account folder (unless that is turned off).
  assert.equal(
    runnerKind({}, (p) => p === '/var/run/secrets/kubernetes.io/serviceaccount'),
    'k8s',
  );
  assert.equal(runnerKind({ DIND_BENCH_RUNNER_KIND: 'arc-dind', KUBERNETES_SERVICE_HOST: 'x' }, none), 'arc-dind');
  assert.equal(runnerKind({ DIND_BENCH_RUNNER_KIND: '' }, none), 'machine');
  for (const bad of ['ARC', 'a b', '-x', 'x'.repeat(41), 'k8s\n']) {
    assert.throws(
      () => runnerKind({ DIND_BENCH_RUNNER_KIND: bad }, none),
      /DIND_BENCH_RUNNER_KIND=.* is not a runner kind \(expected .*\); unset it or fix the runner's environment/,
      JSON.stringify(bad),
    );
  }
});

test('the kind machine keeps the fingerprint a run had before kinds were recorded; any other kind makes its own', () => {
  const { host } = fixture();
  // The fixture was recorded by an earlier dind-bench: its fingerprint is the hardware alone.
  const before = createHash('sha256')
    .update(`${host.cpuModel}|${host.cores}|${Math.round(host.memoryBytes / 2 ** 30)}|${host.arch}`)
    .digest('hex')
    .slice(0, 16);
  assert.equal(host.fingerprint, before);
  assert.equal(hardwareFingerprint({ ...host, kind: 'machine' }), before);
  const pod = hardwareFingerprint({ ...host, kind: 'k8s' });
  assert.notEqual(pod, before);
  assert.notEqual(hardwareFingerprint({ ...host, kind: 'arc-dind' }), pod);
});

/** The fixture as a run of `kind` (none: as recorded before kinds), with its own id and start. @param {string} dir @param {string} id @param {string} startedAt @param {string} [kind] */
function run(dir, id, startedAt, kind) {
  const r = fixture();
  r.run.id = id;
  r.run.startedAt = startedAt;
  r.run.endedAt = new Date(Date.parse(startedAt) + 180_000).toISOString();
  if (kind) {
    r.host.kind = kind;
    r.host.fingerprint = hardwareFingerprint({ ...r.host, kind });
  }
  validateResults(r, id);
  const file = path.join(dir, `${id}.json`);
  writeFileSync(file, JSON.stringify(r));
  return file;
}

test('an existing history: a VM run continues its series, a pod of the same machine type starts its own, nothing recorded moves', async () => {
  const runs = tmpDir('kind-runs');
  const history = tmpDir('kind-history');
  const publish = (/** @type {string} */ file) => {
    const r = runCli(['publish', file, '--history', history]);
    assert.equal(r.status, 0, r.stderr);
  };
  // Two runs recorded before kinds existed (the history as an upgrade finds it).
  publish(run(runs, 'old-1', '2026-10-01T03:00:00Z'));
  publish(run(runs, 'old-2', '2026-10-08T03:00:00Z'));
  const before = await openHistory(history);
  const oldKeys = before.listSeries().map((s) => s.key);
  const cell = fixture().cells.find((/** @type {any} */ c) => c.status === 'ok');
  const id = {
    fingerprint: fixture().host.fingerprint,
    benchmark: cell.benchmark,
    metric: cell.metrics[0].metric,
    environmentKey: cell.environmentKey,
    distro: cell.distro,
  };
  const key = seriesKey(id);
  assert.ok(oldKeys.includes(key));
  assert.deepEqual(
    (await before.readSeries(key)).map((p) => p.runId),
    ['old-1', 'old-2'],
  );

  // After the upgrade: the VM (kind machine) and an ARC pod of the same machine type.
  publish(run(runs, 'vm-3', '2026-10-15T03:00:00Z', 'machine'));
  publish(run(runs, 'pod-1', '2026-10-15T04:00:00Z', 'k8s'));
  const after = await openHistory(history);
  const keys = after.listSeries().map((s) => s.key);
  // The VM's run continues the old series; every old series is still there, with every old point.
  assert.deepEqual(
    (await after.readSeries(key)).map((p) => p.runId),
    ['old-1', 'old-2', 'vm-3'],
  );
  for (const k of oldKeys) {
    const points = (await after.readSeries(k)).map((p) => p.runId);
    assert.deepEqual(
      points.filter((r) => r.startsWith('old-')),
      ['old-1', 'old-2'],
      k,
    );
    assert.ok(!points.includes('pod-1'), `${k}: the pod's run is not in a VM's series`);
  }
  // The pod's run: series of its own, one for each of the VM's, with its one point.
  const podKey = seriesKey({ ...id, fingerprint: hardwareFingerprint({ ...fixture().host, kind: 'k8s' }) });
  assert.deepEqual(
    (await after.readSeries(podKey)).map((p) => p.runId),
    ['pod-1'],
  );
  assert.equal(keys.length, 2 * oldKeys.length);
});
