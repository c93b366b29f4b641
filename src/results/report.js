// A first reading of one run, answer first: a sentence per DinD environment, then per benchmark the median
// of each metric per environment and one compact verdict per DinD environment against Docker (the same
// comparisons as `dind-bench compare`, from ./within-run.js), what the run could detect, and the cells that
// did not run, each reason once. Tables fit 120 columns (../text/tables.js).
import { costTable, jobSentence, pricingOf, workloadCosts } from './job-cost.js';
import { median } from '../stats/index.js';
import { num, unsignedPct } from '../model/numbers.js';
import { markdownTable, mdText, wrap } from '../text/tables.js';
import { mdBlock } from '../text/escape.js';
import { TOO_FEW_NOTE, compareWithinRun, reading } from './within-run.js';
import { answerFor, startupPhases } from '../reading/answer.js';
import { modeTable } from '../reading/modes.js';
import { MODE_TABLE_READING, modeTableText, parsePolicy } from '../model/isolation.js';

/** How results.json marks a cell left out for the budget (`sampling.stopped`, src/run/budget.js). */
const LEFT_OUT = 'left out for the budget';

/** The environments compared with plain Docker: every one but Docker and native. @param {string} k */
const againstDocker = (k) => k !== 'docker' && k !== 'native';

/**
 * @typedef {{
 *   benchmark: string, distro: string, title: string, header: string[], rows: string[][],
 *   comparisons: Array<Array<import('./within-run.js').Comparison | null>>,
 * }} SummaryTable
 * `comparisons[i][j]` is the DinD-vs-Docker comparison behind verdict column j of row i (for colours
 * and details in HTML).
 */

/**
 * Rows: one per metric, per benchmark and distribution that ran; columns: each environment's median,
 * then one compact verdict per DinD environment against Docker (see `reading` in src/compare/rows.js).
 * Environment keys lose their "@engine" suffix when every DinD cell of the benchmark runs the same inner Engine
 * (the title says which), so the table stays narrow.
 * @param {import('#model/results.js').Results} results a results document
 * @returns {SummaryTable[]}
 */
export function summaryTables(results) {
  const comparisons = compareWithinRun(results).filter((c) => c.kind === 'dind-vs-docker');

  /** @type {Map<string, any[]>} */
  const byBench = new Map();
  for (const c of results.cells) {
    if (!byBench.has(c.benchmark)) byBench.set(c.benchmark, []);
    /** @type {any[]} */ (byBench.get(c.benchmark)).push(c);
  }
  /** @type {SummaryTable[]} */
  const tables = [];
  for (const [benchmark, cells] of byBench) {
    // Only environments and distributions with a cell that ran: `problems` says why the others did not.
    const ok = cells.filter((c) => c.status === 'ok');
    // Nothing of it ran: no table of nothing (titled as if native had run), `problems` says why.
    if (!ok.length) continue;
    // Per benchmark: the quick run's next Engine line has lifecycle only, so the other tables keep "dind".
    const engines = [...new Set(ok.filter((c) => c.engine).map((c) => c.engine))];
    const short = (/** @type {string} */ k) => (engines.length === 1 ? k.replace(`@${engines[0]}`, '') : k);
    const envKeys = [...new Set(ok.map((c) => c.environmentKey))];
    const dindKeys = envKeys.filter(againstDocker);
    const distros = [...new Set(ok.filter((c) => c.distro !== 'host').map((c) => c.distro))];
    for (const distro of distros.length ? distros : ['host']) {
      const col = (/** @type {string} */ k) =>
        ok.find((c) => c.environmentKey === k && (c.distro === distro || c.distro === 'host'));
      const metricNames = [...new Set(ok.flatMap((c) => c.metrics.map((/** @type {any} */ m) => m.metric)))];
      /** @type {string[][]} */
      const rows = [];
      /** @type {Array<Array<import('./within-run.js').Comparison | null>>} */
      const rowComparisons = [];
      for (const metric of metricNames) {
        const found = envKeys.map((k) => col(k)?.metrics.find((/** @type {any} */ x) => x.metric === metric));
        const any = found.find(Boolean);
        const cmp = dindKeys.map(
          (k) =>
            comparisons.find(
              (x) =>
                x.benchmark === benchmark &&
                x.metric === metric &&
                x.candidate.env === k &&
                x.candidate.distro === distro,
            ) ?? null,
        );
        rows.push([
          `${metric} (${any?.unit ?? ''})`,
          ...found.map((m) => (m ? num(median(m.samples)) : '–')),
          ...cmp.map((c) => (c ? reading(c) : '–')),
        ]);
        rowComparisons.push(cmp);
      }
      const engineNote = engines.length === 1 && dindKeys.length ? `, inner Engine ${engines[0]}` : '';
      tables.push({
        benchmark,
        distro,
        title: `${benchmark} (${distro === 'host' ? 'native only' : distro}${engineNote}): medians, and each against Docker`,
        header: ['metric', ...envKeys.map(short), ...dindKeys.map((k) => `${short(k)} vs docker`)],
        rows,
        comparisons: rowComparisons,
      });
    }
  }
  return tables;
}

