// The site as a reader meets it, for tests: a results document published into a fresh history, the site
// built from it and served on 127.0.0.1, and what the page shows read back from real Chromium.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { publishRun } from '../../src/history/append.js';
import { buildSite } from '../../src/site/build.js';
import { serveSite } from '../../src/site/serve.js';
import { tmpDir } from '../history/helpers.js';

/**
 * Publishes `results`, builds and serves the site. `overview` is the file the page opens on (the runner's
 * latest overview in the built site's data), for tests that play a hostile or older history.
 * @param {any} results @param {string} name
 */
export async function siteOf(results, name) {
  const file = path.join(tmpDir(`site-run-${name}`), 'results.json');
  writeFileSync(file, JSON.stringify(results));
  const history = tmpDir(`site-history-${name}`);
  await publishRun(history, file);
  const { out } = await buildSite({ history, out: path.join(tmpDir(`site-out-${name}`), 'site') });
  const latest = JSON.parse(readFileSync(path.join(out, 'data/latest.json'), 'utf8'));
  const [runner] = Object.values(latest.runners);
  const overview = path.join(out, 'data', /** @type {any} */ (runner).file);
  const site = await serveSite(out);
  return { file, out, overview, site };
}

/**
 * The answer table on the page as a TextTable: the header, each question's cells, and the title row each
 * question sits under (its group), in page order.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{ header: string[], rows: string[][], groups: string[] }>}
 */
export const answerOnPage = (page) =>
  page.evaluate(() => {
    const t = document.querySelector('#answer-table');
    /** @type {{ header: string[], rows: string[][], groups: string[] }} */
    const out = { header: [], rows: [], groups: [] };
    if (!t) return out;
    out.header = [...t.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
    let group = '';
    for (const tr of t.querySelectorAll('tbody tr')) {
      if (tr.classList.contains('group')) group = tr.textContent ?? '';
      else {
        out.rows.push([...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));
        out.groups.push(group);
      }
    }
    return out;
  });

/**
 * Every table cell on the page whose text does not fit its box (a name cut or hidden), and every word of
 * the answer split over two lines: each as "table: text". Empty when no cell cuts anything.
 * @param {import('playwright-core').Page} page
 */
export const cutCells = (page) =>
  page.evaluate(() => {
    const cut = [];
    for (const cell of document.querySelectorAll('td, th')) {
      const el = /** @type {HTMLElement} */ (cell);
      if (!el.getClientRects().length) continue; // not shown (a hidden card)
      const style = getComputedStyle(el);
      if (el.scrollWidth > el.clientWidth + 1 || style.textOverflow === 'ellipsis')
        cut.push(`${el.closest('table')?.id}: ${el.textContent}`);
    }
    for (const w of document.querySelectorAll('#answer .word'))
      if (w.getClientRects().length > 1) cut.push(`answer word split: ${w.textContent}`);
    return cut;
  });
