// `npm run eval:detection`: how often does each detector cry wolf on unchanged histories (A/A), and how
// often does it catch an injected regression of 5%, 10% and 20%? Same generated data for every detector.
//
//   node bench/eval-detection.js [--trials N] [--replications R] [--sequence-trials N] [--otava-trials N]
//                                [--no-otava] [--seed S] [--only REGEX] [--readme] [--help]
//
// Each trial: 30 past runs and one new run of 20 samples (the standard profile's iterations) from a noise
// model; the new run is judged as is (A/A) and with its samples made 5/10/20% worse. Then issue 15's
// scenario (bench/eval/quick-scenario.js: histories resampled from a real quick run), an ablation of the
// verdict's steps (bench/eval/ablation.js), issue 21's multi-run sequences with the peers side by side
// (bench/eval/sequences.js, peers.js, otava.js, sequence-report.js) and adaptive stopping
// (bench/eval/adaptive.js). --readme rewrites the block between the eval markers in docs/evaluation.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PROFILES } from '../src/run/profiles.js';
import { DEFAULT_RULE } from '../src/stats/verdicts.js';
import { seededRandom } from '../src/stats/index.js';
import { adaptiveAA } from './eval/adaptive.js';
import { ABLATIONS } from './eval/ablation.js';
import { DETECTORS, PAST_RUNS, dindBench, limitP, medianTLimit, singleValueRatio } from './eval/methods.js';
import { MIN_RECORDED_RUNS, recordedModels, recordedTooFew, syntheticModels } from './eval/noise-models.js';
import { SCENARIO, replicate, seriesOf } from './eval/quick-scenario.js';
import { sequenceTables, startSequences } from './eval/sequence-report.js';
import { issueModel } from './eval/sequences.js';

const HELP = `Usage: node bench/eval-detection.js [options]   (npm run eval:detection)

How often each regression detector raises false alarms on unchanged histories and how often it detects
5/10/20% regressions, on synthetic and recorded noise models, on histories resampled from a real quick run,
with an ablation of the verdict's steps, issue 21's multi-run sequences with the peers (Bencher,
github-action-benchmark, Apache Otava) side by side, and adaptive stopping. Prints the tables and writes
bench/results/eval-detection.md. Apache Otava is installed from PyPI into a throwaway virtual env under the
OS temp folder on first use; without Python or PyPI it is left out, and the output says why.

Options:
  --trials N           trials per noise model (default 2000: near 1% a rate then carries +-0.22 points)
  --replications R     replications of the quick-run scenario, each over every series (default 20)
  --sequence-trials N  multi-run sequences per noise model (default 2000)
  --otava-trials N     of those, how many Apache Otava analyses (default: all of them, so that every rule's
                       setting is chosen on the same runs; it runs in Python, one process per core)
  --no-otava           leave Apache Otava out
  --seed S             seed of the generated data (default 42)
  --only REGEX         only the noise models whose name matches (e.g. 'container\\.(create|start)', with
                       more trials to resolve small rates); prints, writes no file
  --readme          also rewrite the block between the eval markers in docs/evaluation.md
  -h, --help        show this help`;

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '2000' },
    replications: { type: 'string', default: '20' },
    'sequence-trials': { type: 'string', default: '2000' },
    'otava-trials': { type: 'string' },
    'no-otava': { type: 'boolean', default: false },
    seed: { type: 'string', default: '42' },
    only: { type: 'string' },
    readme: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(HELP + '\n');
  process.exit(0);
}
const trials = Number(values.trials);
const replications = Number(values.replications);
const sequenceTrials = Number(values['sequence-trials']);
const otavaTrials = values['otava-trials'] === undefined ? sequenceTrials : Number(values['otava-trials']);
/** @type {Array<[string, number]>} */
const argChecks = [
  ['--trials', trials],
  ['--replications', replications],
  ['--sequence-trials', sequenceTrials],
  ['--otava-trials', otavaTrials],
];
for (const [name, v] of argChecks) {
  if (!Number.isInteger(v) || v < 1 || v > 1e6) throw new Error(`${name} must be an integer from 1 to 1000000`);
}
const SAMPLES = PROFILES.standard.iterations;
const SHIFTS = [0.05, 0.1, 0.2];
const recorded = JSON.parse(readFileSync(new URL('./eval/recorded-samples.json', import.meta.url), 'utf8'));
/** A look at some models only (--only): the same trials, more of them where small rates need resolving. */
const only = values.only === undefined ? null : new RegExp(values.only);
if (only && values.readme)
  throw new Error('--only prints a part of the evaluation: it cannot rewrite docs/evaluation.md (--readme)');
