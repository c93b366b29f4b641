// Issue 45 item 6: does the verdict against history spend the false-alarm rate it states, and what does
// that buy against Bencher's t_test held to the same rate? On the recorded noise only (every series of
// bench/eval/recorded-samples.json with a measured between-run spread: the noise real runners showed), in
// issue 21's scenario (bench/eval/sequences.js: 12 past runs of 10 samples, then 4 runs judged one at a
// time, clean or 10% worse).
//
// Each rule is set ONCE for all recorded series, as a user sets it: the loosest setting of its sweep whose
// false alarms on the first clean run, pooled over the recorded series, stay at or under the target (the
// rate a run's series see on average: the measured A/A rate). Then detection of 10% on the first regressed
// run and within the 4, pooled, paired against Bencher on the same runs. The per-series worst false-alarm
// rate at that setting is printed too, as what the pooled rate hides.
//
// Rules: dind-bench's verdict (src/stats/verdicts.js judge) with its span weights as they are and with other
// splits of alpha over the spans, each swept over alpha; Bencher's t_test (bench/eval/peers.js) swept over
// its boundary. The default rule (DEFAULT_RULE, SPAN_WEIGHTS) is printed as it is, unswept, beside them.
//
//   node bench/eval/history-rate.js [--trials N] [--seed S] [--target F] [--markdown FILE]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { seededRandom } from '../../src/stats/index.js';
import { DEFAULT_RULE, DEFAULT_STEPS, judge } from '../../src/stats/verdicts.js';
import { ceilingAt, cleanLevels } from './ceiling.js';
import { recordedModels } from './noise-models.js';
import { bencherTTest } from './peers.js';
import { SEQUENCE, evaluateRule, makeSequence, pairedDifference, rates } from './sequences.js';
import { replaceBlock } from './doc-block.js';

/** Ways of setting aside the newest earlier runs that had moved worse (judge's steps.aside), each with spans 1. */
export const ASIDES = Object.freeze([
  { runs: 3, p: 0.2 },
  { runs: 3, p: 0.05 },
]);

/** The splits of alpha over the spans of 1..4 runs looked at. */
export const SPLITS = Object.freeze([[0.4, 0.2, 0.2, 0.2], [0.7, 0.1, 0.1, 0.1], [0.85, 0.05, 0.05, 0.05], [1]]);

/** A log grid, 2.9% apart: a rule's setting is read off it, so it must be finer than the rates it resolves. */
const grid = (/** @type {number} */ lo, /** @type {number} */ hi) =>
  Array.from({ length: 241 }, (_, i) => lo * (hi / lo) ** (i / 240));
const ALPHAS = grid(1e-4, 0.1);

/**
 * dind-bench's verdict with these span weights, as a rule of the sequence evaluation: one verdict per judged
 * run at the loosest alpha, a regression at alpha a when its p-value is under a (nothing else in the
 * verdict depends on alpha).
 * @param {readonly number[]} spans @param {number[]} alphas
 * @param {{ runs: number, p: number } | null} [aside] the newest earlier runs that moved worse set aside
 *   (judge's steps.aside; null: none, whatever the default)
 * @param {string} [label] how the rule's name starts
 * @param {import('../../src/stats/verdicts.js').Steps['floor']} [floor] judge's steps.floor
 * @returns {import('./sequences.js').SequenceRule}
 */
export function verdictWith(
  spans,
  alphas = ALPHAS,
  aside = DEFAULT_STEPS.aside,
  label = 'dind-bench',
  floor = DEFAULT_STEPS.floor,
) {
  const steps = { ...DEFAULT_STEPS, spans, floor, aside: aside ?? undefined, cache: new WeakMap() };
  return {
    name: `${label}, spans ${spans.join('/')}${aside ? `, moved runs set aside (up to ${aside.runs}, p < ${aside.p})` : ''}${floor === 'hierarchical' ? ', each run on its own error' : ''}`,
    params: alphas,
    defaultParam: DEFAULT_RULE.alpha,
    looser: 'higher',
    alarms(past, judged, better, ps) {
      const points = past.map((samples) => ({ samples }));
      const loosest = { ...DEFAULT_RULE, alpha: Math.max(...ps) };
      const verdicts = judged.map((samples) => {
        const v = judge(points, { samples }, better, loosest, steps);
        points.push({ samples });
        return v;
      });
      return ps.map((a) => verdicts.map((v) => v.status === 'regression' && v.p !== null && v.p < a));
    },
  };
}

