// Exploration of candidate history rules on history-rate.js's sequences (same models, seeds, trials), fast:
// each run's level is computed once per sequence, each rule gives a score per judged run, and its threshold
// is the loosest whose pooled false alarms on the first clean run stay <= target (the continuous form of
// history-rate.js's sweep). Not a report: what it finds is measured by history-rate.js before it is adopted.
//
//   node bench/eval/history-explore.js [--trials N] [--seeds 42,43,44] [--only REGEX]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { median, seededRandom } from '../../src/stats/index.js';
import {
  DEFAULT_RULE,
  DEFAULT_STEPS,
  levelOf,
  medianStandardError,
  movedWorse,
  shiftTest,
  spanStats,
} from '../../src/stats/verdicts.js';
import { recordedModels } from './noise-models.js';
import { SEQUENCE, makeSequence } from './sequences.js';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '100' },
    seeds: { type: 'string', default: '42,43,44' },
    only: { type: 'string' },
    target: { type: 'string', default: '0.01' },
    series: { type: 'boolean', default: false },
  },
});
const trials = Number(values.trials);
const seeds = values.seeds.split(',').map(Number);
const target = Number(values.target);

/** @typedef {{ level: number, se: number, n: number }} L */
/** @typedef {{ pm: L, mean: L, med: L, raw: number }} Run */
/** @typedef {'pm' | 'mean' | 'med'} Kind */
/** @typedef {{ runs: number, p: number } | null} Aside */
/** A run's level of one kind. @param {Run} r @param {Kind} kind */
const pick = (r, kind) => (kind === 'mean' ? r.mean : kind === 'med' ? r.med : r.pm);

/** @param {number[]} run @returns {Run} */
function prepRun(run) {
  if (!run.every((x) => x > 0)) throw new Error('non-positive sample');
  const logs = run.map(Math.log);
  const n = logs.length;
  const m = logs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(logs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1));
  return {
    pm: { ...levelOf(logs), n },
    mean: { level: m, se: sd / Math.sqrt(n), n },
    med: { level: median(logs), se: medianStandardError(logs), n },
    raw: median(run),
  };
}

const recorded = JSON.parse(readFileSync(new URL('./recorded-samples.json', import.meta.url), 'utf8'));
const models = recordedModels(recorded);

/** Sequences per seed per model, prepared. */
const data = seeds.map((seed) =>
  models.map((m, mi) => {
    const random = seededRandom(seed * 7727 + 1000 + mi);
    return Array.from({ length: trials }, () => {
      const s = makeSequence(m, random);
      return {
        sign: /** @type {1 | -1} */ (s.better === 'lower' ? 1 : -1),
        past: s.past.map(prepRun),
        clean: s.clean.map(prepRun),
        worse: s.worse.map(prepRun),
      };
    });
  }),
);

const rule = DEFAULT_RULE;
const LOG_MIN = Math.log1p(rule.minChange);

/** z of an upper-tail p. @param {number} p */
const zOf = (p) => (p <= 0 ? 40 : p >= 1 ? -40 : -normalQuantile(p, 0, 1));
/** one-sided p of diff/scale on df. */
const pOf = (/** @type {number} */ diff, /** @type {number} */ scale, /** @type {number} */ df) =>
  scale > 0 && df > 0 ? tCdf(-diff / scale, df) : diff > 0 ? 0 : 1;

/**
 * @typedef {{ name: string, score: (runs: Run[], sign: 1 | -1) => number }} Rule
 */

/** The product's verdict (judge's regression p), with steps. @returns {Rule} */
const verdict = (
  /** @type {string} */ name,
  /** @type {import('../../src/stats/verdicts.js').Steps} */ steps,
  /** @type {Kind} */ kind = 'pm',
) => ({
  name,
  score(runs, sign) {
    const levels = runs.map((r) => pick(r, kind));
    const lv = { levels, positive: true };
    const spans = spanStats(levels, rule, steps);
    const aside = steps.aside ? movedWorse(levels, sign, rule, steps.aside, steps) : 0;
    const yard = aside ? { ...lv, levels: [...levels.slice(0, -1 - aside), levels[levels.length - 1]] } : lv;
    const w = shiftTest(yard, sign, rule, steps, aside ? spanStats(yard.levels, rule, steps) : spans);
    return w.strongest ? -w.strongest.p : -Infinity;
  },
});

