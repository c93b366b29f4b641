// The multi-run evaluation of issue 21 (bench/eval/sequences.js) with the peers side by side: dind-bench's
// verdict (and the rule before issue 21), Bencher's t_test and percentage thresholds, github-action-
// benchmark's alert-threshold, and Apache Otava (the real package; bench/eval/otava.js). Computes the
// rates and writes the Markdown tables eval-detection prints.
import { DEFAULT_RULE, judge } from '../../src/stats/verdicts.js';
import { seededRandom } from '../../src/stats/index.js';
import { median } from '../../src/stats/index.js';
import { ceilingAt, cleanLevels } from './ceiling.js';
import { OTAVA_DEFAULT_P, OTAVA_PVALUES, OTAVA_VERSION, otavaPython, runOtava } from './otava.js';
import { EVAL_STEPS } from './methods.js';
import { bencherPercentage, bencherTTest, githubActionBenchmark } from './peers.js';
import * as previous from './previous-verdict.js';
import {
  SEQUENCE,
  TARGETS,
  bits,
  calibrated,
  evaluateRule,
  makeSequence,
  oneSetting,
  pairedDifference,
  rates,
} from './sequences.js';

/** @typedef {import('./sequences.js').SequenceRule} SequenceRule */

/** Clean runs per model for the known-model threshold: its 0.1% quantile then rests on 50 runs. */
const CEILING_RUNS = 50000;

/**
 * A model on which a 10% regression can be seen at all: a threshold that knew the model exactly catches at
 * least this share of first regressed runs at 1% false alarms, 5 times what it raises on clean runs. Below
 * it an alert is weak evidence whoever raises it, and at one setting what a rule catches there follows the
 * false alarms it spends there (docs/evaluation.md). Decided by the model alone, before any rule is run.
 */
export const VISIBLE_AT_ONE_PERCENT = 0.05;

const ALPHAS = Array.from({ length: 41 }, (_, i) => 1e-5 * (0.3 / 1e-5) ** (i / 40));

/**
 * A rule backed by a judge() (dind-bench's, or the one before issue 21): alarms at each alpha from one
 * verdict per judged run, as a verdict is a regression at alpha exactly when it is one at a looser alpha
 * and its p-value is under alpha (the other conditions do not depend on alpha).
 * @param {string} name @param {typeof judge} judgeFn @param {import('../../src/stats/verdicts.js').Rule} rule
 *   judgeFn gets the evaluation's steps (with its cache of run levels) as a fifth argument; the rule
 *   before issue 21 ignores it.
 * @returns {SequenceRule}
 */
function verdictRule(name, judgeFn, rule) {
  const params = [...new Set([...ALPHAS, rule.alpha])].sort((a, b) => a - b);
  return {
    name,
    params,
    defaultParam: rule.alpha,
    looser: 'higher',
    alarms(past, judged, better, ps) {
      const points = past.map((samples) => ({ samples }));
      const loosest = { ...rule, alpha: Math.max(...ps) };
      const verdicts = judged.map((samples) => {
        const v = judgeFn(points, { samples }, better, loosest, EVAL_STEPS);
        points.push({ samples });
        return v;
      });
      return ps.map((a) => verdicts.map((v) => v.status === 'regression' && v.p !== null && v.p < a));
    },
  };
}

export const OURS = verdictRule(`dind-bench (alpha ${DEFAULT_RULE.alpha})`, judge, DEFAULT_RULE);
const PREVIOUS = verdictRule('dind-bench before issue 21', previous.judge, previous.DEFAULT_RULE);
const JS_RULES = [
  OURS,
  PREVIOUS,
  bencherTTest(0.99),
  bencherTTest(0.9975),
  bencherPercentage(0.1),
  githubActionBenchmark(1.1),
];
const OTAVA_NAME = `Apache Otava ${OTAVA_VERSION} (--p-value ${OTAVA_DEFAULT_P}, CLI defaults)`;

/**
 * Generates every model's sequences and starts Otava on the first `otavaTrials` of each (in its own
 * process); `finish()` evaluates the other rules, then waits for Otava. The caller can do other work
 * between the two.
 * @param {import('./noise-models.js').NoiseModel[]} models
 * @param {{ trials: number, otavaTrials: number, seed: number, otava: boolean }} o
 */
