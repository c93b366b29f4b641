// History charts: one per metric of the chosen benchmark, a line per environment and distribution with
// its 95% band, markers where an Engine version changed, tooltips with the run's provenance. A chart
// loads its series' monthly shards only when it scrolls into view.
import { addTools, alpha, colorOf, makeChart } from './charts.js';
import { seriesPoints } from './data.js';
import { num } from '#model/numbers.js';
import { date, esc, shortCommit } from './format.js';
import { visible } from './state.js';

/**
 * @param {import('#model/history.js').HistoryIndex} index the history's index.json @param {string} fingerprint @param {import('./state.js').State} state
 * @param {(point: import('#model/history.js').Point) => void} openRun
 */
export function renderHistory(index, fingerprint, state, openRun) {
  const box = /** @type {HTMLElement} */ (document.getElementById('history-charts'));
  box.innerHTML = '';
  const series = Object.values(index.series).filter(
    (s) =>
      s.fingerprint === fingerprint &&
      (!state.bench || s.benchmark === state.bench) &&
      visible(state, s.environmentKey, s.distro),
  );
  /** @type {Map<string, any[]>} */
  const byMetric = new Map();
  for (const s of series) {
    const id = `${s.benchmark} ${s.metric}`;
    if (!byMetric.has(id)) byMetric.set(id, []);
    /** @type {any[]} */ (byMetric.get(id)).push(s);
  }
  if (!byMetric.size) box.innerHTML = '<p class="note">No series for these filters.</p>';
  const since = state.range === 'all' ? null : new Date(Date.now() - Number(state.range) * 86400e3).toISOString();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        observer.unobserve(e.target);
        const card = /** @type {HTMLElement} */ (e.target);
        drawChart(card, /** @type {any[]} */ (byMetric.get(card.dataset.metric ?? '')), since, openRun).catch((err) => {
          card.querySelector('.note')?.append(`Could not load: ${err.message}`);
        });
      }
    },
    { rootMargin: '200px' },
  );
  for (const [id, list] of [...byMetric].sort(([a], [b]) => a.localeCompare(b))) {
    const card = document.createElement('figure');
    card.className = 'chart-card history-card';
    card.dataset.metric = id;
    card.innerHTML =
      `<figcaption><span>${esc(id)} <span class="note">${esc(list[0].unit)}, ${list[0].better} is better</span></span></figcaption>` +
      `<div class="chart-box"><canvas role="img" aria-label="${esc(id)} over time"></canvas></div><p class="note"></p>`;
    box.append(card);
    observer.observe(card);
  }
}

/**
 * @typedef {import('#model/history.js').IndexedSeries} IndexedSeries
 * @typedef {import('#model/history.js').Point} Point
 */

/** @param {HTMLElement} card @param {IndexedSeries[]} list @param {string|null} since @param {(p: Point) => void} openRun */
async function drawChart(card, list, since, openRun) {
  const loaded = await Promise.all(list.map(async (s) => ({ s, points: await seriesPoints(s, since) })));
  /** @type {any[]} Chart.js datasets */
  const datasets = [];
  /** @type {Record<string, unknown>} */
  const annotations = {};
  /** @type {Record<string, unknown>[]} */
  const rows = [];
  for (const { s, points } of loaded.sort((a, b) =>
    `${a.s.environmentKey}${a.s.distro}`.localeCompare(`${b.s.environmentKey}${b.s.distro}`),
  )) {
    if (!points.length) continue;
    datasets.push(...seriesDatasets(s, points));
    Object.assign(annotations, engineChanges(points));
    rows.push(...points.map((p) => csvRow(s, p)));
  }
  const note = /** @type {HTMLElement} */ (card.querySelector('.note'));
  if (!datasets.length) {
    note.textContent = 'No points in this time range: choose a longer range above.';
    return;
  }
  let chart = null;
  chart = makeChart(/** @type {HTMLCanvasElement} */ (card.querySelector('canvas')), {
    type: 'line',
    data: { datasets },
    options: chartOptions(datasets, annotations, list[0].unit, openRun),
  });
  card.dataset.series = String(datasets.filter((d) => !d.band).length);
  addTools(
    card,
    `history-${list[0].benchmark}-${list[0].metric}`,
    () => rows,
    () => chart,
  );
}

/**
 * One series' three datasets: its 95% band (low, then high filled down to it: '-1'; both hidden from the
 * legend and the tooltip) and its median line, Alpine dashed.
 * @param {IndexedSeries} s @param {Point[]} points
 */
