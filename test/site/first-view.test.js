// The site opens on what the answer is about: the benchmark that holds what a job pays (the start-up in
// lifecycle), not the first name in alphabetical order ("build" used to open a run's page), and the answer
// above it is the run's Reading, the same answer table as report.md.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { answerRow, readRun } from '../helpers/reading.js';
import { answerOnPage, siteOf } from '../helpers/site.js';

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
    const { site } = await siteOf(run, 'first-view');
    try {
      const { page, errors } = await openPage(browser.context, site.url);
      assert.equal(await page.locator('#f-bench').inputValue(), 'lifecycle');
      const reading = readRun(run);
      const { header, rows, groups } = reading.table;
      assert.deepEqual(await answerOnPage(page), { header, rows, groups });
      const startup = answerRow(
        reading,
        (/** @type {any} */ q) => q.resource === 'start-up' && q.subject === 'dind@20.10' && q.baseline === 'docker',
      );
      assert.equal(startup?.answer, 'regression');
      assert.match(startup?.['change [interval]'] ?? '', /^\+1\.6 s \[\+0\.\d+, \+\d\.\d\] \(\+\d+%\)$/);
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await site.close();
    }
  },
);
