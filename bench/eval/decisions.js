#!/usr/bin/env node
// `npm run eval:decisions`: what the within-run decision rule (src/reading/decide.js) can decide at the
// sample counts a quick run affords, and what its whole procedure (sampling until decided, looked at the
// design's looks) costs in wrong decisions, on the recorded noise of each decision metric (issue 45).
//
// The noise: each decision of real results files (a benchmark's decision metric, a DinD-like cell against
// Docker, a later Engine line against the oldest), each side's log samples centred on their mean and
// resampled with replacement: a side keeps its own spread and shape (DinD is often noisier than Docker,
// start-up times are skewed), and the true change is then set by hand:
//   - A/A (no change): P(equivalent), and P(a wrong regression or improvement);
//   - a change of 2T (+21% for T = 10%, +10.25% for 5%): P(regression);
// at fixed 5, 8 and 12 samples a side, for the rule (Welch on log values at the family's level) and for the
// rule before it (exact Mann-Whitney and the 95% bootstrap interval of the ratio of medians, Benjamini-
// Hochberg over all metrics of the run, here the family's level at m = the run's metric count: a lone
// change, its best case). Then the whole procedure as a run does it: the first look at 5, again at each look
// up to the cap (12), each decision stopping when decided, all of a run's decisions at once, truth = 0:
// the share of simulated runs with any wrong decision (the family-wise rate the reading states, 5%).
//
// Usage: node bench/eval/decisions.js [--trials 2000] [--seed 45] [--out bench/results/decisions.md]
//          [--noise bench/results/noise-NAME.json ...] [--family N] [--normal] [--designs-only]
//          [--docs docs/method.md --name NAME] RESULTS.json...
//   (default: the real runs under test/fixtures/results/ that have decision metrics, unless --noise is given)
// Then, issue 53: the same whole procedure under each way of spending the rate over the looks
// (./designs.js: Bonferroni, Pocock-type, O'Brien-Fleming-type), with --noise on the noise tables
// `npm run bench:noise` writes (the rate spread over the quick run's family, --family), and with --normal on
// log-normal noise at the recorded spreads; --docs rewrites the block <!-- decisions:NAME --> of a doc.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLD, defaultThreshold, outcomeOf } from '../../src/model/change.js';
import { isDecisionMetric, looksUpTo } from '../../src/model/decisions.js';
import { withStartupWithoutImage } from '../../src/model/earlier-results.js';
import { FALSE_ALARM_RATE, decideOne, decisionLevel } from '../../src/reading/decide.js';
import { withinRunPairs } from '../../src/reading/pairs.js';
import { mannWhitneyU, normalDeviate, ratioOfMedians, seededRandom } from '../../src/stats/index.js';
import { smallestMannWhitneyP } from '../../src/reading/pair.js';
import { compareDesigns, designTable } from './designs.js';
import { replaceBlock } from './doc-block.js';

const FIRST = 5;
const CAP = 12;

/**
 * The decisions of real results files, each with its two sides' centred log samples.
 * @param {string[]} files
 */
export function recordedDecisions(files) {
  const out = [];
  for (const file of files) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    // As the reading sees them: an earlier file's lifecycle cells get the start-up decided today.
    const cells = r.cells
      .filter((/** @type {any} */ c) => c.status === 'ok')
      .map((/** @type {any} */ c) => withStartupWithoutImage(c));
    for (const p of withinRunPairs(cells)) {
      if (p.kind === 'docker-vs-native' || p.kind === 'alpine-vs-debian') continue;
      for (const m of p.candidate.metrics) {
        if (!isDecisionMetric(p.candidate.benchmark, m.metric)) continue;
        const b = p.baseline.metrics.find((/** @type {any} */ x) => x.metric === m.metric);
        if (!b || b.samples.length < 4 || m.samples.length < 4) continue;
        if (![...b.samples, ...m.samples].every((x) => x > 0)) continue;
        out.push({
          key: `${p.candidate.benchmark} ${m.metric} ${p.candidate.environmentKey} vs ${p.baseline.environmentKey}`,
          name: `${p.candidate.benchmark} ${m.metric} ${p.candidate.environmentKey} vs ${p.baseline.environmentKey} (${path.basename(file)})`,
          benchmark: p.candidate.benchmark,
          better: m.better,
          threshold: defaultThreshold(p.candidate.benchmark),
          base: centred(b.samples),
          cand: centred(m.samples),
          baseLogs: b.samples.map(Math.log),
          candLogs: m.samples.map(Math.log),
          metrics: cells.reduce((a, /** @type {any} */ c) => a + c.metrics.length, 0),
        });
      }
    }
  }
  return out;
}

