// Every output of a workload run says what DinD adds to the job, in seconds with its interval and in dollars
// per 1,000 jobs, in sentences whose numbers add up, or what would decide it and what that costs; and the
// job's parts (engine ready, pulls, steps) with their intervals beside it (issue 55, item 5). On a real quick
// run of the `script` workload (test/fixtures/results/workload-script-quick.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { compareCommand } from '../../src/compare/command.js';
import { printReport } from '../../src/run/outputs.js';
import { compareOutcome, readRun, runHtml, runMarkdown } from '../helpers/reading.js';
import { markdownReport, prComment, verdictsDocument } from '../../src/compare/render.js';

const FILE = new URL('../fixtures/results/workload-script-quick.json', import.meta.url).pathname;
const results = () => JSON.parse(readFileSync(FILE, 'utf8'));

/** A number as printed ("+3.8", "1.94", "+196%", "1,204"). @param {string} s */
const n = (s) => Number(s.replace(/[,%+ s]/g, ''));

/**
 * The cost sentence's numbers: the difference and its interval, the change in percent and its interval, the
 * baseline's median job. @param {string} sentence
 */
function numbersOf(sentence) {
  const m =
    /costs ([+-][\d.,]+) s \[([+-][\d.,]+) s, ([+-][\d.,]+) s\] in \S+ against \S+: ([+-][\d.,]+)% \[([+-][\d.,]+)%, ([+-][\d.,]+)%\] of \S+'s median job, ([\d.,]+) s/.exec(
      sentence,
    );
  assert.ok(m, sentence);
  const [diff, low, high, pct, pctLow, pctHigh, base] = m.slice(1).map(n);
  return { diff, low, high, pct, pctLow, pctHigh, base };
}