const chosen = (/** @type {{ name: string }} */ m) => !only || only.test(m.name);
const models = [...syntheticModels(), ...recordedModels(recorded)].filter(chosen);

// Issue 21's sequences: generated first, so that Apache Otava (a Python process) runs while the rest is computed.
const quickDebian = JSON.parse(
  readFileSync(new URL('../test/fixtures/results/quick-debian.json', import.meta.url), 'utf8'),
);
const sequenceModels = [issueModel(seriesOf(quickDebian)), ...models].filter(chosen);
if (models.length === 0)
  throw new Error(
    `--only ${values.only}: no synthetic or recorded noise model's name matches (the evaluation needs one)`,
  );
const sequenceStarted = performance.now();
const sequences = startSequences(sequenceModels, {
  trials: sequenceTrials,
  otavaTrials,
  seed: Number(values.seed),
  otava: !values['no-otava'],
});

const started = performance.now();
const ALPHA = DEFAULT_RULE.alpha;
/** The loosest alpha that keeps the practical limit's own false alarms <= 1% on these A/A p-values. @param {number[]} pAA */
const alphaAtOnePercent = (pAA) => [...pAA].sort((x, y) => x - y)[Math.floor(0.01 * pAA.length)] ?? ALPHA;
/** How many of the limit's p-values fall under alpha. @param {number[]} ps @param {number} alpha */
const under = (ps, alpha) => ps.filter((p) => p < alpha).length;
/** rows[model] = { counts[detector] = { aa, hits per shift }, ablation[variant] = { aa, hit }, the limit's p-values } */
const rows = [];
for (const [mi, model] of models.entries()) {
  const random = seededRandom(Number(values.seed) * 1000 + mi);
  const counts = DETECTORS.map(() => ({ aa: 0, hits: SHIFTS.map(() => 0) }));
  const ablation = ABLATIONS.map(() => ({ aa: 0, hit: 0 }));
  /** @type {number[]} */ const pAA = [];
  /** @type {number[]} */ const pHit = [];
  for (let t = 0; t < trials; t++) {
    const past = Array.from({ length: PAST_RUNS }, () => model.run(random, SAMPLES));
    const candidate = model.run(random, SAMPLES);
    const worse = SHIFTS.map((shift) =>
      candidate.map((x) => (model.better === 'lower' ? x * (1 + shift) : x * (1 - shift))),
    );
    for (const [di, d] of DETECTORS.entries()) {
      if (d.detect(past, candidate, model.better)) counts[di].aa++;
      for (const si of SHIFTS.keys()) if (d.detect(past, worse[si], model.better)) counts[di].hits[si]++;
    }
    for (const [ai, v] of ABLATIONS.entries()) {
      if (v.detect(past, candidate, model.better)) ablation[ai].aa++;
      if (v.detect(past, worse[1], model.better)) ablation[ai].hit++;
    }
    pAA.push(limitP(past, candidate, model.better));
    pHit.push(limitP(past, worse[1], model.better));
  }
  rows.push({ model, counts, ablation, pAA, pHit });
}
// The practical limit held to <= 1% false alarms: one alpha for every model, as a real test fixes its alpha
// before it sees the data: the largest that keeps the limit's own A/A rate <= 1% on each model of these
// trials. For comparison, an oracle that knows the model picks the loosest alpha per model (oracleHits).
const LIMIT_ALPHA = Math.min(...rows.map((r) => alphaAtOnePercent(r.pAA)));
/** The limit's detections of 10% at LIMIT_ALPHA. @param {{pHit: number[]}} r */
const limitHits = (r) => under(r.pHit, LIMIT_ALPHA);
/** The oracle's: at the loosest alpha that holds the limit to 1% on this model. @param {{pAA: number[], pHit: number[]}} r */
const oracleHits = (r) => under(r.pHit, alphaAtOnePercent(r.pAA));