/**
 * The decisions of noise tables (`npm run bench:noise`, bench/results/noise-NAME.json): per variant and
 * benchmark, each environment's decision metric against Docker's, measured in the same invocation.
 * Tables written before rows carried `better` get it from the unit (a rate per second or IOPS is better
 * higher; a time or a size lower), which holds for every decision metric (src/model/decisions.js).
 * @param {string[]} files
 */
export function noiseDecisions(files) {
  const out = [];
  for (const file of files) {
    const table = JSON.parse(readFileSync(file, 'utf8'));
    for (const base of table.rows.filter((/** @type {any} */ r) => r.environment === 'docker')) {
      for (const cand of table.rows) {
        if (cand === base || cand.variant !== base.variant || cand.benchmark !== base.benchmark) continue;
        if (![...base.samples, ...cand.samples].every((/** @type {number} */ x) => x > 0)) continue;
        const better = base.better ?? (/\/s$|IOPS$/.test(base.unit) ? 'higher' : 'lower');
        out.push({
          key: `${base.benchmark} ${base.metric} ${cand.environment} vs docker`,
          name: `${base.benchmark} ${base.metric} ${cand.environment} vs docker (${path.basename(file)}${base.variant === 'current' ? '' : `, ${base.variant}`})`,
          benchmark: base.benchmark,
          better,
          threshold: defaultThreshold(base.benchmark),
          base: centred(base.samples),
          cand: centred(cand.samples),
          baseLogs: base.samples.map(Math.log),
          candLogs: cand.samples.map(Math.log),
          metrics: table.decisionLevel?.decisions ?? 1,
        });
      }
    }
  }
  return out;
}

/**
 * A decision's two sides as log-normal pools at their recorded log spreads (centred; `measured` keeps the
 * recorded difference of their means).
 * @param {any} d @param {() => number} random
 */
function normalOf(d, random) {
  const sd = (/** @type {number[]} */ xs) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / (xs.length - 1));
  const pool = (/** @type {number} */ s) => Array.from({ length: 4000 }, () => s * normalDeviate(random));
  const base = pool(sd(d.base));
  const cand = pool(sd(d.cand));
  const mean = (/** @type {number[]} */ xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
  const gap = mean(d.candLogs) - mean(d.baseLogs);
  return { ...d, base, cand, baseLogs: base, candLogs: cand.map((x) => x + gap) };
}

/** Log samples minus their mean. @param {number[]} xs */
function centred(xs) {
  const logs = xs.map(Math.log);
  const mean = logs.reduce((a, x) => a + x, 0) / logs.length;
  return logs.map((x) => x - mean);
}

/** n draws of a side around level exp(shift) (the baseline's level 100). @param {number[]} res @param {number} n @param {number} shift @param {() => number} random */
const draw = (res, n, shift, random) =>
  Array.from({ length: n }, () => 100 * Math.exp(shift + res[Math.floor(random() * res.length)]));

/**
 * The candidate's true log shift for a change of `factor` in cost (2T: factor (1+T)^2).
 * @param {'higher' | 'lower'} better @param {number} factor
 */
const shiftOf = (better, factor) => (better === 'lower' ? Math.log(factor) : -Math.log(factor));

/** The rule: an outcome at n a side. @param {any} d @param {number} n @param {number} shift @param {number} level @param {() => number} random */
function ruleAt(d, n, shift, level, random) {
  const samples = { baseline: draw(d.base, n, 0, random), candidate: draw(d.cand, n, shift, random) };
  return decideOne({ better: d.better, threshold: d.threshold, samples }, level).outcome;
}

