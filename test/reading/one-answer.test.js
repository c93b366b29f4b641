// One answer everywhere: a real quick run's answer table is the same, cell for cell and in the same order, in
// the terminal (`compare`), report.md and report.html (`run`), the job summary and the pull-request comment
// (`compare --markdown/--pr-comment`), `compare --json` and the site's data (the overview `publish` writes);
// the site's page lays out that data (test/site/). The terminal answer fits 100 columns.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compareCommand } from '../../src/compare/command.js';
import { overviewOf } from '../../src/history/overview.js';
import { pointsOf } from '../../src/history/points.js';
import { readRun, runHtml, runMarkdown } from '../helpers/reading.js';
import { tmpDir } from '../history/helpers.js';

const FIXTURE = new URL('../../bench/results/quiet-quick-2026-11-28.json', import.meta.url).pathname;

/** A Markdown table's data rows (title rows of a group left out), each cell unescaped. @param {string} md */
function markdownRows(md) {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| question | answer |'));
  const rows = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    const cells = l
      .slice(2, -2)
      .split(' | ')
      .map((c) => c.replace(/\u2060/g, '').replace(/\\([[\]|*_`<>#$~])/g, '$1'));
    if (!cells[0].startsWith('**')) rows.push(cells);
  }
  return rows;
}

/** The answer table's data rows in report.html. @param {string} html */
function htmlRows(html) {
  const table = html.slice(html.indexOf('<table class="answers">'), html.indexOf('</table>', html.indexOf('answers')));
  return [...table.matchAll(/<tr>(<td[^>]*>.*?<\/td>)+<\/tr>/g)].map((m) =>
    [...m[0].matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) =>
      c[1].replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
    ),
  );
}

test('the answer table is the same, figure for figure, in seven outputs', async () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const reading = readRun(results);
  const want = reading.table.rows;
  assert.ok(want.length >= 10, `${want.length} questions`);

  const dir = tmpDir('one-answer');
  const out = {
    markdown: path.join(dir, 'summary.md'),
    json: path.join(dir, 'c.json'),
    prComment: path.join(dir, 'pr.md'),
  };
  let printed = '';
  await compareCommand({ results: FIXTURE, ...out, githubActions: false, print: (t) => (printed += t) });

  const doc = JSON.parse(readFileSync(out.json, 'utf8'));
  assert.deepEqual(doc.table.rows, want, 'compare --json');
  assert.deepEqual(overviewOf(results, pointsOf(results), () => []).answer?.table.rows, want, "the site's data");
  assert.deepEqual(markdownRows(runMarkdown(results)), want, 'report.md');
  assert.deepEqual(htmlRows(runHtml(results)), want, 'report.html');
  assert.deepEqual(markdownRows(readFileSync(out.markdown, 'utf8')), want, 'the job summary');
  assert.deepEqual(markdownRows(readFileSync(out.prComment, 'utf8')), want, 'the pull-request comment');

  // The terminal: each row on one line of at most 100 columns, its cells in order.
  const lines = printed.split('\n');
  const top = lines.slice(
    0,
    lines.findIndex((l, i) => i > 4 && l.startsWith('· ')),
  );
  for (const row of want) {
    const line = top.find((l) => l.startsWith(`${row[0]} `) && row.every((c) => l.includes(c)));
    assert.ok(line, `terminal: ${row.join(' | ')}`);
    let at = 0;
    for (const c of row) {
      const i = line.indexOf(c, at);
      assert.ok(i >= at, `terminal, in order: ${c} in ${line}`);
      at = i + c.length;
    }
  }
  assert.ok(Math.max(...top.map((l) => Array.from(l).length)) <= 100, top.join('\n'));
});

test('a change is given in the unit a job pays beside its percent; an open question says what would decide it', () => {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const reading = readRun(results);
  const row = (/** @type {string} */ resource, /** @type {string} */ pair) =>
    reading.table.rows.find((_, i) => reading.questions[i].resource === resource && reading.table.groups?.[i] === pair);
  // The inner engine's memory on a 5 MiB baseline: MiB first, its percent beside it.
  const memory = row('memory', 'dind@20.10 vs docker');
  assert.match(memory?.[2] ?? '', /^\+[\d.]+ MiB \[\+[\d.]+, \+[\d.]+\] \(\+[\d,]+%\)$/);
  const mem = reading.questions.find((q) => q.resource === 'memory');
  assert.ok(mem?.paid && mem.change, 'memory: the MiB and the percent');
  // The MiB difference is the decision's estimate (the ratio) times the baseline's median: inside its interval.
  assert.ok(mem.paid.diff >= (mem.paid.low ?? -Infinity) && mem.paid.diff <= (mem.paid.high ?? Infinity));
  // A start-up: seconds, and its dollars per 1,000 jobs under the run's billing.
  const startup = row('start-up', 'dind@20.10 vs docker');
  assert.match(startup?.[2] ?? '', /^\+[\d.]+ s \[\+[\d.]+, \+[\d.]+\] \(\+[\d,]+%\)$/);
  assert.match(startup?.[3] ?? '', /^\+\$\d+\.\d{2,3}$/);
  const s = reading.questions.find((q) => q.resource === 'start-up');
  assert.ok(s?.cost && s.paid);
  // hosted billing of a start-up: the average over jobs, the runner time's cost
  assert.ok(Math.abs(s.cost.per1000 - (s.paid.diff / 60) * 0.006 * 1000) < 1e-9);
  // An open question: what would decide it, and why sampling stopped.
  for (const [i, q] of reading.questions.entries())
    if (q.outcome === 'inconclusive')
      assert.match(reading.table.rows[i][4], /^~[\d,]+ a side; budget spent$|^more than/);
    else assert.equal(reading.table.rows[i][4], '–');
});
