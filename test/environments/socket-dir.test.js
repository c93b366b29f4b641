// DIND_BENCH_SOCKET_DIR: where the inner daemons' socket folders are made, for runners in a container
// next to their engine (the folder must be mounted at the same path in both). On the real engine: the
// socket appears under the configured folder (created when missing), the inner daemon answers there, and
// cleanup removes the folder it made. The full runner-in-a-container path is .ci/fresh-runner-e2e.sh.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ResourceTracker } from '../../src/engine/resources.js';
import { dindImage } from '../../src/images/catalog.js';
import { engineOrSkip, ensureImages } from '../helpers/engine.js';

const base = mkdtempSync(path.join(tmpdir(), 'dind-bench-sockets-'));
after(() => rmSync(base, { recursive: true, force: true }));
const socketParent = path.join(base, 'not-yet-there');
// Read once, when the module loads: set before the import, as a runner's environment would.
process.env.DIND_BENCH_SOCKET_DIR = socketParent;
const { startInnerDaemon } = await import('../../src/environments/dind-daemon.js');

/** The real engine with the DinD 20.10 image, or null when the test is skipped. @param {import('node:test').TestContext} t */
async function engineWithDind(t) {
  const outer = await engineOrSkip(t);
  if (outer) await ensureImages(outer, ['20.10']);
  return outer;
}

/** An inner engine of the run `tracker` records. @param {import('dockerode')} outer @param {ResourceTracker} tracker */
const startDind = (outer, tracker) => startInnerDaemon(outer, { image: dindImage('20.10'), volume: false, tracker });

test('the inner daemon socket lives under DIND_BENCH_SOCKET_DIR, and the folder goes with cleanup', async (t) => {
  const outer = await engineWithDind(t);
  if (!outer) return;
  const tracker = new ResourceTracker(`test-socket-dir-${process.pid}`);
  try {
    const inner = await startDind(outer, tracker);
    const folders = readdirSync(socketParent);
    assert.equal(folders.length, 1);
    assert.match(folders[0], /^dind-bench-/);
    assert.ok(existsSync(path.join(socketParent, folders[0], 'docker.sock')), 'docker.sock in the configured folder');
    assert.equal(String(await inner.docker.ping()), 'OK');
    await inner.stop();
  } finally {
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  assert.deepEqual(readdirSync(socketParent), [], 'cleanup removed the socket folder');
});

test('cleanup with the inner engine still running: the container goes first, then its folder', async (t) => {
  const outer = await engineWithDind(t);
  if (!outer) return;
  const tracker = new ResourceTracker(`test-socket-dir-live-${process.pid}`);
  await startDind(outer, tracker);
  assert.equal(readdirSync(socketParent).length, 1);
  // As on Ctrl-C or a failed step: no stop(), the inner engine is live and writing to its /var/run.
  assert.deepEqual(await tracker.cleanup(outer), []);
  assert.deepEqual(readdirSync(socketParent), [], 'the live engine folder went with its container');
});

test('a run killed outright: the next attempt (same run id, as --resume) sweeps its DinD container and folder', async (t) => {
  const outer = await engineWithDind(t);
  if (!outer) return;
  const runId = `test-socket-dir-killed-${process.pid}`;
  // The killed run: it started an inner engine, and never got to clean up.
  await startDind(outer, new ResourceTracker(runId));
  const [left] = readdirSync(socketParent);
  assert.match(left, /^dind-bench-/);
  const resumed = new ResourceTracker(runId);
  await resumed.sweep(outer);
  const filters = { label: [`dind-bench.run=${runId}`] };
  assert.deepEqual(await outer.listContainers({ all: true, filters }), [], 'its container is gone');
  assert.deepEqual(readdirSync(socketParent), [], 'and so is the folder it left');
});
