// The cost per job where the verdict is: one billing model (hosted: per started minute; occupancy: per
// second of runner time) for every sentence that names money, the cost as the first line of the job
// summary and the pull-request comment, and as the compare action's (and so the reusable workflow's)
// outputs. The +3.8 s case is a real quick run of the `script` workload (test/fixtures/results/
// workload-script-quick.json): both sides of it fit in one started minute.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { moneyOf, pricingText } from '../../src/model/job-cost.js';
import { runMarkdown } from '../helpers/reading.js';
import { workflowOutputs } from '../../src/compare/outputs.js';
import { runCompareAll } from '../helpers/compare-all.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const fixture = (/** @type {string} */ name) =>
  JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/results', name), 'utf8'));
const WORKLOAD = path.join(ROOT, 'test/fixtures/results/workload-script-quick.json');

test('moneyOf: one difference in job time, priced in each billing model', () => {
  const hosted = { price: 0.006, billing: /** @type {const} */ ('hosted') };
  const cases = [
    // Whole jobs known, the same started minute: $0.00 billed, and the words say why and what the time costs.
    [
      4200,
      hosted,
      { baseMs: 1900, candidateMs: 6100 },
      0,
      '+0 billed minutes, +$0.00 per 1,000 jobs',
      /hosted billing rounds each job up to the minute and both are billed 1 minute; as runner time the \+4\.2 s are \+\$0\.42 per 1,000 jobs/,
    ],
    // Crossing a minute boundary: a whole minute, said plainly.
    [7700, hosted, { baseMs: 55_000, candidateMs: 62_700 }, 6, '+1 billed minute, +$6.00 per 1,000 jobs', /^$/],
    // Only the difference known (a start-up): the average over jobs, and the share that pays a minute more.
    [
      7100,
      hosted,
      undefined,
      0.71,
      '+$0.71 per 1,000 jobs on average',
      /about 12% of jobs pay a minute more, the others the same/,
    ],
    [-7100, hosted, undefined, -0.71, '-$0.71 per 1,000 jobs on average', /about 12% of jobs pay a minute less/],
    [200, hosted, undefined, 0.02, '+$0.02 per 1,000 jobs on average', /under 1% of jobs pay a minute more/],
    [
      97_100,
      hosted,
      undefined,
      9.71,
      '+$9.71 per 1,000 jobs on average',
      /each pays 1 or 2 minutes more, about 62% of them 2/,
    ],
    // Occupancy: the time itself, whole jobs or not.
    [
      4200,
      { price: 0.0032, billing: 'occupancy' },
      { baseMs: 1900, candidateMs: 6100 },
      0.224,
      '+$0.22 per 1,000 jobs',
      /^$/,
    ],
  ];
  for (const [diff, pricing, whole, per1000, text, note] of /** @type {any[]} */ (cases)) {
    const m = moneyOf(diff, pricing, whole);
    assert.ok(Math.abs(m.per1000 - per1000) < 1e-9, `${diff} ${pricing.billing}: ${m.per1000}`);
    assert.equal(m.text, text);
    assert.match(m.note, note);
  }
  // An hourly price maps to a minute's by /60, and the sentence gives both.
  assert.equal(
    pricingText({ price: 0.192 / 60, billing: 'occupancy' }),
    'at $0.0032 a minute of runner time ($0.192 an hour), to the second',
  );
  assert.equal(
    pricingText({ price: 0.006, billing: 'hosted' }),
    'billed per started minute at $0.006, as GitHub bills hosted runners',
  );
});

/** A run with both a start-up (lifecycle) and the team's job (a workload) measured, priced as `args` say. @param {object} args */
function bothMeasured(args) {
  const r = fixture('decide-quick-5.json');
  const w = fixture('workload-script-quick.json');
  r.cells.push(
    ...w.cells.filter(
      (/** @type {any} */ c) => c.status === 'ok' && ['docker', 'dind@20.10'].includes(c.environmentKey),
    ),
  );
  r.run.args = { ...r.run.args, ...args };
  return r;
}

test("one billing model for every sentence of a run's report: the start-up's and the job's", () => {
  const occupancy = runMarkdown(bothMeasured({ billing: 'occupancy', pricePerMinute: 0.0032 }));
  const lines = occupancy.split('\n');
  // The billing is said once, above the answer, and the job's cost table says the same; the start-up's and
  // the job's dollars in the answer table are both priced by it.
  const intro = lines[2];
  const table = lines.find((l) => l.includes('cost per job, '));
  assert.ok(intro && table, occupancy.slice(0, 2000));
  // (Markdown: a dollar sign is escaped)
  const how = /at \\\$0\.0032 a minute of runner time \(\\\$0\.192 an hour\), to the second/i;
  assert.match(intro, how);
  assert.match(table, how);
  assert.doesNotMatch(occupancy, /billed minute|started minute/);
  const startup = lines.find((l) => l.startsWith('| start-up |'));
  const job = lines.find((l) => l.startsWith('| job |'));
  // +1.6 s at $0.0032 a minute is $0.09 per 1,000 jobs; the job's +3.8 s, $0.20.
  assert.match(startup ?? '', /^\| start-up \| regression \| \+1\.6 s .* \| \+\\\$0\.09 \| – \|$/);
  assert.match(job ?? '', /^\| job \| regression \| \+3\.8 s .* \| \+\\\$0\.20 \| – \|$/);

  const hosted = runMarkdown(bothMeasured({}));
  assert.match(hosted.split('\n')[2], /billed per started minute at \\\$0\.006, as GitHub bills hosted runners/i);
});

