// The first screen: the runner's newest run's answer table (./answer.js; the sentences of older overview
// files), then the run's facts, what changed since the previous runs, each environment against Docker per
// metric (chart and table). Everything comes from one precomputed file.
import { addTools, alpha, colorOf, makeChart } from './charts.js';
import { costChange, costFactor, worseInterval } from '#model/change.js';
import { comparedWithDocker } from '#model/environments.js';
import { jobSentence } from '#model/job-cost.js';
import { ISOLATION_FACTS, MODE_TABLE_READING, modeTableText } from '#model/isolation.js';
import { num, shortPct, unsignedPct } from '#model/numbers.js';
import { renderAnswerTable } from './answer.js';
import { date, esc, factorLabel, factorTicks, shortCommit } from './format.js';
import { visible } from './state.js';
import { verdictBadge, verdictCss, withinBadge, withinCss } from './verdicts.js';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {import('#model/overview.js').Overview} latest the runner's overview file @param {import('./state.js').State} state @param {string} runFile */
export function renderOverview(latest, state, runFile) {
  const rows = latest.rows.filter((r) => !state.bench || r.benchmark === state.bench);
  renderFacts(latest, runFile);
  renderAnswer(latest, rows, state);
  renderModes(latest);
  renderHighlights(rows, state);
  renderOverheadChart(rows, state);
  renderTable(rows, state);
  const un = latest.unavailable;
  $('unavailable').innerHTML = un.length
    ? `Not measured in this run: ${[...new Set(un.map((u) => `${u.benchmark} ${u.environmentKey} ${u.distro} (${u.status}${u.reason ? `: ${u.reason.split('\n')[0]}` : ''})`))].map(esc).join('; ')}`
    : '';
}

/**
 * The mode table of the run (overview version 6): built at publish time by the reading layer, only formatted
 * here, as report.html does; each fact's evidence on hover. Hidden for a run without one.
 * @param {import('#model/overview.js').Overview} latest
 */
function renderModes(latest) {
  const m = latest.modes;
  const card = $('modes-card');
  card.hidden = !m?.rows?.length;
  if (!m?.rows?.length) return;
  const t = modeTableText(m);
  const factFrom = t.at.facts;
  $('modes-answer').innerHTML = [m.answer, m.policyError]
    .filter((s) => typeof s === 'string' && s)
    .map((s) => `<b>${esc(/** @type {string} */ (s))}</b>`)
    .join(' ');
  const body = t.rows.map((r, row) => {
    const mode = m.rows[row];
    const tds = r.map((c, i) => {
      const f = i >= factFrom && i < factFrom + ISOLATION_FACTS.length ? ISOLATION_FACTS[i - factFrom] : null;
      const evidence = f ? (mode.facts?.[f.key]?.evidence ?? []).join('\n') : '';
      // Coloured from the mode's facts, not from the words of the cell (as report.html).
      const value = f ? mode.facts?.[f.key]?.value : undefined;
      const cls = f ? (value === f.bad ? 'fact-bad' : value === 'no' ? 'fact-ok' : '') : '';
      return `<td class="${cls}"${evidence ? ` title="${esc(evidence)}"` : ''}>${esc(c)}</td>`;
    });
    return `<tr data-mode="${esc(mode.env)}">${tds.join('')}</tr>`;
  });
  $('modes-table').innerHTML =
    `<thead><tr>${t.header.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${body.join('')}</tbody>`;
  $('modes-note').textContent = MODE_TABLE_READING;
}