export function startSequences(models, { trials, otavaTrials, seed, otava }) {
  const sequences = models.map((model, mi) => {
    const random = seededRandom(seed * 7727 + mi);
    return Array.from({ length: trials }, (_, t) =>
      makeSequence(/** @type {any} */ (model).forTrial?.(t) ?? model, random),
    );
  });
  /** @type {Promise<{ alarms: boolean[][][] } | { error: string }> | null} */
  let otavaJob = null;
  let otavaNote = '';
  const nOtava = Math.min(otavaTrials, trials);
  if (!otava) otavaNote = 'Apache Otava left out (--no-otava).';
  else {
    const env = otavaPython();
    if ('error' in env) otavaNote = `Apache Otava could not be installed or run, so it is left out: ${env.error}`;
    else {
      const jobs = [];
      for (const seqs of sequences) {
        for (const s of seqs.slice(0, nOtava)) {
          const sign = /** @type {1 | -1} */ (s.better === 'lower' ? 1 : -1);
          const values = (/** @type {number[][]} */ judged) => [...s.past, ...judged].map((r) => median(r));
          jobs.push({ values: values(s.clean), first: s.past.length, sign });
          jobs.push({ values: values(s.worse), first: s.past.length, sign });
        }
      }
      otavaJob = runOtava(env.python, jobs, OTAVA_PVALUES);
    }
  }
  return { finish };

  async function finish() {
    const started = performance.now();
    const results = sequences.map((seqs) => JS_RULES.map((rule) => evaluateRule(seqs, rule)));
    const jsSeconds = (performance.now() - started) / 1000;
    /** @type {Array<{ clean: Uint8Array[], worse: Uint8Array[] } | null>} */
    let otavaResults = models.map(() => null);
    if (otavaJob) {
      const out = await otavaJob;
      if ('error' in out) otavaNote = `Apache Otava ran but failed, so it is left out: ${out.error}`;
      else {
        otavaResults = models.map((_, mi) => {
          const clean = OTAVA_PVALUES.map(() => new Uint8Array(nOtava));
          const worse = OTAVA_PVALUES.map(() => new Uint8Array(nOtava));
          for (let t = 0; t < nOtava; t++) {
            const at = 2 * (mi * nOtava + t);
            for (const pi of OTAVA_PVALUES.keys()) {
              clean[pi][t] = bits(out.alarms[at][pi]);
              worse[pi][t] = bits(out.alarms[at + 1][pi]);
            }
          }
          return { clean, worse };
        });
      }
    }
    /** @type {SequenceRule} */
    const otavaRule = {
      name: OTAVA_NAME,
      params: OTAVA_PVALUES,
      defaultParam: OTAVA_DEFAULT_P,
      looser: 'higher',
      alarms: () => [],
    };
    return { models, results, otavaResults, otavaRule, otavaNote, nOtava, jsSeconds };
  }
}

