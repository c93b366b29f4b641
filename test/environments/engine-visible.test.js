// Folders the run hands to the runner's engine as bind mount sources (a workload's copy, its registries'
// CA certificates) are made where the engine sees them at the same path: under DIND_BENCH_SOCKET_DIR when a
// runner in a container sets it (ARC dind mode: the work volume both containers mount), else the system's
// temporary folder. No engine needed: the real runner-in-a-container path is .ci/fresh-runner-e2e.sh.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { engineVisibleTmp } from '../../src/environments/engine-visible.js';
import { certsFolder } from '../../src/workload/registry-trust.js';

const base = mkdtempSync(path.join(tmpdir(), 'dind-bench-engine-visible-'));
after(() => rmSync(base, { recursive: true, force: true }));

test('engineVisibleTmp: the shared folder when DIND_BENCH_SOCKET_DIR is set (made if missing), else the temporary folder', async () => {
  assert.equal(await engineVisibleTmp({}), tmpdir());
  assert.equal(await engineVisibleTmp({ DIND_BENCH_SOCKET_DIR: '' }), tmpdir());
  const shared = path.join(base, 'work', '.dind-bench');
  assert.equal(await engineVisibleTmp({ DIND_BENCH_SOCKET_DIR: shared }), shared);
  assert.ok(existsSync(shared), 'made');
  // A relative value is resolved once, so the engine gets an absolute path.
  assert.equal(await engineVisibleTmp({ DIND_BENCH_SOCKET_DIR: path.relative(process.cwd(), shared) }), shared);
});

test("a workload registry's CA folder is made in the shared folder when the runner is in a container", async () => {
  const shared = path.join(base, 'ca-shared');
  const before = process.env.DIND_BENCH_SOCKET_DIR;
  process.env.DIND_BENCH_SOCKET_DIR = shared;
  try {
    const pem = '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n';
    const certs = await certsFolder([{ address: 'registry.example.internal:5000', pem }]);
    assert.equal(path.dirname(certs.dir), shared);
    assert.equal(readFileSync(path.join(certs.dir, 'registry.example.internal:5000', 'ca.crt'), 'utf8'), pem);
    await certs.remove();
    assert.ok(!existsSync(certs.dir));
  } finally {
    if (before === undefined) delete process.env.DIND_BENCH_SOCKET_DIR;
    else process.env.DIND_BENCH_SOCKET_DIR = before;
  }
});