/** The rule before: Mann-Whitney + 95% bootstrap, its p held at alpha. @param {any} d @param {number} n @param {number} shift @param {number} alpha @param {() => number} random */
function oldRuleAt(d, n, shift, alpha, random) {
  const b = draw(d.base, n, 0, random);
  const c = draw(d.cand, n, shift, random);
  const ratio = ratioOfMedians(b, c, { resamples: 300, seed: Math.floor(random() * 1e9) });
  const { p } = mannWhitneyU(c, b);
  const significant = p < alpha && (ratio.low > 1 || ratio.high < 1);
  return outcomeOf({
    ratio,
    better: d.better,
    significant,
    threshold: d.threshold,
    testable: smallestMannWhitneyP(n, n) < 0.05,
  });
}

/**
 * One simulated run of the whole procedure in A/A: every decision from the first look to the cap, each
 * stopping when decided; true if any decided a regression or an improvement.
 * @param {any[]} decisions @param {number} level @param {() => number} random
 */
function procedureAA(decisions, level, random) {
  const looks = looksUpTo(FIRST, CAP);
  let wrong = false;
  let decided = 0;
  for (const d of decisions) {
    const b = draw(d.base, CAP, 0, random);
    const c = draw(d.cand, CAP, 0, random);
    for (const n of looks) {
      const o = decideOne(
        { better: d.better, threshold: d.threshold, samples: { baseline: b.slice(0, n), candidate: c.slice(0, n) } },
        level,
      ).outcome;
      if (o === 'inconclusive') continue;
      if (o !== 'equivalent') wrong = true;
      decided++;
      break;
    }
  }
  return { wrong, decided };
}

/** @param {number} k @param {number} n */
const pct = (k, n) => `${((100 * k) / n).toFixed(1)}%`;