/** Bencher's t_test score on raw medians. @type {Rule} */
const bencher = {
  name: 'Bencher t_test',
  score(runs, sign) {
    const xs = runs.slice(0, -1).map((r) => r.raw);
    const v = runs[runs.length - 1].raw;
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length);
    if (!(sd > 0)) return 0;
    return tCdf((sign * (v - mean)) / sd, xs.length - 1);
  },
};

const BEFORE = { ...DEFAULT_STEPS, floor: /** @type {const} */ ('noisier'), aside: undefined };
const FOUR = { ...BEFORE, spans: [1, 1, 1, 1] };

/**
 * Spans 1..4 as normal scores z_s (each span's one-sided t p as a z), combined: max_s (sqrt(s) z_s - k s)
 * (a window-limited CUSUM on the spans' standardised sums), spans whose change is under minChange left out.
 * aside: span 1 judged against the yardstick without the newest runs that moved worse.
 * @returns {Rule}
 */
const cusumSpans = (
  /** @type {number} */ k,
  /** @type {Aside} */ aside = null,
  maxSpan = 4,
  /** @type {Kind} */ kind = 'pm',
) => ({
  name: `spans CUSUM k=${k} max ${maxSpan}${aside ? ` aside ${aside.runs}:${aside.p}` : ''} ${kind}`,
  score(runs, sign) {
    const levels = runs.map((r) => pick(r, kind));
    const stats = spanStats(levels, rule, { ...FOUR, spans: Array(maxSpan).fill(1) });
    let best = -Infinity;
    for (const st of stats) {
      let { diff, scale, df, span } = st;
      if (span === 1 && aside) {
        const a = movedWorse(levels, sign, rule, aside, FOUR);
        if (a) {
          const yard = [...levels.slice(0, -1 - a), levels[levels.length - 1]];
          ({ diff, scale, df } = spanStats(yard, rule, { ...FOUR, spans: [1] })[0]);
        }
      }
      if (sign * diff < LOG_MIN) continue;
      const z = zOf(pOf(sign * diff, scale, df));
      best = Math.max(best, Math.sqrt(span) * z - k * span);
    }
    return best;
  },
});

/**
 * Self-starting CUSUM: each run from the 6th on as a span-1 residual against every run before it (z), S =
 * max(0, S + z - k) through the history; the newest S.
 * @returns {Rule}
 */
const selfStarting = (/** @type {number} */ k, /** @type {Kind} */ kind = 'pm', window = 0) => ({
  name: `self-starting CUSUM k=${k}${window ? ` window ${window}` : ''} ${kind}`,
  score(runs, sign) {
    const levels = runs.map((r) => pick(r, kind));
    let S = 0;
    const from = window ? Math.max(rule.minRuns, levels.length - window) : rule.minRuns;
    for (let i = from; i < levels.length; i++) {
      const st = spanStats(levels.slice(0, i + 1), rule, { ...FOUR, spans: [1] })[0];
      const z = zOf(pOf(sign * st.diff, st.scale, st.df));
      S = Math.max(0, S + z - k);
    }
    const last = spanStats(levels, rule, { ...FOUR, spans: [1] })[0];
    return sign * last.diff >= LOG_MIN ? S : -Infinity;
  },
});

/**
 * This run alone, with a hierarchical scale: between-run variance tau^2 = max(0, s^2 - mean past se^2), the
 * new run's variance tau^2 + its own se^2 (how: 'own'), or never below s^2 ('up').
 * @returns {Rule}
 */
