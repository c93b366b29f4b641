// The mode table on the site: a real run of isolation and lifecycle in every environment that runs here,
// published and read in real headless Chromium. The page shows the table the reading layer built (the same
// rows, facts and answer as report.md), each fact's evidence on hover, and data from the file as text.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { modeTableText } from '../../src/model/isolation.js';
import { buildSite } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { tmpDir } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { readRun } from '../helpers/reading.js';

const skip = browserOrSkip();
const fixture = () =>
  JSON.parse(readFileSync(new URL('../fixtures/results/modes-quick.json', import.meta.url), 'utf8'));

/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;
before(async () => {
  if (!skip) browser = await launch();
});
after(() => browser?.close());

test("the site shows the latest run's mode table, its answer and each fact's evidence", { skip }, async () => {
  const run = fixture();
  // Hostile data in the file stays text: an evidence line with markup.
  const iso = run.cells.find((/** @type {any} */ c) => c.benchmark === 'isolation' && c.environmentKey === 'dood');
  const fact = iso.facts.find((/** @type {any} */ f) => f.scope === 'parent' && f.name === 'runner_engine');
  fact.evidence = `${fact.evidence} <img src=x onerror="window.pwned=1">`;
  const file = path.join(tmpDir('modes-run'), 'results.json');
  writeFileSync(file, JSON.stringify(run));
  const history = tmpDir('modes-history');
  await publishRun(history, file);
  const site = await serveSite((await buildSite({ history, out: path.join(tmpDir('modes-site'), 'site') })).out);
  try {
    const { page, errors } = await openPage(browser.context, site.url);
    await page.locator('#modes-table tbody tr').first().waitFor();
    const want = readRun(run).modes;
    assert.ok(want?.answer, 'the run recorded a policy, so the table has an answer');
    const t = modeTableText(/** @type {NonNullable<typeof want>} */ (want));
    assert.equal((await page.locator('#modes-answer').innerText()).trim(), want.answer);
    assert.match(
      want.answer,
      /^The cheapest mode on this runner that meets the policy no-privileged,no-runner-engine is /,
    );
    const headers = await page.locator('#modes-table thead th').allInnerTexts();
    assert.deepEqual(
      headers.map((h) => h.trim()),
      t.header,
    );
    const rows = await page
      .locator('#modes-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    assert.deepEqual(rows, t.rows);
    // The facts the issue names, as measured: dood reaches the runner's engine, rootless DinD does not map
    // uid 0 to the host's.
    const col = (/** @type {string} */ label) => t.header.indexOf(label);
    const row = (/** @type {string} */ env) => rows.find((r) => r[0].split(' ')[0] === env) ?? [];
    assert.equal(row('dood')[col("reaches the runner's engine")], 'yes');
    assert.equal(row('dind-rootless@20.10')[col("uid 0 is the host's")], 'no');
    assert.equal(row('docker')[col('host block device mountable')], 'no');
    const title = await page
      .locator('#modes-table tr[data-mode="dood"] td')
      .nth(col("reaches the runner's engine"))
      .getAttribute('title');
    assert.match(title ?? '', /same device and inode/);
    assert.match(title ?? '', /<img src=x onerror/);
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).pwned), undefined);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await site.close();
  }
});
