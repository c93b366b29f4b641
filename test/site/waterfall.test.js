// The start-up waterfall, on the site in real headless Chromium and in report.html, from a real quick
// run of the lifecycle benchmark (test/fixtures/results/startup-lifecycle-quick.json: docker,
// dind@20.10 and dind@26.1 on this project's 2-core machine kind, busy with other work).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PHASE_ORDER } from '../../src/engine/startup.js';
import { publishRun } from '../../src/history/append.js';
import { runHtml } from '../helpers/reading.js';
import { tlsComparisons, waterfallBars } from '../../src/reading/waterfall.js';
import { buildSite } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { PHASES } from '../../src/model/phases.js';
import { tmpDir } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;
const RUN = new URL('../fixtures/results/startup-lifecycle-quick.json', import.meta.url).pathname;
const results = () => JSON.parse(readFileSync(RUN, 'utf8'));
const skip = browserOrSkip();
const median = (/** @type {number[]} */ xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

test('the site names the same phases, in the same order, as the timeline', () => {
  assert.deepEqual(
    PHASES.map(([p]) => p),
    PHASE_ORDER,
  );
});

test('report.html: one bar per environment and TLS start, each phase its median; TLS on vs off with intervals', () => {
  const r = results();
  const bars = waterfallBars(r);
  assert.deepEqual(
    bars.map((b) => b.label),
    ['docker', 'dind@20.10', 'dind@26.1', 'dind@20.10 (TLS on, to /_ping)', 'dind@26.1 (TLS on, to /_ping)'],
  );
  const dind = r.cells.find((/** @type {any} */ c) => c.environmentKey === 'dind@20.10');
  const load = dind.metrics.find((/** @type {any} */ m) => m.metric === 'startup.image_load_ms');
  assert.equal(bars[1].phases.find((p) => p.phase === 'image_load')?.ms, median(load.samples));
  assert.deepEqual(
    bars[0].phases.map((p) => p.phase),
    ['first_create', 'first_attach', 'first_start'],
    'Docker pays the first container only',
  );
  assert.ok(bars[3].phases.some((p) => p.phase === 'tls_material'));
  const tls = tlsComparisons(r);
  assert.deepEqual(
    tls.map((t) => t.environment),
    ['dind@20.10', 'dind@26.1'],
  );
  for (const t of tls) {
    assert.ok(
      t.on.low <= t.on.median &&
        t.on.median <= t.on.high &&
        t.ratio.low <= t.ratio.ratio &&
        t.ratio.ratio <= t.ratio.high,
    );
    assert.ok(t.keys && t.keys.median > 0);
  }
  const html = runHtml(r);
  assert.match(html, /<h2 id="startup">Start-up, phase by phase<\/h2>/);
  assert.equal((html.match(/class="wf-row"/g) ?? []).length, 5);
  assert.match(html, /<th>start to ready, TLS off<\/th><th>TLS on<\/th><th>ratio on\/off<\/th>/);
});

test('report.html: a hostile environment key is escaped in the waterfall', () => {
  const r = results();
  r.cells[0].environmentKey = '<img src=x onerror=alert(1)>';
  const html = runHtml(r);
  assert.ok(!html.includes('<img src=x'), 'no raw tag');
  assert.match(html, /&#60;img src=x onerror=alert\(1\)&#62;/);
});

test('report.html: no section when the run has no start-up timeline', () => {
  const r = results();
  for (const c of r.cells)
    c.metrics = c.metrics.filter((/** @type {any} */ m) => !/^(startup|daemon_tls)/.test(m.metric));
  assert.doesNotMatch(runHtml(r), /Start-up, phase by phase/);
});

/** @type {{url: string, close: () => Promise<void>}} */ let server;
/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;

before(async () => {
  if (skip) return;
  const history = tmpDir('waterfall-history');
  await publishRun(history, RUN);
  const out = path.join(tmpDir('waterfall-out'), 'site');
  await buildSite({ history, out });
  server = await serveSite(out);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('site: the waterfall draws DinD beside Docker, phases stacked in order, TLS starts apart', { skip }, async () => {
  const { page, errors } = await openPage(browser.context, server.url);
  await page.locator('#waterfall-card').scrollIntoViewIfNeeded();
  const chart = await page.evaluate(() => {
    const c = /** @type {any} */ (window).Chart.getChart(document.querySelector('#waterfall-chart'));
    return {
      labels: c.data.labels,
      phases: c.data.datasets.map((/** @type {any} */ d) => d.phase),
      data: c.data.datasets.map((/** @type {any} */ d) => d.data),
      stacked: c.options.scales.x.stacked,
      axis: c.options.indexAxis,
    };
  });
  assert.deepEqual(chart.labels, [
    'docker',
    'dind@20.10',
    'dind@26.1',
    'dind@20.10 (TLS on, to /_ping)',
    'dind@26.1 (TLS on, to /_ping)',
  ]);
  assert.equal(chart.axis, 'y');
  assert.equal(chart.stacked, true);
  // Every phase of the run, in order. The fixture's run predates the `prepare` phase (the host's set-up
  // before the outer create call, named when the total became a stopwatch of its own), so it has none.
  assert.deepEqual(
    chart.phases,
    PHASE_ORDER.filter((p) => p !== 'prepare'),
    'every phase, in order',
  );
  // Docker's bar: nothing before its first container; DinD's: an inner engine start before it.
  const col = (/** @type {string} */ phase, /** @type {number} */ bar) => chart.data[chart.phases.indexOf(phase)][bar];
  assert.equal(col('outer_create', 0), 0);
  assert.ok(col('first_start', 0) > 0);
  assert.ok(col('outer_create', 1) > 0 && col('image_load', 1) > 0);
  assert.equal(col('tls_material', 1), 0, 'no TLS material in a TLS-off start');
  assert.ok(col('tls_material', 3) > 100, 'three 4096-bit keys take time');
  assert.equal(col('image_load', 3), 0, 'the TLS start ends at /_ping');
  assert.match(await page.locator('#waterfall-note').innerText(), /Phases laid end to end \(debian\): docker \d/);
  assert.deepEqual(errors, []);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.locator('#waterfall-card').screenshot({ path: path.join(ARTIFACTS, 'waterfall.png') });
  await page.close();
});
