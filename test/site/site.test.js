// The built site in real headless Chromium (Debian's chromium driven by playwright-core), served by
// `site preview`'s server on 127.0.0.1. The history holds the real quick run from test/fixtures plus
// nightly variants of it, one with another inner Engine version.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { buildSite, checkPolicy, pagePolicy } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { FIXTURE, tmpDir, variant } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { answerOnPage } from '../helpers/site.js';

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;
const MEMORY_RUN = new URL('../fixtures/results/memory-build-quick.json', import.meta.url).pathname;
const skip = browserOrSkip();

/** @type {{url: string, close: () => Promise<void>}} */ let server;
/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;

before(async () => {
  if (skip) return;
  const history = tmpDir('site-history');
  const runs = tmpDir('site-runs');
  const day = 86400e3;
  // Six earlier nights, the last two under a newer inner Engine (a marker on the charts).
  for (let i = 6; i >= 1; i--) {
    await publishRun(
      history,
      variant(runs, {
        id: `night-${i}`,
        startedAt: new Date(Date.now() - i * day).toISOString(),
        scale: 1 + (i % 3) / 50,
        innerEngine: i <= 2 ? '26.1.5+dfsg1' : undefined,
      }),
    );
  }
  // The real run's samples, dated now so it is the runner's latest, three times slower: a regression to flag.
  await publishRun(
    history,
    variant(runs, { id: 'real-quick-run', startedAt: new Date().toISOString(), scale: 3, innerEngine: '26.1.5+dfsg1' }),
  );
  void FIXTURE;
  const out = path.join(tmpDir('site-out'), 'site');
  await buildSite({ history, out });
  server = await serveSite(out);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** The labels of a chart's lines (bands excluded). @param {import('playwright-core').Page} page @param {string} selector */
const seriesOf = (page, selector) =>
  page.evaluate((sel) => {
    const canvas = document.querySelector(sel);
    const chart = /** @type {any} */ (window).Chart.getChart(canvas);
    return chart
      ? chart.data.datasets.filter((/** @type {any} */ d) => !d.band).map((/** @type {any} */ d) => d.label)
      : null;
  }, selector);

test('the overview loads with no console errors, answers in words, and its screenshot is kept', { skip }, async () => {
  const { page, errors } = await openPage(browser.context, server.url);
  // The fixture's DinD on the first screen, the run's answer table as report.md lays it out (5 noisy samples a
  // side of its one question, sysbench's CPU): inconclusive, with what would decide it, never "no change".
  const answer = await answerOnPage(page);
  assert.deepEqual(answer.groups, ['dind@20.10 vs docker']);
  assert.deepEqual(answer.rows[0].slice(0, 2), ['CPU', 'inconclusive']);
  assert.match(answer.rows[0][4], /^~[\d,]+ a side$/);
  assert.doesNotMatch(await page.locator('#answer').innerText(), /no change|clearly worse/);
  assert.deepEqual(await seriesOf(page, '#overhead-chart'), ['95% interval (times worse than Docker)', 'median ratio']);
  // The ratio chart is on a log axis of "times worse", so one huge cell does not flatten the others.
  const axis = await page.evaluate(() => {
    const x = /** @type {any} */ (window).Chart.getChart(document.querySelector('#overhead-chart')).scales.x;
    return { type: x.type, ticks: x.ticks.map((/** @type {any} */ t) => t.label) };
  });
  assert.equal(axis.type, 'logarithmic');
  // What this runner could detect, per metric against Docker (minimum detectable change, publish time).
  const detectable = await page.evaluate(() => {
    const table = /** @type {HTMLTableElement} */ (document.querySelector('#overview-table'));
    const col = [...table.querySelectorAll('thead th')].findIndex(
      (th) => th.textContent === 'detectable, iterations for 5%',
    );
    return {
      col,
      cells: [...table.querySelectorAll('tbody tr')]
        .map((tr) => tr.children[col]?.textContent ?? '')
        .filter((t) => t && t !== '–'),
    };
  });
  assert.ok(detectable.col > 0 && detectable.cells.length > 0, JSON.stringify(detectable));
  for (const c of detectable.cells) assert.match(c, /^(none|[\d.,]+%), ([\d,]+|>10,000)$/);
  // Beside each verdict against history (six earlier runs), what that history lets a run detect, and the
  // figure is the one publish computed for the series (the latest overview file).
  const sees = await page.evaluate(() =>
    [...document.querySelectorAll('#overview-table tbody td.trend')].map((td) => td.textContent ?? ''),
  );
  const withSees = sees.filter((t) => / sees ≥ [\d.,]+%$/.test(t));
  assert.ok(withSees.length > 0 && withSees.length === sees.filter((t) => t.trim() !== '–').length, sees.join(' | '));
  assert.ok(axis.ticks.includes('same') && axis.ticks.includes('2× worse'), axis.ticks.join(', '));
  const bars = await page.evaluate(
    () => /** @type {any} */ (window).Chart.getChart(document.querySelector('#overhead-chart')).data.labels.length,
  );
  assert.ok(bars >= 7, `one bar per DinD lifecycle metric, got ${bars}`);
  assert.ok(
    (await page.locator('#highlights li.regression').count()) > 0,
    'the slower latest run is flagged as a regression',
  );
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'overview.png'), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  'history charts: a line per environment, loaded when scrolled to, with an Engine change marker',
  { skip },
  async () => {
    const { page, errors } = await openPage(browser.context, server.url);
    const card = page.locator('.history-card[data-metric="lifecycle container.start_ms"]');
    await card.scrollIntoViewIfNeeded();
    await page.waitForSelector('.history-card[data-metric="lifecycle container.start_ms"][data-series]');
    assert.deepEqual(
      (await seriesOf(page, '.history-card[data-metric="lifecycle container.start_ms"] canvas'))?.sort(),
      ['dind@20.10 (debian)', 'docker (debian)', 'native (host)'],
    );
    const markers = await page.evaluate(() =>
      Object.keys(
        /** @type {any} */ (window).Chart.getChart(
          document.querySelector('.history-card[data-metric="lifecycle container.start_ms"] canvas'),
        ).options.plugins.annotation.annotations,
      ),
    );
    assert.ok(markers.length >= 1, 'the inner Engine change is marked');
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'the page sends a Content-Security-Policy: its own scripts and import map run, no violation, an injected script does not run',
  { skip },
  async () => {
    const { page, errors } = await openPage(browser.context, server.url);
    // Chart.js, its plugins and the page's modules (through the import map) ran: the charts are drawn.
    assert.deepEqual(await seriesOf(page, '#overhead-chart'), [
      '95% interval (times worse than Docker)',
      'median ratio',
    ]);
    assert.deepEqual(errors, [], 'no violation of the policy while the page and its charts load');
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(String(policy), /^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/]{43}='; /);
    const refused = await page.evaluate(
      () =>
        new Promise((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true });
          const s = document.createElement('script');
          s.textContent = 'window.injected = true';
          document.body.append(s);
        }),
    );
    assert.match(String(refused), /^script-src/);
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).injected), undefined);
  },
);

