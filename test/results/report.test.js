/* global document, window -- page.evaluate() bodies run in the browser */
// The reports of a run a person reads: the terminal report of a real quick run (every environment, Alpine
// offline, 3 samples a side) within 100 columns, no name cut anywhere, one compact verdict per comparison,
// the "too few samples" note once, each unavailable reason once; report.html answering first (the answer
// table) and fitting a 1400 px window in real headless Chromium.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { terminalReport, markdownReport as compareMarkdown } from '../../src/compare/render.js';
import { problemLines } from '../../src/text/answer.js';
import { printReport } from '../../src/run/outputs.js';

import { textTable, wrap } from '../../src/text/tables.js';
import { CHROMIUM, launch } from '../helpers/browser.js';
import { compareOutcome, readRun, runHtml, runMarkdown } from '../helpers/reading.js';

const FIXTURE = new URL('../fixtures/results/quick-4env-alpine-offline.json', import.meta.url).pathname;
/** @returns {any} */
const run = () => JSON.parse(readFileSync(FIXTURE, 'utf8'));
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;
const work = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-report-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Terminal columns of a line (every character used here is one column wide). @param {string} l */
const columns = (l) => Array.from(l).length;
/** @param {string} text */
const widest = (text) => Math.max(...text.split('\n').map(columns));

/** The run's terminal report, as `dind-bench run` prints it, and the medians' tables (`compare` prints those). @param {any} r */
function runTerminal(r) {
  const reading = readRun(r);
  const out = [];
  printReport(reading, r, 'out', 'out/results.json', (/** @type {string} */ l) => out.push(l));
  for (const t of reading.tables) out.push(`${wrap(t.title)}\n${textTable(t.header, t.rows)}`);
  return out.join('\n');
}

test('the terminal reports of a real quick run fit 100 columns, and no output cuts a name', () => {
  const r = run();
  assert.deepEqual(
    r.run.args.env,
    ['native', 'docker', 'dind', 'dind-vfs'],
    'the fixture is the four-environment quick run',
  );
  assert.equal(r.run.iterations, 3);
  const printed = runTerminal(r);
  assert.ok(
    widest(printed) <= 100,
    `widest line ${widest(printed)}:\n${printed
      .split('\n')
      .filter((l) => columns(l) > 100)
      .join('\n')}`,
  );
  const compared = terminalReport(compareOutcome(r));
  assert.ok(widest(compared) <= 100, `compare: widest line ${widest(compared)}`);
  const md = runMarkdown(r);
  const tableLines = md.split('\n').filter((l) => l.startsWith('|'));
  assert.ok(tableLines.length > 40, 'the Markdown tables are there');
  // Every metric and environment name the run has appears whole in each output: nothing is cut ("…").
  for (const out of [printed, compared, md]) assert.doesNotMatch(out, /…/);
  const names = new Set(
    r.cells.flatMap((/** @type {any} */ c) => [c.environmentKey, ...c.metrics.map((/** @type {any} */ m) => m.metric)]),
  );
  for (const name of names) assert.ok(md.includes(name.replaceAll('@', '@\u2060')), `report.md names ${name} whole`);
});