const hier = (/** @type {'own' | 'up' | 'plain'} */ how, /** @type {Kind} */ kind = 'pm', dfMode = 'k-1') => ({
  name: `alone, hierarchical ${how} ${kind} df ${dfMode}`,
  score(runs, sign) {
    const levels = runs.map((r) => pick(r, kind));
    const base = levels.slice(0, -1);
    const k = base.length;
    const x = levels[k];
    const mean = base.reduce((a, r) => a + r.level, 0) / k;
    const s2 = base.reduce((a, r) => a + (r.level - mean) ** 2, 0) / (k - 1);
    const W = base.reduce((a, r) => a + r.se ** 2, 0) / k;
    const tau2 = Math.max(0, s2 - W);
    const vNew = how === 'own' ? tau2 + x.se ** 2 : how === 'up' ? Math.max(s2, tau2 + x.se ** 2) : s2;
    const scale = Math.sqrt(vNew + s2 / k);
    const diff = sign * (x.level - mean);
    if (diff < LOG_MIN) return -Infinity;
    let df = k - 1;
    if (dfMode === 'satt') {
      // Satterthwaite for tau2 + se_new^2: s2 (k-1 df) - W (k*(n-1)... treated as exact) + se^2 (n-1 df)
      const a = s2;
      const b = x.se ** 2;
      df = (vNew + s2 / k) ** 2 / ((a * (1 + 1 / k)) ** 2 / (k - 1) + (b * b) / (x.n - 1));
    }
    return -pOf(diff, scale, df);
  },
});

/**
 * Bonferroni over spans (p / weight), span 1 judged against the yardstick without the newest runs that moved
 * worse (aside), the longer spans against the runs before them as they are.
 * @returns {Rule}
 */
const splitAside = (/** @type {number[]} */ weights, /** @type {Aside} */ aside, allUp = false) => ({
  name: `split ${weights.join('/')} aside(span 1) ${aside ? `${aside.runs}:${aside.p}` : 'none'}${allUp ? ' all-up' : ''}`,
  score(runs, sign) {
    const levels = runs.map((r) => r.pm);
    const steps = { ...BEFORE, spans: weights };
    const spans = spanStats(levels, rule, steps);
    const a = aside ? movedWorse(levels, sign, rule, aside, steps) : 0;
    if (a) {
      const yard = [...levels.slice(0, -1 - a), levels[levels.length - 1]];
      spans[0] = spanStats(yard, rule, steps)[0];
    }
    let best = -Infinity;
    for (const st of spans) {
      if (sign * st.diff < LOG_MIN) continue;
      if (allUp && st.span > 1) {
        const nBase = levels.length - st.span;
        const m = levels.slice(0, nBase).reduce((a, x) => a + x.level, 0) / nBase;
        if (levels.slice(nBase).some((x) => sign * (x.level - m) <= 0)) continue;
      }
      best = Math.max(best, -Math.min(1, pOf(sign * st.diff, st.scale, st.df) / st.weight));
    }
    return best;
  },
});

/**
 * This run alone, hierarchical scale with the new run's se^2 shrunk halfway towards the past runs' mean.
 * @returns {Rule}
 */
const hierShrink = (/** @type {number} */ keep) => ({
  name: `alone, hierarchical shrink ${keep}`,
  score(runs, sign) {
    const levels = runs.map((r) => r.pm);
    const base = levels.slice(0, -1);
    const k = base.length;
    const x = levels[k];
    const mean = base.reduce((a, r) => a + r.level, 0) / k;
    const s2 = base.reduce((a, r) => a + (r.level - mean) ** 2, 0) / (k - 1);
    const W = base.reduce((a, r) => a + r.se ** 2, 0) / k;
    const vNew = Math.max(0, s2 - W) + keep * x.se ** 2 + (1 - keep) * W;
    const diff = sign * (x.level - mean);
    if (diff < LOG_MIN) return -Infinity;
    return -pOf(diff, Math.sqrt(vNew + s2 / k), k - 1);
  },
});