// Issue 15's scenario: every series of a real quick run, resampled (bench/eval/quick-scenario.js).
const fixture = JSON.parse(
  readFileSync(new URL('../test/fixtures/results/quick-4env-alpine-offline.json', import.meta.url), 'utf8'),
);
const series = seriesOf(fixture);
const SCENARIO_DETECTORS = [dindBench, medianTLimit, singleValueRatio(2), singleValueRatio(1.1), ...ABLATIONS];
const scenarioRandom = seededRandom(Number(values.seed) * 104729 + 15);
const perReplication = Array.from({ length: replications }, () =>
  replicate(series, SCENARIO_DETECTORS, scenarioRandom),
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);

const pct = (/** @type {number} */ k, n = trials) => `${((100 * k) / n).toFixed(1)}%`;
const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b > 0 ? `${((100 * a) / b).toFixed(0)}%` : '–');
const di = DETECTORS.indexOf(dindBench);
const li = DETECTORS.indexOf(medianTLimit);
const se = (/** @type {number} */ p, /** @type {number} */ n) => (100 * Math.sqrt((p * (1 - p)) / n)).toFixed(1);
/** The recorded series without a model, named so a reader knows what is not measured here. */
function tooFewLine() {
  const left = recordedTooFew(recorded).filter((key) => chosen({ name: `recorded, ${key}` }));
  if (left.length === 0) return [];
  return [
    `Recorded series left out, recorded in fewer than ${MIN_RECORDED_RUNS} runs of their set, so their between-run spread is not measured: ${left.join('; ')}.`,
  ];
}
const lines = [
  `Generated by \`npm run eval:detection\` on ${new Date().toISOString().slice(0, 10)}: ${trials} trials per noise model, ${PAST_RUNS} past runs + 1 new run of ${SAMPLES} samples each (standard profile), seed ${values.seed}, ${seconds} s (without the adaptive-stopping table).`,
  `Standard errors: with ${trials} trials a rate near 1% is +-${se(0.01, trials)} points, near 50% +-${se(0.5, trials)}; "of the limit" compares detectors on the same trials (paired), so it is steadier than two independent rates.`,
  'Columns: false alarms on unchanged (A/A) histories, then detection of a regression injected into the new run. Targets for dind-bench: false alarms <= 1%, detection of 10% >= 95%.',
  ...tooFewLine(),
  '',
  `The practical limit is a t-test on run medians (noise estimated from the same past runs, no floor, no outlier handling, no minimum change) at the verdict's alpha. It is not held to <= 1% false alarms itself, so the last column compares with the limit at <= 1% false alarms on every model: one alpha for all models (a test fixes its alpha before it sees the data), the largest that keeps the limit's own A/A rate <= 1% on each of them, here ${LIMIT_ALPHA.toPrecision(2)} (target >= 90%).`,
  '',
  '| noise model | detector | false alarms (A/A) | detects 5% | detects 10% | detects 20% | of the limit at 10% | of the limit at <= 1% false alarms |',
  '|---|---|---|---|---|---|---|---|',
];
for (const row of rows) {
  const { model, counts } = row;
  for (const [i, d] of DETECTORS.entries()) {
    const c = counts[i];
    const name = i === 0 ? `**${model.name}**<br><small>${model.description}</small>` : '';
    const strong = (/** @type {string} */ s) => (i === di ? `**${s}**` : s);
    const calibrated =
      i === li
        ? `${ratio(limitHits(row), limitHits(row))} (alpha ${LIMIT_ALPHA.toPrecision(2)})`
        : ratio(c.hits[1], limitHits(row));
    lines.push(
      `| ${name} | ${d.name} | ${strong(pct(c.aa))} | ${strong(pct(c.hits[0]))} | ${strong(pct(c.hits[1]))} | ${strong(pct(c.hits[2]))} | ${strong(ratio(c.hits[1], counts[li].hits[1]))} | ${strong(calibrated)} |`,
    );
  }
}
// Over all models: the verdict's detections of 10% as a fraction of the limit's, and its false alarms.
{
  const sum = (/** @type {(r: any) => number} */ f) => rows.reduce((a, r) => a + f(r), 0);
  const ours = sum((r) => r.counts[di].hits[1]);
  const limit = sum((r) => r.counts[li].hits[1]);
  const calibrated = sum(limitHits);
  const oracle = sum(oracleHits);
  const over = rows
    .filter((r) => r.counts[di].aa > 0.01 * trials)
    .map((r) => `${r.model.name} ${pct(r.counts[di].aa)}`);
  lines.push(
    '',
    `Over all models: ${dindBench.name} detects ${ours} of the ${limit} 10% regressions the practical limit detects at alpha ${ALPHA} (${ratio(ours, limit)}), and ${ratio(ours, calibrated)} of the ${calibrated} it detects at <= 1% false alarms on every model (alpha ${LIMIT_ALPHA.toPrecision(2)}; target >= 90%). An oracle that knows each model and gives the limit, per model, the loosest alpha that holds its own false alarms to 1% detects ${oracle} (the verdict ${ratio(ours, oracle)} of that): no fixed rule can choose its alpha per model, but it shows what more power would cost. False alarms over 1%: ${over.length ? over.join(', ') : 'none'}.`,
  );
}

