// The reading layer's parts on their own: the false-alarm control, the families a gate makes, the gate's
// exits and sentences, the history verdict's words, and the workflow outputs built from the gates.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { workflowOutputs } from '../../src/compare/outputs.js';
import { decisionLevel, samplesToDecide } from '../../src/reading/decide.js';
import { isDecisionMetric } from '../../src/model/decisions.js';
import { logRatioInterval } from '../../src/stats/log-interval.js';
import { DEFAULT_GATE, EXIT_INCONCLUSIVE, EXIT_REGRESSION, gateFor, gateOf } from '../../src/reading/gate.js';
import { judgeSeries } from '../../src/reading/history.js';
import { readWithinRun } from '../../src/reading/index.js';
import { DEFAULT_RULE } from '../../src/stats/verdicts.js';
import { fixture } from '../history/helpers.js';

test('the level a decision is read at: the false-alarm rate spent over the decisions and the looks', () => {
  assert.deepEqual(decisionLevel(1, 1), { alpha: 0.05, level: 0.9 });
  const { alpha, level } = decisionLevel(10, 4);
  assert.ok(Math.abs(alpha - 0.00125) < 1e-12 && Math.abs(level - 0.9975) < 1e-12, `${alpha} ${level}`);
  // No decision, no look: never a level above the single decision's.
  assert.deepEqual(decisionLevel(0, 0), decisionLevel(1, 1));
});

test('the Welch interval on log values: its known values, and null where no interval exists', () => {
  // log(b) = 0, 0.1, 0.2 and log(c) = 0.5, 0.6, 0.7: means differ by 0.5, each variance 0.01, se = sqrt(2 * 0.01 / 3),
  // df = 4 (equal sizes and spreads): t(0.975, 4) = 2.776445.
  const b = [0, 0.1, 0.2].map(Math.exp);
  const c = [0.5, 0.6, 0.7].map(Math.exp);
  const r = logRatioInterval(b, c, 0.95);
  const se = Math.sqrt((2 * 0.01) / 3);
  assert.ok(r && Math.abs(Math.log(r.ratio) - 0.5) < 1e-12);
  assert.ok(r && Math.abs(r.df - 4) < 1e-9, `${r?.df}`);
  assert.ok(r && Math.abs(Math.log(r.high) - (0.5 + 2.776445 * se)) < 1e-5, `${r && Math.log(r.high)}`);
  assert.ok(r && Math.abs(Math.log(r.low) - (0.5 - 2.776445 * se)) < 1e-5);
  assert.equal(logRatioInterval([1], [2, 3], 0.95), null);
  assert.equal(logRatioInterval([0, 1], [2, 3], 0.95), null);
  const same = logRatioInterval([2, 2], [3, 3], 0.95);
  assert.ok(same && same.low === same.ratio && same.high === same.ratio);
});

test("a reading's family: each benchmark's decision metric for the pairs the run asks, and what a gate names", () => {
  const r = fixture();
  // The fixture run has no start-up waterfall: the default gate falls back to every metric.
  assert.deepEqual(gateFor([], [{ benchmark: 'sysbench', metric: 'cpu.events_per_second' }]).patterns, []);
  assert.deepEqual(gateFor([], [{ benchmark: 'lifecycle', metric: 'startup.without_image_ms' }]).patterns, [
    ...DEFAULT_GATE,
  ]);
  assert.ok(gateFor([], [{ benchmark: 'workload.app', metric: 'job.total_ms' }]).gated('workload.app', 'job.total_ms'));
  const all = readWithinRun(r);
  for (const c of all) {
    const asked = c.kind !== 'docker-vs-native' && c.kind !== 'alpine-vs-debian';
    assert.equal(c.decision, asked && isDecisionMetric(c.benchmark, c.metric), `${c.kind} ${c.benchmark} ${c.metric}`);
    assert.equal(c.described, !c.decision);
    if (c.described) assert.equal(c.outcome, null);
  }
  // A gate on another metric makes it a decision too, and the family one larger: every level stricter.
  const one = readWithinRun(r, { gated: (b, m) => b === 'lifecycle' && m === 'container.create_ms' });
  const create = one.filter((c) => c.metric === 'container.create_ms' && c.kind === 'dind-vs-docker');
  assert.ok(create.length && create.every((c) => c.decision));
  const levels = (/** @type {typeof all} */ xs) => [...new Set(xs.filter((c) => c.decision).map((c) => c.level))];
  assert.equal(levels(one).length, 1);
  assert.ok(levels(all).every((l) => l < levels(one)[0]));
  // The order of the comparisons is the reading's, whatever the families.
  assert.deepEqual(
    one.map((c) => `${c.kind} ${c.benchmark} ${c.metric} ${c.candidate.env}`),
    all.map((c) => `${c.kind} ${c.benchmark} ${c.metric} ${c.candidate.env}`),
  );
});