/**
 * Alarms of every model's trials, concatenated (pooled over the series), per setting of the rule's sweep.
 * @param {Array<{ clean: Uint8Array[], worse: Uint8Array[] }>} perModel
 */
export function pooled(perModel) {
  const settings = perModel[0].clean.length;
  const join = (/** @type {Uint8Array[]} */ ...xs) => {
    const out = new Uint8Array(xs.reduce((a, x) => a + x.length, 0));
    let at = 0;
    for (const x of xs) out.set(x, (at += x.length) - x.length);
    return out;
  };
  return {
    clean: Array.from({ length: settings }, (_, i) => join(...perModel.map((r) => r.clean[i]))),
    worse: Array.from({ length: settings }, (_, i) => join(...perModel.map((r) => r.worse[i]))),
  };
}

/**
 * The loosest setting whose pooled false alarms on the first clean run stay <= target; null when none does.
 * @param {import('./sequences.js').SequenceRule} rule @param {{ clean: Uint8Array[], worse: Uint8Array[] }} all
 * @param {number} target
 * @param {Array<{ clean: Uint8Array[], worse: Uint8Array[] }> | null} [perModel] when given, every model's
 *   own rate must stay <= target too (the stricter reading: every series, not their average)
 */
export function settingAt(rule, all, target, perModel = null) {
  let best = -1;
  for (const i of rule.params.keys()) {
    if (rates(all.clean[i], all.worse[i]).falseFirst > target + 1e-12) continue;
    if (perModel && perModel.some((m) => rates(m.clean[i], m.worse[i]).falseFirst > target + 1e-12)) continue;
    const looser =
      best < 0 || (rule.looser === 'higher' ? rule.params[i] > rule.params[best] : rule.params[i] < rule.params[best]);
    if (looser) best = i;
  }
  return best < 0 ? null : best;
}

