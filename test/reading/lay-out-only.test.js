// Outputs only lay out the Reading (issue 51): an answer is coloured by its question's outcome, never by its
// words (report.html and the site); a cell is escaped whatever it says; a line of cells that did not run is
// the Reading's own; report.html's chart names every metric whole; and `compare --modes` exits as the gate
// decides, as every other compare does (src/reading/gate.js exitCodeOf).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkAnswer } from '../../site/js/answer.js';
import { compareCommand } from '../../src/compare/command.js';
import { outcomeTone } from '../../src/model/change.js';
import { EXIT_INCONCLUSIVE } from '../../src/reading/gate.js';
import { answerHtml, answerMarkdown, problemLines } from '../../src/text/answer.js';
import { readRun, runHtml } from '../helpers/reading.js';

const FIXTURE = new URL('../../bench/results/quiet-quick-2026-11-28.json', import.meta.url).pathname;
/** @returns {any} */
const run = () => JSON.parse(readFileSync(FIXTURE, 'utf8'));

/** The classes of the answer cells of report.html's answer table, in row order. @param {string} html */
function answerClasses(html) {
  const from = html.indexOf('<table class="answers">');
  const table = html.slice(from, html.indexOf('</table>', from));
  return [...table.matchAll(/<tr><td>[^<]*<\/td><td(?: class="([a-z]+)")?>/g)].map((m) => m[1] ?? '');
}

test("report.html colours each answer by its question's outcome, the same as the Reading's table says", () => {
  const reading = readRun(run());
  assert.equal(reading.table.outcomes.length, reading.table.rows.length);
  assert.deepEqual(
    reading.table.outcomes,
    reading.questions.map((q) => q.outcome),
  );
  const want = reading.questions.map((q) => outcomeTone(q.outcome));
  assert.ok(want.includes('worse'), 'the quiet quick run has a regression to colour');
  assert.deepEqual(answerClasses(runHtml(run())), want);
});

test('an answer is coloured by its outcome, not by its words; a cell is escaped whatever it starts with', () => {
  /** @type {import('../../src/text/answer.js').Answer} */
  const answer = {
    intro: 'a run',
    leftOut: '',
    caveats: [],
    table: {
      header: ['question', 'answer', 'change'],
      rows: [
        ['**start-up**', 'regression (said in words only)', '+1 s'],
        ['CPU', 'all fine', '+0%'],
      ],
      groups: ['a vs b', 'a vs b'],
      outcomes: ['equivalent', 'regression'],
    },
  };
  const html = answerHtml(answer);
  assert.match(html, /<td>\*\*start-up\*\*<\/td><td>regression \(said in words only\)<\/td>/);
  assert.match(html, /<td>CPU<\/td><td class="worse">all fine<\/td>/);
  const md = answerMarkdown(answer).join('\n');
  // The group title is bold by its place; a question's own asterisks are escaped, never markup.
  assert.match(md, /^\| \*\*a vs b\*\* \| {2}\| {2}\|$/m);
  assert.match(md, /^\| \\\*\\\*start-up\\\*\\\* \| regression \(said in words only\) \| \+1 s \|$/m);
});

test("the site keeps a table's outcomes when each is one of the four (or none), and refuses the table otherwise", () => {
  const table = readRun(run()).table;
  const shown = checkAnswer({ intro: 'x', caveats: [], table });
  assert.deepEqual(shown.table?.outcomes, table.outcomes);
  assert.deepEqual(shown.problems, []);
  // An older version-7 file has no outcomes: the table stands, uncoloured.
  const older = { header: table.header, rows: table.rows, groups: table.groups };
  assert.equal(checkAnswer({ intro: 'x', caveats: [], table: older }).table?.outcomes, undefined);
  for (const bad of [
    table.outcomes.slice(1),
    table.outcomes.map(() => 'worse" onmouseover="x'),
    'regression',
    table.outcomes.map(() => ({ toString: () => 'regression' })),
  ]) {
    const a = checkAnswer({ intro: 'x', caveats: [], table: { ...table, outcomes: bad } });
    assert.equal(a.table, null, JSON.stringify(bad).slice(0, 60));
    assert.deepEqual(a.problems, ['its table']);
  }
});

test("a line of cells that did not run is the Reading's own", () => {
  const r = run();
  const broken = { ...r, cells: r.cells.map((c, i) => (i ? c : { ...c, status: 'failed', reason: 'it broke' })) };
  const reading = readRun(broken);
  assert.deepEqual(problemLines(reading), [reading.problems[0].line]);
  assert.match(reading.problems[0].line, /^failed, 1 cell: it broke\. Cells: /);
});

test("report.html's chart names a metric of 100 characters whole", () => {
  const r = run();
  const long = `job.step.${'a-step-named-at-length-'.repeat(4)}`.slice(0, 97) + '_ms';
  assert.equal(long.length, 100);
  // A described metric of that name in DinD and in Docker, so the chart has a row for it.
  for (const c of r.cells)
    if (c.benchmark === 'lifecycle' && c.status === 'ok' && /^(docker|dind@20\.10)$/.test(c.environmentKey)) {
      const m = c.metrics.find((/** @type {any} */ x) => x.metric === 'startup.first_start_ms');
      c.metrics.push({ ...m, metric: long });
    }
  const html = runHtml(r);
  const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>'));
  assert.ok(svg.includes(`>${long}</text>`), 'the whole name labels its row');
  assert.doesNotMatch(svg, /…/);
  // The labels' column grows to hold it: the viewBox is wider than the chart's 1240.
  const width = Number(/viewBox="0 0 (\d+) /.exec(svg)?.[1]);
  assert.ok(width > 1240, `viewBox width ${width}`);
});

test('compare --modes exits as the gate decides: 0 without --fail-on, 8 when it fails closed on nothing judged', async () => {
  const quiet = { print: () => {}, githubActions: false, modes: true };
  assert.equal((await compareCommand({ results: FIXTURE, ...quiet })).exitCode, 0);
  const gated = await compareCommand({ results: FIXTURE, ...quiet, failOn: 'inconclusive' });
  assert.equal(gated.outcome.reading.gate.verdict, 'nothing gated');
  assert.equal(gated.exitCode, EXIT_INCONCLUSIVE);
});