test("the job's cost sentence: its numbers add up (the baseline's median job times the change is the difference)", () => {
  const r = readRun(results());
  const x = numbersOf(r.cost.sentence);
  // Each printed figure rounds: the product agrees to its last printed digit.
  for (const [d, p] of [
    [x.diff, x.pct],
    [x.low, x.pctLow],
    [x.high, x.pctHigh],
  ])
    assert.ok(Math.abs((x.base * p) / 100 - d) <= 0.06, `${x.base} s x ${p}% = ${(x.base * p) / 100}, printed ${d}`);
  assert.ok(x.low <= x.diff && x.diff <= x.high);
  // No pair of medians beside it that would read as a subtraction it is not.
  assert.doesNotMatch(r.cost.sentence, / vs /);
  assert.match(r.cost.sentence, /\+\$0\.00 per 1,000 jobs \(hosted billing rounds/);
});

test('every output of the run says the cost per job, and the parts of the job with their intervals', async () => {
  const res = results();
  const r = readRun(res);
  const sentence = r.cost.sentence;
  // The parts: one table per DinD environment against Docker, each row's difference the medians' difference.
  assert.deepEqual(
    r.parts.map((t) => t.title),
    [
      'workload.script (debian): where the time goes, dind@20.10 against docker',
      'workload.script (debian): where the time goes, dind-vfs@20.10 against docker',
    ],
  );
  const [t] = r.parts;
  assert.deepEqual(
    t.rows.map((row) => row[0]),
    ['engine ready', 'pull team_tools_1', 'step containers', 'step volume'],
  );
  for (const row of t.rows) {
    const [base, cand] = [row[1], row[2]].map((c) => n(c.split(' [')[0]));
    const m = /^([+-][\d.,]+) s(?: \[([+-][\d.,]+), ([+-][\d.,]+) s\])?/.exec(row[3]);
    assert.ok(m, row[3]);
    // Three significant digits each: the printed medians' difference is the printed one to its last digit.
    assert.ok(Math.abs(cand - base - n(m[1])) <= 0.006 * Math.max(1, Math.abs(n(m[1]))), `${row.join(' | ')}`);
    if (m[2]) assert.ok(n(m[2]) <= n(m[1]) + 0.01 && n(m[1]) <= n(m[3]) + 0.01, row[3]);
  }

  /** @type {string[]} */
  const printed = [];
  await compareCommand({ results: FILE, print: (s) => printed.push(s), githubActions: false });
  const terminal = printed.join('');
  // (Markdown escapes: a backslash before punctuation, a word joiner after an @)
  const flat = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').replace(/\\|\u2060/g, '');
  assert.ok(flat(terminal).includes(`Cost per job: ${sentence}`), terminal.slice(0, 1500));
  assert.match(terminal, /where the time goes, dind@20\.10 against docker/);

  const o = compareOutcome(res);
  for (const [what, text] of [
    ['the job summary', markdownReport(o)],
    ['the pull-request comment', prComment(o)],
    ['report.md', runMarkdown(res)],
    ['report.html', runHtml(res)],
  ]) {
    assert.ok(flat(text).includes(flat(sentence).slice(0, 60)), `${what} says the cost per job`);
    assert.match(flat(text), /where the time goes, dind@20\.10 against docker/, `${what} lays out the parts`);
  }
  assert.deepEqual(verdictsDocument(o).parts, r.parts);

  /** @type {string[]} */
  const run = [];
  printReport(r, /** @type {any} */ ({ ...res, harness: { peakRssBytes: 1, wallSeconds: 1 } }), '/tmp/x', 'x', (s) =>
    run.push(s),
  );
  assert.ok(flat(run.join('\n')).includes(`Cost per job: ${flat(sentence)}`));
  assert.match(run.join('\n'), /step containers/);
});

test('an open job question says what would decide it and what those jobs cost', () => {
  const res = results();
  // The dind job as noisy as a shared runner makes it, centred on docker's: too few samples to decide.
  const docker = res.cells.find((/** @type {any} */ c) => c.environmentKey === 'docker');
  const base = docker.metrics.find((/** @type {any} */ m) => m.metric === 'job.total_ms').samples;
  const dind = res.cells.find((/** @type {any} */ c) => c.environmentKey === 'dind@20.10');
  dind.metrics.find((/** @type {any} */ m) => m.metric === 'job.total_ms').samples = base.map(
    (/** @type {number} */ v, /** @type {number} */ i) => v * [1.3, 0.8, 1.25, 0.9, 1.2, 0.85, 1.1][i],
  );
  const r = readRun(res);
  const q = r.questions.find((x) => x.metric === 'job.total_ms' && x.subject === 'dind@20.10');
  assert.equal(q?.outcome, 'inconclusive');
  const c = r.comparisons.find((x) => x.metric === 'job.total_ms' && x.candidate.env === 'dind@20.10' && x.decision);
  assert.ok(c, 'the comparison of the job in dind@20.10');
  const n = /** @type {number} */ (c.samplesToDecide);
  assert.ok(n > 7, `${n} a side`);
  // The jobs still needed, each side's median job each: their runner minutes and dollars, said.
  const minutes = ((n - c.baseline.n) * c.baseline.median + (n - c.candidate.n) * c.candidate.median) / 60_000;
  const said = `${n - 7} more jobs a side (${n} a side), about ${minutes.toFixed(1)} runner minutes of jobs, $${(minutes * 0.006).toFixed(2)} at $0.006 a minute`;
  assert.ok(r.cost.sentence.endsWith(`To decide it: ${said}.`), r.cost.sentence);
  assert.match(
    q?.toDecide ?? '',
    new RegExp(
      `^~${n} a side: ${n - 7} more jobs a side, about ${minutes.toFixed(1).replace('.', '\\.')} runner minutes`,
    ),
  );
  // The same difference, printed alike wherever the sentence names it.
  const diff = /costs ([+-][\d.]+ s)/.exec(r.cost.sentence)?.[1];
  assert.ok(diff && r.cost.sentence.includes(`as runner time the ${diff} are`), r.cost.sentence);
});
