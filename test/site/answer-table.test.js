// The site opens on the answer table every report opens on: a real quiet quick run (bench/results/) is
// published, the site built, served and read in real headless Chromium at a phone's width and a laptop's.
// The first screen shows the table; its cells are the Reading's (readRun(results).table), figure for
// figure, under the same group titles; nothing on the page scrolls sideways and no table cell cuts a name.
// The overview file is then played as a hostile history would write it (markup, a pipe, control
// characters, wrong shapes, sizes beyond bounds) and as an older history holds it (version 6 sentences).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { readRun } from '../helpers/reading.js';
import { answerOnPage, cutCells, siteOf } from '../helpers/site.js';

const skip = browserOrSkip();
const RUN = new URL('../../bench/results/quiet-quick-2026-11-28.json', import.meta.url);
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
  if (skip) return;
  site = await siteOf(results, 'answer-table');
  original = readFileSync(site.overview, 'utf8');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.site.close();
});
// Each test that plays another history restores the published overview after it.
afterEach(() => {
  if (site) writeFileSync(site.overview, original);
});

/** The published overview, changed by `change`, as the page will read it. @param {(o: any) => void} change */
function playOverview(change) {
  const o = JSON.parse(original);
  change(o);
  writeFileSync(site.overview, JSON.stringify(o));
}

/** @param {number} width @param {number} height */
async function open(width, height) {
  const opened = await openPage(browser.context, site.site.url, { width });
  await opened.page.setViewportSize({ width, height });
  return opened;
}

for (const [screen, width, height] of SCREENS) {
  test(
    `${screen} (${width} px): the first screen is the answer table, the Reading's cells figure for figure`,
    { skip },
    async () => {
      const want = readRun(results).table;
      assert.ok(want.rows.length >= 10 && want.groups, 'the run asks its questions of several pairs');
      const { page, errors } = await open(width, height);
      assert.deepEqual(await answerOnPage(page), { header: want.header, rows: want.rows, groups: want.groups });
      // The heading, the paragraph and the first question are on the first screen, before any scrolling.
      const first = await page.evaluate(() => {
        const bottom = (/** @type {string} */ s) =>
          document.querySelector(s)?.getBoundingClientRect().bottom ?? Infinity;
        return {
          heading: bottom('#answer-h'),
          intro: bottom('#answer .answer-intro'),
          group: bottom('#answer-table tr.group'),
          question: bottom('#answer-table tr.question'),
          screen: innerHeight,
        };
      });
      for (const [what, y] of Object.entries(first))
        assert.ok(y <= first.screen, `${what} ends at ${y} px, below the first screen (${first.screen} px)`);
      assert.equal(
        (await page.locator('#answer .answer-intro').textContent())?.trim(),
        readRun(results).intro,
        'the one short paragraph above the table',
      );
      assert.deepEqual(await page.locator('#answer .answer-caveats li').allTextContents(), readRun(results).caveats);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at ${width} px`);
      assert.deepEqual(await cutCells(page), [], 'no table cell cuts what it holds');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, `answer-${screen}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    },
  );
}

test('a hostile overview: markup, a pipe and control characters are shown as text, never run', { skip }, async () => {
  const img = '<img src=x onerror="window.pwned=1">';
  playOverview((o) => {
    const t = o.answer.table;
    const first = t.groups[0];
    t.groups = t.groups.map((/** @type {string} */ g) =>
      g === first ? `${img} | dind\u0007@20.10 \u202evs docker` : g,
    );
    t.rows[0][0] = 'start|up <script>window.pwned=2</script>';
    o.answer.intro = `${o.answer.intro} <b>not bold</b>\u0000`;
    o.answer.caveats = [...o.answer.caveats, `${img}\u2028next line`];
  });
  for (const [screen, width, height] of SCREENS) {
    const { page, errors } = await open(width, height);
    const shown = await answerOnPage(page);
    assert.equal(shown.groups[0], '<img src=x onerror="window.pwned=1"> | dind @20.10  vs docker', screen);
    assert.equal(shown.rows[0][0], 'start|up <script>window.pwned=2</script>');
    assert.match((await page.locator('#answer .answer-intro').textContent()) ?? '', / <b>not bold<\/b> $/);
    assert.ok(
      (await page.locator('#answer .answer-caveats li').allTextContents()).includes(`${img} next line`),
      'a caveat with markup and a line separator, as text on one line',
    );
    assert.equal(await page.locator('#answer img, #answer script, #answer b').count(), 0, 'no element from the data');
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).pwned), undefined);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `${screen}: the page scrolls sideways by ${overflow} px`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a hostile runner name in a valid results file reaches the paragraph as text', { skip }, async (t) => {
  const hostile = structuredClone(results);
  hostile.runner.name = '<img src=x onerror="window.pwned=3">|vm';
  const own = await siteOf(hostile, 'answer-hostile-runner');
  t.after(() => own.site.close());
  const intro = readRun(hostile).intro;
  assert.ok(intro.includes(hostile.runner.name), 'the Reading names the runner');
  for (const [screen, width] of SCREENS) {
    const { page, errors } = await openPage(browser.context, own.site.url, { width });
    assert.equal((await page.locator('#answer .answer-intro').textContent())?.trim(), intro, screen);
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).pwned), undefined);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test(
  'an answer of the wrong shape or size: the parts left out are named, the rest of the page stands',
  { skip },
  async () => {
    const cases = [
      {
        change: (/** @type {any} */ a) => {
          a.table.rows[3] = ['too', 'short'];
          a.caveats = 'not a list';
          a.intro = 'x'.repeat(5000);
        },
        missing: 'its paragraph, its table, its caveats',
      },
      {
        change: (/** @type {any} */ a) => {
          a.table.rows = Array.from({ length: 501 }, () => a.table.rows[0]);
          a.table.groups = a.table.rows.map(() => 'a vs b');
        },
        missing: 'its table',
      },
      { change: (/** @type {any} */ a) => void (a.table.groups = a.table.groups.slice(1)), missing: 'its table' },
      { change: (/** @type {any} */ a) => void (a.table.header = [{ toString: 1 }]), missing: 'its table' },
    ];
    for (const c of cases) {
      playOverview((o) => c.change(o.answer));
      const { page, errors } = await open(1366, 768);
      assert.equal(await page.locator('#answer-table').count(), 0);
      assert.equal(
        await page.locator('#answer .answer-problem').textContent(),
        `Left out, as this page cannot read it from the run's overview file: ${c.missing}.`,
      );
      assert.ok(await page.locator('#overview-table tbody tr').count(), 'the tables below are still drawn');
      assert.deepEqual(errors, []);
      await page.close();
    }
    playOverview((o) => void (o.answer = null));
    const { page, errors } = await open(390, 844);
    assert.match(
      (await page.locator('#answer .answer-problem').textContent()) ?? '',
      /: the answer is not an object\.$/,
    );
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('an older overview (version 6, the answer in sentences) still reads as it did', { skip }, async () => {
  const sentences = ['dind@20.10 costs a job +0.48 s to start against docker.', 'A <i>second</i> sentence.'];
  playOverview((o) => {
    o.version = 6;
    delete o.answer;
    o.answers = sentences;
  });
  const { page, errors } = await open(1366, 768);
  assert.equal(await page.locator('#answer-table').count(), 0);
  assert.deepEqual(await page.locator('#answer .answer-line').allTextContents(), sentences);
  assert.equal(await page.locator('#answer i').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
