// A workload run's job in its parts on the site (issue 55, item 5: "the job's parts with their intervals
// beside it, so a team sees where the time goes"): a real quick run of the `script` workload
// (test/fixtures/results/workload-script-quick.json) is published, the site built, served and read in real
// headless Chromium at a phone's width and a laptop's. Below the answer, each table of the Reading's parts
// (src/reading/parts.js) is on the page cell for cell, under its title, with its note: the site lays out
// what the Reading computed and nothing else. The overview is then played as a hostile history would write
// it and as an older one holds it (version 7, no parts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { readRun } from '../helpers/reading.js';
import { answerOnPage, cutCells, siteOf } from '../helpers/site.js';

const skip = browserOrSkip();
const RUN = new URL('../fixtures/results/workload-script-quick.json', import.meta.url);
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;
const results = JSON.parse(readFileSync(RUN, 'utf8'));
const SCREENS = /** @type {const} */ ([
  ['phone', 390, 844],
  ['laptop', 1366, 768],
]);

/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;
/** @type {Awaited<ReturnType<typeof siteOf>>} */ let site;
/** @type {string} */ let original;
before(async () => {
  site = await siteOf(results, 'parts');
  original = readFileSync(site.overview, 'utf8');
  if (!skip) browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.site.close();
});
afterEach(() => {
  if (site) writeFileSync(site.overview, original);
});

/** @param {(o: any) => void} change */
function playOverview(change) {
  const o = JSON.parse(original);
  change(o);
  writeFileSync(site.overview, JSON.stringify(o));
}

/**
 * The parts on the page, as the Reading's tables: each title, header, rows and note, in page order.
 * @param {import('playwright-core').Page} page
 */
const partsOnPage = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#answer .answer-parts table')].map((table) => {
      const wrap = /** @type {HTMLElement} */ (table.parentElement);
      return {
        title: wrap.previousElementSibling?.textContent ?? '',
        header: [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? ''),
        rows: [...table.querySelectorAll('tbody tr')].map((tr) =>
          [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
        ),
        note: wrap.nextElementSibling?.textContent ?? '',
      };
    }),
  );

test("the published overview holds the Reading's parts as they are", () => {
  const o = JSON.parse(original);
  assert.equal(o.version, 8);
  const want = readRun(results).parts;
  assert.ok(want.length >= 2, 'the run has DinD environments against Docker');
  assert.deepEqual(o.answer.parts, want);
});

for (const [screen, width, height] of SCREENS)
  test(
    `${screen} (${width} px): below the answer, each table of the job's parts, cell for cell`,
    { skip },
    async () => {
      const reading = readRun(results);
      const { page, errors } = await openPage(browser.context, site.site.url, { width });
      await page.setViewportSize({ width, height });
      assert.deepEqual(
        await partsOnPage(page),
        reading.parts.map((t) => ({ title: t.title, header: t.header, rows: t.rows, note: t.note })),
      );
      // The answer is still first, and whole: the parts come after its table.
      assert.deepEqual((await answerOnPage(page)).rows, reading.table.rows);
      const order = await page.evaluate(() => {
        const a = document.querySelector('#answer-table');
        const p = document.querySelector('#answer .answer-parts');
        return a && p ? a.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
      });
      assert.ok(order, 'the parts follow the answer table');
      // Each row's cells carry their column's name, for the phone's layout.
      const labels = await page
        .locator('#answer .answer-parts table')
        .first()
        .locator('tbody tr:first-child td')
        .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label')));
      assert.deepEqual(labels, reading.parts[0].header);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at ${width} px`);
      assert.deepEqual(await cutCells(page), [], 'no table cell cuts what it holds');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.locator('#answer .answer-parts').screenshot({ path: path.join(ARTIFACTS, `parts-${screen}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    },
  );

test(
  'hostile parts: markup and control characters are text; a table of the wrong shape is named, not drawn',
  { skip },
  async () => {
    const img = '<img src=x onerror="window.pwned=1">';
    playOverview((o) => {
      o.answer.parts[0].title = `${img} where\u0007 the time goes`;
      o.answer.parts[0].rows[0][0] = 'pull <script>window.pwned=2</script>\u202e';
      o.answer.parts[0].note = `<b>not bold</b>\u2028next`;
    });
    let { page, errors } = await openPage(browser.context, site.site.url, { width: 1366 });
    const [first] = await partsOnPage(page);
    assert.equal(first.title, '<img src=x onerror="window.pwned=1"> where  the time goes');
    assert.equal(first.rows[0][0], 'pull <script>window.pwned=2</script> ');
    assert.equal(first.note, '<b>not bold</b> next');
    assert.equal(await page.locator('#answer img, #answer script, #answer b').count(), 0, 'no element from the data');
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).pwned), undefined);
    assert.deepEqual(errors, []);
    await page.close();

    for (const bad of [
      (/** @type {any} */ p) => void (p[0].rows[1] = ['too', 'short']),
      (/** @type {any} */ p) => void (p[0].title = { toString: () => 'x' }),
      (/** @type {any} */ p) => void (p[1].header = []),
      (/** @type {any} */ p) => void p.push(...Array.from({ length: 40 }, () => p[0])),
    ]) {
      playOverview((o) => bad(o.answer.parts));
      ({ page, errors } = await openPage(browser.context, site.site.url, { width: 390 }));
      assert.equal(await page.locator('#answer .answer-parts').count(), 0);
      assert.equal(
        await page.locator('#answer .answer-problem').textContent(),
        "Left out, as this page cannot read it from the run's overview file: its job's parts.",
      );
      assert.ok((await answerOnPage(page)).rows.length, 'the answer table stands');
      assert.deepEqual(errors, []);
      await page.close();
    }
  },
);

test('an older overview (version 7, no parts): the answer as it was, nothing said missing', { skip }, async () => {
  playOverview((o) => {
    o.version = 7;
    delete o.answer.parts;
  });
  const { page, errors } = await openPage(browser.context, site.site.url, { width: 1366 });
  assert.ok((await answerOnPage(page)).rows.length);
  assert.equal(await page.locator('#answer .answer-parts').count(), 0);
  assert.equal(await page.locator('#answer .answer-problem').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