/** @type {Rule[]} */
const SCAN = [0.01, 0.02, 0.033, 0.05, 0.1, 0.15, 0.2].flatMap((e) =>
  [null, { runs: 3, p: 0.2 }, { runs: 3, p: 0.05 }].map((a) =>
    splitAside(
      [1 - 3 * e, e, e, e].map((x) => Number(x.toFixed(3))),
      a,
    ),
  ),
);

/** @type {Rule[]} */
const RULES = [
  verdict('floor hierarchical', { ...BEFORE, floor: 'hierarchical' }),
  verdict('as shipped', DEFAULT_STEPS),
  verdict('floor hierarchical aside 3:0.2', { ...BEFORE, floor: 'hierarchical', aside: { runs: 3, p: 0.2 } }),
  verdict('floor hierarchical .94/.02', { ...BEFORE, floor: 'hierarchical', spans: [0.94, 0.02, 0.02, 0.02] }),
  verdict('floor hierarchical .85/.05', { ...BEFORE, floor: 'hierarchical', spans: [0.85, 0.05, 0.05, 0.05] }),
  ...SCAN,
  splitAside([1], { runs: 3, p: 0.05 }),
  splitAside([1], { runs: 2, p: 0.1 }),
  splitAside([1], { runs: 1, p: 0.1 }),
  splitAside([0.9, 0.05, 0.03, 0.02], null),
  splitAside([0.9, 0.05, 0.03, 0.02], { runs: 3, p: 0.2 }),
  splitAside([0.8, 0.1, 0.05, 0.05], { runs: 3, p: 0.2 }),
  splitAside([0.7, 0.1, 0.1, 0.1], { runs: 3, p: 0.2 }),
  splitAside([0.7, 0.1, 0.1, 0.1], { runs: 3, p: 0.05 }),
  splitAside([0.5, 0.2, 0.15, 0.15], { runs: 3, p: 0.2 }),
  splitAside([0.4, 0.2, 0.2, 0.2], { runs: 3, p: 0.2 }),
  splitAside([0.7, 0.1, 0.1, 0.1], { runs: 3, p: 0.2 }, true),
  splitAside([0.5, 0.2, 0.15, 0.15], { runs: 3, p: 0.2 }, true),
  splitAside([0.7, 0.1, 0.1, 0.1], null, true),
  hierShrink(0.5),
  verdict('default (spans 1)', BEFORE),
  verdict('spans 1, aside 3:0.2', { ...BEFORE, aside: { runs: 3, p: 0.2 } }),
  verdict('spans .4/.2/.2/.2', { ...BEFORE, spans: [0.4, 0.2, 0.2, 0.2] }),
  verdict('spans .4/.2/.2/.2 aside', { ...BEFORE, spans: [0.4, 0.2, 0.2, 0.2], aside: { runs: 3, p: 0.2 } }),
  verdict('spans .7/.1/.1/.1 aside', { ...BEFORE, spans: [0.7, 0.1, 0.1, 0.1], aside: { runs: 3, p: 0.2 } }),
  verdict('spans 1 mean-of-logs', BEFORE, 'mean'),
  verdict('spans 1 median', BEFORE, 'med'),
  bencher,
  ...[0, 0.25, 0.5, 0.75, 1, 1.25, 1.5].map((k) => cusumSpans(k)),
  ...[0.5, 0.75, 1, 1.25].map((k) => cusumSpans(k, { runs: 3, p: 0.2 })),
  ...[0.75, 1, 1.25].map((k) => cusumSpans(k, { runs: 3, p: 0.05 })),
  ...[0.5, 1].map((k) => cusumSpans(k, null, 2)),
  ...[0.5, 1].map((k) => cusumSpans(k, null, 3)),
  ...[0.5, 1].map((k) => selfStarting(k)),
  ...[0.5, 1].map((k) => selfStarting(k, 'pm', 4)),
  hier('plain'),
  hier('own'),
  hier('up'),
  hier('own', 'pm', 'satt'),
];

