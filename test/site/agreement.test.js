// The page and the reports print the same change for every metric: the real quick run is published, the
// site built and read in real headless Chromium, and each "vs Docker" number and word on the page is
// checked against what `compare --json` gives for the same pair, read the way report.md reads it
// (src/model/change.js). Named regression: half the throughput once read +50% on the page and +100% in
// the report, because the page kept its own formula.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { buildSite } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { costChange } from '../../src/model/change.js';
import { shortPct } from '../../src/model/numbers.js';
import { jobSentence, workloadCosts } from '../../src/results/job-cost.js';
import { markdownReport } from '../../src/results/report.js';
import { mdText } from '../../src/text/escape.js';
import { fixture, tmpDir } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';

const skip = browserOrSkip();
const WORKLOAD_FIXTURE = new URL('../fixtures/results/workload-script-quick.json', import.meta.url).pathname;

/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;
before(async () => {
  if (!skip) browser = await launch();
});
after(() => browser?.close());

/**
 * Publishes one results document, builds and serves the site; returns the results file and the server.
 * @param {any} results @param {string} name
 */
async function siteOf(results, name) {
  const file = path.join(tmpDir(`agree-run-${name}`), 'results.json');
  writeFileSync(file, JSON.stringify(results));
  const history = tmpDir(`agree-history-${name}`);
  await publishRun(history, file);
  const site = await serveSite(
    (await buildSite({ history, out: path.join(tmpDir(`agree-site-${name}`), 'site') })).out,
  );
  return { file, site };
}

/**
 * `compare --json`'s within-run comparisons against Docker, read as report.md reads them: key -> [number, word].
 * @param {string} file
 */
function reportReadings(file) {
  const json = path.join(tmpDir('agree-json'), 'c.json');
  const r = runCli(['compare', file, '--json', json]);
  assert.equal(r.status, 0, r.stderr);
  /** @type {Map<string, [string, string | null]>} */
  const out = new Map();
  for (const c of JSON.parse(readFileSync(json, 'utf8')).comparisons) {
    if (c.baseline.env !== 'docker') continue;
    const ratio = { ...c.ratio, ratio: c.ratio.ratio ?? NaN };
    const key = [c.benchmark, c.metric, c.candidate.env, c.candidate.distro].join(' ');
    out.set(key, [shortPct(costChange(ratio.ratio, c.better)), c.outcome]);
  }
  return out;
}

/**
 * The page's "vs Docker" cells for one benchmark: key -> [number, word].
 * @param {string} url @param {string} bench
 */
async function pageReadings(url, bench) {
  const { page, errors } = await openPage(browser.context, `${url}?bench=${bench}`);
  const rows = await page.locator('#overview-table tr[data-key]').evaluateAll((trs) =>
    trs.map((tr) => {
      const td = [...tr.querySelectorAll('td')];
      const metric = td[1].firstChild?.textContent?.trim() ?? '';
      const env = td[3].textContent?.replace('■', '').trim() ?? '';
      const vs = tr.querySelector('td.vs');
      return [
        [td[0].textContent?.trim(), metric, env, td[2].textContent?.trim()].join(' '),
        vs ? (vs.textContent ?? '').trim().split(' ')[0] : null,
        vs?.querySelector('[data-within]')?.getAttribute('data-within') ?? null,
      ];
    }),
  );
  await page.close();
  assert.deepEqual(errors, []);
  return /** @type {[string, string | null, string | null][]} */ (rows);
}

test(
  'every "vs Docker" number and word on the page equals the report\'s, for every metric of the quick run',
  { skip },
  async (t) => {
    const results = fixture();
    const { file, site } = await siteOf(results, 'quick');
    t.after(() => site.close());
    const report = reportReadings(file);
    let checked = 0;
    for (const bench of [...new Set(results.cells.map((/** @type {any} */ c) => c.benchmark))]) {
      for (const [key, number, word] of await pageReadings(site.url, /** @type {string} */ (bench))) {
        if (number === null || !report.has(key)) continue;
        assert.deepEqual(
          [number, word],
          report.get(key),
          `${key}: the page says ${number} ${word}, the report ${report.get(key)}`,
        );
        checked++;
      }
    }
    assert.ok(checked >= report.size * 0.9, `${checked} of ${report.size} comparisons were found on the page`);
  },
);

test(
  'regression: half the throughput reads +100% on the page and in the report (was +50% on the page)',
  { skip },
  async (t) => {
    const results = fixture();
    const cells = results.cells.filter((/** @type {any} */ c) => c.benchmark === 'sysbench' && c.status === 'ok');
    const docker = cells.find((/** @type {any} */ c) => c.environmentKey === 'docker');
    const dind = cells.find(
      (/** @type {any} */ c) => c.environmentKey.startsWith('dind') && c.distro === docker.distro,
    );
    const metric = docker.metrics.find((/** @type {any} */ m) => m.better === 'higher');
    dind.metrics.find((/** @type {any} */ m) => m.metric === metric.metric).samples = metric.samples.map(
      (/** @type {number} */ x) => x / 2,
    );
    const { file, site } = await siteOf(results, 'half');
    t.after(() => site.close());
    const key = ['sysbench', metric.metric, dind.environmentKey, dind.distro].join(' ');
    assert.equal(reportReadings(file).get(key)?.[0], '+100%');
    const onPage = (await pageReadings(site.url, 'sysbench')).find(([k]) => k === key);
    assert.equal(onPage?.[1], '+100%', `${key} on the page: ${onPage}`);
  },
);

test('a workload run: the page opens with the same sentence about the job as report.md', { skip }, async (t) => {
  const results = JSON.parse(readFileSync(WORKLOAD_FIXTURE, 'utf8'));
  const { file, site } = await siteOf(results, 'workload');
  t.after(() => site.close());
  const expected = jobSentence(workloadCosts(results)[0]);
  const report = markdownReport(JSON.parse(readFileSync(file, 'utf8')));
  assert.ok(report.includes(`**${mdText(expected)}**`), 'report.md opens its answers with the job sentence');
  const { page, errors } = await openPage(browser.context, site.url);
  const first = await page.locator('#answer b').first().textContent();
  await page.close();
  assert.deepEqual(errors, []);
  assert.equal(first, expected);
  assert.match(expected, /^On this runner your job \(workload\.script, debian\) takes .* in docker and /);
});
