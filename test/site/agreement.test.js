// The page and the reports print the same change for every metric: the real quick run is published, the
// site built and read in real headless Chromium, and each "vs Docker" number and word on the page is
// checked against what `compare --json` gives for the same pair, read the way report.md reads it
// (src/model/change.js). Named regression: half the throughput once read +50% on the page and +100% in
// the report, because the page kept its own formula. A workload run's page opens with the job's rows of
// the answer table, as report.md does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { costChange } from '../../src/model/change.js';
import { shortPct } from '../../src/model/numbers.js';
import { mdText } from '../../src/text/escape.js';
import { fixture, tmpDir } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';
import { readRun, runMarkdown } from '../helpers/reading.js';
import { answerOnPage, siteOf } from '../helpers/site.js';

const skip = browserOrSkip();
const WORKLOAD_FIXTURE = new URL('../fixtures/results/workload-script-quick.json', import.meta.url).pathname;

/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;
before(async () => {
  if (!skip) browser = await launch();
});
after(() => browser?.close());

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

test(
  "a workload run: the page opens with the job's rows of the answer table, the same cells as report.md's",
  { skip },
  async (t) => {
    const results = JSON.parse(readFileSync(WORKLOAD_FIXTURE, 'utf8'));
    const { site } = await siteOf(results, 'workload');
    t.after(() => site.close());
    const { header, rows, groups } = readRun(results).table;
    assert.deepEqual(
      rows.map((r) => r[0]),
      ['job', 'job'],
      "the workload's job, one question per DinD environment",
    );
    const { page, errors } = await openPage(browser.context, site.url);
    const shown = await answerOnPage(page);
    await page.close();
    assert.deepEqual(errors, []);
    assert.deepEqual(shown, { header, rows, groups });
    assert.match(shown.rows[0][2], /^\+\d+\.\d s \[\+[\d.]+, \+[\d.]+\] \(\+[\d,]+%\)$/, 'the job pays seconds');
    // report.md lays out the same cells (escaped for Markdown), its cost table for the workload below them.
    const report = runMarkdown(results);
    const line = (/** @type {string[]} */ cells) => `| ${cells.map(mdText).join(' | ')} |`;
    for (const r of rows) assert.ok(report.includes(line(r)), `report.md has the row ${line(r)}`);
    const costTable = report.indexOf('## workload.script (debian): cost per job');
    assert.ok(costTable > report.indexOf(line(rows[1])), "the workload's cost table stays below the answer");
  },
);
