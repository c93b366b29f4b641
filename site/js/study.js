// The study's views: DinD against Docker start and stop times (its Fig. 6), memory over time during a
// run (its Fig. 7b, from the cells' optional `timeseries`), Alpine against Debian.
import { addTools, alpha, colorOf, makeChart } from './charts.js';
import { getResults } from './data.js';
import { costFactor } from '#model/change.js';
import { num } from '#model/numbers.js';
import { esc, factorLabel, factorTicks } from './format.js';
import { visible } from './state.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

const STEPS = [
  ['container.create_ms', 'create'],
  ['container.start_ms', 'start'],
  ['container.first_output_ms', 'first output'],
  ['container.stop_ms', 'stop'],
  ['container.remove_ms', 'remove'],
  ['daemon.start_to_ready_ms', 'inner Engine start'],
  ['daemon.stop_ms', 'inner Engine stop'],
];

/** @param {import('#model/overview.js').Overview} latest @param {import('./state.js').State} state @param {string} runFile */
export function renderStudy(latest, state, runFile) {
  renderStartStop(latest, state);
  renderDistros(latest, state);
  renderMemory(runFile, state);
}

function renderStartStop(
  /** @type {import('#model/overview.js').Overview} */ latest,
  /** @type {import('./state.js').State} */ state,
) {
  const life = latest.rows.filter((r) => r.benchmark === 'lifecycle');
  const envKeys = [...new Set(life.flatMap((r) => Object.keys(r.envs)))].filter(
    (k) => k !== 'native' && visible(state, k, 'debian'),
  );
  const distros = [...new Set(life.map((r) => r.distro))].filter((d) => visible(state, 'docker', d));
  const rowsOut = [];
  const datasets = [];
  for (const distro of distros) {
    for (const k of envKeys) {
      const data = STEPS.map(([m]) => life.find((r) => r.metric === m && r.distro === distro)?.envs[k]?.median ?? null);
      if (data.every((v) => v == null)) continue;
      datasets.push({
        label: `${k} (${distro})`,
        data,
        backgroundColor: alpha(colorOf(k), distro === 'alpine' ? 0.45 : 0.85),
        borderColor: colorOf(k),
        borderWidth: 1,
      });
      STEPS.forEach(
        ([m, label], i) =>
          data[i] != null && rowsOut.push({ step: label, metric: m, environment: k, distro, median_ms: data[i] }),
      );
    }
  }
  makeChart(/** @type {HTMLCanvasElement} */ ($('startstop-chart')), {
    type: 'bar',
    data: { labels: STEPS.map(([, l]) => l), datasets },
    // Log axis: a DinD daemon's seconds and a container's milliseconds on one chart, both readable.
    options: {
      maintainAspectRatio: false,
      animation: false,
      scales: { y: { type: 'logarithmic', title: { display: true, text: 'ms (median, log scale)' } } },
      plugins: { tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${num(c.raw)} ms` } } },
    },
  });
  addTools($('startstop-card'), 'start-stop', () => rowsOut);
}

function renderDistros(
  /** @type {import('#model/overview.js').Overview} */ latest,
  /** @type {import('./state.js').State} */ state,
) {
  const rows = latest.rows.filter((r) => !state.bench || r.benchmark === state.bench);
  const alpine = rows.filter((r) => r.distro === 'alpine');
  const note = $('distro-note');
  /** @type {any[]} */
  const out = [];
  const datasets = [];
  if (!alpine.length) {
    const why = latest.unavailable.find((u) => u.distro === 'alpine');
    note.innerHTML = `No Alpine cells in this run${why ? `: ${esc(why.reason?.split('\n')[0] ?? why.status)}` : ''}. Showing Debian only.`;
  } else
    note.textContent =
      'Alpine median relative to Debian in the same environment: times worse, log scale (below 1 = Alpine better).';
  const envKeys = [...new Set(rows.flatMap((r) => Object.keys(r.envs)))].filter(
    (k) => k !== 'native' && visible(state, k, 'debian'),
  );
  const metrics = [...new Set(rows.map((r) => r.metric))];
  for (const k of envKeys) {
    const data = metrics.map((m) => {
      const deb = rows.find((r) => r.metric === m && r.distro === 'debian')?.envs[k];
      const alp = alpine.find((r) => r.metric === m)?.envs[k];
      const better = rows.find((r) => r.metric === m)?.better;
      if (!deb || !better) return null;
      if (!alp) {
        out.push({ metric: m, environment: k, debian: deb.median, alpine: null });
        return alpine.length ? null : 1;
      }
      const rel = better === 'lower' ? (alp.median / deb.median - 1) * 100 : (1 - alp.median / deb.median) * 100;
      const factor = costFactor(alp.median / deb.median, better);
      out.push({
        metric: m,
        environment: k,
        debian: deb.median,
        alpine: alp.median,
        alpineWorsePct: rel,
        alpineTimesWorse: factor,
      });
      return Number.isFinite(factor) && factor > 0 ? factor : null;
    });
    datasets.push({ label: k, data, backgroundColor: alpha(colorOf(k), 0.8) });
  }
  const factors = /** @type {number[]} */ (
    datasets.flatMap((d) => d.data).filter((v) => v != null && Number.isFinite(v) && v > 0)
  );
  makeChart(/** @type {HTMLCanvasElement} */ ($('distro-chart')), {
    type: 'bar',
    // Bars grow from "same" (1) on a log axis of times worse (see costFactor).
    data: { labels: metrics, datasets: datasets.map((d) => ({ ...d, base: 1 })) },
    options: {
      maintainAspectRatio: false,
      animation: false,
      scales: {
        y: {
          type: 'logarithmic',
          min: Math.min(0.5, ...factors) * 0.9,
          max: Math.max(2, ...factors) * 1.1,
          afterBuildTicks: (axis) => {
            axis.ticks = factorTicks(axis.min, axis.max);
          },
          ticks: { callback: (/** @type {number} */ v) => factorLabel(v) },
          title: {
            display: true,
            text: alpine.length ? 'Alpine, times worse than Debian (log scale)' : 'no Alpine data',
          },
        },
      },
    },
  });
  addTools($('distro-card'), 'alpine-vs-debian', () => out);
}

/** Memory samples live in the run's full results.json; it is fetched only when this card is shown. */
function renderMemory(/** @type {string} */ runFile, /** @type {import('./state.js').State} */ state) {
  const card = $('memory-card');
  const note = $('memory-note');
  const observer = new IntersectionObserver(async (entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    observer.disconnect();
    const results = await getResults(runFile);
    /** @type {any[]} */
    const rows = [];
    const datasets = [];
    // The chosen benchmark's series if it has any; otherwise every benchmark's (today only `memory`
    // samples), so the chart does not go blank because the benchmark filter points elsewhere.
    const sampled = results.cells.filter((c) => c.timeseries?.length);
    const onlyChosen = sampled.some((c) => c.benchmark === state.bench);
    for (const c of sampled) {
      if (!visible(state, c.environmentKey, c.distro) || (onlyChosen && c.benchmark !== state.bench)) continue;
      const series = c.timeseries ?? [];
      for (const ts of series) {
        if (ts.iteration !== (series[0]?.iteration ?? 1)) continue; // one iteration per cell keeps the chart readable
        datasets.push({
          label: `${c.benchmark} ${c.environmentKey} (${c.distro}) ${ts.name} [${ts.scope}]`,
          borderColor: colorOf(c.environmentKey),
          pointRadius: 0,
          borderWidth: 1.5,
          borderDash: ts.scope === 'environment' ? [5, 3] : [],
          data: ts.t.map((/** @type {number} */ t, /** @type {number} */ i) => ({ x: t / 1000, y: ts.v[i] })),
          unit: ts.unit,
        });
        ts.t.forEach((/** @type {number} */ t, /** @type {number} */ i) =>
          rows.push({
            benchmark: c.benchmark,
            environment: c.environmentKey,
            distro: c.distro,
            name: ts.name,
            scope: ts.scope,
            iteration: ts.iteration,
            t_ms: t,
            value: ts.v[i],
            unit: ts.unit,
          }),
        );
      }
    }
    if (!datasets.length) {
      note.textContent = 'No memory samples in this run (its cells carry no timeseries).';
      /** @type {HTMLElement} */ (card.querySelector('.chart-box')).hidden = true;
      return;
    }
    const unit = datasets[0].unit;
    makeChart(/** @type {HTMLCanvasElement} */ ($('memory-chart')), {
      type: 'line',
      data: { datasets },
      options: {
        maintainAspectRatio: false,
        animation: false,
        parsing: false,
        scales: {
          x: { type: 'linear', title: { display: true, text: 's since sampling began' } },
          y: { title: { display: true, text: unit } },
        },
        plugins: { legend: { labels: { boxWidth: 12, font: { size: 10 } } } },
      },
    });
    note.textContent =
      'Solid: the workload container; dashed: the whole environment (for DinD, the outer container with its inner Engine).';
    addTools(card, 'memory', () => rows);
  });
  observer.observe(card);
}