test("the page's policy names its import map's hash; a page whose import map changed without it is not built", () => {
  const html = readFileSync(new URL('../../site/index.html', import.meta.url), 'utf8');
  const { scriptSrc, inline } = pagePolicy(html);
  assert.equal(inline.length, 1, 'the import map, the only inline script');
  assert.ok(scriptSrc.includes(inline[0]) && scriptSrc.includes("'self'"), scriptSrc.join(' '));
  checkPolicy(html);
  const changed = html.replace('"./model/"', '"./model2/"');
  assert.throws(
    () => checkPolicy(changed),
    /^Error: site\/index\.html: its Content-Security-Policy lacks the hash of an inline script \('sha256-.*'\): add it to script-src; nothing was built$/,
  );
});

test('filters change the address and the charts; the address restores them', { skip }, async () => {
  const { page, errors } = await openPage(browser.context, server.url);
  await page.locator('#f-env input[value="native"]').uncheck();
  assert.match(page.url(), /env=dind%4020\.10%2Cdocker|env=dind@20\.10,docker|env=dind%4020.10,docker/);
  const card = '.history-card[data-metric="lifecycle container.start_ms"]';
  await page.locator(card).scrollIntoViewIfNeeded();
  await page.waitForSelector(`${card}[data-series]`);
  assert.deepEqual((await seriesOf(page, `${card} canvas`))?.sort(), ['dind@20.10 (debian)', 'docker (debian)']);

  await page.selectOption('#f-bench', 'sysbench');
  assert.match(page.url(), /bench=sysbench/);
  assert.ok(await page.locator('.history-card[data-metric="sysbench cpu.events_per_second"]').count());

  // The shared address opens the same view.
  const shared = await openPage(browser.context, page.url());
  assert.equal(await shared.page.locator('#f-bench').inputValue(), 'sysbench');
  assert.equal(await shared.page.locator('#f-env input[value="native"]').isChecked(), false);
  assert.deepEqual([...errors, ...shared.errors], []);
  await shared.page.close();
  await page.close();
});