const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)}%`;

/**
 * @typedef {{ name: string }} Model
 * @typedef {{ clean: Uint8Array[], worse: Uint8Array[] }} Alarms a rule's alarms per setting of its sweep
 * @typedef {{ models: Model[], rules: import('./sequences.js').SequenceRule[], results: Alarms[][], all: Alarms[], target: number,
 *   sequences?: any[][] }} Measured
 */

/**
 * Every rule at its one setting (pooled, or on every series too), against Bencher's t_test (the last rule).
 * @param {Measured} m @param {boolean} every @param {(s: string) => void} say
 */
function settingsTable({ models, rules, results, all, target }, every, say) {
  const bi = rules.length - 1;
  const at = (/** @type {number} */ ri) => settingAt(rules[ri], all[ri], target, every ? results[ri] : null);
  say(
    every
      ? `Held to <= ${pct(target)} on the first clean run on every series, not only pooled (the stricter reading):`
      : `Held to <= ${pct(target)} on the first clean run, pooled over the series (the measured A/A rate):`,
  );
  say('');
  say(
    '| rule | setting | false alarms: first clean run (pooled) | per judged run | worst series, first run | 10% caught: first regressed run | within 4 | minus Bencher t_test: first | within 4 |',
  );
  say('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const bSetting = at(bi);
  for (const [ri, rule] of rules.entries()) {
    const i = at(ri);
    if (i === null) {
      say(`| ${rule.name} | none under | | | | | | | |`);
      continue;
    }
    const r = rates(all[ri].clean[i], all[ri].worse[i]);
    const worst = results[ri]
      .map((x, mi) => ({ name: models[mi].name, f: rates(x.clean[i], x.worse[i]).falseFirst }))
      .reduce((a, x) => (x.f > a.f ? x : a));
    let vs = '| |';
    if (ri !== bi && bSetting !== null) {
      const d = pairedDifference(all[ri].worse[i], all[bi].worse[bSetting]);
      const f = (/** @type {{ diff: number, half: number }} */ x) =>
        `${x.diff >= 0 ? '+' : ''}${(100 * x.diff).toFixed(1)} ±${(100 * x.half).toFixed(1)} points`;
      vs = `| ${f(d.first)} | ${f(d.within)} |`;
    }
    const setting =
      ri === bi ? `boundary ${rule.params[i].toPrecision(6)}` : `alpha ${Number(rule.params[i].toPrecision(3))}`;
    say(
      `| ${rule.name} | ${setting} | ${pct(r.falseFirst)} | ${pct(r.falsePerRun)} | ${pct(worst.f)} (${worst.name.replace(/^recorded, /, '')}) | ${pct(r.hitFirst)} | ${pct(r.hitWithin)} ${vs}`,
    );
  }
  say('');
}

/**
 * Per series, every rule at its pooled setting.
 * @param {Measured} m @param {(s: string) => void} say
 */
function perSeriesTable({ models, rules, results, all, target }, say) {
  say(`Per series, at each rule's pooled setting (false alarms on the first clean run / caught first / within 4):`);
  say('');
  say(`| series | ${rules.map((x) => x.name).join(' | ')} |`);
  say(`| --- | ${rules.map(() => '---').join(' | ')} |`);
  const idx = rules.map((rule, ri) => settingAt(rule, all[ri], target));
  for (const [mi, m] of models.entries()) {
    const cells = rules.map((_, ri) => {
      const i = idx[ri];
      if (i === null) return '–';
      const x = rates(results[ri][mi].clean[i], results[ri][mi].worse[i]);
      return `${pct(x.falseFirst)} / ${pct(x.hitFirst)} / ${pct(x.hitWithin)}`;
    });
    say(`| ${m.name.replace(/^recorded, /, '')} | ${cells.join(' | ')} |`);
  }
  say('');
}

/**
 * "0.95,0.05,0.05" as weights: 1 to 4 of them, each in (0, 1], summing to at most 1.
 * @param {string} text
 */
function parseSplit(text) {
  const w = text.split(',').map(Number);
  const ok =
    w.length >= 1 && w.length <= 4 && w.every((x) => x > 0 && x <= 1) && w.reduce((a, b) => a + b, 0) <= 1 + 1e-9;
  if (!ok)
    throw new Error(
      `--splits: "${text}" is not 1 to 4 weights in (0, 1] summing to at most 1, e.g. "0.85,0.05,0.05,0.05"`,
    );
  return w;
}

/**
 * One evaluation at one seed: every rule's alarms on the same sequences of every recorded series.
 * @param {ReturnType<typeof recordedModels>} models @param {number} trials @param {number} seed
 * @param {number[][]} splits @param {number} target @param {Array<{ runs: number, p: number }>} asides
 * @returns {Measured}
 */
function measure(models, trials, seed, splits, target, asides) {
  const sequences = models.map((m, mi) => {
    const random = seededRandom(seed * 7727 + 1000 + mi);
    return Array.from({ length: trials }, () => makeSequence(m, random));
  });
  // Bencher's boundary on a grid as fine as alpha's (1 - boundary from 1e-7 to 0.1).
  const bencher = {
    ...bencherTTest(0.99),
    params: grid(1e-7, 0.1)
      .map((q) => 1 - q)
      .sort((a, b) => a - b),
  };
  const rules = [
    // the rule as shipped (DEFAULT_STEPS), swept like the others: what the default's alpha is read off
    verdictWith(DEFAULT_STEPS.spans, ALPHAS, DEFAULT_STEPS.aside, 'dind-bench as shipped'),
    // the default before issue 53 item 7: this run alone, its own error counted only when over 3 times the typical
    verdictWith([1], ALPHAS, null, 'dind-bench before issue 53', 'noisier'),
    ...splits.map((s) => verdictWith(s, ALPHAS, null)),
    ...asides.map((a) => verdictWith([1], ALPHAS, a)),
    bencher,
  ];
  const results = rules.map((rule) => sequences.map((seqs) => evaluateRule(seqs, rule)));
  return { models, rules, results, all: results.map(pooled), target, sequences };
}