/**
 * "47%, 251": the smallest change DinD vs Docker this run could show (p < 0.05, power 0.8) and the
 * iterations per side that would show 5%; "none, 12" when the samples are too few for any test.
 * @param {import('./within-run.js').Comparison | null} c
 */
export function detectableText(c) {
  if (!c) return '–';
  const d = c.detectable;
  const change = d.change === null ? 'none' : unsignedPct(d.change);
  const n =
    d.iterationsFor5Pct === null ? `>${(10000).toLocaleString('en')}` : d.iterationsFor5Pct.toLocaleString('en');
  return `${change}, ${n}`;
}

/**
 * Per benchmark: for each metric and DinD environment, what this run could detect against Docker
 * (see detectableText), from the same comparisons as summaryTables.
 * @param {import('#model/results.js').Results} results @param {SummaryTable[]} [tables]
 */
export function detectableTables(results, tables = summaryTables(results)) {
  return tables
    .filter((t) => t.comparisons.some((row) => row.length))
    .map((t) => {
      const dind = t.header.slice(t.header.length - t.comparisons[0].length).map((h) => h.replace(/ vs docker$/, ''));
      return {
        title: t.title.replace(/: medians, and each against Docker$/, ''),
        header: ['metric', ...dind.map((k) => `${k}: detectable, iterations for 5%`)],
        // Only metrics with a comparison: a metric of native alone (its host network, in quick) has none.
        rows: t.rows
          .map((r, i) => [r[0], ...t.comparisons[i].map(detectableText)])
          .filter((_, i) => t.comparisons[i].some(Boolean)),
      };
    });
}

export const DETECTABLE_READING =
  'Smallest change this run could detect, DinD against Docker: a change of this size would be significant ' +
  '(Mann-Whitney p < 0.05) in 8 runs of 10, given the spread of these samples; then the iterations per ' +
  'side that would make 5% detectable (`--iterations`). "none": too few samples for any test. A normal ' +
  'approximation on log values (src/stats/detectable.js); against a history, `compare --history --json` gives ' +
  'the same per series (`detectable`).';

/**
 * @typedef {{ status: string, reason: string, count: number, where: string, tail?: string }} ProblemGroup
 * `reason` is the first line of the cells' reason with the cell's own image named generically, so the
 * cells of one cause (Alpine offline: every Alpine image) form one group; `where` says which cells;
 * `tail`: a failed cell's last output lines (its logTail: a job's step, stderr first), bounded (TAIL_SHOWN).
 */

/** What a report shows of a failed cell's output: its last lines, as many characters at most (results keep more). */
export const TAIL_SHOWN = { lines: 25, chars: 4000 };

/** @param {string | undefined} logTail */
function shownTail(logTail) {
  if (!logTail?.trim()) return undefined;
  const lines = logTail.trimEnd().split('\n');
  const kept = lines.slice(0, TAIL_SHOWN.lines).join('\n');
  const more =
    lines.length > TAIL_SHOWN.lines ? `\n(${lines.length - TAIL_SHOWN.lines} more lines in results.json)` : '';
  return kept.length > TAIL_SHOWN.chars
    ? `${kept.slice(0, TAIL_SHOWN.chars)}… (cut; the whole output is in raw/)`
    : kept + more;
}