function seriesDatasets(s, points) {
  const color = colorOf(s.environmentKey);
  const label = `${s.environmentKey} (${s.distro})`;
  const xy = (/** @type {Point} */ p, /** @type {'median'|'low'|'high'} */ f) => ({
    x: Date.parse(p.time),
    y: p.summary?.[f] ?? null,
    p,
  });
  const band = { band: true, borderWidth: 0, pointRadius: 0 };
  return [
    { ...band, label: `${label} low`, data: points.map((p) => xy(p, 'low')), fill: false },
    {
      ...band,
      label: `${label} high`,
      data: points.map((p) => xy(p, 'high')),
      fill: '-1',
      backgroundColor: alpha(color, 0.18),
    },
    {
      label,
      data: points.map((p) => xy(p, 'median')),
      borderColor: color,
      backgroundColor: color,
      borderDash: s.distro === 'alpine' ? [6, 4] : [],
      borderWidth: 2,
      pointRadius: points.length > 60 ? 0 : 3,
      pointHoverRadius: 5,
      tension: 0,
    },
  ];
}

/** A dashed vertical line where the Engine (outer, or inner) changed between two points. @param {Point[]} points */
function engineChanges(points) {
  /** @type {Record<string, unknown>} */
  const annotations = {};
  let prev = null;
  for (const p of points) {
    const eng = `${p.engines.outer}${p.engines.inner ? ` / inner ${p.engines.inner}` : ''}`;
    if (prev !== null && prev !== eng) {
      annotations[`e${p.time}${eng}`] = {
        type: 'line',
        xMin: Date.parse(p.time),
        xMax: Date.parse(p.time),
        borderColor: '#888',
        borderDash: [4, 4],
        borderWidth: 1,
        label: { display: true, content: `Engine ${eng}`, position: 'start', font: { size: 10 } },
      };
    }
    prev = eng;
  }
  return annotations;
}

/** A point as the chart's CSV download has it. @param {IndexedSeries} s @param {Point} p */
function csvRow(s, p) {
  return {
    series: s.key,
    environment: s.environmentKey,
    distro: s.distro,
    metric: s.metric,
    unit: s.unit,
    runId: p.runId,
    time: p.time,
    commit: p.commit,
    runner: p.runner,
    engineOuter: p.engines.outer,
    engineInner: p.engines.inner,
    storageDriver: p.storageDriver,
    ...p.summary,
    samples: p.samples.join(' '),
  };
}

/**
 * The chart's options: time axis, a click opens the run, zoom and pan, tooltips with the run's provenance.
 * @param {any[]} datasets @param {Record<string, unknown>} annotations @param {string} unit
 * @param {(p: Point) => void} openRun
 */
function chartOptions(datasets, annotations, unit, openRun) {
  return {
    maintainAspectRatio: false,
    animation: false,
    normalized: true,
    interaction: { mode: 'nearest', intersect: false },
    scales: {
      x: { type: 'time', time: { tooltipFormat: 'yyyy-MM-dd HH:mm' } },
      y: { title: { display: true, text: unit } },
    },
    onClick: (/** @type {unknown} */ _e, /** @type {{datasetIndex: number, index: number}[]} */ els) => {
      const el = els.find((x) => !datasets[x.datasetIndex].band);
      if (el) openRun(datasets[el.datasetIndex].data[el.index].p);
    },
    plugins: {
      legend: { labels: { filter: (/** @type {any} */ item) => !datasets[item.datasetIndex].band, boxWidth: 12 } },
      annotation: { annotations },
      zoom: {
        zoom: { drag: { enabled: true }, pinch: { enabled: true }, mode: 'x' },
        pan: { enabled: true, mode: 'x', modifierKey: 'shift' },
      },
      tooltip: {
        filter: (/** @type {any} */ item) => !datasets[item.datasetIndex].band,
        callbacks: {
          label: (/** @type {any} */ c) => {
            const s = c.raw.p.summary;
            return `${c.dataset.label}: ${num(s.median)} ${unit} [${num(s.low)}–${num(s.high)}], n=${s.n}`;
          },
          footer: (/** @type {any[]} */ items) => {
            const p = items[0]?.raw.p;
            return p
              ? [
                  `run ${p.runId}`,
                  `commit ${shortCommit(p.commit)}, ${date(p.time)}`,
                  `runner ${p.runner}`,
                  `Engine ${p.engines.outer}${p.engines.inner ? `, inner ${p.engines.inner}` : ''}`,
                  `storage ${p.storageDriver ?? 'none (native)'}`,
                ]
              : [];
          },
        },
      },
    },
  };
}