// The scenario of issue 15: per detector, series flagged of N in the first replication and the mean over all.
{
  const n = series.length;
  const total = (/** @type {number} */ i, /** @type {'hits' | 'aa'} */ key) =>
    perReplication.reduce((a, r) => a + r[i][key], 0);
  const mean = (/** @type {number} */ i, /** @type {'hits' | 'aa'} */ key) => total(i, key) / replications;
  const sdOfMean = (/** @type {number} */ i, /** @type {'hits' | 'aa'} */ key) => {
    const m = mean(i, key);
    const v = perReplication.reduce((a, r) => a + (r[i][key] - m) ** 2, 0) / Math.max(1, replications - 1);
    return Math.sqrt(v / replications);
  };
  const limitAt = SCENARIO_DETECTORS.indexOf(medianTLimit);
  lines.push(
    '',
    `Histories resampled from a real quick run (issue 15; \`bench/eval/quick-scenario.js\`): the ${n} series of \`test/fixtures/results/quick-4env-alpine-offline.json\` (3 samples each, recorded on a loaded 2-core machine), each with ${SCENARIO.pastRuns} past runs and a new run of ${SCENARIO.samples} samples drawn with replacement from its samples, every run scaled by a log-normal drift (sd ${SCENARIO.drift * 100}%); then every metric made ${SCENARIO.shift * 100}% worse. ${replications} replications, seed ${values.seed}; "first" is one history per series (as in the issue), "mean" over all replications (+- its standard error).`,
    '',
    `| detector | 10% worse: flagged of ${n}, first | mean | of the limit | unchanged: false alarms of ${n}, first | mean | rate |`,
    '|---|---|---|---|---|---|---|',
  );
  for (const [i, d] of SCENARIO_DETECTORS.entries()) {
    if (i === 4) lines.push('| *ablation of the verdict (bench/eval/ablation.js):* | | | | | | |');
    lines.push(
      `| ${d.name} | ${perReplication[0][i].hits} | ${mean(i, 'hits').toFixed(1)} +- ${sdOfMean(i, 'hits').toFixed(1)} | ${ratio(total(i, 'hits'), total(limitAt, 'hits'))} | ${perReplication[0][i].aa} | ${mean(i, 'aa').toFixed(2)} +- ${sdOfMean(i, 'aa').toFixed(2)} | ${pct(total(i, 'aa'), n * replications)} |`,
    );
  }
}