/** @param {import('#model/overview.js').Overview} latest @param {string} runFile */
function renderFacts(latest, runFile) {
  const h = latest.host;
  const envs = latest.environments.flatMap((e) =>
    e.status === 'ok' && e.facts?.engineVersion
      ? [
          `${e.key}: Engine ${e.facts.engineVersion}, ${e.facts.storageDriver}${e.facts.dind ? `, started with ${e.facts.dind.mode}` : ''}`,
        ]
      : [],
  );
  const facts = [
    ['Run', `${date(latest.run.time)} (${latest.run.profile}, ${latest.run.iterations} iterations)`],
    ['Runner', `${latest.runner.name}${latest.runner.labels?.length ? ` [${latest.runner.labels.join(', ')}]` : ''}`],
    [
      'Machine',
      `${h.cpuModel}, ${h.cores} cores, ${Math.round(h.memoryBytes / 2 ** 30)} GiB, ${h.distribution}, cgroup v${h.cgroupVersion}`,
    ],
    ['Commit', shortCommit(latest.run.commit)],
    ...envs.map((/** @type {string} */ e) => ['', e]),
  ];
  $('run-facts').innerHTML =
    facts.map(([k, v]) => `<span>${k ? `${esc(k)}: ` : ''}<b>${esc(v)}</b></span>`).join('') +
    ` <a href="${esc(runFile)}">results.json</a>`;
}

/**
 * The answer to "does DinD cost me on this machine, and where?": since overview version 7 the Reading's
 * answer table, as every report opens with it; older files (a history keeps them) as they always read.
 */
function renderAnswer(
  /** @type {import('#model/overview.js').Overview} */ latest,
  /** @type {import('#model/overview.js').OverviewRow[]} */ rows,
  /** @type {import('./state.js').State} */ state,
) {
  if ((typeof latest.version === 'number' && latest.version >= 7) || latest.answer !== undefined) {
    renderAnswerTable($('answer'), latest.answer);
    return;
  }
  $('answer').className = 'answer';
  const parts = [];
  const dindKeys = [
    ...new Set(
      rows
        .flatMap((r) => Object.keys(r.vsDocker ?? {}))
        .filter((k) => comparedWithDocker(k) && visible(state, k, 'debian')),
    ),
  ];
  // A workload run: the answer is about the team's own job first, as in report.md (the model's sentence).
  for (const w of latest.jobs ?? []) parts.push(`<b>${esc(jobSentence(w))}</b>`);
  // Since overview version 5 the answer is the run's reading, built once at publish time: report.md's
  // sentences, shown as they are (escaped).
  if (Array.isArray(latest.answers)) {
    const mine = latest.answers.filter((a) => typeof a === 'string').slice(0, 20);
    $('answer').innerHTML =
      [...parts, ...mine.map((a) => `<p class="answer-line">${esc(a)}</p>`)].join(' ') ||
      'No environment in this run was compared with Docker.';
    return;
  }
  for (const k of dindKeys) {
    const cmp = rows
      .filter((r) => r.vsDocker?.[k] && visible(state, k, r.distro))
      .map((r) => ({ r, c: r.vsDocker[k] }));
    const worse = cmp.filter((x) => x.c.verdict === 'worse');
    const better = cmp.filter((x) => x.c.verdict === 'better');
    const tooFew = cmp.filter((x) => x.c.verdict === 'too few');
    // Never "worse in 0" where too few samples hide the differences: say so, what is needed, and the
    // largest estimates for what they are.
    if (tooFew.length && !worse.length && !better.length) {
      parts.push(tooFewSentence(k, cmp, tooFew));
      continue;
    }
    const top = [...worse]
      .sort((a, b) => costChange(b.c.ratio, b.r.better) - costChange(a.c.ratio, a.r.better))
      .slice(0, 3);
    parts.push(
      `<b>${esc(k)}</b> is clearly worse than plain Docker in <b>${worse.length}</b> of ${cmp.length} metrics and clearly better in ${better.length}` +
        (top.length
          ? `; most: ${top.map((x) => `${esc(x.r.metric)} ${shortPct(costChange(x.c.ratio, x.r.better))}`).join(', ')}`
          : '') +
        '.',
    );
  }
  const ready = latest.rows.find((r) => r.metric === 'daemon.start_to_ready_ms');
  if (ready) {
    for (const [k, e] of Object.entries(ready.envs)) {
      if (visible(state, k, ready.distro))
        parts.push(
          `Starting the inner Engine of ${esc(k)} takes <b>${num(e.median)} ms</b> before a job's first container.`,
        );
    }
  }
  $('answer').innerHTML = parts.length
    ? parts.join(' ')
    : 'No DinD environment in this run or these filters: nothing to compare with Docker.';
}