test('one compact reading per comparison: decisions with their outcome, the rest described; each unavailable reason said once', () => {
  const r = run();
  const tables = readRun(r).tables;
  const sysbench = tables.find((t) => t.benchmark === 'sysbench');
  assert.ok(sysbench);
  assert.deepEqual(sysbench.header, [
    'metric',
    'native',
    'docker',
    'dind',
    'dind-vfs',
    'dind vs docker',
    'dind-vfs vs docker',
  ]);
  for (const row of sysbench.rows) {
    for (const v of row.slice(5))
      assert.match(
        v,
        row[0].startsWith('cpu.events_per_second')
          ? /^[+-][\d,.]+% ±[\d,.]+ inconclusive \(sees ≥ [\d,.]+%\)$/
          : /^(–|[+-][\d,.]+% ±[\d,.]+ described)$/,
        `${row[0]}: ${v}`,
      );
  }
  const md = runMarkdown(r);
  // 3 samples a side still give a decision its interval (Welch, on log values): wide, so inconclusive with
  // what it could have seen; no "too few" note is needed.
  assert.doesNotMatch(md, /"inconclusive \(too few\)"/);
  assert.ok((md.match(/ described/g)?.length ?? 0) > 50, 'each metric outside the questions described');
  assert.doesNotMatch(md, /too few samples to test \(3 vs 3\): read the interval/);
  // Alpine offline: six cells, one reason, said once, the image named generically.
  const groups = readRun(r).problems;
  assert.equal(groups.length, 1);
  assert.equal(groups[0].count, 6);
  assert.match(
    groups[0].reason,
    /^its image is unavailable: base image alpine:3\.20@sha256:[0-9a-f]{64} is not in the local image store/,
  );
  assert.equal(groups[0].where, 'lifecycle, sysbench in docker, dind@20.10, dind-vfs@20.10 (alpine)');
  assert.equal(md.match(/is not in the local image store/g)?.length, 1);
  // the terminal line: the reason ends as a sentence before the cells it names, with a full stop added
  // where the reason has none (the budget's, for one)
  assert.match(
    problemLines(readRun(r))[0],
    /^unavailable, 6 cells: its image is unavailable: .*[.!?:] Cells: lifecycle, sysbench in docker/,
  );
  const budget = 'left out to keep the run within its budget of 900 s: its planned rounds did not fit on this machine';
  const left = { ...r, cells: r.cells.map((c) => (c.status === 'ok' ? c : { ...c, reason: budget })) };
  assert.match(problemLines(readRun(left))[0], /did not fit on this machine\. Cells: lifecycle, sysbench in docker/);
  const cmp = compareMarkdown(compareOutcome(r));
  assert.doesNotMatch(cmp, /"inconclusive \(too few\)"/);
});

test('the answer comes first: one row per question, the pair it judges above it', () => {
  const r = run();
  const reading = readRun(r);
  // 3 vs 3: the run's questions here (sysbench's CPU per DinD environment) are not decided, and each row
  // says what would decide it, never "worse in 0".
  assert.deepEqual(reading.table.groups, ['dind@20.10 vs docker', 'dind-vfs@20.10 vs docker']);
  for (const row of reading.table.rows) {
    assert.equal(row[0], 'CPU');
    assert.equal(row[1], 'inconclusive');
    assert.match(row[2], /^[+-][\d,.]+% \[[+-][\d,.]+%, [+-][\d,.]+%\]$/);
    assert.equal(row[3], '–', 'CPU is not a time a job pays once: no dollars');
    assert.match(row[4], /^~[\d,]+ a side$/);
  }
  assert.equal(reading.decided.decided, 0);
  assert.match(reading.intro, /: 0 of 2 questions decided\. Money billed per started minute at \$0\.006/);
  assert.doesNotMatch(JSON.stringify(reading.table), /worse in 0|no change/);
  const md = runMarkdown(r);
  assert.ok(md.indexOf('| question | answer |') < md.indexOf('| environment |'), 'the answer before the tables');
  assert.ok(md.indexOf('| **dind@\u206020.10 vs docker** |') < md.indexOf('| CPU | inconclusive |'));
});

test("cells left out for the budget are named in the report's first lines, and an environment left out whole says so", () => {
  const r = run();
  assert.equal(readRun(r).leftOut, '', 'nothing left out: no line');
  r.run.budgetMs = 900_000;
  for (const c of r.cells) {
    if (c.environmentKey === 'dind-vfs@20.10' || (c.environmentKey === 'native' && c.benchmark === 'sysbench')) {
      Object.assign(c, {
        status: 'unavailable',
        reason: 'left out at plan time to keep the run within its budget of 900 s',
        metrics: [],
      });
      c.sampling = { iterations: 0, stopped: 'left out for the budget' };
    } else if (c.status === 'ok') c.sampling = { iterations: 5, stopped: 'budget spent' };
  }
  const vfs = r.cells.filter((/** @type {any} */ c) => c.environmentKey === 'dind-vfs@20.10');
  const reading = readRun(r);
  const note = reading.leftOut;
  assert.equal(
    note,
    `Measured less than planned: ${vfs.length + 1} cells were left out for the run's budget of 900 s, not measured: ` +
      `dind-vfs@20.10 (debian): lifecycle, sysbench; dind-vfs@20.10 (alpine): lifecycle, sysbench; native: sysbench.`,
  );
  const md = runMarkdown(r).split('\n');
  assert.equal(
    md[2],
    `**${note.replaceAll('@', '@\u2060')}**`,
    'under the title, first (mdText keeps @ from mentioning)',
  );
  assert.ok(
    reading.caveats.includes("Not compared with Docker in this run: dind-vfs@20.10: left out for the run's budget."),
    reading.caveats.join('\n'),
  );
  assert.doesNotMatch(reading.samplingNote, /left out/, 'the sampling line names only the cells that ran');
  assert.ok(runHtml(r).includes('<p class="answer bad"><b>Measured less than planned: '));
});

