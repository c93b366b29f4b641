/* global document, window -- page.evaluate() bodies run in the browser */
// The reports of a run a person reads: the terminal and Markdown report of a real quick run (every
// environment, Alpine offline, 3 samples a side) within 120 columns, one compact verdict per comparison,
// the "too few samples" note once, each unavailable reason once; report.html answering first and fitting
// a 1400 px window in real headless Chromium.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { compareWithinRun } from '../../src/results/within-run.js';
import { terminalReport, markdownReport as compareMarkdown } from '../../src/compare/render.js';
import { htmlReport } from '../../src/results/report-html.js';
import {
  answers,
  leftOutNote,
  markdownReport,
  problemGroups,
  problems,
  samplingNote,
  summaryTables,
} from '../../src/results/report.js';
import { textTable, wrap } from '../../src/text/tables.js';
import { CHROMIUM, launch } from '../helpers/browser.js';

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

/** The run's terminal report, as `dind-bench run` prints it. @param {any} r */
function runTerminal(r) {
  return [
    ...summaryTables(r).map((t) => `${t.title}\n${textTable(t.header, t.rows)}`),
    ...problems(r).map((p) => wrap(p)),
    ...answers(r).map((a) => wrap(a)),
  ].join('\n\n');
}

test('the terminal reports of a real quick run fit 120 columns', () => {
  const r = run();
  assert.deepEqual(
    r.run.args.env,
    ['native', 'docker', 'dind', 'dind-vfs'],
    'the fixture is the four-environment quick run',
  );
  assert.equal(r.run.iterations, 3);
  const printed = runTerminal(r);
  assert.ok(
    widest(printed) <= 120,
    `widest line ${widest(printed)}:\n${printed
      .split('\n')
      .filter((l) => columns(l) > 120)
      .join('\n')}`,
  );
  const compared = terminalReport({ results: r, comparisons: compareWithinRun(r), verdicts: null });
  assert.ok(widest(compared) <= 120, `compare: widest line ${widest(compared)}`);
  const md = markdownReport(r);
  const tableLines = md.split('\n').filter((l) => l.startsWith('|'));
  assert.ok(
    tableLines.length > 40 && Math.max(...tableLines.map(columns)) <= 120,
    'Markdown tables within 120 columns',
  );
});

test('one compact reading per comparison: decisions with their outcome, the rest described; each unavailable reason said once', () => {
  const r = run();
  const tables = summaryTables(r);
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
  const md = markdownReport(r);
  // 3 samples a side still give a decision its interval (Welch, on log values): wide, so inconclusive with
  // what it could have seen; no "too few" note is needed.
  assert.doesNotMatch(md, /"inconclusive \(too few\)"/);
  assert.ok((md.match(/ described/g)?.length ?? 0) > 50, 'each metric outside the questions described');
  assert.doesNotMatch(md, /too few samples to test \(3 vs 3\): read the interval/);
  // Alpine offline: six cells, one reason, said once, the image named generically.
  const groups = problemGroups(r);
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
    problems(r)[0],
    /^unavailable, 6 cells: its image is unavailable: .*[.!?:] Cells: lifecycle, sysbench in docker/,
  );
  const budget = 'left out to keep the run within its budget of 900 s: its planned rounds did not fit on this machine';
  const left = { ...r, cells: r.cells.map((c) => (c.status === 'ok' ? c : { ...c, reason: budget })) };
  assert.match(problems(left)[0], /did not fit on this machine\. Cells: lifecycle, sysbench in docker/);
  const cmp = compareMarkdown({ results: r, comparisons: compareWithinRun(r), verdicts: null });
  assert.doesNotMatch(cmp, /"inconclusive \(too few\)"/);
});