/**
 * Per seed, every rule at its pooled setting: false alarms on the first clean run, 10% caught first and
 * within 4; then the mean over the seeds and its spread (the smallest and largest seed).
 * @param {Array<{ seed: number, measured: Measured }>} bySeed @param {(s: string) => void} say
 */
export function seedsTable(bySeed, say) {
  const { rules } = bySeed[0].measured;
  say('| rule | seed | setting | false alarms: first clean run | 10% caught: first regressed run | within 4 |');
  say('| --- | --- | --- | --- | --- | --- |');
  for (const [ri, rule] of rules.entries()) {
    const rows = bySeed.map(({ seed, measured }) => {
      const i = settingAt(rule, measured.all[ri], measured.target);
      if (i === null) return { seed, setting: NaN, r: null };
      return { seed, setting: rule.params[i], r: rates(measured.all[ri].clean[i], measured.all[ri].worse[i]) };
    });
    for (const x of rows)
      say(
        x.r
          ? `| ${rule.name} | ${x.seed} | ${Number(x.setting.toPrecision(6))} | ${pct(x.r.falseFirst)} | ${pct(x.r.hitFirst)} | ${pct(x.r.hitWithin)} |`
          : `| ${rule.name} | ${x.seed} | none under | | | |`,
      );
    const ok = rows.filter((x) => x.r).map((x) => /** @type {ReturnType<typeof rates>} */ (x.r));
    if (ok.length > 1) {
      const span = (/** @type {(r: ReturnType<typeof rates>) => number} */ f) => {
        const xs = ok.map(f);
        return `**${pct(xs.reduce((a, b) => a + b, 0) / xs.length)}** (${pct(Math.min(...xs))}–${pct(Math.max(...xs))})`;
      };
      say(
        `| ${rule.name} | mean (range) of ${ok.length} seeds | | ${span((r) => r.falseFirst)} | ${span((r) => r.hitFirst)} | ${span((r) => r.hitWithin)} |`,
      );
    }
  }
  say('');
}

