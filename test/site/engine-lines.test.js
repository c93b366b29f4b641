// A history in which the runner's Engine line changes, 20.10 -> 26.1 -> 29.8, from real runs: twelve
// lifecycle runs (quick profile, 5 iterations) of the `docker` environment, taken one after the other on
// this project's 2-core machine kind (test/fixtures/results/engine-lines/): five against the shared
// Engine 20.10.24, five against an Engine 26.1.5 and two against an Engine 29.8.0 (built from source,
// images/dind/Dockerfile.moby), the last two started in containers whose sockets the runs used as the
// runner's engine.
// compare names the change in its verdicts; the site marks both changes on the history charts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { compareCommand } from '../../src/compare/command.js';
import { publishRun } from '../../src/history/append.js';
import { buildSite } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { tmpDir } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';

const RUNS = Array.from(
  { length: 12 },
  (_, i) =>
    new URL(`../fixtures/results/engine-lines/run-${String(i + 1).padStart(2, '0')}.json`, import.meta.url).pathname,
);
const skip = browserOrSkip();

/** @type {string} */ let history;
/** @type {{url: string, close: () => Promise<void>}} */ let server;
/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;

before(async () => {
  history = tmpDir('engine-lines-history');
  for (const run of RUNS.slice(0, 5)) await publishRun(history, run);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** The verdicts of one run against the history so far. @param {string} run */
async function verdictsOf(run) {
  const { outcome } = await compareCommand({ results: run, history, print: () => {} });
  return /** @type {any[]} */ (outcome.verdicts);
}

test('compare: after five runs on 20.10, the first on 26.1 and then on 29.8 name the Engine change', async () => {
  const on26 = await verdictsOf(RUNS[5]);
  assert.ok(
    on26.length > 5 && on26.every((v) => v.pastRuns === 5 && v.status !== 'insufficient data'),
    'verdicts with a status',
  );
  for (const v of on26)
    assert.equal(v.engineChange, 'changed with Engine 20.10 -> 26.1', `${v.metric}: ${v.engineChange}`);
  assert.ok(
    on26.every((v) => v.reason.endsWith('; changed with Engine 20.10 -> 26.1')),
    'the reason says it',
  );
  for (const run of RUNS.slice(5, 10)) await publishRun(history, run);
  const on29 = await verdictsOf(RUNS[10]);
  // The window reaches back to the first runs: the change is named from the oldest one compared against.
  for (const v of on29)
    assert.equal(v.engineChange, 'changed with Engine 20.10 -> 29.8', `${v.metric}: ${v.engineChange}`);
});

test('site: the history charts mark the change to 26.1 and to 29.8', { skip }, async () => {
  for (const run of RUNS.slice(10)) await publishRun(history, run);
  const out = path.join(tmpDir('engine-lines-out'), 'site');
  await buildSite({ history, out });
  server = await serveSite(out);
  browser = await launch();
  const { page, errors } = await openPage(browser.context, server.url);
  const sel = '.history-card[data-metric="lifecycle container.start_ms"]';
  await page.locator(sel).scrollIntoViewIfNeeded();
  await page.waitForSelector(`${sel}[data-series]`);
  const labels = await page.evaluate((s) => {
    const chart = /** @type {any} */ (window).Chart.getChart(document.querySelector(`${s} canvas`));
    return Object.values(chart.options.plugins.annotation.annotations).map((a) => /** @type {any} */ (a).label.content);
  }, sel);
  assert.deepEqual(labels, ['Engine 26.1.5+dfsg1', 'Engine 29.8.0']);
  assert.deepEqual(errors, []);
  await page.close();
});