test('the gate: exit 4 on a regression, 5 on what it could not judge when asked to fail closed, 0 otherwise', () => {
  const item = (/** @type {any} */ outcome, /** @type {number | null} */ sees = 0.2) => ({
    benchmark: 'b',
    metric: 'm',
    where: 'dind@26.1/debian',
    outcome,
    change: outcome === 'regression' ? 0.3 : 0.01,
    sees,
  });
  assert.equal(gateOf([item('regression'), item('inconclusive')], 'regression').exitCode, EXIT_REGRESSION);
  assert.equal(gateOf([item('inconclusive')], 'regression').exitCode, 0);
  const blind = gateOf([item('inconclusive', 0.39), item('equivalent')], 'inconclusive');
  assert.equal(blind.exitCode, EXIT_INCONCLUSIVE);
  assert.equal(blind.unseen, 0.39);
  assert.match(
    blind.sentence,
    /^Inconclusive: 1 of 2 gated metrics could not be judged \(b m on dind@26\.1\/debian\); it could not have seen changes under 39%\. The gate fails \(exit 8\)\.$/,
  );
  assert.equal(gateOf([item('inconclusive', null)], 'inconclusive').unseen, 'any');
  const fine = gateOf([item('equivalent'), item('improvement')], 'inconclusive');
  assert.equal(fine.exitCode, 0);
  assert.equal(fine.verdict, 'improvement');
  // Nothing judged (no history yet): a gate that fails closed fails, and says why.
  const none = gateOf([], 'inconclusive', 'no history was given');
  assert.equal(none.exitCode, EXIT_INCONCLUSIVE);
  assert.match(none.sentence, /^Nothing was judged: no history was given\. The gate fails/);
  assert.equal(gateOf([], 'regression').exitCode, 0);
});

test('against history: equivalent only where the series could have seen T, else inconclusive with what it sees', () => {
  const run = (/** @type {number} */ level, /** @type {number} */ spread) =>
    Array.from({ length: 10 }, (_, i) => level * (1 + spread * ((i % 5) - 2)));
  const quiet = Array.from({ length: 6 }, (_, k) => ({ samples: run(100 * (1 + 0.002 * (k % 3)), 0.002) }));
  const eq = judgeSeries(quiet, { samples: run(100.1, 0.002) }, 'lower', DEFAULT_RULE, 0.1);
  assert.equal(eq.status, 'equivalent', eq.reason);
  assert.match(eq.reason, /equivalent: within ±10%, and this series sees changes ≥ /);
  // Runs that differ by 40% from each other: the same small change cannot be told from noise.
  const noisy = Array.from({ length: 6 }, (_, k) => ({ samples: run(100 * (1 + 0.4 * ((k % 3) - 1)), 0.01) }));
  const inc = judgeSeries(noisy, { samples: run(101, 0.01) }, 'lower', DEFAULT_RULE, 0.1);
  assert.equal(inc.status, 'inconclusive', inc.reason);
  assert.ok(inc.detectable.change !== null && inc.detectable.change > 0.1);
  assert.match(inc.reason, /inconclusive: this series sees only changes ≥ [\d,]+(\.\d)?%, more than ±10%/);
  // A regression stays a regression; the first run stays the baseline.
  assert.equal(judgeSeries(quiet, { samples: run(150, 0.002) }, 'lower', DEFAULT_RULE, 0.1).status, 'regression');
  assert.equal(judgeSeries([], { samples: run(150, 0.002) }, 'lower', DEFAULT_RULE, 0.1).status, 'baseline');
});