/**
 * The callout of an environment whose comparisons with Docker had too few samples to be tested.
 * @typedef {{r: import('#model/overview.js').OverviewRow, c: import('#model/overview.js').VsDocker}} Pair
 * @param {string} k the environment @param {Pair[]} cmp @param {Pair[]} tooFew
 */
function tooFewSentence(k, cmp, tooFew) {
  const n = Math.min(...tooFew.map((x) => x.r.envs[k]?.n ?? 0));
  const nDocker = Math.min(...tooFew.map((x) => x.r.envs.docker?.n ?? 0));
  const top = [...tooFew]
    .sort((a, b) => Math.abs(costChange(b.c.ratio, b.r.better)) - Math.abs(costChange(a.c.ratio, a.r.better)))
    .slice(0, 3);
  return (
    `<b>${esc(k)}</b>: too few samples to judge against plain Docker in <b>${tooFew.length}</b> of ${cmp.length} metrics ` +
    `(${n} vs ${nDocker} a side; at least 5 a side are needed: run 5 iterations or more, as the quick profile does)` +
    `; largest estimates, untested: ${top.map((x) => `${esc(x.r.metric)} ${shortPct(costChange(x.c.ratio, x.r.better))}`).join(', ')}.`
  );
}

/** Regressions and improvements since the previous runs of each series: the verdicts `compare --history` gives. */
function renderHighlights(
  /** @type {import('#model/overview.js').OverviewRow[]} */ rows,
  /** @type {import('./state.js').State} */ state,
) {
  const items = [];
  /** @type {Set<string>} */
  const seen = new Set();
  for (const r of rows) {
    for (const [k, e] of Object.entries(r.envs)) {
      const t = e.trend;
      if (!visible(state, k, r.distro) || !t) continue;
      seen.add(t.status);
      if (t.status !== 'regression' && t.status !== 'improvement') continue;
      items.push({ trend: t, text: `${r.benchmark} ${r.metric} in ${k} (${r.distro}): ${t.reason}` });
    }
  }
  const li = (i) => `<li class="${verdictCss(i.trend)}">${verdictBadge(i.trend, esc)} ${esc(i.text)}</li>`;
  items.sort((a, b) => (a.trend.status === b.trend.status ? 0 : a.trend.status === 'regression' ? -1 : 1));
  const waiting = seen.has('baseline') || seen.has('insufficient data');
  // A long list would push the charts off the screen: the first ten, the rest one click away.
  $('highlights').innerHTML = items.length
    ? `<h3>Since the previous runs</h3><ul>${items.slice(0, 10).map(li).join('')}</ul>` +
      (items.length > 10
        ? `<details><summary>${items.length - 10} more</summary><ul>${items.slice(10).map(li).join('')}</ul></details>`
        : '')
    : `<p class="note">No regression or improvement since the previous runs${waiting ? ' (some series have too few earlier runs for a verdict yet)' : ''}: ` +
      "each run's median against the medians of its earlier runs on this machine, as `dind-bench compare --history` judges it.</p>";
}

function renderOverheadChart(
  /** @type {import('#model/overview.js').OverviewRow[]} */ rows,
  /** @type {import('./state.js').State} */ state,
) {
  const bars = overheadBars(rows, state);
  const finite = bars.flatMap((b) => [b.factorLow, b.factorHigh, b.factor]).filter((v) => Number.isFinite(v) && v > 0);
  const axisMin = Math.max(1e-3, Math.min(0.5, ...finite) * 0.9);
  const axisMax = Math.min(1e3, Math.max(2, ...finite) * 1.1);
  const card = $('overhead-card');
  /** @type {HTMLElement} */ (card.querySelector('.chart-box')).style.height =
    `${Math.max(160, 60 + bars.length * 22)}px`;
  const color = (/** @type {string | null} */ v) =>
    getComputedStyle(document.documentElement)
      .getPropertyValue(v === 'worse' ? '--worse' : v === 'better' ? '--better' : '--same')
      .trim();
  const chart = makeChart(
    /** @type {HTMLCanvasElement} */ ($('overhead-chart')),
    overheadConfig(bars, axisMin, axisMax, color),
  );
  addTools(card, 'dind-overhead', () => bars);
  return chart;
}

