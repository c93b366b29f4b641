// The site and `compare --history` say the same word for every series: histories of 1, 4 and 6 runs are
// published, the site is built and read in real headless Chromium, and each series' verdict on the page
// is checked against the verdicts `dind-bench compare --history --json` writes for the same newest run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { publishRun } from '../../src/history/append.js';
import { buildSite } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { HISTORY_STATUSES } from '../../src/reading/history.js';
import { VERDICT_DISPLAY } from '../../site/js/verdicts.js';
import { tmpDir, variant } from '../history/helpers.js';
import { browserOrSkip, launch, openPage } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';

const skip = browserOrSkip();
const BENCHES = ['lifecycle', 'sysbench'];

/** @type {Awaited<ReturnType<typeof launch>>} */ let browser;
before(async () => {
  if (!skip) browser = await launch();
});
after(() => browser?.close());

/**
 * A history of `count` nightly runs of the real quick run (earlier ones within 4% of each other, the newest
 * 40% slower), its site served, and the newest run's results file.
 * @param {number} count
 */
async function historyOf(count) {
  const history = tmpDir(`verdicts-history-${count}`);
  const runs = tmpDir(`verdicts-runs-${count}`);
  const day = 86400e3;
  let newest = '';
  for (let i = count - 1; i >= 0; i--) {
    const scale = i === 0 && count > 1 ? 1.4 : 1 + (i % 3) / 50;
    newest = variant(runs, { id: `night-${i}`, startedAt: new Date(Date.now() - i * day).toISOString(), scale });
    await publishRun(history, newest);
  }
  const site = await serveSite(
    (await buildSite({ history, out: path.join(tmpDir(`verdicts-site-${count}`), 'site') })).out,
  );
  return { history, newest, site };
}

/**
 * `compare --history --json` on the newest run: series key -> verdict against history, and for DinD
 * series the word compare reads its comparison with Docker as (the one rule, on compare's own numbers).
 * @param {string} history @param {string} results
 */
function compareVerdicts(history, results) {
  const json = path.join(tmpDir('verdicts-json'), 'verdicts.json');
  const r = runCli(['compare', results, '--history', history, '--json', json]);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(readFileSync(json, 'utf8'));
  /** @type {Map<string, string | null>} */
  const within = new Map();
  for (const v of doc.verdicts) {
    const c = doc.comparisons.find(
      (/** @type {any} */ x) =>
        x.kind === 'dind-vs-docker' &&
        x.benchmark === v.benchmark &&
        x.metric === v.metric &&
        x.candidate.env === v.environmentKey &&
        x.candidate.distro === v.distro,
    );
    // The outcome compare decided, as its JSON carries it (null where the change is not a number).
    if (c) within.set(v.key, c.outcome);
  }
  return { verdicts: new Map(doc.verdicts.map((/** @type {any} */ v) => [v.key, v.status])), within };
}

/**
 * The site's verdict per series key, for one benchmark, and its within-run word against Docker.
 * @param {string} url @param {string} bench
 */
async function siteVerdicts(url, bench) {
  const { page, errors } = await openPage(browser.context, `${url}?bench=${bench}`);
  const rows = await page
    .locator('#overview-table tr[data-key]')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-key'),
        tr.querySelector('[data-verdict]')?.getAttribute('data-verdict') ?? null,
        tr.querySelector('[data-within]')?.getAttribute('data-within') ?? null,
      ]),
    );
  await page.close();
  assert.deepEqual(errors, []);
  return /** @type {[string, string | null, string | null][]} */ (rows);
}

for (const [count, expected] of /** @type {[number, string[]][]} */ ([
  [1, ['baseline']],
  [4, ['insufficient data']],
  [6, ['regression']],
])) {
  test(
    `a history of ${count} run(s): the site shows, for every series, the verdict compare --history gives`,
    { skip },
    async (t) => {
      const { history, newest, site } = await historyOf(count);
      t.after(() => site.close());
      const compared = compareVerdicts(history, newest);
      const seen = new Set();
      /** @type {Map<string | null, number>} */
      const words = new Map();
      for (const bench of BENCHES) {
        const rows = await siteVerdicts(site.url, bench);
        assert.ok(rows.length >= 10, `${bench}: ${rows.length} rows`);
        for (const [key, onSite, within] of rows) {
          assert.equal(
            onSite,
            compared.verdicts.get(String(key)),
            `${key}: the site says ${onSite}, compare --history says ${compared.verdicts.get(String(key))}`,
          );
          seen.add(onSite);
          if (!compared.within.has(String(key))) continue; // not a DinD series: compare has no DinD-vs-Docker pair
          assert.equal(
            within,
            compared.within.get(String(key)),
            `${key}: against Docker the site says ${within}, compare says ${compared.within.get(String(key))}`,
          );
          words.set(within, (words.get(within) ?? 0) + 1);
        }
      }
      for (const v of expected)
        assert.ok(seen.has(v), `some series is "${v}" with ${count} run(s): saw ${[...seen].join(', ')}`);
      if (count < 6) assert.deepEqual([...seen], expected, 'too few earlier runs: no series gets a verdict');
      // The newest run's samples, DinD against Docker, 5 a side among the run's comparisons: none is called
      // "no change"; what cannot be decided is inconclusive.
      assert.ok(words.get('inconclusive'), JSON.stringify([...words]));
      assert.ok(!words.has('no diff') && !words.has('no change'), JSON.stringify([...words]));
    },
  );
}

test('the site knows exactly the verdict names the rule gives', () => {
  // Every status the reading gives, and "no change" for overviews written before the four outcomes.
  assert.deepEqual(Object.keys(VERDICT_DISPLAY).sort(), [...HISTORY_STATUSES, 'no change'].sort());
});
