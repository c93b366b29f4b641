// The image ledger on the real engine (issue 43, item 6): at a run's end it removes only images whose every
// tag the run made; an image another job pulled or tagged meanwhile survives, a name another job re-pointed
// stays as that job left it, and an archive's every tag is found before it is loaded.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import tar from 'tar-stream';
import { ImageNames } from '../../src/engine/image-names.js';
import { archiveTags } from '../../src/workload/archive-tags.js';
import { engineOrSkip } from '../helpers/engine.js';

/** Names of this test process's own. */
const ns = `dind-bench-ledger-${process.pid}`;
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-ledger-'));
/** @type {string[]} */
const made = [];
after(() => {
  for (const name of made) spawnSync('docker', ['rmi', '--force', name], { encoding: 'utf8' });
  rmSync(work, { recursive: true, force: true });
});

/**
 * A tiny image of its own content (FROM scratch: nothing to pull), tagged `tag`; its ID.
 * @param {import('dockerode')} docker @param {string} tag @param {string} content
 */
async function tinyImage(docker, tag, content) {
  made.push(tag);
  const pack = tar.pack();
  pack.entry({ name: 'Dockerfile' }, 'FROM scratch\nCOPY f /f\n');
  pack.entry({ name: 'f' }, content);
  pack.finalize();
  const stream = await docker.buildImage(/** @type {any} */ (pack), { t: tag });
  await new Promise((resolve, reject) =>
    docker.modem.followProgress(stream, (err, out) => {
      const failed = err ?? out.find((/** @type {any} */ o) => o.error)?.error;
      return failed ? reject(new Error(String(failed))) : resolve(out);
    }),
  );
  return /** @type {string} */ ((await docker.getImage(tag).inspect()).Id);
}

/** @param {import('dockerode')} docker @param {string} name */
const idOf = (docker, name) =>
  docker
    .getImage(name)
    .inspect()
    .then((i) => i.Id)
    .catch(() => null);

test("another job's images survive the run's end; the run's own go", async (t) => {
  const docker = await engineOrSkip(t);
  if (!docker) return;
  const ledger = await ImageNames.open(docker);
  const nonce = `${Date.now()}-${Math.random()}`;
  // The run makes three images, each under a name of its own.
  const shared = `${ns}/shared:1`;
  await ledger.claim(shared);
  const sharedId = await tinyImage(docker, shared, `shared ${nonce}`);
  await ledger.madeUnder(shared);
  const alone = `${ns}/alone:1`;
  await ledger.claim(alone);
  const aloneId = await tinyImage(docker, alone, `alone ${nonce}`);
  await ledger.madeUnder(alone);
  const repointed = `${ns}/repointed:1`;
  await ledger.claim(repointed);
  await tinyImage(docker, repointed, `repointed ${nonce}`);
  await ledger.madeUnder(repointed);
  // Meanwhile another job on the engine pulls the first image's content under its own name, and builds an
  // image of its own under a name the run had used.
  const theirs = `${ns}/theirs:1`;
  made.push(theirs);
  await docker.getImage(sharedId).tag({ repo: `${ns}/theirs`, tag: '1' });
  const otherId = await tinyImage(docker, repointed, `another job ${nonce}`);

  const changes = await ledger.restore();
  assert.equal(await idOf(docker, theirs), sharedId, "the other job's name still names its image");
  assert.equal(await idOf(docker, shared), null, "the run's name on it is removed");
  assert.equal(await idOf(docker, repointed), otherId, 'a name another job re-pointed stays as it left it');
  assert.equal(await idOf(docker, aloneId), null, 'an image whose every tag was the run’s is removed');
  assert.match(changes.find((c) => c.name === repointed)?.done ?? '', /kept: .*another job/);
  assert.match(changes.find((c) => c.name === shared)?.done ?? '', /the name only/);
});

test('an archive names every tag its load points, read before the load', async (t) => {
  const docker = await engineOrSkip(t);
  if (!docker) return;
  const one = `${ns}/archived:1`;
  const two = `${ns}/also-named:2`;
  const id = await tinyImage(docker, one, `archived ${Date.now()}`);
  made.push(two);
  await docker.getImage(id).tag({ repo: `${ns}/also-named`, tag: '2' });
  const file = path.join(work, 'two-tags.tar');
  const r = spawnSync('docker', ['save', '--output', file, one, two], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual((await archiveTags(file)).sort(), [two, one].sort());
  const gz = spawnSync('sh', ['-c', `gzip -c "${file}" > "${file}.gz"`]);
  assert.equal(gz.status, 0);
  assert.deepEqual((await archiveTags(`${file}.gz`)).sort(), [two, one].sort());
  await assert.rejects(archiveTags(new URL(import.meta.url).pathname), /not a docker save archive/);
});
