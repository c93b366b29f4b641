// History verdicts as pure functions over in-memory series: baseline, insufficient data, no change,
// regression, improvement, the practical threshold, outlier past runs, engine changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, levelOf, pastWindow, predictionTest, DEFAULT_RULE, DEFAULT_STEPS } from '../../src/stats/verdicts.js';
import { normalDeviate, seededRandom } from '../../src/stats/index.js';

const engines = { outer: '20.10.24+dfsg1', inner: '20.10.24+dfsg1' };

/** Runs of 20 samples: each run's level drifts by `between` (relative sd), samples scatter by `within`. */
function runs(count, { level = 100, between = 0.02, within = 0.03, seed = 1 } = {}) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const runLevel = level * Math.exp(between * normalDeviate(random));
    return { samples: Array.from({ length: 20 }, () => runLevel * Math.exp(within * normalDeviate(random))), engines };
  });
}

test('the first run of a series is the baseline; too few runs or samples is "insufficient data", never a guess', () => {
  const [first, ...rest] = runs(4);
  assert.equal(judge([], first, 'lower').status, 'baseline');
  const few = judge(rest.slice(0, 3), first, 'lower');
  assert.equal(few.status, 'insufficient data');
  assert.match(few.reason, /3 earlier run\(s\).*needs 5/);
  const thin = judge(runs(10), { samples: [1, 2], engines }, 'lower');
  assert.equal(thin.status, 'insufficient data');
  assert.match(thin.reason, /2 samples; a verdict needs at least 5/);
});

test('an unchanged run is "no change"; 20% slower is a regression; 20% faster an improvement', () => {
  const past = runs(20, { seed: 2 });
  const [same] = runs(1, { seed: 3 });
  assert.equal(judge(past, same, 'lower').status, 'no change');
  const slower = { samples: same.samples.map((x) => x * 1.2), engines };
  const v = judge(past, slower, 'lower');
  assert.equal(v.status, 'regression');
  assert.ok(v.change !== null && v.change > 0.15 && v.change < 0.25, String(v.change));
  assert.match(v.reason, new RegExp(`worse.*p = .* < ${DEFAULT_RULE.alpha}`));
  assert.equal(v.span, 1);
  assert.equal(judge(past, { samples: same.samples.map((x) => x * 0.8), engines }, 'lower').status, 'improvement');
  // higher is better: a 20% drop in throughput is the regression
  assert.equal(judge(past, { samples: same.samples.map((x) => x * 0.8), engines }, 'higher').status, 'regression');
});

test('a significant change under the practical threshold is "no change", and says why', () => {
  // a very stable series: a 1.5% shift is significant but under the default 2%
  const past = runs(20, { between: 0.002, within: 0.002, seed: 4 });
  const [same] = runs(1, { between: 0.002, within: 0.002, seed: 5 });
  const v = judge(past, { samples: same.samples.map((x) => x * 1.015), engines }, 'lower');
  assert.equal(v.status, 'no change');
  assert.match(v.reason, /significant .* but under the 2% threshold/);
  assert.equal(
    judge(past, { samples: same.samples.map((x) => x * 1.015), engines }, 'lower', { ...DEFAULT_RULE, minChange: 0.01 })
      .status,
    'regression',
  );
});

test('a 10% regression on a quiet series is flagged on its first run; the same run 10% faster is not a regression', () => {
  // 12 past runs of 10 samples, 1% between runs and 3% within: what a dedicated runner gives
  const past = runs(12, { between: 0.01, within: 0.03, seed: 21 }).map((r) => ({
    ...r,
    samples: r.samples.slice(0, 10),
  }));
  const [next] = runs(1, { between: 0.01, within: 0.03, seed: 22 });
  const now = next.samples.slice(0, 10);
  const worse = judge(past, { samples: now.map((x) => x * 1.1), engines }, 'lower');
  assert.equal(worse.status, 'regression', worse.reason);
  assert.ok(worse.change !== null && worse.change > 0.05, String(worse.change));
  const faster = judge(past, { samples: now.map((x) => x / 1.1), engines }, 'lower');
  assert.equal(faster.status, 'improvement', faster.reason);
});

test('unchanged (A/A) histories are rarely flagged: false alarms at the stated 1% of judged runs, within sampling error', () => {
  let alarms = 0;
  let judged = 0;
  for (let seed = 100; seed < 220; seed++) {
    // 12 past runs, then 4 more judged in turn, each appended as a published run is
    const all = runs(16, { between: 0.02, within: 0.05, seed });
    for (let i = 12; i < 16; i++) {
      judged++;
      if (judge(all.slice(0, i), all[i], 'lower').status === 'regression') alarms++;
    }
  }
  // The rule spends its 1% (bench/eval/history-rate.js): 480 judged runs put 3 standard errors at 1.4 points.
  assert.ok(alarms / judged <= 0.01 + 3 * Math.sqrt((0.01 * 0.99) / judged), `${alarms} of ${judged}`);
});