test('data from the results file cannot break a Markdown table or reach the terminal as control characters', () => {
  const r = run();
  const cell = r.cells.find(
    (/** @type {any} */ c) => c.status === 'ok' && c.environmentKey === 'docker' && c.benchmark === 'sysbench',
  );
  cell.metrics[0].metric = 'evil|metric\u001b[31m';
  for (const c of r.cells)
    if (c.status === 'ok' && c.benchmark === 'sysbench') c.metrics[0].metric = cell.metrics[0].metric;
  const md = runMarkdown(r);
  assert.ok(md.includes('evil\\|metric'));
  assert.ok(!runTerminal(r).includes('\u001b'));
});

test(
  'report.html: answer, chart on a log axis, tables; fits 1400 px without horizontal scrolling (real Chromium)',
  { skip: !existsSync(CHROMIUM) && !process.env.CI && 'no Chromium here' },
  async () => {
    const r = run();
    const html = runHtml(r);
    assert.ok(
      html.indexOf('class="answers"') < html.indexOf('<svg') &&
        html.indexOf('<svg') < html.indexOf('<table><thead><tr><th>environment'),
      'the answer table, then the chart, then the tables',
    );
    const file = path.join(work, 'report.html');
    writeFileSync(file, html);
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(`file://${file}`);
      const m = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        view: window.innerWidth,
        scrolling: [...document.querySelectorAll('.scroll')].filter((e) => e.scrollWidth > e.clientWidth).length,
        answers: [...document.querySelectorAll('table.answers tbody tr')].filter((tr) => !tr.querySelector('th'))
          .length,
        ticks: [...document.querySelectorAll('svg text')].map((t) => t.textContent),
        marks: document.querySelectorAll('svg circle').length,
      }));
      assert.ok(m.page <= m.view, `page ${m.page} px wide in a ${m.view} px window`);
      assert.equal(m.scrolling, 0, 'no table scrolls sideways');
      assert.equal(m.answers, 2, 'a row per question');
      // one log axis spans lifecycle's hundreds-fold dind-vfs costs and sysbench's few percent
      assert.ok(
        m.ticks.includes('same') && m.ticks.includes('100× worse') && m.ticks.includes('10× better'),
        m.ticks.slice(0, 20).join(' | '),
      );
      const charted = readRun(r).comparisons.filter(
        (c) => c.kind === 'dind-vs-docker' && Number.isFinite(c.ratio.ratio) && c.ratio.ratio > 0,
      );
      assert.equal(m.marks, charted.length + 2, 'a mark per comparison, plus one per environment in the legend');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'report-html.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  },
);

test(
  'report.html sends a Content-Security-Policy: it loads without a violation, and a script in it does not run (real Chromium)',
  { skip: !existsSync(CHROMIUM) && !process.env.CI && 'no Chromium here' },
  async () => {
    const r = run();
    // A script that got into the page (as escaping would have missed it) is refused by the policy.
    const html = runHtml(r).replace('</body>', '<script>window.planted = true</script></body>');
    assert.match(
      html,
      /^<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'none';/,
    );
    const file = path.join(work, 'report-csp.html');
    writeFileSync(file, html);
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      /** @type {string[]} */
      const logged = [];
      page.on('console', (m) => {
        if (m.type() === 'error') logged.push(m.text());
      });
      await page.goto(`file://${file}`);
      assert.equal(await page.evaluate(() => /** @type {any} */ (window).planted), undefined, 'the planted script ran');
      // The one refusal is the planted script's; the page's own styles (a sheet, the waterfall's widths) pass.
      assert.equal(logged.length, 1, logged.join('\n'));
      assert.match(
        logged[0],
        /inline script violates the following Content Security Policy directive 'script-src 'none''.* The action has been blocked/,
      );
      const styled = await page.evaluate(() => window.getComputedStyle(document.body).maxWidth);
      assert.equal(styled, '1344px', "the page's own style sheet applies (84rem)");
    } finally {
      await browser.close();
    }
  },
);