/**
 * Cells that did not run, grouped by status and reason: each reason once.
 * @param {import('#model/results.js').Results} results
 * @returns {ProblemGroup[]}
 */
export function problemGroups(results) {
  /** @type {Map<string, { status: string, reason: string, cells: any[] }>} */
  const groups = new Map();
  for (const c of results.cells.filter((/** @type {any} */ x) => x.status !== 'ok')) {
    let reason = String(c.reason ?? 'no reason recorded').split('\n')[0];
    if (c.image) reason = reason.split(`image ${c.image}`).join('its image').split(c.image).join('its image');
    const key = `${c.status}\u0000${reason}`;
    if (!groups.has(key)) groups.set(key, { status: c.status, reason, cells: [] });
    /** @type {any} */ (groups.get(key)).cells.push(c);
  }
  return [...groups.values()].map((g) => {
    const tail = shownTail(g.cells.find((c) => c.logTail)?.logTail);
    return {
      status: g.status,
      reason: g.reason,
      count: g.cells.length,
      where: whereText(g.cells),
      ...(tail ? { tail } : {}),
    };
  });
}

/**
 * "sysbench, lifecycle in docker, dind@20.10 (alpine)": the benchmarks, environments and distributions
 * of a group of cells, each listed once.
 * @param {any[]} cells
 */
function whereText(cells) {
  const uniq = (/** @type {string} */ k) => [...new Set(cells.map((c) => c[k]))].join(', ');
  return `${uniq('benchmark')} in ${uniq('environmentKey')} (${uniq('distro')})`;
}

/**
 * The groups as lines for a terminal or a list: "unavailable, 36 cells: reason. Cells: where".
 * @param {import('#model/results.js').Results} results
 */
export function problems(results) {
  return problemGroups(results).map(
    (g) => `${g.status}, ${g.count} cell${g.count > 1 ? 's' : ''}: ${sentence(g.reason)} Cells: ${g.where}`,
  );
}

/** A reason as a sentence before what follows it on the same line: "... on this machine." @param {string} text */
const sentence = (text) => (/[.!?:]$/.test(text) ? text : `${text}.`);

export const READING =
  'Medians per environment. "vs docker": the environment against Docker, + is worse for that metric\'s direction. ' +
  "Each benchmark's decision metric (the number a job pays) is decided, as one of four outcomes read from its " +
  "interval (Welch on log values, at the level that holds wrong decisions at 5% over the run's decisions and " +
  'looks): "▲ regression" when it lies wholly beyond +T, "▼ improvement" wholly beyond -T, "equivalent (±T)" ' +
  'wholly inside ±T, otherwise "inconclusive", with the smallest change it could have shown ("sees ≥"). Every ' +
  'other metric is "described": its change and 95% interval, no outcome. ± is half the interval\'s width in ' +
  'percentage points. `dind-bench compare` adds the intervals per comparison (`--json` all of them).';

/**
 * The answer first, one sentence per environment compared with Docker: what it costs a job to start (in
 * seconds and dollars per 1,000 jobs, and what that is made of), then its outcomes by benchmark
 * (../reading/answer.js); then, where the run measured two inner Engine lines, what the later line does to a
 * job against the earlier one (the upgrade question). Plain text; callers escape it for their format.
 * @param {import('#model/results.js').Results} results
 * @param {import('./within-run.js').Comparison[]} [all] the run's comparisons (../reading/ readWithinRun)
 * @param {{ price?: number, billing?: import('../model/job-cost.js').Billing }} [opts] compare's pricing; else the run's
 * (run.args, as the workload's cost sentence reads it): one billing model for every sentence
 * @returns {string[]}
 */
export function answers(results, all = compareWithinRun(results), opts = {}) {
  const comparisons = all.filter((c) => c.kind === 'dind-vs-docker');
  const pricing = pricingOf(results, opts);
  return [...dockerAnswers(results, comparisons, pricing), ...upgradeAnswers(results, all, pricing)];
}