function renderTable(
  /** @type {import('#model/overview.js').OverviewRow[]} */ rows,
  /** @type {import('./state.js').State} */ state,
) {
  const head =
    '<thead><tr><th scope="col">benchmark</th><th scope="col">metric</th><th scope="col">distro</th><th scope="col">environment</th><th scope="col">median [95% interval]</th><th scope="col">vs Docker [95% interval]</th><th scope="col">Cliff\'s δ</th><th scope="col" title="the smallest change against Docker this run could detect (p &lt; 0.05, power 0.8), and the iterations per side that would detect 5%">detectable, iterations for 5%</th><th scope="col" title="this run against the series\' earlier runs, and the smallest change a run like this one could be flagged for against that history: a series that sees only 15% can never show a 10% regression">since previous runs (sees)</th></tr></thead>';
  const body = [];
  for (const r of rows) {
    for (const [k, e] of Object.entries(r.envs).sort(([a], [b]) =>
      a === 'docker' ? -1 : b === 'docker' ? 1 : a.localeCompare(b),
    )) {
      if (!visible(state, k, r.distro)) continue;
      const env = e;
      const c = r.vsDocker?.[k];
      const [lo, hi] = c ? worseInterval(c, r.better) : [NaN, NaN];
      const t = env.trend;
      body.push(
        `<tr data-key="${esc(env.key)}"><td>${esc(r.benchmark)}</td><td>${esc(r.metric)} <span class="note">${esc(r.unit)}, ${r.better} is better</span></td><td>${esc(r.distro)}</td>` +
          `<td><span style="color:${colorOf(k)}">■</span> ${esc(k)}</td><td class="num">${num(env.median)} [${num(env.low)}–${num(env.high)}]</td>` +
          `<td class="num vs ${withinCss(c?.verdict)}">${c ? `${shortPct(costChange(c.ratio, r.better))} [${shortPct(lo)}, ${shortPct(hi)}] ${withinBadge(c.verdict, esc)}` : k === 'docker' ? 'baseline' : '–'}</td>` +
          `<td class="num">${c ? `${c.delta.toFixed(2)} ${c.magnitude}` : ''}</td>` +
          `<td class="num">${c ? detectableText(c.detectable) : ''}</td>` +
          `<td class="trend ${verdictCss(t)}">${verdictBadge(t, esc)} ${t?.change != null ? shortPct(t.change) : ''}${seesText(t?.detectable)}</td></tr>`,
      );
    }
  }
  $('overview-table').innerHTML =
    `<caption class="note">+ means worse for that metric's direction. worse and better need p &lt; 0.05 and the whole interval on one side, as <code>dind-bench compare</code> reads them.</caption>${head}<tbody>${body.join('')}</tbody>`;
}

/**
 * "12%, 40": the smallest change this run could detect against Docker, and the iterations per side for
 * 5% (src/stats/detectable.js, computed at publish time); "none" when the samples are too few for a test.
 * Worded by the model (unsignedPct), as the reports word it; test/site/site.test.js checks its shape.
 * @param {{ change: number | null, iterationsFor5Pct: number | null } | undefined} d
 */
function detectableText(d) {
  if (!d) return '–';
  const change = d.change === null ? 'none' : unsignedPct(d.change);
  return `${change}, ${d.iterationsFor5Pct === null ? '>10,000' : d.iterationsFor5Pct.toLocaleString('en')}`;
}

/**
 * " · sees ≥ 12%": beside a verdict against history, the smallest change this series' history lets a run
 * be flagged for (publish computes it with the verdict's own rule); nothing when the history is too short.
 * @param {{ change: number | null } | undefined} d
 */