test('a regression after a missed one is still flagged: the run before joins this one against the level before both', () => {
  // 12 runs of a quiet series, then two runs 3.5% worse: the first alone is within the spread, and once
  // published it must not hide the second. The mechanism at the split and alpha of issue 21 (0.4 of alpha
  // 0.002 for one run, 0.2 for each longer span), where this series shows it; the defaults give one run all
  // of a larger alpha (issue 45), and catch the first of these runs already.
  const rule = { ...DEFAULT_RULE, alpha: 0.002 };
  const steps = {
    ...DEFAULT_STEPS,
    spans: [0.4, 0.2, 0.2, 0.2],
    aside: undefined,
    floor: /** @type {const} */ ('noisier'),
  };
  const all = runs(14, { between: 0.01, within: 0.01, seed: 32 });
  const past = all.slice(0, 12);
  const shifted = all.slice(12).map((r) => ({ ...r, samples: r.samples.map((x) => x * 1.035) }));
  const first = judge(past, shifted[0], 'lower', rule, steps);
  assert.equal(first.status, 'no change', first.reason);
  const second = judge([...past, shifted[0]], shifted[1], 'lower', rule, steps);
  assert.equal(second.status, 'regression', second.reason);
  assert.equal(second.span, 2);
  assert.match(second.reason, /this run and the 1 before it vs the 12 runs before them \(\+\d\.\d% worse/);
  // the rule before issue 21 judged the second run against a history that holds the first: it misses it
  const alone = judge([...past, shifted[0]], shifted[1], 'lower', rule, { ...steps, spans: [1] });
  assert.equal(alone.status, 'no change', alone.reason);
  assert.equal(judge(past, shifted[0], 'lower').status, 'regression');
});

test('a series with a run of over 100 samples is judged on run medians throughout, and still sees 10%', () => {
  const past = runs(12, { between: 0.01, within: 0.03, seed: 41 });
  const long = { samples: Array.from({ length: 6 }, () => past[0].samples).flat(), engines }; // 120 samples
  const v = judge(past, { samples: long.samples.map((x) => x * 1.1), engines }, 'lower');
  assert.equal(v.status, 'regression', v.reason);
  assert.equal(judge(past, long, 'lower').status, 'no change');
});

test('the pseudo-median level: the median of pairwise means, as the definition gives it', () => {
  const xs = [1, 2, 2, 3, 10, 4, 0.5];
  const walsh = [];
  for (let i = 0; i < xs.length; i++) for (let j = i; j < xs.length; j++) walsh.push((xs[i] + xs[j]) / 2);
  walsh.sort((a, b) => a - b);
  const mid = walsh.length / 2;
  const expected = walsh.length % 2 ? walsh[(walsh.length - 1) / 2] : (walsh[mid - 1] + walsh[mid]) / 2;
  assert.equal(levelOf(xs).level, expected);
  assert.equal(levelOf([5, 5, 5, 5, 5]).se, 0);
  assert.ok(levelOf(xs).se > 0);
  assert.equal(levelOf(xs, 'median').level, 2);
});

test('between-run drift is not a regression: pooled-sample tests would flag it, the run-median test does not', () => {
  // large between-run noise (8%) and tight runs (1%): a run 10% off is ordinary here
  const past = runs(20, { between: 0.08, within: 0.01, seed: 6 });
  const [next] = runs(1, { between: 0.08, within: 0.01, seed: 7 });
  const shifted = { samples: next.samples.map((x) => x * 1.1), engines };
  assert.notEqual(judge(past, shifted, 'lower').status, 'regression');
});

test('one past run on a busy machine does not widen the yardstick', () => {
  const past = runs(20, { seed: 8 });
  past[5] = { samples: past[5].samples.map((x) => x * 3), engines };
  const [same] = runs(1, { seed: 9 });
  assert.equal(judge(past, { samples: same.samples.map((x) => x * 1.2), engines }, 'lower').status, 'regression');
});

test('an engine upgrade since the baseline is named in the verdict', () => {
  const past = runs(10, { seed: 10 });
  const [next] = runs(1, { seed: 11 });
  const upgraded = {
    samples: next.samples.map((x) => x * 1.3),
    engines: { outer: '20.10.24+dfsg1', inner: '26.1.5+dfsg1' },
  };
  const v = judge(past, upgraded, 'lower');
  assert.equal(v.status, 'regression');
  assert.equal(v.engineChange, 'changed with Engine 20.10 -> 26.1');
  assert.match(v.reason, /changed with Engine 20.10 -> 26.1$/);
  const outer = judge(past, { ...next, engines: { outer: '26.1.5', inner: null } }, 'lower');
  assert.match(String(outer.engineChange), /Engine 20.10 -> none, outer Engine 20.10 -> 26.1/);
});

test('prediction test: constant history, any difference is certain; equal value p = 1', () => {
  assert.equal(predictionTest([5, 5, 5, 5], 5).p, 1);
  assert.equal(predictionTest([5, 5, 5, 5], 6).p, 0);
  const { p, ratio } = predictionTest([100, 102, 98, 101, 99], 100);
  assert.ok(p > 0.9 && Math.abs(ratio - 1) < 0.001);
});

test('the window of earlier runs: short runs left out first, then the newest 30 of those that count', () => {
  // 40 runs, every fourth one too short for a verdict: the window is 30 usable runs reaching back past the
  // short ones, not the usable ones among the last 30 (which would be 23). compare --history and the
  // overview publish writes both select with pastWindow.
  const past = runs(40).map((r, i) => (i % 4 === 3 ? { ...r, samples: r.samples.slice(0, 3), i } : { ...r, i }));
  const window = pastWindow(past, DEFAULT_RULE);
  assert.equal(window.length, DEFAULT_RULE.window);
  assert.ok(window.every((r) => r.samples.length >= DEFAULT_RULE.minSamples));
  assert.equal(window[window.length - 1].i, 38);
  assert.equal(window[0].i, 0);
  const v = judge(past, runs(1, { seed: 9 })[0], 'lower');
  assert.equal(v.pastRuns, DEFAULT_RULE.window);
});

test('a run noisier than its history is judged on its own error too; the rule before issue 53 did so only far over', () => {
  // 20 past runs whose levels differ by little more than their sampling error; the new run is a fresh run
  // with its scatter stretched 2-fold or 5-fold around its centre, then 3% slower
  const past = runs(20, { between: 0.001, within: 0.03, seed: 21 });
  const [fresh] = runs(1, { between: 0.001, within: 0.03, seed: 22 });
  const logs = fresh.samples.map(Math.log);
  const centre = logs.reduce((a, b) => a + b, 0) / logs.length;
  const stretched = (/** @type {number} */ factor) => ({
    samples: logs.map((x) => Math.exp(centre + factor * (x - centre)) * 1.03),
    engines,
  });
  // as it came: 3% is beyond the history's spread
  assert.equal(judge(past, stretched(1), 'lower').status, 'regression');
  // 2-fold: the rule before issue 53 (floor 'noisier') took this for chance in the error estimate and judged
  // it on the history's spread; the default counts the run's own error (between-run variance plus its own)
  const before = { ...DEFAULT_STEPS, floor: /** @type {const} */ ('noisier') };
  assert.equal(judge(past, stretched(2), 'lower', DEFAULT_RULE, before).status, 'regression');
  const twice = judge(past, stretched(2), 'lower');
  const once = judge(past, stretched(1), 'lower');
  assert.ok(twice.p !== null && once.p !== null && twice.p > once.p, `${twice.p} vs ${once.p}`);
  // 5-fold: clearly noisier than any past run, so its own error bounds the scale and 3% is within it, either way
  for (const steps of [DEFAULT_STEPS, before]) {
    const noisy = judge(past, stretched(5), 'lower', DEFAULT_RULE, steps);
    assert.equal(noisy.status, 'no change');
    assert.match(noisy.reason, /within the past runs' spread/);
  }
});

test('the newest earlier runs that had already moved worse can be set aside: the next run is judged against the level before them', () => {
  // 12 runs of a quiet series, then a run 3.5% worse that the strict alpha misses: published, it joins the
  // history. The next run, 5% worse, judged against a history that holds the first is missed too; with the
  // moved run set aside (steps.aside, which bench/eval/history-rate.js measures) it is judged against the 12.
  const rule = { ...DEFAULT_RULE, alpha: 0.002 };
  const all = runs(14, { between: 0.01, within: 0.01, seed: 32 });
  const past = all.slice(0, 12);
  const first = { ...all[12], samples: all[12].samples.map((x) => x * 1.035) };
  const second = { ...all[13], samples: all[13].samples.map((x) => x * 1.05) };
  assert.equal(judge(past, first, 'lower', rule).status, 'no change');
  const plain = judge([...past, first], second, 'lower', rule, { ...DEFAULT_STEPS, aside: undefined });
  const aside = judge([...past, first], second, 'lower', rule, { ...DEFAULT_STEPS, aside: { runs: 3, p: 0.2 } });
  assert.ok(aside.p !== null && plain.p !== null && aside.p < plain.p, `${aside.p} vs ${plain.p}`);
  assert.equal(aside.status, 'regression', aside.reason);
  assert.match(aside.reason, /the newest 1 earlier run\(s\) set aside: they had moved worse already/);
  // an unchanged history sets nothing aside
  const calm = judge(past.slice(0, 11), past[11], 'lower', rule, { ...DEFAULT_STEPS, aside: { runs: 3, p: 0.2 } });
  assert.doesNotMatch(calm.reason, /set aside/);
});
