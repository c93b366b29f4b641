// The site opens on what the answer is about: the benchmark that holds what a job pays (the start-up in
// lifecycle), not the first name in alphabetical order ("build" used to open a run's page), and the answer
// above it is the run's reading, the same sentences as report.md.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { answers } from '../../src/results/report.js';
import { buildSite } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { tmpDir } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';

const skip = browserOrSkip();
const fixture = (/** @type {string} */ name) =>
  JSON.parse(readFileSync(new URL(`../fixtures/results/${name}.json`, import.meta.url), 'utf8'));

/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;
before(async () => {
  if (!skip) browser = await launch();
});
after(() => browser?.close());

test(
  "a run with build, lifecycle, memory and sysbench opens on lifecycle, under the run's answer",
  { skip },
  async () => {
    const run = fixture('decide-quick-5');
    // The build cells of a real run, as if this run had measured them too (they sort before lifecycle).
    const build = fixture('memory-build-quick').cells.filter((/** @type {any} */ c) => c.benchmark === 'build');
    run.cells.push(
      ...build.filter((/** @type {any} */ c) =>
        run.environments.some((/** @type {any} */ e) => e.key === c.environmentKey),
      ),
    );
    assert.ok(
      run.cells.some((/** @type {any} */ c) => c.benchmark === 'build'),
      'the run has build cells',
    );
    const file = path.join(tmpDir('first-view-run'), 'results.json');
    writeFileSync(file, JSON.stringify(run));
    const history = tmpDir('first-view-history');
    await publishRun(history, file);
    const site = await serveSite((await buildSite({ history, out: path.join(tmpDir('first-view-site'), 'site') })).out);
    try {
      const { page, errors } = await openPage(browser.context, site.url);
      assert.equal(await page.locator('#f-bench').inputValue(), 'lifecycle');
      const answer = (await page.locator('#answer').innerText()).replace(/\s+/g, ' ');
      for (const a of answers(run)) assert.ok(answer.includes(a.replace(/\s+/g, ' ')), `the page says: ${a}`);
      assert.match(
        answer,
        /dind@20\.10 costs a job \+1\.6 s \[\+0\.32 s, \+4\.9 s\] to start against docker, before its images/,
      );
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await site.close();
    }
  },
);