test('dark mode, phone width and the keyboard', { skip }, async () => {
  const { page, errors } = await openPage(browser.context, server.url, { colorScheme: 'dark', width: 390 });
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(13, 17, 23)');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no sideways scrolling at phone width (${overflow}px too wide)`);
  // Tab reaches the filters, and the CSV button of the overhead chart can be pressed from the keyboard.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'f-runner');
  const download = page.waitForEvent('download');
  await page.locator('#overhead-card button', { hasText: 'CSV' }).focus();
  await page.keyboard.press('Enter');
  const csv = await (await download).path();
  assert.ok(csv);
  assert.match(
    (await import('node:fs')).readFileSync(csv, 'utf8'),
    /^label,benchmark,metric,environment,distro,unit,change,low,high/,
  );
  await page.screenshot({ path: path.join(ARTIFACTS, 'overview-phone-dark.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  "memory over time: a real run's samples, workload solid and environment dashed, per environment",
  { skip },
  async (t) => {
    // test/fixtures/results/memory-build-quick.json: a real quick run of memory and build in docker, dind
    // and dind-vfs (inner Engine 20.10), with the memory cells' sampled series.
    const history = tmpDir('site-memory-history');
    await publishRun(history, MEMORY_RUN);
    const out = path.join(tmpDir('site-memory-out'), 'site');
    await buildSite({ history, out });
    const own = await serveSite(out);
    t.after(() => own.close());
    const { page, errors } = await openPage(browser.context, own.url);
    await page.locator('#memory-card').scrollIntoViewIfNeeded();
    await page.waitForFunction(() =>
      /** @type {any} */ (window).Chart.getChart(document.querySelector('#memory-chart')),
    );
    const lines = await page.evaluate(() =>
      /** @type {any} */ (window).Chart.getChart(document.querySelector('#memory-chart')).data.datasets.map(
        (/** @type {any} */ d) => ({ label: d.label, dashed: d.borderDash.length > 0, points: d.data.length }),
      ),
    );
    for (const env of ['docker', 'dind@20.10', 'dind-vfs@20.10']) {
      const workload = lines.find(
        (l) => l.label.startsWith(`memory ${env} (debian)`) && l.label.endsWith('[workload]'),
      );
      const environment = lines.find(
        (l) => l.label.startsWith(`memory ${env} (debian)`) && l.label.endsWith('[environment]'),
      );
      assert.ok(
        workload && !workload.dashed && workload.points >= 2,
        `${env} workload line: ${JSON.stringify(workload)}`,
      );
      assert.ok(
        environment && environment.dashed && environment.points >= 2,
        `${env} environment line: ${JSON.stringify(environment)}`,
      );
    }
    assert.equal(lines.length, 6, 'one iteration per cell and scope');
    assert.match(
      await page.locator('#memory-note').innerText(),
      /Solid: the workload container; dashed: the whole environment/,
    );
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('memory over time: says so when the run has no samples', { skip }, async () => {
  const { page, errors } = await openPage(browser.context, server.url);
  await page.locator('#memory-card').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.getElementById('memory-note')?.textContent);
  // The shared history holds the quick lifecycle and sysbench run only: no cell carries a timeseries.
  assert.equal(
    await page.locator('#memory-note').innerText(),
    'No memory samples in this run (its cells carry no timeseries).',
  );
  assert.equal(await page.locator('#memory-card .chart-box').isHidden(), true, 'no empty chart is drawn');
  assert.deepEqual(errors, []);
  await page.close();
});
