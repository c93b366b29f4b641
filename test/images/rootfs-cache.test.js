// The Debian base's root filesystem is kept between builds (src/images/base.js): a cached tar of the same
// recipe is imported without debootstrap, and anything but a regular file at its name is not trusted. The
// tar is made from the engine's own base image (no download: tests stay on this machine), and the mirror is a
// folder that does not exist, so a debootstrap that starts fails at once, locally.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-rootfs-cache-'));
const prefix = `dind-bench-test-cache-${process.pid}`;
process.env.DIND_BENCH_IMAGE_PREFIX = prefix;
process.env.DIND_BENCH_CACHE = path.join(dir, 'cache');
process.env.DIND_BENCH_DEBIAN_MIRROR = `file://${path.join(dir, 'no-mirror')}/debian`;
// Imported after the variables are set: the image prefix is read when the catalog is first loaded.
const { buildDebianBase, rootfsCacheFile } = await import('../../src/images/base.js');
const { engineOrSkip } = await import('../helpers/engine.js');
const { debianBaseImage } = await import('../../src/images/catalog.js');

test('a cached root filesystem of the same recipe is imported without debootstrap; a link in its place is not followed', async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  // Not ensureImages: under this prefix it would build every image again. The images build made this one.
  const tag = `${prefix}/base:debian-bookworm-slim`;
  // Never the engine's own base image: the prefix took.
  assert.equal(debianBaseImage('bookworm'), tag);
  const file = rootfsCacheFile('bookworm', /** @type {string} */ (process.env.DIND_BENCH_DEBIAN_MIRROR));
  t.after(() => {
    spawnSync('docker', ['rmi', '-f', tag]);
    rmSync(dir, { recursive: true, force: true });
  });
  // The cache's tar, from the base image the run's images were built on.
  const made = spawnSync('docker', ['create', 'dind-bench/base:debian-bookworm-slim', 'true'], { encoding: 'utf8' });
  assert.equal(made.status, 0, `${made.stderr} (run \`node bin/dind-bench.js images build\` first)`);
  const id = made.stdout.trim();
  spawnSync('mkdir', ['-p', path.dirname(file)]);
  const exported = spawnSync('docker', ['export', '-o', file, id], { encoding: 'utf8' });
  spawnSync('docker', ['rm', id]);
  assert.equal(exported.status, 0, exported.stderr);

  /** @type {string[]} */
  const log = [];
  const built = await buildDebianBase(outer, 'bookworm', (s) => log.push(s));
  assert.deepEqual(built, { tag, cached: true });
  assert.ok(!log.some((l) => l.startsWith('debootstrap')), log.join('\n'));
  const inspected = spawnSync('docker', ['run', '--rm', tag, 'cat', '/etc/debian_version'], { encoding: 'utf8' });
  assert.equal(inspected.status, 0, inspected.stderr);
  assert.match(inspected.stdout, /^12\./);

  // Another recipe (here another mirror) has another name: never the old tar.
  assert.notEqual(rootfsCacheFile('bookworm', 'http://other.invalid/debian'), file);
  assert.notEqual(rootfsCacheFile('trixie', /** @type {string} */ (process.env.DIND_BENCH_DEBIAN_MIRROR)), file);

  // A link at the cache's name could point anywhere: it is not read, so the build goes to debootstrap (which
  // fails here at once, its mirror a missing folder).
  const moved = `${file}.real`;
  renameSync(file, moved);
  symlinkSync(moved, file);
  log.length = 0;
  await assert.rejects(
    buildDebianBase(outer, 'bookworm', (s) => log.push(s)),
    /debootstrap/,
  );
  assert.ok(
    log.some((l) => l.startsWith('debootstrap')),
    log.join('\n'),
  );
});