test('the answer comes first: a sentence per DinD environment', () => {
  const r = run();
  const a = answers(r);
  assert.equal(a.length, 2);
  // 3 vs 3: the run's one question here (sysbench's CPU) is not decided, and the answer says what it could
  // have seen and what would decide it, by resource family, never "worse in 0".
  assert.match(
    a[0],
    /^dind@20\.10 \(inner storage overlay2\) against docker, 0 of 1 decided: CPU: inconclusive, sees ≥ [\d,]+%; about [\d,]+ samples a side would decide it \(sysbench cpu\.events_per_second /,
  );
  assert.match(a[1], /^dind-vfs@20\.10 \(inner storage vfs\) against docker, 0 of 1 decided: CPU: inconclusive/);
  assert.doesNotMatch(a.join(' '), /worse in 0|no change/);
  const md = markdownReport(r);
  assert.ok(md.indexOf('- dind@20.10') < md.indexOf('| environment |'), 'answers before the tables');
});

test("cells left out for the budget are named in the report's first lines, and an environment left out whole says so", () => {
  const r = run();
  assert.equal(leftOutNote(r), '', 'nothing left out: no line');
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
  const note = leftOutNote(r);
  assert.equal(
    note,
    `Measured less than planned: ${vfs.length + 1} cells were left out for the run's budget of 900 s, not measured: ` +
      `dind-vfs@20.10 (debian): lifecycle, sysbench; dind-vfs@20.10 (alpine): lifecycle, sysbench; native: sysbench.`,
  );
  const md = markdownReport(r).split('\n');
  assert.equal(
    md[2],
    `**${note.replaceAll('@', '@\u2060')}**`,
    'under the title, first (mdText keeps @ from mentioning)',
  );
  assert.ok(
    answers(r).some((a) =>
      /^dind-vfs@20\.10 .*: not measured in this run: left out for the run's budget \(see the top of the report\)\.$/.test(
        a,
      ),
    ),
    answers(r).join('\n'),
  );
  assert.doesNotMatch(samplingNote(r), /left out/, 'the sampling line names only the cells that ran');
  assert.ok(htmlReport(r).includes('<p class="answer bad"><b>Measured less than planned: '));
});

test('data from the results file cannot break a Markdown table or reach the terminal as control characters', () => {
  const r = run();
  const cell = r.cells.find(
    (/** @type {any} */ c) => c.status === 'ok' && c.environmentKey === 'docker' && c.benchmark === 'sysbench',
  );
  cell.metrics[0].metric = 'evil|metric\u001b[31m';
  for (const c of r.cells)
    if (c.status === 'ok' && c.benchmark === 'sysbench') c.metrics[0].metric = cell.metrics[0].metric;
  const md = markdownReport(r);
  assert.ok(md.includes('evil\\|metric'));
  assert.ok(!runTerminal(r).includes('\u001b'));
});

test(
  'report.html: answer, chart on a log axis, tables; fits 1400 px without horizontal scrolling (real Chromium)',
  { skip: !existsSync(CHROMIUM) && !process.env.CI && 'no Chromium here' },
  async () => {
    const r = run();
    const html = htmlReport(r);
    assert.ok(
      html.indexOf('class="answer"') < html.indexOf('<svg') && html.indexOf('<svg') < html.indexOf('<table'),
      'answer, then chart, then tables',
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
        answers: [...document.querySelectorAll('.answer li')].map((li) => li.textContent),
        ticks: [...document.querySelectorAll('svg text')].map((t) => t.textContent),
        marks: document.querySelectorAll('svg circle').length,
      }));
      assert.ok(m.page <= m.view, `page ${m.page} px wide in a ${m.view} px window`);
      assert.equal(m.scrolling, 0, 'no table scrolls sideways');
      assert.equal(m.answers.length, 2);
      // one log axis spans lifecycle's hundreds-fold dind-vfs costs and sysbench's few percent
      assert.ok(
        m.ticks.includes('same') && m.ticks.includes('100× worse') && m.ticks.includes('10× better'),
        m.ticks.slice(0, 20).join(' | '),
      );
      const charted = compareWithinRun(r).filter(
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