// Ablation over the noise models: which of the verdict's steps costs detection, and what each buys.
lines.push(
  '',
  `Ablation of the verdict (\`bench/eval/ablation.js\`) on the noise models above, same trials: false alarms and detection of 10%, each with one of the verdict's steps removed.`,
  '',
  `| noise model | ${ABLATIONS.map((a) => a.name).join(' | ')} |`,
  `|---|${ABLATIONS.map(() => '---').join('|')}|`,
);
for (const { model, ablation } of rows) {
  lines.push(`| ${model.name} | ${ablation.map((a) => `${pct(a.aa)} / ${pct(a.hit)}`).join(' | ')} |`);
}
{
  const sum = (/** @type {number} */ ai) => rows.reduce((a, r) => a + r.ablation[ai].hit, 0);
  const calibrated = rows.reduce((a, r) => a + limitHits(r), 0);
  lines.push(
    `| **of the limit at <= 1% false alarms, all models** | ${ABLATIONS.map((_, ai) => ratio(sum(ai), calibrated)).join(' | ')} |`,
  );
}

// Issue 21: several runs in a row, dind-bench and its peers side by side (bench/eval/sequence-report.js).
{
  const evaluated = await sequences.finish();
  lines.push(...sequenceTables(evaluated, { trials: sequenceTrials, seed: Number(values.seed) }));
  lines.push(
    '',
    `The sequences took ${evaluated.jsSeconds.toFixed(1)} s for the JavaScript rules${evaluated.otavaResults.some(Boolean) ? `; with Apache Otava running alongside in Python from the start, they were done ${((performance.now() - sequenceStarted) / 1000).toFixed(1)} s after the evaluation began` : ''}.`,
  );
}

// Adaptive stopping under A/A (bench/eval/adaptive.js): the synthetic models, the quick profile's cap
// and a stress cap (30).
lines.push(
  '',
  `Sampling until decided (\`run --budget\`, src/run/adaptive.js) under A/A: both sides of a within-run decision (T = 5%) from one run of the model, looked at from ${PROFILES.quick.iterations} samples a side (the quick profile's plan) at each look of the design until decided or the cap; ${trials} trials per model. Wrong decisions of the within-run rule (a regression or an improvement where nothing changed; the level is set for the design's looks, target <= 5%; "fixed": read once at the cap) and false alarms of the history verdict (the new run judged against ${PAST_RUNS} past runs of ${SAMPLES}; target <= 1%), sequential and with all the cap's samples.`,
  '',
  '| noise model | cap | mean samples a side | within run, sequential | within run, fixed at the cap | history verdict, sequential | history verdict, fixed |',
  '|---|---|---|---|---|---|---|',
);
for (const [mi, model] of syntheticModels().entries()) {
  for (const cap of [PROFILES.quick.maxIterations ?? 7, 30]) {
    const random = seededRandom(Number(values.seed) * 7919 + mi * 31 + cap);
    const c = adaptiveAA(model, random, trials, {
      start: PROFILES.quick.iterations,
      cap,
      pastRuns: PAST_RUNS,
      pastSamples: SAMPLES,
    });
    lines.push(
      `| ${model.name} | ${cap} | ${(c.samples / trials).toFixed(1)} | ${pct(c.withinAdaptive)} | ${pct(c.withinFixed)} | **${pct(c.historyAdaptive)}** | ${pct(c.historyFixed)} |`,
    );
  }
}
lines.push('', `The whole evaluation took ${((performance.now() - sequenceStarted) / 1000).toFixed(0)} s.`);
const table = lines.join('\n');
process.stdout.write(table + '\n');
if (!only) writeFileSync(new URL('./results/eval-detection.md', import.meta.url), table + '\n');
if (values.readme) {
  const readme = new URL('../docs/evaluation.md', import.meta.url);
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- eval:detection:start -->';
  const end = '<!-- eval:detection:end -->';
  if (!text.includes(start) || !text.includes(end))
    throw new Error(`docs/evaluation.md has no ${start} ... ${end} block to rewrite`);
  writeFileSync(readme, text.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${table}\n${end}`));
}
