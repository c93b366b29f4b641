// A history branch is written by publish, but anyone who can push to it can plant files there. The site
// is served from the same origin as the data, so a planted HTML page would be stored XSS: `site build`
// copies only what the layout names (JSON data), and refuses to build in the history's own folder while
// it holds anything else.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { buildSite } from '../../src/site/build.js';
import { FIXTURE, tmpDir } from '../history/helpers.js';

/** Every file under `dir`, relative. @param {string} dir @returns {string[]} */
const filesUnder = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

test('a planted HTML page and a non-JSON file in the history are not published', async () => {
  const history = tmpDir('planted-history');
  await publishRun(history, FIXTURE);
  writeFileSync(path.join(history, 'evil.html'), '<script>alert(document.cookie)</script>');
  writeFileSync(path.join(history, 'runs', 'notes.txt'), 'not data');
  const out = path.join(tmpDir('planted-site'), 'site');
  await buildSite({ history, out });
  const files = filesUnder(out);
  assert.ok(files.includes(path.join('data', 'index.json')), 'the data is there');
  assert.ok(
    !files.some((f) => f.endsWith('evil.html')),
    `evil.html was published: ${files.filter((f) => /evil/.test(f))}`,
  );
  assert.ok(!files.some((f) => f.endsWith('notes.txt')), 'a non-JSON file was published');
});

test('a site built in the history folder is refused while a planted file is there; nothing is written', async () => {
  const history = tmpDir('planted-inplace');
  await publishRun(history, FIXTURE);
  writeFileSync(path.join(history, 'evil.html'), '<script>alert(1)</script>');
  await assert.rejects(
    buildSite({ history, out: history }),
    /evil\.html: is not a file of the history or of the site.*Remove it/,
  );
  assert.equal(existsSync(path.join(history, 'index.html')), false, 'no page was written');
});

test("in the history folder, vendor/ and model/ may hold only the site's own files: a page planted there is refused", async () => {
  const history = tmpDir('planted-inplace-vendor');
  await publishRun(history, FIXTURE);
  // A build in place, and a second one over it: the site's own files are no foreign files.
  await buildSite({ history, out: history });
  await buildSite({ history, out: history });
  for (const planted of ['vendor/evil.html', 'model/evil.svg', 'model/deep/er.html', 'vendor/chart.js']) {
    const file = path.join(history, planted);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '<script>alert(1)</script>');
    const stamps = () => filesUnder(history).map((f) => `${f} ${statSync(path.join(history, f)).mtimeMs}`);
    const before = stamps().sort();
    await assert.rejects(
      buildSite({ history, out: history }),
      new RegExp(`${planted.replace(/[./]/g, '\\$&')}: is not a file of the history or of the site.*Remove it`),
    );
    assert.deepEqual(stamps().sort(), before, `${planted}: nothing was written`);
    rmSync(file);
  }
  await buildSite({ history, out: history });
});