/**
 * Scores of a rule: per seed, per model, per trial, [clean j=0..3, worse j=0..3].
 * @param {Rule} r
 */
function scores(r) {
  return data.map((bySeed) =>
    bySeed.map((seqs) =>
      seqs.map((s) => {
        const out = new Float64Array(2 * SEQUENCE.judged);
        for (const [w, judged] of [s.clean, s.worse].entries())
          for (let j = 0; j < judged.length; j++)
            out[w * SEQUENCE.judged + j] = r.score([...s.past, ...judged.slice(0, j + 1)], s.sign);
        return out;
      }),
    ),
  );
}

/** The loosest threshold: pooled first-clean alarms (score > h) <= target. @param {number[]} firsts */
function threshold(firsts) {
  const sorted = [...firsts].sort((a, b) => b - a);
  const allowed = Math.floor(target * sorted.length + 1e-9);
  return sorted[allowed];
}

const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)}%`;
const J = SEQUENCE.judged;
const only = values.only ? new RegExp(values.only) : null;
const summary = [];
for (const r of RULES) {
  if (only && !only.test(r.name)) continue;
  const t0 = performance.now();
  const sc = scores(r);
  const per = sc.map((bySeed) => {
    const firsts = bySeed.flatMap((seqs) => seqs.map((x) => x[0]));
    const h = threshold(firsts);
    let ff = 0,
      fr = 0,
      hf = 0,
      hw = 0,
      n = 0,
      worst = 0;
    for (const seqs of bySeed) {
      let f1 = 0;
      for (const x of seqs) {
        n++;
        if (x[0] > h) (ff++, f1++);
        for (let j = 0; j < J; j++) if (x[j] > h) fr++;
        if (x[J] > h) hf++;
        let any = false;
        for (let j = 0; j < J; j++) if (x[J + j] > h) any = true;
        if (any) hw++;
      }
      worst = Math.max(worst, f1 / seqs.length);
    }
    if (values.series)
      for (const [mi, seqs] of bySeed.entries()) {
        const c = (/** @type {(x: Float64Array) => boolean} */ f) => pct(seqs.filter(f).length / seqs.length);
        console.log(
          `  ${models[mi].name.replace(/^recorded, /, '').padEnd(62)} ${c((x) => x[0] > h)} / ${c((x) => x[J] > h)} / ${c((x) => x.slice(J).some((v) => v > h))}`,
        );
      }
    return { h, ff: ff / n, fr: fr / (n * J), hf: hf / n, hw: hw / n, worst };
  });
  const mean = (/** @type {(x: (typeof per)[number]) => number} */ f) => per.reduce((a, x) => a + f(x), 0) / per.length;
  const line = `${r.name.padEnd(48)} FA1 ${pct(mean((x) => x.ff))} FArun ${pct(mean((x) => x.fr))} worst ${pct(mean((x) => x.worst))} | first ${pct(mean((x) => x.hf))} within4 ${pct(mean((x) => x.hw))} | per seed ${per.map((x) => `${pct(x.hf)}/${pct(x.hw)}`).join(' ')} h ${per.map((x) => x.h.toPrecision(4)).join(' ')} (${((performance.now() - t0) / 1000).toFixed(1)} s)`;
  console.log(line);
  summary.push(line);
}

if (process.env.CEILING) {
  const { ceilingAt, cleanLevels } = await import('./ceiling.js');
  const cs = models.map((m, mi) => ceilingAt(cleanLevels(m, seededRandom(seeds[0] * 7727 + 5000 + mi), 20000), target));
  for (const name of Object.keys(cs[0].first))
    console.log(`ceiling ${name}: first ${pct(cs.reduce((a, c) => a + c.first[name], 0) / cs.length)}`);
  for (const [mi, c] of cs.entries())
    console.log(
      `${models[mi].name}: ${Object.entries(c.first)
        .map(([n, v]) => `${n} ${pct(v)}`)
        .join(', ')}`,
    );
}