/** How the upgrade question's answer opens: compare's headline finds it by this. */
export const UPGRADE = 'The next Engine line: ';

/**
 * What each later inner Engine line does to a job against the run's oldest line: "The next Engine line:
 * dind@26.1 costs a job +1.2 s [...] to start against dind@20.10 (...)".
 * @param {import('#model/results.js').Results} results @param {import('./within-run.js').Comparison[]} all
 * @param {import('../model/job-cost.js').Pricing} opts
 */
function upgradeAnswers(results, all, opts) {
  const lines = all.filter((c) => c.kind === 'engine-line' && Number.isFinite(c.worse));
  return [...new Set(lines.map((c) => `${c.candidate.env}\u0000${c.baseline.env}`))].map((k) => {
    const [cand, base] = k.split('\u0000');
    const mine = lines.filter((c) => c.candidate.env === cand && c.baseline.env === base);
    const phases = startupPhases(results, cand, mine.find((c) => c.benchmark === 'lifecycle')?.candidate.distro);
    return `${UPGRADE}${answerFor(mine, { ...opts, phases })}`;
  });
}

/**
 * @param {import('#model/results.js').Results} results
 * @param {import('./within-run.js').Comparison[]} comparisons against Docker
 * @param {import('../model/job-cost.js').Pricing} pricing
 */
function dockerAnswers(results, comparisons, pricing) {
  const out = [];
  for (const env of results.environments.filter((/** @type {any} */ e) => e.name && againstDocker(e.name))) {
    const mine = comparisons.filter((c) => c.candidate.env === env.key && Number.isFinite(c.worse));
    const facts = env.facts;
    const what = `${env.key}${facts?.storageDriver ? ` (inner storage ${facts.storageDriver})` : ''}`;
    const cellsOf = results.cells.filter((/** @type {any} */ c) => c.environmentKey === env.key);
    if (
      mine.length === 0 &&
      cellsOf.length &&
      cellsOf.every((/** @type {any} */ c) => c.sampling?.stopped === LEFT_OUT)
    ) {
      out.push(`${what}: not measured in this run: left out for the run's budget (see the top of the report).`);
      continue;
    }
    if (env.status !== 'ok' || mine.length === 0) {
      out.push(
        `${what}: not compared with Docker in this run (${env.status !== 'ok' ? String(env.reason ?? env.status).split('\n')[0] : 'no Docker cell to compare with'}).`,
      );
      continue;
    }
    const phases = startupPhases(results, env.key, mine.find((c) => c.benchmark === 'lifecycle')?.candidate.distro);
    out.push(answerFor(mine, { ...pricing, phases }).replace(`${env.key} against`, `${what} against`));
  }
  return out;
}

/**
 * The cells a run left out for its budget, as the report's first sentence: "Measured less than planned: 3
 * cells were left out for the run's budget of 900 s: dind-vfs@20.10 (debian): lifecycle, fio; native: memory."
 * Plain text (callers escape it for their format); empty when none was.
 * @param {import('#model/results.js').Results} results
 */
export function leftOutNote(results) {
  const cells = results.cells.filter((/** @type {any} */ c) => c.sampling?.stopped === LEFT_OUT);
  if (!cells.length) return '';
  /** @type {Map<string, string[]>} benchmarks per environment and distribution */
  const per = new Map();
  for (const c of cells) {
    const where = c.distro === 'host' ? c.environmentKey : `${c.environmentKey} (${c.distro})`;
    per.set(where, [...(per.get(where) ?? []), c.benchmark]);
  }
  const budget = results.run.budgetMs ? ` of ${Math.round(results.run.budgetMs / 1000)} s` : '';
  const list = [...per].map(([where, b]) => `${where}: ${b.join(', ')}`).join('; ');
  const n = `${cells.length} cell${cells.length > 1 ? 's were' : ' was'}`;
  return `Measured less than planned: ${n} left out for the run's budget${budget}, not measured: ${list}.`;
}

