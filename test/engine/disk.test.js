// The host-side disk counters of src/engine/disk.js, on a real file system (no engine needed): a
// workload that writes 32 MiB must show up in the device's written bytes and in the peak of used space;
// space another process frees meanwhile can hide that peak, never the written bytes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { blockDeviceStatFile, deviceWrittenBytes, watchDisk } from '../../src/engine/disk.js';

const MIB = 2 ** 20;
// Next to the repository, not in /tmp: /tmp may be a tmpfs, which has no block device to count.
const parent = path.resolve(new URL('../../', import.meta.url).pathname);

test('watchDisk counts what a workload writes and the peak space it took', async (t) => {
  const dir = mkdtempSync(path.join(parent, '.disk-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'data.bin');
  const r = await watchDisk(dir, async () => {
    const fh = await open(file, 'w');
    const chunk = Buffer.alloc(MIB, 7);
    for (let i = 0; i < 32; i++) await fh.write(chunk);
    await fh.close(); // buffered, not fsynced: watchDisk's own sync must flush it before counting
    return 'done';
  });
  assert.equal(r.result, 'done');
  assert.ok(r.peak_growth_bytes >= 24 * MIB, `peak growth ${r.peak_growth_bytes} bytes`);
  if (await blockDeviceStatFile(dir))
    assert.ok(r.written_bytes !== null && r.written_bytes >= 32 * MIB, `written ${r.written_bytes} bytes`);
  else assert.equal(r.written_bytes, null);
});

test('another process freeing space meanwhile hides the growth (peak 0, left negative); the written bytes still show', async (t) => {
  const dir = mkdtempSync(path.join(parent, '.disk-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // A neighbour's file, on disk before the watch begins, removed while the workload writes 8 MiB.
  const neighbour = path.join(dir, 'neighbour.bin');
  const fh = await open(neighbour, 'w');
  for (let i = 0; i < 256; i++) await fh.write(Buffer.alloc(MIB, 1));
  await fh.sync();
  await fh.close();
  const r = await watchDisk(
    dir,
    async () => {
      rmSync(neighbour);
      const out = await open(path.join(dir, 'data.bin'), 'w');
      for (let i = 0; i < 8; i++) await out.write(Buffer.alloc(MIB, 7));
      await out.close();
    },
    { intervalMs: 1 },
  );
  assert.equal(r.peak_growth_bytes, 0, 'the peak never rose above the start: 0, though 8 MiB were written');
  assert.ok(r.left_bytes < 0, `left ${r.left_bytes} bytes`);
  if (await blockDeviceStatFile(dir))
    assert.ok(r.written_bytes !== null && r.written_bytes >= 8 * MIB, `written ${r.written_bytes} bytes`);
});

test('watchDisk stops sampling and rethrows when the workload fails', async () => {
  await assert.rejects(
    watchDisk(parent, async () => {
      throw new Error('workload broke');
    }),
    /workload broke/,
  );
});

test('a device stat file in an unexpected format is an error naming the file', async (t) => {
  const dir = mkdtempSync(path.join(parent, '.disk-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bad = path.join(dir, 'stat');
  const fh = await open(bad, 'w');
  await fh.write('1 2 3\n');
  await fh.close();
  await assert.rejects(
    deviceWrittenBytes(bad),
    (e) => e instanceof Error && e.message.startsWith(`${bad}: unexpected format`),
  );
});
