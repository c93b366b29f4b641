// A single self-contained HTML page of one run's report (no scripts, no network): the page a newcomer
// opens after the quick start. It answers first (a sentence per DinD environment), then shows DinD
// against Docker as a chart with intervals, then the tables. It fits a 1400 px wide window without
// horizontal scrolling. The history site with charts over many runs is built by `site build`.
import { DETECTABLE_READING, READING } from '../reading/tables.js';
import { ISOLATION_FACTS, MODE_TABLE_READING, modeTableText } from '../model/isolation.js';
import { TOO_FEW_NOTE, costFactor, details, reading, worseInterval } from '../model/change.js';
import { waterfallSection } from './waterfall.js';
import { answerHtml, costSentence, esc, partsHtml } from '../text/answer.js';

export { esc };

/**
 * The page's Content-Security-Policy: it runs no script at all and loads nothing (its styles are its own,
 * inline: a style sheet and the waterfall's widths), so a script that a results file got into the page
 * past escaping would not run, and nothing could be fetched or sent from it.
 */
export const REPORT_CSP =
  "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * @param {import('../reading/read-run.js').RunReading} r the run's Reading
 * @param {import('#model/results.js').Results} results its results (the environments and their facts)
 */
export function htmlReport(r, results) {
  const comparisons = r.comparisons.filter((c) => c.kind === 'dind-vs-docker');
  const envRows = results.environments
    .map(
      (e) =>
        `<tr><td>${esc(e.key)}</td><td class="${e.status === 'ok' ? 'ok' : 'bad'}">${esc(e.status)}</td><td>${esc(e.facts?.engineVersion ?? '–')}</td>` +
        `<td>${esc(e.facts?.storageDriver ?? '–')}</td><td>${esc(e.facts?.dind?.mode ?? '–')}</td></tr>`,
    )
    .join('\n');
  // An alternative that trades isolation away (DooD) says so beside its figures, as report.md does.
  const isolation = results.environments
    .filter((e) => e.facts?.isolation)
    .map((e) => `<p class="note isolation"><b>${esc(e.key)}</b>: ${esc(e.facts?.isolation ?? '')}</p>`)
    .join('\n');
  const tables = r.tables
    .map((t) => {
      const verdictFrom = t.header.length - (t.comparisons[0]?.length ?? 0);
      const cell = (/** @type {string} */ c, /** @type {number} */ i, /** @type {number} */ row) => {
        const cmp = i >= verdictFrom ? t.comparisons[row][i - verdictFrom] : null;
        const cls =
          cmp?.outcome === 'regression' ? 'worse' : cmp?.outcome === 'improvement' ? 'better' : i > 0 ? 'num' : '';
        return `<td class="${cls}"${cmp ? ` title="ratio ${esc(details(cmp))}"` : ''}>${esc(c)}</td>`;
      };
      return (
        `<h3>${esc(t.title)}</h3>\n<div class="scroll"><table><thead><tr>${t.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>\n` +
        t.rows.map((r, row) => `<tr>${r.map((c, i) => cell(c, i, row)).join('')}</tr>`).join('\n') +
        '\n</tbody></table></div>'
      );
    })
    .join('\n');
  const detect = r.detectable
    .map(
      (t) =>
        `<h3>${esc(t.title)}</h3>\n<div class="scroll"><table><thead><tr>${t.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>\n` +
        t.rows
          .map((r) => `<tr>${r.map((c, i) => `<td class="${i ? 'num' : ''}">${esc(c)}</td>`).join('')}</tr>`)
          .join('\n') +
        '\n</tbody></table></div>',
    )
    .join('\n');
  const groups = r.problems;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>dind-bench run ${esc(results.run.id)}</title>
<style>
:root { color-scheme: light dark; --bad: #b42318; --good: #067647; --grid: #8884; }
@media (prefers-color-scheme: dark) { :root { --bad: #f97066; --good: #47cd89; } }
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem auto; padding: 0 1.5rem; max-width: 84rem; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid var(--grid); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
table.answers td, table.answers th { text-align: left; white-space: normal; }
.worse, .bad { color: var(--bad); } .better, .ok { color: var(--good); }
.scroll { overflow-x: auto; max-width: 100%; } small, .note { font-weight: normal; opacity: .75; }
.answer { font-size: 1.1rem; } .answer li { margin: .3rem 0; }
svg { display: block; width: 100%; height: auto; font: 11px system-ui, sans-serif; }
svg text { fill: currentColor; } svg .grid { stroke: var(--grid); } svg .one { stroke: currentColor; opacity: .6; }
</style></head><body>
<h1>DinD vs Docker on ${esc(results.runner.name)}</h1>
${answerHtml(r)}
${costSentence(r) ? `<p class="answer"><b>Cost per job:</b> ${esc(costSentence(r))}</p>` : ''}
${partsHtml(r)}
<p>Profile <b>${esc(results.run.profile)}</b>, ${esc(results.run.iterations)} iterations after ${esc(results.run.warmup)} warm-up, environments interleaved.
${esc(results.host.cpuModel)} (${esc(results.host.cores)} cores, ${Math.round(results.host.memoryBytes / 2 ** 30)} GiB), ${esc(results.host.distribution)}, kernel ${esc(results.host.kernel)}, cgroup v${esc(results.host.cgroupVersion)};
outer engine ${esc(results.engines.outer.version)} (${esc(results.engines.outer.storageDriver)}). ${esc(r.samplingNote)}</p>
<h2>DinD against Docker, every metric</h2>
<p class="note">How many times worse than plain Docker (log scale: left of 1 is better): the dot is the ratio of medians (filled when the difference is significant), the line its 95% bootstrap interval; values beyond the axis end in an arrow. Hover for the numbers.</p>
${overheadChart(comparisons)}
<h2>Environments</h2>
<div class="scroll"><table><thead><tr><th>environment</th><th>status</th><th>engine</th><th>storage driver</th><th>DinD start mode</th></tr></thead><tbody>
${envRows}
</tbody></table></div>
${isolation}
${modesHtml(r.modes)}
${waterfallSection(r.waterfall)}
<h2>Medians and verdicts</h2>
<p class="note">${esc(READING)}${r.tooFew ? ` ${esc(TOO_FEW_NOTE)}` : ''}</p>
${tables}
${detect ? `<h2>What this run can detect</h2>\n<p class="note">${esc(DETECTABLE_READING)}</p>\n${detect}` : ''}
${groups.length ? `<h2>Cells that did not run</h2><ul>${groups.map((g) => `<li><b>${esc(g.status)}</b>, ${g.count} cell${g.count > 1 ? 's' : ''}: ${esc(g.reason)}<br><small>Cells: ${esc(g.where)}</small>${g.tail ? `<pre>${esc(g.tail)}</pre>` : ''}</li>`).join('')}</ul>` : ''}
<p><small>Raw samples and provenance: results.json; the tools' own output: raw/.</small></p>
</body></html>
`;
}

/**
 * The mode table as HTML: the answer, then one row per mode; a fact that weakens isolation in red, its
 * evidence on hover.
 * @param {import('../reading/read-run.js').ModesOf} m
 */
export function modesHtml(m) {
  if (!m) return '';
  const t = modeTableText(m);
  const factFrom = t.at.facts;
  const rows = t.rows.map((r, row) => {
    const mode = m.rows[row];
    const tds = r.map((c, i) => {
      const f = i >= factFrom && i < factFrom + ISOLATION_FACTS.length ? ISOLATION_FACTS[i - factFrom] : null;
      const evidence = f && mode.facts?.[f.key] ? mode.facts[f.key].evidence.join('\n') : '';
      // Coloured from the mode's facts and policy, not from the words of the cell.
      const value = f ? mode.facts?.[f.key]?.value : undefined;
      const cls = f
        ? value === f.bad
          ? 'bad'
          : value === undefined || value === 'unknown'
            ? ''
            : 'ok'
        : i === 1 && mode.policy
          ? mode.policy.meets
            ? 'ok'
            : 'bad'
          : '';
      return `<td class="${cls}"${evidence ? ` title="${esc(evidence)}"` : ''}>${esc(c)}</td>`;
    });
    return `<tr data-mode="${esc(mode.env)}">${tds.join('')}</tr>`;
  });
  return `<h2 id="modes">${esc(t.title)}</h2>
${m.answer ? `<p class="answer mode-answer"><b>${esc(m.answer)}</b></p>\n` : ''}${m.policyError ? `<p class="note bad">${esc(m.policyError)}</p>\n` : ''}<div class="scroll"><table class="modes"><thead><tr>${t.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>
<p class="note">${esc(MODE_TABLE_READING)}</p>`;
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
const W = 1240;
const LABEL_W = 330;
const ROW_H = 15;

/**
 * DinD vs Docker as an inline SVG forest plot: one row per benchmark and metric, one mark per DinD
 * environment, on a log axis of the cost factor (see costFactor), so a +9,000% cell and a 3% one are
 * both readable. The axis spans the intervals seen, at most 1/1000 to 1000.
 * @param {import('../reading/index.js').Comparison[]} comparisons
 */
export function overheadChart(comparisons) {
  const shown = comparisons.filter((c) => Number.isFinite(c.ratio.ratio) && c.ratio.ratio > 0);
  if (!shown.length) return '<p class="note">No DinD and Docker cells of the same benchmark ran: nothing to chart.</p>';
  const envs = [...new Set(shown.map((c) => c.candidate.env))];
  const rowKey = (/** @type {import('../reading/index.js').Comparison} */ c) =>
    `${c.benchmark}\u0000${c.candidate.distro}\u0000${c.metric}`;
  const rowKeys = [...new Set(shown.map(rowKey))];
  const lg = (/** @type {number} */ x) => Math.log10(x);
  const bounds = shown.flatMap((c) => {
    const [lo, hi] = worseInterval(c.ratio, c.better);
    return [lg(costFactor(c.ratio.ratio, c.better)), lg(1 + lo), lg(1 + hi)].filter(Number.isFinite);
  });
  const min = Math.max(-3, Math.min(-lg(2), ...bounds));
  const max = Math.min(3, Math.max(lg(2), ...bounds));
  const benchmarks = [...new Set(rowKeys.map((k) => k.split('\u0000').slice(0, 2).join('\u0000')))];
  // The labels' column is as wide as its longest name (at about 6.5 px a character of the 11 px font): a
  // metric's name is never cut; the chart is wider instead, and its plot keeps its width.
  const longest = Math.max(
    ...rowKeys.map((k) => 2 + Array.from(k.split('\u0000')[2]).length),
    ...benchmarks.map((b) => Array.from(b).length + 3),
  );
  const labelW = Math.max(LABEL_W, Math.ceil(20 + longest * 6.5));
  const width = W - LABEL_W + labelW;
  const plotW = width - labelW - 50;
  const x = (/** @type {number} */ f) => labelW + ((Math.min(max, Math.max(min, lg(f))) - min) / (max - min)) * plotW;
  const top = 28;
  const height = top + (rowKeys.length + benchmarks.length) * ROW_H + 10;
  const parts = [];
  // Ticks at 1, 2, 5 x powers of ten inside the axis; powers of ten only when it spans many of them.
  const steps = max - min > 2.5 ? [1] : [1, 2, 5];
  for (let e = Math.floor(min); e <= Math.ceil(max); e++) {
    for (const m of steps) {
      const f = m * 10 ** e;
      if (lg(f) < min - 1e-9 || lg(f) > max + 1e-9) continue;
      const label = f === 1 ? 'same' : f > 1 ? `${+f.toPrecision(3)}× worse` : `${+(1 / f).toPrecision(3)}× better`;
      parts.push(
        `<line class="${f === 1 ? 'one' : 'grid'}" x1="${x(f)}" x2="${x(f)}" y1="${top - 4}" y2="${height - 6}"/>`,
      );
      parts.push(`<text x="${x(f)}" y="${top - 8}" text-anchor="middle">${esc(label)}</text>`);
    }
  }
  envs.forEach((env, i) =>
    parts.push(
      `<circle cx="${8 + i * 150}" cy="10" r="4" fill="${COLORS[i % COLORS.length]}"/><text x="${16 + i * 150}" y="14">${esc(env)}</text>`,
    ),
  );
  let y = top;
  let lastGroup = '';
  for (const key of rowKeys) {
    const [benchmark, distro, metric] = key.split('\u0000');
    if (`${benchmark}\u0000${distro}` !== lastGroup) {
      lastGroup = `${benchmark}\u0000${distro}`;
      y += ROW_H;
      parts.push(`<text x="0" y="${y - 3}" font-weight="bold">${esc(benchmark)} (${esc(distro)})</text>`);
    }
    y += ROW_H;
    parts.push(`<text x="12" y="${y - 3}">${esc(metric)}</text>`);
    const mine = shown.filter((c) => rowKey(c) === key);
    mine.forEach((c) => {
      const i = envs.indexOf(c.candidate.env);
      const color = COLORS[i % COLORS.length];
      const cy = y - ROW_H / 2 + (i - (envs.length - 1) / 2) * Math.min(4, 10 / envs.length);
      const [lo, hi] = worseInterval(c.ratio, c.better);
      const f = costFactor(c.ratio.ratio, c.better);
      const tip = `${c.benchmark} ${c.metric}, ${c.candidate.env} vs ${c.baseline.env}: ${reading(c)}; ratio ${details(c)}`;
      const arrows = [
        lg(1 + lo) < min ? `<text x="${labelW - 14}" y="${cy + 4}" fill="${color}">◀</text>` : '',
        lg(1 + hi) > max ? `<text x="${labelW + plotW + 2}" y="${cy + 4}" fill="${color}">▶</text>` : '',
      ];
      parts.push(
        `<g><title>${esc(tip)}</title>` +
          (Number.isFinite(lo)
            ? `<line x1="${x(1 + lo)}" x2="${x(1 + hi)}" y1="${cy}" y2="${cy}" stroke="${color}" stroke-width="2"/>`
            : '') +
          `<circle cx="${x(f)}" cy="${cy}" r="3.5" stroke="${color}" fill="${c.significant ? color : 'none'}"/>${arrows.join('')}</g>`,
      );
    });
  }
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="DinD against Docker per metric, log scale">${parts.join('')}</svg>`;
}