/**
 * The mode table of a run (../reading/modes.js), when the run probed isolation or a policy is given: the
 * policy given here (compare --policy), else the one the run recorded (run --policy), which is read as
 * untrusted input: a recorded policy that does not parse is left out, and `policyError` says why.
 * @param {import('#model/results.js').Results} results
 * @param {{ policy?: string | null, comparisons?: import('./within-run.js').Comparison[], price?: number, billing?: import('../model/job-cost.js').Billing }} [opts]
 * @returns {(import('#model/isolation.js').ModeTable & { policyError: string | null }) | null}
 */
export function modesOf(results, opts = {}) {
  const recorded = results.run?.args?.policy;
  const text = opts.policy ?? (typeof recorded === 'string' ? recorded : null);
  if (!results.cells.some((c) => c.benchmark === 'isolation') && !text) return null;
  let policy = null;
  let policyError = null;
  if (text) {
    try {
      policy = parsePolicy(text);
    } catch (e) {
      // A policy given here was validated by the command; only a recorded one can fail here.
      policyError = `the policy recorded with the run was ignored: ${/** @type {Error} */ (e).message}`;
    }
  }
  const comparisons = opts.comparisons ?? compareWithinRun(results);
  // One billing model for the mode table too: compare's, else the run's (pricingOf).
  const pricing = pricingOf(results, { price: opts.price, billing: opts.billing });
  return { ...modeTable(results, comparisons, { policy, ...pricing }), policyError };
}

/** The mode table's Markdown section (empty without one). @param {ReturnType<typeof modesOf>} m */
export function modesMarkdown(m) {
  if (!m) return [];
  const t = modeTableText(m);
  return [
    '',
    `## ${mdText(t.title)}`,
    '',
    ...(m.answer ? [`**${mdText(m.answer)}**`, ''] : []),
    ...(m.policyError ? [mdText(m.policyError), ''] : []),
    // Wider than the report's other tables: a mode's facts and verdicts are read across, not cut.
    markdownTable(t.header, t.rows, { maxWidth: 10_000 }),
    '',
    mdText(MODE_TABLE_READING),
  ];
}

/**
 * The mode table for a terminal: a block per mode (its name and whether it meets the policy, its facts,
 * what it costs, its verdicts against docker), each line wrapped, then the answer. Empty without one.
 * @param {ReturnType<typeof modesOf>} m @returns {string[]}
 */
export function modesTerminal(m) {
  if (!m) return [];
  const t = modeTableText(m);
  const at = (/** @type {string[]} */ r, /** @type {string} */ label) => r[t.header.indexOf(label)];
  const facts = t.header.slice(m.policy ? 2 : 1, t.header.indexOf('start-up a job pays'));
  const blocks = t.rows.map((r) => {
    const meets = m.policy ? ` (meets ${m.policy}: ${r[1]})` : '';
    const cost = t.header.slice(t.header.indexOf('start-up a job pays'), t.header.indexOf('against docker'));
    return [
      `${r[0]}${meets}`,
      wrap(`  isolation: ${facts.map((h) => `${h} ${at(r, h)}`).join(' · ')}`),
      wrap(`  ${[...cost, 'cells failed'].map((h) => `${h} ${at(r, h)}`).join(' · ')}`),
      wrap(`  against docker: ${at(r, 'against docker')}`),
    ].join('\n');
  });
  return [
    `${t.title}\n\n${blocks.join('\n\n')}`,
    ...(m.policyError ? [wrap(m.policyError)] : []),
    ...(m.answer ? [wrap(m.answer)] : []),
  ];
}

