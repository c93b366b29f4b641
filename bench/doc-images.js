// `npm run docs:images -- RESULTS.json`: the README's pictures, from a real run, in real headless Chromium.
//   docs/images/site-overview.png  the site built from a history holding that run (first screen)
//   docs/images/job-summary.png    the Markdown `dind-bench compare` writes as the job summary, rendered
//                                  with marked and a plain GitHub-like style (GitHub renders it the same
//                                  way: tables, headings, code)
// Everything happens in temporary folders on 127.0.0.1; only the two PNGs are written into docs/images/.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { marked } from 'marked';
import { compareCommand } from '../src/compare/command.js';
import { publishRun } from '../src/history/append.js';
import { buildSite } from '../src/site/build.js';
import { serveSite } from '../src/site/serve.js';
import { launch, openPage } from '../test/helpers/browser.js';

const OUT = new URL('../docs/images/', import.meta.url).pathname;
const STYLE = `body{font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;max-width:1180px;margin:24px}
h1,h2,h3{border-bottom:1px solid #d1d9e0;padding-bottom:.3em}table{border-collapse:collapse;margin:12px 0;display:block;overflow:auto}
th,td{border:1px solid #d1d9e0;padding:4px 10px;font-size:13px}tr:nth-child(2n){background:#f6f8fa}code{background:#eff1f3;padding:1px 4px;border-radius:4px}`;

// The Markdown is ours, but the names in it come from a results file: raw HTML in it is shown as text.
const escapeHtml = (/** @type {string} */ t) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
marked.use({ renderer: { html: ({ text }) => escapeHtml(text) } });

const resultsFile = process.argv[2];
if (!resultsFile) {
  console.error('usage: npm run docs:images -- RESULTS.json (a results.json written by `dind-bench run`)');
  process.exit(1);
}
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-doc-images-'));
const browser = await launch();
try {
  mkdirSync(OUT, { recursive: true });
  const history = path.join(work, 'history');
  await publishRun(history, resultsFile);
  const site = await serveSite((await buildSite({ history, out: path.join(work, 'site') })).out);
  try {
    const { page, errors } = await openPage(browser.context, site.url);
    await page.waitForTimeout(500); // the charts' first paint
    await page.screenshot({
      path: path.join(OUT, 'site-overview.png'),
      clip: { x: 0, y: 0, width: 1280, height: 1100 },
      fullPage: true,
    });
    if (errors.length) throw new Error(`the site logged errors: ${errors.join('; ')}`);
    await page.close();
  } finally {
    await site.close();
  }

  const markdown = path.join(work, 'summary.md');
  await compareCommand({ results: resultsFile, markdown, githubActions: false, print: () => {} });
  const html = path.join(work, 'summary.html');
  writeFileSync(
    html,
    `<!doctype html><meta charset="utf-8"><style>${STYLE}</style><body>${marked.parse(readFileSync(markdown, 'utf8'))}`,
  );
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1240, height: 900 });
  await page.goto(`file://${html}`);
  await page.screenshot({
    path: path.join(OUT, 'job-summary.png'),
    clip: { x: 0, y: 0, width: 1240, height: 900 },
    fullPage: true,
  });
  await page.close();
  console.log(`docs/images/site-overview.png and docs/images/job-summary.png from ${resultsFile}`);
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
