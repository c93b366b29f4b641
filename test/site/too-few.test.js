// The site's answer never reads "clearly worse in 0" where too few samples hide the differences: a run of
// 3 samples a side, in real headless Chromium, answers its question as inconclusive and says what would
// decide it, as the Reading does (its answer table, the same cells as report.md), and gives the
// largest estimates as untested.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { buildSite } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { FIXTURE, tmpDir } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { readRun } from '../helpers/reading.js';
import { answerOnPage } from '../helpers/site.js';

const skip = browserOrSkip();
/** @type {{url: string, close: () => Promise<void>}} */ let server;
/** @type {any} */ let run;
/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;

before(async () => {
  if (skip) return;
  const r = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  run = r;
  r.run.iterations = 3;
  for (const c of r.cells) for (const m of c.metrics) m.samples = m.samples.slice(0, 3);
  const file = path.join(tmpDir('too-few-runs'), 'results.json');
  writeFileSync(file, JSON.stringify(r));
  const history = tmpDir('too-few-history');
  await publishRun(history, file);
  const out = path.join(tmpDir('too-few-site'), 'site');
  await buildSite({ history, out });
  server = await serveSite(out);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test(
  '3 samples a side: the answer table reads the question as inconclusive and says what would decide it, never "worse in 0"',
  { skip },
  async () => {
    const { page, errors } = await openPage(browser.context, server.url);
    const { header, rows, groups } = readRun(run).table;
    const shown = await answerOnPage(page);
    assert.deepEqual(shown, { header, rows, groups });
    assert.deepEqual(shown.groups, ['dind@20.10 vs docker']);
    const [question, answer, , , toDecide] = shown.rows[0];
    assert.deepEqual([question, answer], ['CPU', 'inconclusive']);
    assert.match(toDecide, /^~[\d,]+ a side$/);
    assert.doesNotMatch(await page.locator('#answer').innerText(), /clearly worse|no change/);
    assert.deepEqual(errors, []);
  },
);