/** The Markdown report of a run. @param {import('#model/results.js').Results} results */
export function markdownReport(results) {
  const out = [`# dind-bench run ${mdText(results.run.id)}`, ''];
  const left = leftOutNote(results);
  if (left) out.push(`**${mdText(left)}**`, '');
  out.push(
    `Profile **${mdText(results.run.profile)}**, ${results.run.iterations} iterations (+${results.run.warmup} warm-up), ` +
      `host ${mdText(results.host.cpuModel)} (${results.host.cores} cores), ${mdText(results.host.distribution)}, cgroup v${mdText(results.host.cgroupVersion)}, ` +
      `outer engine ${mdText(results.engines.outer.version)} (${mdText(results.engines.outer.storageDriver)}).`,
    '',
  );
  for (const w of workloadCosts(results)) out.push(`**${mdText(jobSentence(w))}**`, '');
  for (const a of answers(results)) out.push(`- ${mdText(a)}`);
  for (const w of workloadCosts(results)) {
    const t = costTable(w);
    out.push('', `## ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  }
  out.push(...modesMarkdown(modesOf(results)));
  const sampled = samplingNote(results);
  if (sampled) out.push('', mdText(sampled));
  out.push('', '| environment | status | engine | storage driver | DinD start mode |', '|---|---|---|---|---|');
  for (const e of results.environments) {
    const status = `${e.status}${e.facts?.isolation ? ` (${e.facts.isolation})` : ''}`;
    out.push(
      `| ${[e.key, status, e.facts?.engineVersion ?? '–', e.facts?.storageDriver ?? '–', e.facts?.dind?.mode ?? '–'].map(mdText).join(' | ')} |`,
    );
  }
  const tables = summaryTables(results);
  out.push('', READING);
  if (
    tables.some((t) =>
      t.comparisons.some((row) => row.some((c) => c?.outcome === 'inconclusive' && c.detectable.change === null)),
    )
  )
    out.push('', TOO_FEW_NOTE);
  for (const t of tables) out.push('', `## ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  const detect = detectableTables(results, tables);
  if (detect.length) {
    out.push('', '## What this run can detect', '', DETECTABLE_READING);
    for (const t of detect) out.push('', `### ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  }
  const series = memorySeriesNote(results);
  if (series) out.push('', series);
  const groups = problemGroups(results);
  if (groups.length) {
    out.push('', '## Cells that did not run', '');
    for (const g of groups) {
      out.push(
        `- **${mdText(g.status)}**, ${g.count} cell${g.count > 1 ? 's' : ''}: ${mdText(g.reason)}<br>Cells: ${mdText(g.where)}`,
      );
      if (g.tail) out.push('', mdBlock(g.tail, '  '));
    }
  }
  return out.join('\n') + '\n';
}

/**
 * One line on the sampled series (memory) a run kept: how many, in which cells and scopes. The charts
 * are drawn by the site from results.json's `timeseries`.
 * @param {import('#model/results.js').Results} results
 */
export function memorySeriesNote(results) {
  const cells = results.cells.filter((/** @type {any} */ c) => c.timeseries?.length);
  if (!cells.length) return '';
  const n = cells.reduce((a, /** @type {any} */ c) => a + c.timeseries.length, 0);
  // Names from the results document, escaped: this line is Markdown (report.md).
  const where = cells.map((/** @type {any} */ c) =>
    mdText(
      `${c.benchmark}/${c.environmentKey} (${[...new Set(c.timeseries.map((/** @type {any} */ s) => s.scope))].join(' + ')})`,
    ),
  );
  return `Time series: ${n} sampled series kept in results.json (\`timeseries\`, workload and environment scopes apart): ${where.join(', ')}.`;
}

/**
 * With `run --budget`: the budget and, per benchmark, how many iterations its cells got and why they
 * stopped (results.json: `sampling` per cell). Empty without a budget.
 * @param {import('#model/results.js').Results} results
 */
export function samplingNote(results) {
  // Cells left out for the budget are named at the top of the report (leftOutNote), not here.
  const cells = results.cells.filter((/** @type {any} */ c) => c.sampling && c.sampling.stopped !== LEFT_OUT);
  const budget = results.run.budgetMs;
  if (!cells.length) return '';
  /** @type {Map<string, string>} */
  const per = new Map();
  for (const c of cells) per.set(c.benchmark, `${c.benchmark} ${c.sampling?.iterations} (${c.sampling?.stopped})`);
  return `Adaptive sampling${budget ? ` within a budget of ${Math.round(budget / 1000)} s` : ''}: measured iterations per benchmark and why they stopped: ${[...per.values()].join(', ')}.`;
}