test('workflow outputs: the worst verdict over every file, bounded one-line values', () => {
  const gate = (/** @type {any} */ g) => ({
    gate: { regressed: [], inconclusive: [], unseen: null, sentence: '', ...g },
  });
  const out = workflowOutputs([
    gate({ verdict: 'equivalent' }),
    gate({
      verdict: 'regression',
      regressed: [{ benchmark: 'lifecycle', metric: 'x\n::warning::$(id)', where: 'dind@26.1/debian', change: 0.5 }],
      sentence: 'a'.repeat(1000),
    }),
    gate({ verdict: 'inconclusive', inconclusive: [{}], unseen: 0.39 }),
  ]);
  assert.equal(out.verdict, 'regression');
  assert.equal(out.regressions, '1');
  assert.equal(out.inconclusive, '1');
  assert.equal(out.unseen, '39%');
  assert.doesNotMatch(out.worst, /[\n$`]/);
  assert.ok(out.sentence.length <= 300);
  assert.equal(workflowOutputs([gate({ verdict: 'inconclusive', inconclusive: [{}], unseen: 'any' })]).unseen, 'any');
  assert.equal(workflowOutputs([]).verdict, 'inconclusive');
});

test('workflow outputs are inert in a shell however a caller inlines them: unquoted, in double or single quotes', () => {
  // Names come from untrusted results (a metric name is any line of text): each payload would run `touch`
  // in one quoting or another if it survived into an output.
  const payloads = [
    '$(touch p1)',
    '`touch p2`',
    'x";touch p3;"',
    "x';touch p4;'",
    'x;touch p5',
    'x|touch p6',
    'x&&touch p7',
    'x>p8',
    'x\\";touch p9;#',
    '${IFS}$(touch${IFS}p10)',
  ];
  const out = workflowOutputs([
    {
      gate: /** @type {any} */ ({
        verdict: 'regression',
        regressed: payloads.map((p, i) => ({ benchmark: `b${i}`, metric: p, where: p, change: 1 - i / 100 })),
        inconclusive: [],
        unseen: null,
        sentence: `Regression in 1 of 1 gated metrics; the worst: ${payloads.join(' ')} +100.0%.`,
      }),
    },
  ]);
  // One shell word: its words joined by a no-break space (src/compare/outputs.js).
  assert.match(out.worst, /^b0\u00a0_,\u00a0touch\u00a0p1,\u00a0on\u00a0_,\u00a0touch\u00a0p1,\u00a0\+100\.0%$/);
  const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-outputs-'));
  try {
    for (const value of [out.worst, out.sentence]) {
      for (const line of [`echo ${value}`, `echo "${value}"`, `echo '${value}'`, `X=${value}`, `X=${value}\necho x`]) {
        spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8' });
        assert.deepEqual(readdirSync(dir), [], `ran something: ${line}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // What a sentence needs stays readable: names, numbers, , : % + - / @, its semicolon and brackets as commas.
  const plain = workflowOutputs([
    {
      gate: /** @type {any} */ ({
        verdict: 'regression',
        regressed: [
          { benchmark: 'lifecycle', metric: 'container.create_ms', where: 'dind@20.10/debian', change: 0.123 },
        ],
        inconclusive: [],
        unseen: null,
        sentence:
          'Regression in 1 of 3 gated metrics; the worst: lifecycle container.create_ms on dind@20.10/debian +12.3% (sees ≥ 5%).',
      }),
    },
  ]);
  const spaced = (/** @type {string} */ v) => v.replace(/\u00a0/g, ' ');
  assert.equal(spaced(plain.worst), 'lifecycle container.create_ms on dind@20.10/debian +12.3%');
  assert.equal(
    spaced(plain.sentence),
    'Regression in 1 of 3 gated metrics, the worst: lifecycle container.create_ms on dind@20.10/debian +12.3%, sees at least 5%.',
  );
});

test('samples to decide: an interval twice too wide needs about four times the samples', () => {
  const c = /** @type {any} */ ({
    better: 'lower',
    threshold: 0.1,
    baseline: { n: 10 },
    candidate: { n: 10 },
    ratio: { ratio: 1, low: Math.exp(-0.2), high: Math.exp(0.2) },
  });
  const n = samplesToDecide(c);
  // half-width 0.2 in log terms, room log(1.1) = 0.0953: 10 * (0.2 / 0.0953)^2 = 44.
  assert.equal(n, 45);
  // An estimate just inside T: the interval would have to shrink to nothing, beyond 10,000 samples.
  assert.equal(samplesToDecide({ ...c, ratio: { ratio: 1.0999, low: 1, high: 1.21 } }), null);
});

test('two inner Engine lines: each later line is judged against the oldest, and the answer says what the upgrade does to a job', async () => {
  const { readFileSync } = await import('node:fs');
  const { readRun } = await import('../helpers/reading.js');
  const r = JSON.parse(readFileSync(new URL('../fixtures/results/decide-quick-5.json', import.meta.url), 'utf8'));
  const lines = readWithinRun(r).filter((c) => c.kind === 'engine-line');
  assert.ok(lines.length > 0);
  for (const c of lines) {
    assert.equal(c.candidate.env, 'dind@26.1');
    assert.equal(c.baseline.env, 'dind@20.10');
    assert.equal(c.title, 'dind@26.1 vs dind@20.10');
  }
  const startup = lines.find((c) => c.metric === 'startup.without_image_ms');
  assert.ok(startup, 'the start-up is compared across the lines');
  const reading = readRun(r);
  const upgrade = reading.questions.filter((q) => q.kind === 'engine-line' && q.metric === 'startup.without_image_ms');
  assert.equal(upgrade.length, 1, 'the start-up a job pays, on the next line against the oldest');
  const row = reading.table.rows[reading.questions.indexOf(upgrade[0])];
  assert.equal(reading.table.groups?.[reading.questions.indexOf(upgrade[0])], 'dind@26.1 vs dind@20.10');
  // The start-up a job pays on the later line, in seconds against the earlier one (the decision's estimate, the
  // ratio, times the earlier line's median: inside the interval printed beside it), with the reading's outcome.
  const diffS = (startup.baseline.median * (startup.ratio.ratio - 1)) / 1000;
  assert.equal(row[0], 'start-up');
  assert.match(row[2], new RegExp(`^\\+${diffS.toFixed(1)} s \\[`));
  assert.equal(row[1].split(' ')[0], startup.outcome);
  // A run of one line asks no upgrade question.
  const one = { ...r, cells: r.cells.filter((c) => c.environmentKey !== 'dind@26.1') };
  assert.equal(readWithinRun(one).filter((c) => c.kind === 'engine-line').length, 0);
  assert.ok(!readRun(one).questions.some((q) => q.kind === 'engine-line'));
});
