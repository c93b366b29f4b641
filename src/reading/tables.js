// The tables below the answer, built once from a run and its comparisons: per benchmark the medians of each
// metric per environment and each environment against Docker, what the run could detect, the cells that
// did not run (each reason once), the sampled series kept and how sampling went. Plain text: each output
// escapes and lays them out (report.md, report.html, the terminal).
import { median } from '../stats/index.js';
import { num, unsignedPct } from '../model/numbers.js';
import { reading } from '../model/change.js';

/** @typedef {import('#model/results.js').Cell} Cell */

/** How results.json marks a cell left out for the budget (`sampling.stopped`, src/run/budget.js). */
export const LEFT_OUT = 'left out for the budget';

/** The environments compared with plain Docker: every one but Docker and native. @param {string} k */
const againstDocker = (k) => k !== 'docker' && k !== 'native';

/**
 * @typedef {{
 *   benchmark: string, distro: string, title: string, header: string[], rows: string[][],
 *   comparisons: Array<Array<import('./index.js').Comparison | null>>,
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
 * @param {import('./index.js').Comparison[]} all the run's comparisons (the Reading's)
 * @returns {SummaryTable[]}
 */
export function summaryTables(results, all) {
  const comparisons = all.filter((c) => c.kind === 'dind-vs-docker');

  /** @type {Map<string, Cell[]>} */
  const byBench = new Map();
  for (const c of results.cells) {
    if (!byBench.has(c.benchmark)) byBench.set(c.benchmark, []);
    byBench.get(c.benchmark)?.push(c);
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
      const metricNames = [...new Set(ok.flatMap((c) => c.metrics.map((m) => m.metric)))];
      /** @type {string[][]} */
      const rows = [];
      /** @type {Array<Array<import('./index.js').Comparison | null>>} */
      const rowComparisons = [];
      for (const metric of metricNames) {
        const found = envKeys.map((k) => col(k)?.metrics.find((x) => x.metric === metric));
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
 * @param {import('./index.js').Comparison | null} c
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
 * @param {SummaryTable[]} tables
 */
export function detectableTables(tables) {
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
 * @typedef {{ status: string, reason: string, count: number, where: string, line: string, tail?: string }} ProblemGroup
 * `reason` is the first line of the cells' reason with the cell's own image named generically, so the
 * cells of one cause (Alpine offline: every Alpine image) form one group; `where` says which cells;
 * `line`: the group in one line for a terminal or a list ("unavailable, 36 cells: reason. Cells: where");
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
  /** @type {Map<string, { status: string, reason: string, cells: Cell[] }>} */
  const groups = new Map();
  for (const c of results.cells.filter((x) => x.status !== 'ok')) {
    let reason = String(c.reason ?? 'no reason recorded').split('\n')[0];
    if (c.image) reason = reason.split(`image ${c.image}`).join('its image').split(c.image).join('its image');
    const key = `${c.status}\u0000${reason}`;
    if (!groups.has(key)) groups.set(key, { status: c.status, reason, cells: [] });
    groups.get(key)?.cells.push(c);
  }
  return [...groups.values()].map((g) => {
    const tail = shownTail(g.cells.find((c) => c.logTail)?.logTail);
    const where = whereText(g.cells);
    const n = g.cells.length;
    return {
      status: g.status,
      reason: g.reason,
      count: n,
      where,
      line: `${g.status}, ${n} cell${n > 1 ? 's' : ''}: ${sentence(g.reason)} Cells: ${where}`,
      ...(tail ? { tail } : {}),
    };
  });
}

/**
 * "sysbench, lifecycle in docker, dind@20.10 (alpine)": the benchmarks, environments and distributions
 * of a group of cells, each listed once.
 * @param {Cell[]} cells
 */
function whereText(cells) {
  const uniq = (/** @type {string} */ k) => [...new Set(cells.map((c) => c[k]))].join(', ');
  return `${uniq('benchmark')} in ${uniq('environmentKey')} (${uniq('distro')})`;
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
 * One line on the sampled series (memory) a run kept: how many, in which cells and scopes. The charts
 * are drawn by the site from results.json's `timeseries`.
 * @param {import('#model/results.js').Results} results
 */
export function memorySeriesNote(results) {
  const cells = results.cells.filter((c) => c.timeseries?.length);
  if (!cells.length) return '';
  const n = cells.reduce((a, c) => a + (c.timeseries?.length ?? 0), 0);
  const where = cells.map(
    (c) => `${c.benchmark}/${c.environmentKey} (${[...new Set((c.timeseries ?? []).map((s) => s.scope))].join(' + ')})`,
  );
  return `Time series: ${n} sampled series kept in results.json (timeseries, workload and environment scopes apart): ${where.join(', ')}.`;
}

/**
 * With `run --budget`: the budget and, per benchmark, how many iterations its cells got and why they
 * stopped (results.json: `sampling` per cell). Empty without a budget.
 * @param {import('#model/results.js').Results} results
 */
export function samplingNote(results) {
  // Cells left out for the budget are named at the top of the report (leftOutNote), not here.
  const cells = results.cells.filter((c) => c.sampling && c.sampling.stopped !== LEFT_OUT);
  const budget = results.run.budgetMs;
  if (!cells.length) return '';
  /** @type {Map<string, string>} */
  const per = new Map();
  for (const c of cells) per.set(c.benchmark, `${c.benchmark} ${c.sampling?.iterations} (${c.sampling?.stopped})`);
  return `Adaptive sampling${budget ? ` within a budget of ${Math.round(budget / 1000)} s` : ''}: measured iterations per benchmark and why they stopped: ${[...per.values()].join(', ')}.`;
}