/** @param {string[]} argv */
async function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      trials: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '42' },
      seeds: { type: 'string' },
      target: { type: 'string', default: '0.01' },
      markdown: { type: 'string' },
      splits: { type: 'string' },
      docs: { type: 'string' },
      aside: { type: 'string' },
    },
  });
  // --aside "3:0.2;2:0.05": ways of setting aside the newest earlier runs that moved worse (runs:p); "" for none
  const asides =
    values.aside === undefined
      ? [...ASIDES]
      : values.aside
          .split(';')
          .filter(Boolean)
          .map((x) => {
            const [runs, p] = x.split(':').map(Number);
            if (!(Number.isInteger(runs) && runs >= 1 && runs <= 3 && p > 0 && p < 1))
              throw new Error(`--aside: "${x}" is not RUNS:P with RUNS 1 to 3 and P in (0, 1), e.g. "3:0.2"`);
            return { runs, p };
          });
  // --splits "0.95,0.05;1": other splits of alpha over the spans to measure (each a list of weights); "" for none
  const splits =
    values.splits === undefined ? SPLITS.map((x) => [...x]) : values.splits.split(';').filter(Boolean).map(parseSplit);
  const trials = Number(values.trials);
  const target = Number(values.target);
  if (!Number.isInteger(trials) || trials < 10 || trials > 1e5)
    throw new Error('--trials must be an integer from 10 to 100000');
  if (!(target > 0 && target < 0.5))
    throw new Error('--target must be a false-alarm rate between 0 and 0.5, e.g. 0.01');
  const seeds = (values.seeds ?? values.seed).split(',').map(Number);
  if (!seeds.length || seeds.some((x) => !Number.isInteger(x) || x < 0))
    throw new Error('--seed/--seeds: non-negative integers, e.g. --seeds 42,43,44');
  const started = performance.now();
  const recorded = JSON.parse(readFileSync(new URL('./recorded-samples.json', import.meta.url), 'utf8'));
  const models = recordedModels(recorded);
  const lines = [];
  const say = (/** @type {string} */ s) => lines.push(s);
  const bySeed = seeds.map((seed) => ({ seed, measured: measure(models, trials, seed, splits, target, asides) }));
  const command = `node bench/eval/history-rate.js --trials ${trials} --seeds ${seeds.join(',')}${values.splits !== undefined ? ` --splits "${values.splits}"` : ''}${values.aside !== undefined ? ` --aside "${values.aside}"` : ''}`;
  say(
    `\`${command}\` (${new Date().toISOString().slice(0, 10)}). Recorded noise, ${models.length} series (bench/eval/recorded-samples.json), ${trials} sequences each per seed: ` +
      `${SEQUENCE.pastRuns} past runs of ${SEQUENCE.samples} samples, then ${SEQUENCE.judged} judged runs, clean or ${pct(SEQUENCE.shift)} worse. ` +
      `Each rule at its one setting for every series: the loosest of its sweep whose false alarms on the first clean run stay <= ${pct(target)}; ` +
      `"minus Bencher" is the paired difference in 10% caught against Bencher's t_test at its own such setting, on the same runs (±: 95% interval).`,
  );
  say('');
  if (bySeed.length > 1) {
    say(`Every seed, pooled over the series, each rule at its own setting for that seed:`);
    say('');
    seedsTable(bySeed, say);
  }
  const measured = bySeed[0].measured;
  // The rule as shipped, unswept, on the first seed's sequences.
  const shipped = verdictWith(DEFAULT_STEPS.spans, [DEFAULT_RULE.alpha]);
  const s = pooled((measured.sequences ?? []).map((seqs) => evaluateRule(seqs, shipped)));
  const r = rates(s.clean[0], s.worse[0]);
  say(
    `**The default rule** (alpha ${DEFAULT_RULE.alpha}, spans ${DEFAULT_STEPS.spans.join('/')}${DEFAULT_STEPS.aside ? `, moved runs set aside (up to ${DEFAULT_STEPS.aside.runs}, p < ${DEFAULT_STEPS.aside.p})` : ''}, own error: ${DEFAULT_STEPS.floor}; seed ${seeds[0]}): false alarms ${pct(r.falseFirst)} on the first clean run, ` +
      `${pct(r.falsePerRun)} per judged run; 10% caught ${pct(r.hitFirst)} on the first regressed run, ${pct(r.hitWithin)} within 4.`,
  );
  say('');
  // What the recorded noise allows at all: a threshold on one run's level set with each series' model
  // known exactly (bench/eval/ceiling.js) at the target rate on every series, pooled.
  const ceilings = models.map((m, mi) =>
    ceilingAt(cleanLevels(m, seededRandom(seeds[0] * 7727 + 5000 + mi), 20000), target),
  );
  const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  say(
    `**What this noise allows** (a reference, not a rule: a threshold on one run's level set with each series' model known exactly, no history, ${pct(target)} false alarms on every series): ` +
      `10% caught ${pct(mean(ceilings.map((c) => c.hitFirst)))} on the first regressed run, ${pct(mean(ceilings.map((c) => c.hitWithin)))} within 4 (each run on its own), pooled over the ${models.length} series; ` +
      `${ceilings.filter((c) => c.hitFirst < 0.05).length} of them let it catch under 5% of first regressed runs.`,
  );
  say('');
  settingsTable(measured, false, say);
  settingsTable(measured, true, say);
  perSeriesTable(measured, say);
  say(`${((performance.now() - started) / 1000).toFixed(1)} s.`);
  const text = lines.join('\n') + '\n';
  process.stdout.write(text);
  if (values.markdown) writeFileSync(values.markdown, text);
  if (values.docs) replaceBlock(values.docs, 'history-rate', text);
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
