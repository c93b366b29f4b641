// The start-up waterfall: each environment's start-up as its phases laid end to end (median of each
// phase), DinD beside Docker, from the lifecycle benchmark's `startup.*` and `startup_tls.*` metrics.
import { addTools, makeChart } from './charts.js';
import { num } from '#model/numbers.js';
import { PHASES, PHASE_COLOURS as COLOURS, TIMELINES } from '#model/phases.js';
import { esc } from './format.js';
import { visible } from './state.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * The bars: one per environment key (and TLS variant) with each phase's median, on one distro.
 * @param {import('#model/overview.js').OverviewRow[]} rows the overview's rows @param {import('./state.js').State} state
 */
export function waterfallBars(rows, state) {
  const life = rows.filter((r) => r.benchmark === 'lifecycle' && /^startup(_tls)?\./.test(r.metric));
  const distro =
    ['debian', ...new Set(life.map((r) => r.distro))].find((d) => life.some((r) => r.distro === d)) ?? 'debian';
  /** @type {{label: string, envKey: string, phases: Record<string, number>}[]} */
  const bars = [];
  for (const [prefix, suffix] of TIMELINES) {
    const mine = life.filter((r) => r.distro === distro && r.metric.startsWith(`${prefix}.`));
    const envKeys = [...new Set(mine.flatMap((r) => Object.keys(r.envs)))]
      .filter((k) => visible(state, k, distro))
      .sort((a, b) => Number(a !== 'docker') - Number(b !== 'docker') || a.localeCompare(b)); // Docker first: the baseline
    for (const envKey of envKeys) {
      /** @type {Record<string, number>} */
      const phases = {};
      for (const [phase] of PHASES) {
        const median = mine.find((r) => r.metric === `${prefix}.${phase}_ms`)?.envs[envKey]?.median;
        if (typeof median === 'number' && Number.isFinite(median)) phases[phase] = median;
      }
      if (Object.keys(phases).length) bars.push({ label: `${envKey}${suffix}`, envKey, phases });
    }
  }
  return { distro, bars };
}

/** @param {import('#model/overview.js').Overview} latest @param {import('./state.js').State} state */
export function renderWaterfall(latest, state) {
  const card = $('waterfall-card');
  const note = $('waterfall-note');
  const { distro, bars } = waterfallBars(latest.rows, state);
  const box = /** @type {HTMLElement} */ (card.querySelector('.chart-box'));
  if (!bars.length) {
    box.hidden = true;
    note.textContent = 'No start-up timeline in this run (the lifecycle benchmark records one from this version on).';
    return;
  }
  box.hidden = false;
  const used = PHASES.filter(([p]) => bars.some((b) => p in b.phases));
  const datasets = used.map(([phase, label]) => ({
    label,
    phase,
    data: bars.map((b) => b.phases[phase] ?? 0),
    backgroundColor: COLOURS[PHASES.findIndex(([p]) => p === phase) % COLOURS.length],
    borderWidth: 0,
  }));
  makeChart(/** @type {HTMLCanvasElement} */ ($('waterfall-chart')), {
    type: 'bar',
    data: { labels: bars.map((b) => b.label), datasets },
    options: {
      indexAxis: 'y',
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { stacked: true, title: { display: true, text: 'ms since the start was asked for (median of each phase)' } },
        y: { stacked: true },
      },
      plugins: {
        legend: { labels: { boxWidth: 10, font: { size: 10 } } },
        tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${num(c.raw)} ms` } },
      },
    },
  });
  const totals = bars.map((b) => `${esc(b.label)} ${esc(num(Object.values(b.phases).reduce((a, x) => a + x, 0)))} ms`);
  note.innerHTML =
    `Phases laid end to end (${esc(distro ?? '')}): ${totals.join('; ')}. ` +
    "Docker's engine is already up, so its start-up is the first container's alone.";
  const rows = () =>
    bars.flatMap((b) =>
      Object.entries(b.phases).map(([phase, ms]) => ({ environment: b.label, distro, phase, median_ms: ms })),
    );
  addTools(card, 'startup-waterfall', rows);
}