test('the compare action: the cost per job is the first line of the summary and the comment, and its outputs', () => {
  const hosted = runCompareAll({ RESULTS: WORKLOAD });
  assert.equal(hosted.status, 0, hosted.stderr);
  const first = hosted.summary.split('\n')[0];
  assert.match(
    first,
    /^\*\*Cost per job:\*\* Your job \(workload\.script, debian\) costs \+3\.8 s \\\[\+2\.6 s, \+5\.3 s\\\] in dind@\u2060?20\.10 against docker/,
  );
  // +3.8 s in one started minute is $0.00 billed, never without the rounding and the runner time's cost.
  assert.match(
    first,
    /\+\\\$0\.00 per 1,000 jobs \(hosted billing rounds each job up to the minute and both are billed 1 minute; as runner time the \+3\.8 s are \+\\\$0\.38 per 1,000 jobs\)/,
  );
  assert.equal(readFileSync(path.join(hosted.out, 'pr-comment.md'), 'utf8').split('\n')[0], first);
  assert.match(hosted.output, /^cost-seconds=3\.79$/m);
  assert.match(hosted.output, /^cost-interval=2\.60,5\.28$/m);
  assert.match(hosted.output, /^cost-per-1000-jobs=0\.00$/m);
  assert.match(
    // (an output's words are joined by no-break spaces: one shell word, src/compare/outputs.js)
    hosted.output.replace(/\u00a0/g, ' '),
    /^cost=Your job, workload\.script, debian, costs \+3\.8 s from \+2\.6 s to \+5\.3 s .*as runner time the \+3\.8 s are \+USD 0\.38 per 1,000 jobs/m,
  );

  // A self-hosted machine of $0.192 an hour, billed as occupancy: the same 3.8 s, priced to the second.
  const occupancy = runCompareAll({ RESULTS: WORKLOAD, PRICE_PER_MINUTE: '0.0032', BILLING: 'occupancy' });
  assert.equal(occupancy.status, 0, occupancy.stderr);
  assert.match(occupancy.output, /^cost-per-1000-jobs=0\.20$/m);
  assert.match(
    occupancy.summary.split('\n')[0],
    /\+\\\$0\.20 per 1,000 jobs, at \\\$0\.0032 a minute of runner time \(\\\$0\.192 an hour\), to the second\.$/,
  );
});

test('the compare action refuses a bad price or billing model before it writes anything', () => {
  for (const [env, message] of /** @type {const} */ ([
    [{ PRICE_PER_MINUTE: '0.006; touch /tmp/x' }, /price-per-minute must be dollars per runner minute such as 0\.006/],
    [{ PRICE_PER_MINUTE: '-1' }, /price-per-minute must be/],
    [{ PRICE_PER_MINUTE: '1e3' }, /price-per-minute must be/],
    [{ BILLING: 'spot' }, /billing must be empty, 'hosted' \(per started minute\) or 'occupancy'/],
  ])) {
    const r = runCompareAll({ RESULTS: WORKLOAD, ...env });
    assert.equal(r.status, 2, r.stdout);
    assert.match(r.stdout, message);
    assert.ok(!existsSync(r.out), 'nothing written');
    assert.doesNotMatch(r.stdout, /touch/, 'the value is not echoed');
  }
  // The CLI refuses what parseFloat would have half-read.
  const cli = runCli(['compare', WORKLOAD, '--price-per-minute', '0.006abc']);
  assert.equal(cli.status, 1);
  assert.match(cli.stderr, /expected dollars per runner minute such as 0\.006/);
});

test('cost outputs: bounded, one line, and inert in a shell whatever a results file named', () => {
  const out = workflowOutputs([
    {
      cost: {
        sentence: `Your job (workload.x, debian) costs +1.0 s [+0.5 s, +2.0 s] in dind@20.10 $(id) \`id\` "q"\n::error::x ${'y'.repeat(2000)}`,
        seconds: { diff: 1, low: 0.5, high: 2 },
        per1000: 0.1,
      },
    },
  ]);
  assert.doesNotMatch(out.cost, /[$`"\n[\]()]/);
  assert.ok(out.cost.length <= 600);
  assert.equal(out['cost-seconds'], '1.00');
  assert.equal(out['cost-interval'], '0.50,2.00');
  assert.equal(out['cost-per-1000-jobs'], '0.10');
  // Nothing measured: the sentence says so, the numbers are empty (never 0).
  const none = workflowOutputs([{ cost: { sentence: 'not measured in this run', seconds: null, per1000: null } }]);
  assert.equal(none['cost-seconds'], '');
  assert.equal(none['cost-per-1000-jobs'], '');
});