function seesText(d) {
  if (!d || typeof d.change !== 'number' || !Number.isFinite(d.change)) return '';
  return ` <span class="note sees" title="smallest change against this history a run like this one could be flagged for">sees ≥ ${unsignedPct(d.change)}</span>`;
}

/**
 * Each DinD environment against Docker on each metric, worst first: the change in cost with its interval
 * (the model's costChange and worseInterval, as the reports print them) and, for the log axis, the cost
 * factor (costFactor: +9,000% and +3% are both readable on it) with its interval.
 * @param {import('#model/overview.js').OverviewRow[]} rows @param {import('./state.js').State} state
 */
function overheadBars(rows, state) {
  const bars = [];
  for (const r of rows) {
    for (const [k, c] of Object.entries(r.vsDocker ?? {})) {
      // Every environment the reports compare with Docker (its descriptor's), as in report.md.
      if (!comparedWithDocker(k) || !visible(state, k, r.distro)) continue;
      const [lo, hi] = worseInterval(c, r.better);
      const factor = costFactor(c.ratio, r.better);
      const ends = [costFactor(c.low, r.better), costFactor(c.high, r.better)].filter(
        (v) => Number.isFinite(v) && v > 0,
      );
      bars.push({
        label: `${r.metric} · ${k} · ${r.distro}`,
        benchmark: r.benchmark,
        metric: r.metric,
        environment: k,
        distro: r.distro,
        unit: r.unit,
        change: costChange(c.ratio, r.better),
        low: lo,
        high: hi,
        ratio: c.ratio,
        delta: c.delta,
        magnitude: c.magnitude,
        verdict: c.verdict,
        better: r.better,
        factor,
        factorLow: ends.length === 2 ? Math.min(...ends) : factor,
        factorHigh: ends.length === 2 ? Math.max(...ends) : factor,
      });
    }
  }
  return bars.sort((a, b) => b.change - a.change);
}

/**
 * The overhead chart: a bar per interval on a log axis of the cost factor, the median as a tick.
 * @param {ReturnType<typeof overheadBars>} bars @param {number} axisMin @param {number} axisMax
 * @param {(verdict: string | null) => string} color
 */
function overheadConfig(bars, axisMin, axisMax, color) {
  return {
    type: 'bar',
    data: {
      labels: bars.map((b) => b.label),
      datasets: [
        {
          label: '95% interval (times worse than Docker)',
          data: bars.map((b) => [b.factorLow, b.factorHigh]),
          backgroundColor: bars.map((b) => alpha(color(b.verdict), 0.45)),
          borderColor: bars.map((b) => color(b.verdict)),
          borderWidth: 1,
          barPercentage: 0.7,
        },
        {
          type: 'line',
          label: 'median ratio',
          data: bars.map((b) => b.factor),
          showLine: false,
          pointStyle: 'line',
          pointRadius: 9,
          pointBorderWidth: 3,
          borderColor: '#888',
          backgroundColor: '#888',
        },
      ],
    },
    options: {
      indexAxis: 'y',
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: {
          type: 'logarithmic',
          min: axisMin,
          max: axisMax,
          title: { display: true, text: 'times worse than plain Docker (log scale; left of "same" = better)' },
          afterBuildTicks: (axis) => {
            axis.ticks = factorTicks(axisMin, axisMax);
          },
          ticks: { callback: (/** @type {number} */ v) => factorLabel(v) },
        },
        y: { ticks: { autoSkip: false, font: { size: 11 } } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            label: (ctx) => {
              const b = bars[ctx.dataIndex];
              return `${shortPct(b.change)} [${shortPct(b.low)}, ${shortPct(b.high)}], δ ${b.delta.toFixed(2)} (${b.magnitude}), ${b.verdict}`;
            },
          },
        },
        annotation: { annotations: { zero: { type: 'line', xMin: 1, xMax: 1, borderColor: '#888', borderWidth: 1 } } },
      },
    },
  };
}