const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)}%`;

/**
 * @typedef {{ clean: Uint8Array[], worse: Uint8Array[] }} RuleResult a rule's alarms per sweep setting
 * @typedef {{ res: RuleResult, index: number }} AtSetting a rule's alarms at one setting of its sweep
 */

/**
 * Where dind-bench detects less than a peer held to the same false alarms: "first 10.9% vs 14.4% (beyond
 * sampling error)", "within 4 29.0% vs 32.0% (within sampling error)", or "" when it detects as much or more on
 * both. `beyond`: some shortfall is more than the trials can put down to chance (pairedDifference on the same
 * regressed runs).
 * @param {AtSetting} oursAt @param {AtSetting} heldAt @param {number} judged
 */
function shortfall(oursAt, heldAt, judged) {
  const ours = rates(oursAt.res.clean[oursAt.index], oursAt.res.worse[oursAt.index]);
  const held = rates(heldAt.res.clean[heldAt.index], heldAt.res.worse[heldAt.index]);
  const paired = pairedDifference(oursAt.res.worse[oursAt.index], heldAt.res.worse[heldAt.index]);
  const miss = [];
  let beyond = false;
  const mark = (/** @type {{ diff: number, half: number }} */ d) => {
    const real = d.diff + d.half < 0;
    beyond ||= real;
    return real ? ' (beyond sampling error)' : ' (within sampling error)';
  };
  if (ours.hitFirst < held.hitFirst)
    miss.push(`first ${pct(ours.hitFirst)} vs ${pct(held.hitFirst)}${mark(paired.first)}`);
  if (ours.hitWithin < held.hitWithin)
    miss.push(`within ${judged} ${pct(ours.hitWithin)} vs ${pct(held.hitWithin)}${mark(paired.within)}`);
  return { text: miss.join(', '), beyond };
}

/**
 * dind-bench against peers, pair by pair: how many comparisons, the shortfalls worded ("model vs peer: ..."),
 * and in how many of them some gap is beyond sampling error.
 * @param {Array<{ label: string, ours: AtSetting, held: AtSetting }>} pairs @param {number} judged
 */
function tally(pairs, judged) {
  const shortfalls = [];
  let beyond = 0;
  for (const { label, ours, held } of pairs) {
    const miss = shortfall(ours, held, judged);
    if (miss.text) shortfalls.push(`${label}: ${miss.text}`);
    if (miss.beyond) beyond++;
  }
  return { comparisons: pairs.length, shortfalls, beyond };
}

/**
 * "40 of 54", and how many of the rest are short beyond sampling error.
 * @param {{ comparisons: number, shortfalls: string[], beyond: number }} c
 */
const wonText = (c) =>
  `${c.comparisons - c.shortfalls.length} of ${c.comparisons}${c.shortfalls.length ? ` (short beyond sampling error in ${c.beyond})` : ''}`;

/** A rule's family, without its default setting: "Bencher t_test", "Apache Otava 0.8.0". @param {SequenceRule} rule */
const family = (rule) => rule.name.replace(/ \(.*\)$/, '').replace(/,? (boundary|alert-threshold) [^ ]+$/, '');

/**
 * A rule's setting as its users would write it: "alert-threshold 110.0%", "boundary 0.99962" (a boundary
 * close to 1 with enough digits to tell it from 1), "--p-value 0.0003", "alpha 0.00486".
 * @param {SequenceRule} rule @param {number} param
 */
function settingText(rule, param) {
  const name = family(rule);
  if (name.startsWith('github-action-benchmark')) return `alert-threshold ${(param * 100).toFixed(1)}%`;
  const digits =
    name === 'Bencher t_test' && param < 1
      ? param.toFixed(Math.max(3, 2 - Math.floor(Math.log10(1 - param))))
      : Number(param.toPrecision(3)).toString();
  if (name.startsWith('Bencher')) return `boundary ${digits}`;
  if (name.startsWith('Apache Otava')) return `--p-value ${digits}`;
  return `alpha ${digits}`;
}

/**
 * The Markdown: a summary over models, the check against every peer, and the side-by-side table.
 * @param {Awaited<ReturnType<ReturnType<typeof startSequences>['finish']>>} ev @param {{ trials: number, seed: number }} o
 */
export function sequenceTables(ev, { trials, seed }) {
  const { models, results, otavaResults, otavaRule, otavaNote, nOtava } = ev;
  const hasOtava = otavaResults.some(Boolean);
  const rules = hasOtava ? [...JS_RULES, otavaRule] : JS_RULES;
  /** Per model, per rule: default rates and calibrated figures. */
  const table = models.map((model, mi) =>
    rules.map((rule, ri) => {
      const res = ri < JS_RULES.length ? results[mi][ri] : /** @type {any} */ (otavaResults[mi]);
      const di = rule.params.indexOf(rule.defaultParam);
      return {
        model,
        rule,
        n: res.clean[di].length,
        res,
        at: rates(res.clean[di], res.worse[di]),
        cal: TARGETS.map((t) => calibrated(rule, res, t)),
      };
    }),
  );
  const { pastRuns, judged, samples, shift } = SEQUENCE;
  const lines = [
    '',
    `### Several runs in a row (issue 21): dind-bench and its peers on the same runs`,
    '',
    `\`bench/eval/sequences.js\`: per trial, ${pastRuns} past runs of ${samples} samples, then ${judged} more runs twice: as they came (clean) and with every sample ${shift * 100}% worse in the metric's bad direction (the same draws). Each of the ${judged} is judged as the newest run in turn against everything before it, the judged runs appended to the history as a published run would be, flagged or not. ${trials} trials per noise model (seed ${seed})${hasOtava ? (nOtava < trials ? `; Apache Otava on the first ${nOtava} of each (it runs in Python, about 0.5 ms an analysis)` : '; Apache Otava on all of them too, so that every rule is set and measured on the same runs') : ''}. The noise models: ${/** @type {any} */ (models[0]).forTrial ? `issue 21's quick-run series (${/** @type {any} */ (models[0]).description ?? ''}), ` : ''}the synthetic ones and the recorded ones of the table above. dind-bench sees each run's samples; every peer sees each run's median.`,
    '',
    `Columns: false alarms on the first clean run, within the ${judged} clean runs, and per judged run; detection of ${shift * 100}% on the first regressed run and within the ${judged}; then detection (first / within ${judged}) when the rule's threshold is calibrated on this model's clean runs to at most 0.1%, 0.5% and 1% false alarms per judged run (the loosest setting of the rule's sweep that stays under; "–" when none does). Calibration knows the model, which no real rule does: it shows what each rule's statistic can do at a given false-alarm rate, the defaults show what a user gets.`,
    '',
  ];
  // Summary over models.
  lines.push(
    `| rule (defaults) | false alarms per judged run: mean over models | worst model | caught first: mean over models | caught within ${judged}: mean | at <= 1% calibrated: first, mean | within ${judged}, mean |`,
    '|---|---|---|---|---|---|---|',
  );
  for (const [ri, rule] of rules.entries()) {
    const rows = table.map((r) => r[ri]);
    const mean = (/** @type {(x: any) => number} */ f) => rows.reduce((a, x) => a + f(x), 0) / rows.length;
    const worst = rows.reduce((a, x) => (x.at.falsePerRun > a.at.falsePerRun ? x : a));
    const name = ri === 0 ? `**${rule.name}**` : rule.name;
    lines.push(
      `| ${name} | ${pct(mean((x) => x.at.falsePerRun))} | ${pct(worst.at.falsePerRun)} (${worst.model.name}) | ${pct(mean((x) => x.at.hitFirst))} | ${pct(mean((x) => x.at.hitWithin))} | ${pct(mean((x) => x.cal[2]?.hitFirst ?? 0))} | ${pct(mean((x) => x.cal[2]?.hitWithin ?? 0))} |`,
    );
  }
  // The checks: dind-bench's defaults against every peer at the same false-alarm rate (the peer's defaults
  // where they raise no more false alarms per judged run than dind-bench's on that model, else its
  // setting calibrated to dind-bench's rate), and against every peer held to <= 1% (likewise with 1%).
  const oursOver = table
    .filter((r) => r[0].at.falsePerRun > 0.01)
    .map((r) => `${r[0].model.name} ${pct(r[0].at.falsePerRun)}`);
  const same = heldCheck(table, judged, (r) => r[0].at.falsePerRun);
  const one = heldCheck(table, judged, () => 0.01);
  lines.push(
    '',
    `**At the same false-alarm rate** (each peer at its defaults where they raise no more false alarms per judged run than dind-bench's defaults on that model, else at its setting calibrated to dind-bench's rate there): dind-bench detects as much or more on both the first regressed run and within ${judged} in ${wonText(same)} comparisons.${same.shortfalls.length ? ` Where it detects less: ${same.shortfalls.join('; ')}.` : ''}`,
    '',
    `**Against every peer held to <= 1%** false alarms per judged run on each model (its defaults where they stay under, else its setting calibrated to 1% on that model, knowing the model): ${wonText(one)} comparisons won or tied on both. dind-bench's own false alarms per judged run over 1%: ${oursOver.length ? oursOver.join(', ') : 'none'}.${one.shortfalls.length ? ` Where it detects less: ${one.shortfalls.join('; ')}.` : ''}`,
  );
  // The known-model threshold for every model (bench/eval/ceiling.js), from runs of its own seed.
  const ceilings = models.map((m, mi) => cleanLevels(m, seededRandom(seed * 7727 + 5000 + mi), CEILING_RUNS));
  lines.push(...oneSettingTables(table, rules, judged, ceilings));
  if (otavaNote) lines.push('', otavaNote);
  // The side-by-side table.
  lines.push(
    '',
    `| noise model | rule | false alarms: first clean run | within ${judged} | per judged run | ${shift * 100}% caught: first regressed run | within ${judged} | at <= 0.1% | at <= 0.5% | at <= 1% |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of table) {
    for (const [ri, x] of r.entries()) {
      const name =
        ri === 0 ? `**${x.model.name}**<br><small>${/** @type {any} */ (x.model).description ?? ''}</small>` : '';
      const strong = (/** @type {string} */ s) => (ri === 0 ? `**${s}**` : s);
      const cal = x.cal.map((c) => (c ? `${pct(c.hitFirst)} / ${pct(c.hitWithin)}` : '–'));
      const n = x.n !== trials ? ` (${x.n} trials)` : '';
      lines.push(
        `| ${name} | ${x.rule.name}${n} | ${strong(pct(x.at.falseFirst))} | ${strong(pct(x.at.falseWithin))} | ${strong(pct(x.at.falsePerRun))} | ${strong(pct(x.at.hitFirst))} | ${strong(pct(x.at.hitWithin))} | ${cal.join(' | ')} |`,
      );
    }
  }
  return lines;
}

/**
 * dind-bench's defaults against every peer held to a false-alarm rate per judged run on each model (its
 * defaults where they stay under it, else its setting calibrated to it on that model).
 * @param {Array<Array<{ model: any, rule: SequenceRule, res: { clean: Uint8Array[], worse: Uint8Array[] }, at: ReturnType<typeof rates> }>>} table
 * @param {number} judged @param {(r: any) => number} targetOf the rate, per model row
 */
function heldCheck(table, judged, targetOf) {
  const pairs = table.flatMap((r) => {
    const ours = { res: r[0].res, index: r[0].rule.params.indexOf(r[0].rule.defaultParam) };
    const target = targetOf(r);
    return r.slice(2).flatMap((peer) => {
      const index =
        peer.at.falsePerRun <= target + 1e-12
          ? peer.rule.params.indexOf(peer.rule.defaultParam)
          : oneSetting(peer.rule, [peer.res], target)?.index;
      if (index === undefined) return [];
      return [{ label: `${r[0].model.name} vs ${peer.rule.name}`, ours, held: { res: peer.res, index } }];
    });
  });
  return tally(pairs, judged);
}

/**
 * Every rule at one setting for every model (oneSetting), at 1%, 0.5% and 0.1% false alarms per judged
 * run: the check issue 21 asks for (dind-bench at its defaults and at its own one setting against every
 * peer at its one setting, on the first regressed run and within the judged runs), and the table at 1%.
 * @param {Array<Array<{ model: any, rule: SequenceRule, res: { clean: Uint8Array[], worse: Uint8Array[] }, at: ReturnType<typeof rates> }>>} table
 * @param {SequenceRule[]} rules @param {number} judged
 * @param {Array<ReturnType<typeof cleanLevels>>} ceilings per model, for the known-model threshold beside the table
 */
function oneSettingTables(table, rules, judged, ceilings) {
  const settings = [0.01, 0.005, 0.001].map((target) => ({
    target,
    per: rules.map((rule, ri) =>
      oneSetting(
        rule,
        table.map((r) => r[ri].res),
        target,
      ),
    ),
  }));
  /** rates of rule ri on model row r at sweep index i @param {typeof table[number]} r @param {number} ri @param {number} i */
  const at = (r, ri, i) => rates(r[ri].res.clean[i], r[ri].res.worse[i]);
  // one column per peer family: Bencher's t_test at 0.99 and at 0.9975 share their sweep, so one setting
  const peers = rules
    .map((_, ri) => ri)
    .filter((ri) => ri >= 2 && rules.findIndex((r) => family(r) === family(rules[ri])) === ri);
  /** dind-bench (sweep index `i`, or its defaults) against every peer at its one setting. */
  const check = (/** @type {typeof settings[number]} */ s, /** @type {number | null} */ i) =>
    tally(oneSettingPairs(table, rules, peers, s.per, i ?? rules[0].params.indexOf(rules[0].defaultParam)), judged);
  const lines = [
    '',
    `**Every rule at one setting for every model** (issue 21's check: a rule is set once, before it sees a series, so "at <= 1% false alarms on every noise model" is the loosest setting of its sweep that keeps its false alarms per judged run <= 1% on each model, the same for all; calibrating per model, as in the columns further down, lets a rule know each model's noise, which none can):`,
    '',
    `| false alarms per judged run, every model | dind-bench's one setting | the peers' one settings | dind-bench at its one setting: comparisons won or tied on both | at its defaults (alpha ${rules[0].defaultParam}) |`,
    '|---|---|---|---|---|',
  ];
  const details = [];
  for (const s of settings) {
    const ownSetting = s.per[0];
    const own = ownSetting ? check(s, ownSetting.index) : null;
    const defaults = check(s, null);
    const peerText = peers
      .map((pi) => `${family(rules[pi])}: ${s.per[pi] ? settingText(rules[pi], s.per[pi].param) : 'none under'}`)
      .join('; ');
    const won = (/** @type {{ comparisons: number, shortfalls: string[], beyond: number } | null} */ c) =>
      c ? wonText(c) : '–';
    lines.push(
      `| <= ${pct(s.target)} | ${ownSetting ? settingText(rules[0], ownSetting.param) : 'none under'} | ${peerText} | ${won(own)} | ${won(defaults)} |`,
    );
    if (own?.shortfalls.length)
      details.push(
        `At <= ${pct(s.target)}, where dind-bench at its one setting detects less: ${own.shortfalls.join('; ')}.`,
      );
    if (s.target === 0.01 && defaults.shortfalls.length)
      details.push(
        `At <= ${pct(s.target)}, where dind-bench at its defaults (alpha ${rules[0].defaultParam}) detects less than a peer at its one setting: ${defaults.shortfalls.join('; ')}.`,
      );
  }
  lines.push('', ...details.flatMap((d) => [d, '']));
  // The table at 1%: per model, each rule's false alarms and detections at its one setting.
  const s1 = settings[0];
  const shown = [0, ...peers].filter((ri) => s1.per[ri]);
  lines.push(
    `At one setting for every model, <= 1% false alarms per judged run: false alarms per judged run / 10% caught on the first regressed run / within ${judged}.`,
    '',
    `| noise model | ${shown.map((ri) => `${family(rules[ri])}, ${settingText(rules[ri], /** @type {{ param: number }} */ (s1.per[ri]).param)}`).join(' | ')} |`,
    `|---|${shown.map(() => '---').join('|')}|`,
  );
  for (const r of table) {
    const cells = shown.map((ri) => {
      const x = at(r, ri, /** @type {{ index: number }} */ (s1.per[ri]).index);
      const text = `${pct(x.falsePerRun)} / ${pct(x.hitFirst)} / ${pct(x.hitWithin)}`;
      return ri === 0 ? `**${text}**` : text;
    });
    lines.push(`| ${r[0].model.name} | ${cells.join(' | ')} |`);
  }
  if (s1.per[0]) lines.push(...visibleSplit(table, rules, ceilings, s1, peers, judged));
  if (s1.per[0]) lines.push(...ceilingLines(table, ceilings, s1.per, peers, judged));
  return lines;
}

/**
 * dind-bench at sweep index `oursIndex` against every peer at its one setting (`per`, by rule), on the models
 * `keep` lets through (by row index): the pairs the one-setting check tallies.
 * @param {Array<Array<{ model: any, res: RuleResult }>>} table @param {SequenceRule[]} rules @param {number[]} peers
 * @param {Array<{ index: number } | null>} per @param {number} oursIndex
 * @param {(modelIndex: number) => boolean} [keep]
 */
function oneSettingPairs(table, rules, peers, per, oursIndex, keep = () => true) {
  return table.flatMap((r, mi) =>
    !keep(mi)
      ? []
      : peers.flatMap((pi) => {
          const setting = per[pi];
          if (!setting) return [];
          const label = `${r[0].model.name} vs ${family(rules[pi])}`;
          return [{ label, ours: { res: r[0].res, index: oursIndex }, held: { res: r[pi].res, index: setting.index } }];
        }),
  );
}

/**
 * The check at <= 1%, told apart by whether a 10% regression can be seen on the model at all
 * (VISIBLE_AT_ONE_PERCENT, from the known-model threshold): dind-bench at its one setting against every peer
 * at its one setting, on the models where it can and on those where it cannot.
 * @param {Array<Array<{ model: any, res: RuleResult }>>} table @param {SequenceRule[]} rules
 * @param {Array<ReturnType<typeof cleanLevels>>} ceilings
 * @param {{ per: Array<{ index: number } | null> }} s1 the settings at 1% @param {number[]} peers @param {number} judged
 */
function visibleSplit(table, rules, ceilings, s1, peers, judged) {
  const own = /** @type {{ index: number }} */ (s1.per[0]);
  const visible = table.map((_, mi) => ceilingAt(ceilings[mi], 0.01).hitFirst >= VISIBLE_AT_ONE_PERCENT);
  const pairsOf = (/** @type {boolean} */ seen) =>
    oneSettingPairs(table, rules, peers, s1.per, own.index, (mi) => visible[mi] === seen);
  const seen = tally(pairsOf(true), judged);
  const unseen = tally(pairsOf(false), judged);
  const blind = table.filter((_, mi) => !visible[mi]).map((r) => r[0].model.name);
  return [
    '',
    `**Where a 10% regression can be seen at all** (a threshold that knew the model exactly would catch at least ${pct(VISIBLE_AT_ONE_PERCENT)} of first regressed runs at 1% false alarms, ${VISIBLE_AT_ONE_PERCENT / 0.01} times its false alarms; decided by the model alone, the table "What a threshold that knew the model could catch"): on those ${visible.filter(Boolean).length} models dind-bench at its one setting wins or ties ${wonText(seen)} comparisons with the peers at theirs. On the other ${blind.length} (${blind.join('; ') || 'none'}) even a rule that knew the noise catches a 10% regression less than ${VISIBLE_AT_ONE_PERCENT / 0.01} times as often as it alarms on a clean run, so what a rule set once catches there follows the false alarms it happens to spend there: ${wonText(unseen)}.${unseen.shortfalls.length ? ` Where it detects less: ${unseen.shortfalls.join('; ')}.` : ''}`,
  ];
}

/**
 * Beside dind-bench's one setting at <= 1%: per model, what a threshold that knew the model exactly would
 * catch at the false alarms dind-bench spends there, and at 1% (bench/eval/ceiling.js); then, where a peer
 * at its one setting catches more, what that peer spends there and the known-model threshold at its rate.
 * @param {Array<Array<{ model: any, rule: SequenceRule, res: RuleResult }>>} table
 * @param {Array<ReturnType<typeof cleanLevels>>} ceilings
 * @param {Array<{ index: number } | null>} per each rule's one setting @param {number[]} peers rule indexes
 * @param {number} judged
 */
function ceilingLines(table, ceilings, per, peers, judged) {
  const rateAt = (/** @type {RuleResult} */ res, /** @type {number} */ i) => rates(res.clean[i], res.worse[i]);
  const both = (/** @type {{ hitFirst: number, hitWithin: number }} */ x) => `${pct(x.hitFirst)} / ${pct(x.hitWithin)}`;
  const lines = [
    '',
    `**What a threshold that knew the model could catch** (\`bench/eval/ceiling.js\`): a threshold on one run's level (its median, pseudo-median or mean of log samples, whichever catches most) at the clean runs' quantile for a false-alarm rate f, so that it raises exactly f per judged run, with the model known instead of estimated from 12 past runs. It is a reference for what f can buy on each model, not a strict bound: within ${judged}, a rule that pools several runs, as dind-bench's spans do, can catch more than the same threshold run by run. ${CEILING_RUNS.toLocaleString('en-US')} clean runs per model (2,000 per series of the quick-run model). Columns: dind-bench at its one setting (false alarms per judged run / first / within ${judged}), then the known-model threshold at dind-bench's false alarms on that model and at 1% (first / within ${judged} run by run).`,
    '',
    `| noise model | dind-bench at its one setting | known-model threshold at dind-bench's false alarms | at 1% |`,
    '|---|---|---|---|',
  ];
  const notes = [];
  const own = /** @type {{ index: number }} */ (per[0]);
  for (const [mi, r] of table.entries()) {
    const ours = rateAt(r[0].res, own.index);
    const atOurs = ceilingAt(ceilings[mi], ours.falsePerRun);
    lines.push(
      `| ${r[0].model.name} | ${pct(ours.falsePerRun)} / ${both(ours)} | ${both(atOurs)} | ${both(ceilingAt(ceilings[mi], 0.01))} |`,
    );
    for (const pi of peers) {
      const setting = per[pi];
      if (!setting) continue;
      const peer = rateAt(r[pi].res, setting.index);
      if (peer.hitFirst <= ours.hitFirst && peer.hitWithin <= ours.hitWithin) continue;
      notes.push(
        `${r[0].model.name}: dind-bench at its one setting spends ${pct(ours.falsePerRun)} false alarms per judged run here, at which a threshold that knew the model would catch ${pct(atOurs.hitFirst)} on the first regressed run (${pct(atOurs.hitWithin)} within ${judged} run by run); ${family(r[pi].rule)} at its one setting spends ${pct(peer.falsePerRun)} here and catches ${both(peer)}, where the known-model threshold catches ${both(ceilingAt(ceilings[mi], peer.falsePerRun))}.`,
      );
    }
  }
  if (notes.length)
    lines.push('', `Where a peer at its one setting catches more than dind-bench at its own: ${notes.join(' ')}`);
  return lines;
}
