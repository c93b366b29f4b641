// A history branch is written by publish, but anyone who can push to it can plant files there. The site
// is served from the same origin as the data, so a planted HTML page would be stored XSS: `site build`
// copies only what the layout names (JSON data), and refuses to build in the history's own folder while
// it holds anything else.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
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
