// What a run records after its cleanup has begun (a step still in flight when Ctrl-C arrives) is removed
// at once rather than left behind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResourceTracker, isHostDir, removeHostDir } from '../../src/engine/resources.js';
import { engineOrSkip } from '../helpers/engine.js';

test('after cleanup began, newly recorded volumes are removed and new hooks run', async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  const tracker = new ResourceTracker(`late-${process.pid}-${Date.now()}`);
  await tracker.cleanup(outer);
  assert.equal(tracker.closing, true);

  const vol = await outer.createVolume({ Labels: tracker.labels });
  tracker.add('volume', vol.name, outer);
  let hookRan = false;
  tracker.onCleanup(async () => {
    hookRan = true;
  });
  // No second cleanup call: the removal must follow from recording alone.
  assert.equal(hookRan, true);
  const exists = async () => ((await outer.listVolumes()).Volumes ?? []).some((v) => v.Name === vol.name);
  for (let i = 0; i < 100 && (await exists()); i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(
    await exists(),
    false,
    `volume ${vol.name} was recorded after cleanup began and should have been removed`,
  );
});

test('a create still in flight when cleanup starts is waited for, and what it made is removed', async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  const tracker = new ResourceTracker(`inflight-${process.pid}-${Date.now()}`);
  // The engine answers this create only after cleanup has begun (as when Ctrl-C lands mid-create), and
  // the caller never gets to record it: only waiting for the call, then the label sweep, can catch it.
  const created = tracker.creating(
    new Promise((r) => setTimeout(r, 300)).then(() => outer.createVolume({ Labels: tracker.labels })),
  );
  const problems = await tracker.cleanup(outer);
  assert.deepEqual(problems, []);
  const { name } = await created;
  const exists = ((await outer.listVolumes()).Volumes ?? []).some((v) => v.Name === name);
  assert.equal(exists, false, `volume ${name} was created during cleanup and should have been swept`);
});

test('only a folder of the shape a run makes is removed by its container label', async () => {
  for (const ok of ['/tmp/dind-bench-AbC123', '/run/x/dind-bench-000000']) assert.equal(isHostDir(ok), true, ok);
  const hostile = [
    '/',
    '/tmp',
    'tmp/dind-bench-AbC123',
    '/tmp/../etc/dind-bench-AbC123',
    '/tmp/dind-bench-AbC1234',
    '/tmp/dind-bench-AbC12',
    '/tmp/dind-bench-../..',
    '/home/me',
    '',
  ];
  for (const bad of hostile) {
    assert.equal(isHostDir(bad), false, bad);
    await assert.rejects(removeHostDir(bad), /not a folder of the shape a run makes/, bad);
  }
});
