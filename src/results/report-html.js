// A single self-contained HTML page of one run's report (no scripts, no network): the page a newcomer
// opens after the quick start. The history site with charts is built from many runs by `site build`.
import { READING, problems, summaryTables } from './report.js';

const esc = (/** @type {unknown} */ s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** @param {any} results */
export function htmlReport(results) {
  const envRows = results.environments
    .map((/** @type {any} */ e) => `<tr><td>${esc(e.key)}</td><td class="${e.status}">${esc(e.status)}</td><td>${esc(e.facts?.engineVersion ?? '–')}</td><td>${esc(e.facts?.storageDriver ?? '–')}</td><td>${esc(e.facts?.dind?.mode ?? '–')}</td><td>${esc(e.reason?.split('\n')[0] ?? '')}</td></tr>`)
    .join('\n');
  const tables = summaryTables(results)
    .map(
      (t) =>
        `<h2>${esc(t.benchmark)} <small>(${results.run.iterations} iterations)</small></h2>\n<div class="scroll"><table><thead><tr>${t.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>\n` +
        t.rows.map((r) => `<tr>${r.map((c) => `<td class="${/worse/.test(c) ? 'worse' : /better/.test(c) ? 'better' : ''}">${esc(c)}</td>`).join('')}</tr>`).join('\n') +
        '\n</tbody></table></div>',
    )
    .join('\n');
  const notRun = problems(results);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>dind-bench run ${esc(results.run.id)}</title>
<style>
:root { color-scheme: light dark; --bad: #b42318; --good: #067647; }
@media (prefers-color-scheme: dark) { :root { --bad: #f97066; --good: #47cd89; } }
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem; max-width: 80rem; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: .25rem .6rem; border-bottom: 1px solid #8884; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
.worse, .failed, .unavailable { color: var(--bad); } .better, .ok { color: var(--good); }
.scroll { overflow-x: auto; } small { font-weight: normal; opacity: .7; }
</style></head><body>
<h1>DinD vs Docker on ${esc(results.runner.name)}</h1>
<p>Profile <b>${esc(results.run.profile)}</b>, ${results.run.iterations} iterations after ${results.run.warmup} warm-up, environments interleaved.
${esc(results.host.cpuModel)} (${results.host.cores} cores, ${Math.round(results.host.memoryBytes / 2 ** 30)} GiB), ${esc(results.host.distribution)}, kernel ${esc(results.host.kernel)}, cgroup v${esc(results.host.cgroupVersion)};
outer engine ${esc(results.engines.outer.version)} (${esc(results.engines.outer.storageDriver)}). ${esc(READING)}</p>
<h2>Environments</h2>
<div class="scroll"><table><thead><tr><th>environment</th><th>status</th><th>engine</th><th>storage driver</th><th>DinD start mode</th><th>note</th></tr></thead><tbody>
${envRows}
</tbody></table></div>
${tables}
${notRun.length ? `<h2>Cells that did not run</h2><ul>${notRun.map((p) => `<li>${esc(p.split('\n')[0])}</li>`).join('')}</ul>` : ''}
<p><small>Raw samples and provenance: results.json; the tools' own output: raw/.</small></p>
</body></html>
`;
}
