// `npm run docs:images -- RESULTS.json`: the README's pictures, made from a real run in real headless
// Chromium, so they show what the code draws today and cannot go stale beside it:
//   docs/images/report.png     report.html's first screen, written as `dind-bench run` writes it (its answer table)
//   docs/images/site.png       the site's first screen, built from a history holding that run alone
//   docs/images/waterfall.png  report.html's start-up waterfall: each environment's start-up, phase by phase
// Everything happens in temporary folders on 127.0.0.1; only the PNGs are written into docs/images/. It
// prints which run they show (id, date, machine, profile): the README's captions say so, with the load
// the machine was under, which the results file does not hold.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publishRun } from '../src/history/append.js';
import { writeOutputs } from '../src/run/outputs.js';
import { buildSite } from '../src/site/build.js';
import { serveSite } from '../src/site/serve.js';
import { launch, openPage } from '../test/helpers/browser.js';

const OUT = new URL('../docs/images/', import.meta.url).pathname;
// A laptop's screen: wide enough for every table at its natural width, as most readers open a report.
const SCREEN = { width: 1280, height: 800 };

/**
 * The picture of one element range of a page: from the top of `from` to the bottom of `to`, the page's width.
 * @param {import('playwright-core').Page} page @param {string} from @param {string} to @param {string} file
 */
async function shootBetween(page, from, to, file) {
  const box = await page.evaluate(
    ([a, b]) => {
      const top = document.querySelector(a)?.getBoundingClientRect();
      const bottom = document.querySelector(b)?.getBoundingClientRect();
      if (!top || !bottom) return null;
      return { y: top.top + scrollY - 8, height: bottom.bottom - top.top + 16 };
    },
    [from, to],
  );
  if (!box) return false;
  await page.screenshot({ path: file, fullPage: true, clip: { x: 0, width: SCREEN.width, ...box } });
  return true;
}

/** report.html as `dind-bench run` writes it, and its pictures. @param {any} browser @param {string} file @param {string} work */
async function reportPictures(browser, file, work) {
  const dir = path.join(work, 'run');
  const results = JSON.parse(readFileSync(file, 'utf8'));
  await writeOutputs(dir, path.join(dir, 'results.json'), results);
  const page = await browser.context.newPage();
  await page.setViewportSize(SCREEN);
  await page.goto(`file://${path.join(dir, 'report.html')}`);
  await page.screenshot({ path: path.join(OUT, 'report.png') });
  const waterfall = await shootBetween(page, '#startup', '.wf-legend', path.join(OUT, 'waterfall.png'));
  // A run without a start-up timeline leaves no picture of one, rather than another run's.
  if (!waterfall) rmSync(path.join(OUT, 'waterfall.png'), { force: true });
  await page.close();
  return { results, waterfall };
}

/** The site built from a history holding the run: its first screen. @param {any} browser @param {string} file @param {string} work */
async function sitePicture(browser, file, work) {
  const history = path.join(work, 'history');
  await publishRun(history, file);
  const site = await serveSite((await buildSite({ history, out: path.join(work, 'site') })).out);
  try {
    const { page, errors } = await openPage(browser.context, site.url, { width: SCREEN.width });
    await page.setViewportSize(SCREEN);
    await page.waitForTimeout(500); // the charts' first paint, should the first screen reach them
    await page.screenshot({ path: path.join(OUT, 'site.png') });
    if (errors.length) throw new Error(`the site logged errors: ${errors.join('; ')}`);
    await page.close();
  } finally {
    await site.close();
  }
}

const resultsFile = process.argv[2];
if (!resultsFile) {
  console.error('usage: npm run docs:images -- RESULTS.json (a results.json written by `dind-bench run`)');
  process.exit(1);
}
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-doc-images-'));
const browser = await launch();
try {
  mkdirSync(OUT, { recursive: true });
  // The run's own file, copied: publishing reads it, and nothing here may change what was measured.
  const file = path.join(work, 'results.json');
  copyFileSync(resultsFile, file);
  const { results, waterfall } = await reportPictures(browser, file, work);
  await sitePicture(browser, file, work);
  const h = results.host;
  console.log(
    `docs/images/report.png, site.png${waterfall ? ' and waterfall.png' : ' (no start-up waterfall: the run has no lifecycle timeline)'} ` +
      `from run ${results.run.id}: ${results.run.profile}, ${results.run.startedAt.slice(0, 10)}, ` +
      `${h.cpuModel} (${h.cores} cores), ${h.distribution}, runner ${results.runner.name}`,
  );
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
