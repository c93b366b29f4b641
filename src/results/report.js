// A first reading of one run: the median of each metric per environment with its 95% interval, and DinD
// relative to Docker with the interval of the ratio, the Mann-Whitney p-value and Cliff's delta (the same
// comparisons as `dind-bench compare`, from src/compare/within-run.js).
import { compareWithinRun } from '../compare/within-run.js';
import { num, pValue, reading } from '../compare/rows.js';
import { summarize } from '../stats/index.js';

/** @param {number[]} xs */
export function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const fmt = (/** @type {number} */ x) => (Number.isNaN(x) ? '–' : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toFixed(3));

/**
 * Rows: one per benchmark, distro, metric; columns: each environment's median, then each DinD
 * environment's median relative to Docker's, as a signed percentage where + is worse.
 * @param {any} results a results document
 */
export function summaryTables(results) {
  const comparisons = compareWithinRun(results).filter((c) => c.kind === 'dind-vs-docker');
  /** @type {Map<string, any[]>} */
  const byBench = new Map();
  for (const c of results.cells) {
    const key = c.benchmark;
    if (!byBench.has(key)) byBench.set(key, []);
    /** @type {any[]} */ (byBench.get(key)).push(c);
  }
  const tables = [];
  for (const [benchmark, cells] of byBench) {
    const envKeys = [...new Set(cells.map((c) => c.environmentKey))];
    const distros = [...new Set(cells.filter((c) => c.distro !== 'host').map((c) => c.distro))];
    const header = ['metric', 'distro', ...envKeys, ...envKeys.filter((k) => k.startsWith('dind')).map((k) => `${k} vs docker`)];
    /** @type {string[][]} */
    const rows = [];
    // A distribution none of whose container cells ran gets no rows: `problems` says why.
    const ran = distros.filter((d) => cells.some((c) => c.distro === d && c.status === 'ok'));
    for (const distro of ran.length ? ran : ['host']) {
      const col = (/** @type {string} */ k) => cells.find((c) => c.environmentKey === k && (c.distro === distro || c.distro === 'host'));
      const metricNames = [...new Set(cells.flatMap((c) => c.metrics.map((/** @type {any} */ m) => m.metric)))];
      for (const metric of metricNames) {
        const row = [metric, distro];
        /** @type {Record<string, number>} */ const med = {};
        let better = 'lower';
        let unit = '';
        for (const k of envKeys) {
          const cell = col(k);
          const m = cell?.metrics.find((/** @type {any} */ x) => x.metric === metric);
          if (m) ({ better, unit } = m);
          med[k] = m ? median(m.samples) : NaN;
          const s = m && m.samples.length ? summarize(m.samples) : null;
          row.push(cell && cell.status !== 'ok' ? cell.status : s ? `${num(s.median)} [${num(s.low)}, ${num(s.high)}]` : fmt(med[k]));
        }
        for (const k of envKeys.filter((x) => x.startsWith('dind'))) {
          const c = comparisons.find((x) => x.benchmark === benchmark && x.metric === metric && x.candidate.env === k && x.candidate.distro === distro);
          row.push(c && Number.isFinite(c.ratio.ratio) ? `${reading(c)}: ratio ${c.ratio.ratio.toFixed(2)} [${c.ratio.low.toFixed(2)}, ${c.ratio.high.toFixed(2)}], p ${pValue(c.p)}, delta ${c.cliffsDelta.toFixed(2)}` : '–');
        }
        row[0] = `${metric} (${unit})`;
        rows.push(row);
      }
    }
    tables.push({ benchmark, header, rows });
  }
  return tables;
}

/** @param {string[]} header @param {string[][]} rows */
export function textTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const line = (/** @type {string[]} */ r) => r.map((c, i) => String(c ?? '').padEnd(widths[i])).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** @param {string[]} header @param {string[][]} rows */
export function markdownTable(header, rows) {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/**
 * Cells that did not run, one line per reason (Alpine offline makes many cells unavailable for one reason).
 * @param {any} results
 */
export function problems(results) {
  /** @type {Map<string, string[]>} */
  const byReason = new Map();
  for (const c of results.cells.filter((/** @type {any} */ x) => x.status !== 'ok')) {
    const key = `${c.status}: ${c.reason}`;
    if (!byReason.has(key)) byReason.set(key, []);
    /** @type {string[]} */ (byReason.get(key)).push(`${c.benchmark}/${c.environmentKey}/${c.distro}`);
  }
  return [...byReason].map(([reason, where]) => `${where.join(', ')}: ${reason}`);
}

export const READING =
  'Environment columns: median [95% bootstrap interval]. "vs docker" columns: DinD relative to Docker, + is worse for that metric\'s direction; ' +
  "it reads as worse/better only when the Mann-Whitney p < 0.05 and the ratio's interval excludes 1 (delta: Cliff's delta). `dind-bench compare` has the full tables.";

/** The Markdown report of a run. @param {any} results */
export function markdownReport(results) {
  const out = [`# dind-bench run ${results.run.id}`, ''];
  out.push(
    `Profile **${results.run.profile}**, ${results.run.iterations} iterations (+${results.run.warmup} warm-up), ` +
      `host ${results.host.cpuModel} (${results.host.cores} cores), ${results.host.distribution}, cgroup v${results.host.cgroupVersion}, ` +
      `outer engine ${results.engines.outer.version} (${results.engines.outer.storageDriver}).`,
    '',
  );
  out.push('| environment | status | engine | storage driver | DinD start mode |', '|---|---|---|---|---|');
  for (const e of results.environments) {
    out.push(`| ${e.key} | ${e.status}${e.reason ? `: ${e.reason.split('\n')[0]}` : ''} | ${e.facts?.engineVersion ?? '–'} | ${e.facts?.storageDriver ?? '–'} | ${e.facts?.dind?.mode ?? '–'} |`);
  }
  out.push('', READING);
  for (const t of summaryTables(results)) out.push('', `## ${t.benchmark}`, '', markdownTable(t.header, t.rows));
  const series = memorySeriesNote(results);
  if (series) out.push('', series);
  const p = problems(results);
  if (p.length) out.push('', '## Cells that did not run', '', ...p.map((x) => `- ${x.split('\n')[0]}`));
  return out.join('\n') + '\n';
}

/**
 * One line on the sampled series (memory) a run kept: how many, in which cells and scopes. The charts
 * are drawn by the site from results.json's `timeseries`.
 * @param {any} results
 */
export function memorySeriesNote(results) {
  const cells = results.cells.filter((/** @type {any} */ c) => c.timeseries?.length);
  if (!cells.length) return '';
  const n = cells.reduce((a, /** @type {any} */ c) => a + c.timeseries.length, 0);
  const where = cells.map((/** @type {any} */ c) => `${c.benchmark}/${c.environmentKey} (${[...new Set(c.timeseries.map((/** @type {any} */ s) => s.scope))].join(' + ')})`);
  return `Time series: ${n} sampled series kept in results.json (\`timeseries\`, workload and environment scopes apart): ${where.join(', ')}.`;
}