function main() {
  const { values, positionals } = parseArgs({
    options: {
      trials: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '45' },
      out: { type: 'string', default: 'bench/results/decisions.md' },
      noise: { type: 'string', multiple: true, default: [] },
      docs: { type: 'string' },
      family: { type: 'string' },
      'designs-only': { type: 'boolean', default: false },
      normal: { type: 'boolean', default: false },
      name: { type: 'string', default: 'designs' },
    },
    allowPositionals: true,
  });
  const fixtures = new URL('../../test/fixtures/results/', import.meta.url).pathname;
  const files = positionals.length
    ? positionals
    : values.noise.length
      ? []
      : readdirSync(fixtures)
          .filter((f) => f.endsWith('.json'))
          .map((f) => path.join(fixtures, f));
  const trials = Number(values.trials);
  if (!Number.isInteger(trials) || trials < 10 || trials > 1e6) throw new Error('--trials must be an integer from 10');
  const random = seededRandom(Number(values.seed));
  // A noise table's decision first; a results file's only where no table measured that decision.
  const measured = noiseDecisions(values.noise);
  const recorded = [...measured, ...recordedDecisions(files).filter((d) => !measured.some((x) => x.key === d.key))];
  // --normal: each side log-normal at its recorded log spread (4,000 draws), for what the rule does on
  // continuous, normal noise of the same size: the recorded pools of 5-12 values are coarse, and a resample
  // of 5 from 8 values is often tied.
  const normalRandom = seededRandom(Number(values.seed) + 1);
  const decisions = values.normal ? recorded.map((d) => normalOf(d, normalRandom)) : recorded;
  const sources = [...values.noise, ...files];
  const m = decisions.length;
  const { level } = decisionLevel(Math.max(1, Math.min(m, 12)), looksUpTo(FIRST, CAP).length);
  const lines = [
    '# Decisions at the sample counts a quick run affords (issue 45)',
    '',
    `\`node bench/eval/decisions.js\`, ${trials} trials per cell, seed ${values.seed}, ${new Date().toISOString().slice(0, 10)}. Noise: each side's recorded log samples, centred and resampled, from ${sources.map((f) => `\`${path.basename(f)}\``).join(', ')}${values.noise.length ? " (a noise table's decision first, a results file's where no table measured it)" : ''}.`,
    `The rule's level here: ${(level * 100).toFixed(3)}% (a family of ${Math.min(m, 12)} decisions, ${looksUpTo(FIRST, CAP).length} looks: 5, 7, 10, 12); the rule before: Mann-Whitney at 0.05 / m over the run's m metrics (a lone change under Benjamini-Hochberg) and its 95% bootstrap interval.`,
    '',
    '| decision | T | n a side | A/A: equivalent (rule / before) | A/A: wrong (rule / before) | 2T: regression (rule / before) |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const d of values['designs-only'] ? [] : decisions) {
    const oldAlpha = 0.05 / Math.max(1, d.metrics);
    for (const n of [5, 8, 12]) {
      const count = { eq: 0, wrong: 0, reg: 0, oeq: 0, owrong: 0, oreg: 0 };
      const t2 = shiftOf(d.better, (1 + (d.threshold ?? DEFAULT_THRESHOLD)) ** 2);
      for (let i = 0; i < trials; i++) {
        const aa = ruleAt(d, n, 0, level, random);
        if (aa === 'equivalent') count.eq++;
        if (aa === 'regression' || aa === 'improvement') count.wrong++;
        if (ruleAt(d, n, t2, level, random) === 'regression') count.reg++;
        if (i < trials / 10) {
          const oaa = oldRuleAt(d, n, 0, oldAlpha, random);
          if (oaa === 'equivalent') count.oeq++;
          if (oaa === 'regression' || oaa === 'improvement') count.owrong++;
          if (oldRuleAt(d, n, t2, oldAlpha, random) === 'regression') count.oreg++;
        }
      }
      const o = Math.ceil(trials / 10);
      lines.push(
        `| ${d.name} | ${d.threshold * 100}% | ${n} | ${pct(count.eq, trials)} / ${pct(count.oeq, o)} | ${pct(count.wrong, trials)} / ${pct(count.owrong, o)} | ${pct(count.reg, trials)} / ${pct(count.oreg, o)} |`,
      );
    }
  }
  // The whole procedure, a run's decisions at once (up to 12 of the recorded ones), in A/A.
  const family = decisions.slice(0, 12);
  let wrongRuns = 0;
  let decided = 0;
  for (let i = 0; i < trials; i++) {
    const r = procedureAA(family, level, random);
    if (r.wrong) wrongRuns++;
    decided += r.decided;
  }
  lines.push(
    '',
    `**The whole procedure in A/A** (${family.length} decisions at once, looked at 5, 7, 10 and 12 a side, each stopping when decided): runs with any wrong decision ${pct(wrongRuns, trials)} (the stated rate: 5%); decisions decided by the cap ${pct(decided, trials * family.length)}.`,
    '',
  );
  const designText = designsSection(family, values, positionals, files.length > 0, random);
  lines.push(designText);
  writeFileSync(values.out, lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
  if (values.docs) replaceBlock(values.docs, `decisions:${values.name}`, designText);
}

/**
 * The same procedure under each way of spending the rate over the looks (./designs.js), the rate spread over
 * the run's family: a noise table measures some of the quick run's decisions, its level is the quick run's
 * (decisionLevel.decisions in the table), not that of the decisions it measured.
 * @param {any[]} family @param {any} values the parsed options @param {string[]} positionals
 * @param {boolean} withFiles @param {() => number} random
 */
function designsSection(family, values, positionals, withFiles, random) {
  const trials = Number(values.trials);
  const looks = looksUpTo(FIRST, CAP);
  const size = values.family
    ? Number(values.family)
    : Math.max(
        family.length,
        ...values.noise.map(
          (/** @type {string} */ f) => JSON.parse(readFileSync(f, 'utf8')).decisionLevel?.decisions ?? 0,
        ),
      );
  if (!(Number.isInteger(size) && size >= family.length))
    throw new Error(`--family must be an integer of at least the ${family.length} decisions simulated`);
  const designs = designTable(compareDesigns(family, looks, trials, random, size), family.length, looks, trials);
  const flags = `${values['designs-only'] ? ' --designs-only' : ''}${values.normal ? ' --normal' : ''}${values.noise.map((/** @type {string} */ f) => ` --noise ${f}`).join('')}${withFiles && positionals.length ? ` ${positionals.join(' ')}` : ''}`;
  return [
    `How the rate is spent over the looks (\`node bench/eval/decisions.js --trials ${trials} --seed ${values.seed}${flags}\`, ${new Date().toISOString().slice(0, 10)}; ${trials} simulated runs per design and setting, 95% Wilson intervals; decisions: ${family.map((d) => d.key).join('; ')}):`,
    '',
    designs,
    '',
    `The rate is spread over a family of ${size} decisions (each decision ${(FALSE_ALARM_RATE / size).toPrecision(2)} one-sided over its looks), ${family.length} of them simulated.`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) main();
