// The page: read the filters from the address, load the chosen runner's overview (one small file) and
// draw it first; the index (for the history charts and the filter lists) loads alongside.
import { destroyAll } from './charts.js';
import { dataUrl, getIndex, getLatest, getOverview, runEntry } from './data.js';
import { date, esc, shortCommit } from './format.js';
import { renderHistory } from './history.js';
import { renderOverview } from './overview.js';
import { readState, writeState } from './state.js';
import { renderStudy } from './study.js';
import { renderWaterfall } from './waterfall.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

async function main() {
  const state = readState();
  const latestAll = await getLatest();
  const runners = Object.values(latestAll.runners).sort((a, b) => b.time.localeCompare(a.time));
  if (!runners.length) {
    $('answer').textContent =
      'This history holds no run yet: publish one with `dind-bench publish DIR/results.json --history HISTDIR`.';
    return;
  }
  const runner = runners.find((r) => r.fingerprint === state.runner) ?? runners[0];
  const [latest, index] = await Promise.all([getOverview(runner.file), getIndex()]);
  const benches = [...new Set(latest.rows.map((r) => r.benchmark))].sort();
  // The first view is the benchmark the answer is about (what a job pays: the start-up in lifecycle, a
  // workload's job time), not the first name in alphabetical order.
  const first =
    benches.find((b) => b.startsWith('workload.')) ?? (benches.includes('lifecycle') ? 'lifecycle' : benches[0]);
  if (!state.bench || !benches.includes(state.bench)) state.bench = /** @type {string} */ (first ?? '');

  buildFilters(runners, runner, latest, index, state);
  const render = () => {
    destroyAll();
    renderOverview(latest, state, dataUrl(runner.run));
    renderStudy(latest, state, runner.run);
    renderWaterfall(latest, state);
    renderHistory(index, runner.fingerprint, state, openRun);
    document.body.dataset.ready = 'true';
  };
  render();
  performance.mark('dind-bench:first-charts');

  $('filters').addEventListener('change', async (e) => {
    const t = /** @type {HTMLInputElement} */ (e.target);
    if (t.name === 'runner') {
      state.runner = t.value;
      writeState(state);
      location.reload(); // another runner: another overview file and other filter lists
      return;
    }
    if (t.name === 'bench') state.bench = t.value;
    else if (t.name === 'range') state.range = t.value;
    else {
      const k = /** @type {'env'|'distro'|'engine'} */ (t.name);
      const boxes = /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll(`input[name="${k}"]`)]);
      const on = boxes.filter((b) => b.checked).map((b) => b.value);
      state[k] = on.length === boxes.length ? [] : on;
    }
    writeState(state);
    render();
  });
}

/**
 * @param {import('#model/history.js').LatestRunner[]} runners @param {import('#model/history.js').LatestRunner} runner
 * @param {import('#model/overview.js').Overview} latest @param {import('#model/history.js').HistoryIndex} index
 * @param {import('./state.js').State} state
 */
function buildFilters(runners, runner, latest, index, state) {
  const select = (/** @type {string} */ id, /** @type {[string, string][]} */ options, /** @type {string} */ value) => {
    const el = /** @type {HTMLSelectElement} */ ($(id));
    el.innerHTML = options.map(([v, label]) => `<option value="${esc(v)}">${esc(label)}</option>`).join('');
    el.value = value;
  };
  select(
    'f-runner',
    runners.map((r) => [r.fingerprint, `${r.runner} (${r.fingerprint.slice(0, 6)}, ${date(r.time).slice(0, 10)})`]),
    runner.fingerprint,
  );
  const mine = Object.values(index.series).filter((s) => s.fingerprint === runner.fingerprint);
  const benches = [...new Set([...mine.map((s) => s.benchmark), ...latest.rows.map((r) => r.benchmark)])].sort();
  select(
    'f-bench',
    benches.map((b) => [b, b]),
    state.bench,
  );
  /** @type {HTMLSelectElement} */ ($('f-range')).value = state.range;
  const envs = [...new Set(mine.map((s) => s.environmentKey))].sort();
  const distros = [...new Set(mine.map((s) => s.distro))].filter((d) => d !== 'host').sort();
  const engines = [...new Set(envs.map((k) => k.split('@')[1]).filter(Boolean))].sort();
  const boxes = (
    /** @type {string} */ id,
    /** @type {string} */ name,
    /** @type {string[]} */ values,
    /** @type {string[]} */ chosen,
  ) => {
    const fs = $(id);
    fs.querySelectorAll('label').forEach((l) => l.remove());
    for (const v of values) {
      const label = document.createElement('label');
      label.innerHTML = `<input type="checkbox" name="${name}" value="${esc(v)}" ${!chosen.length || chosen.includes(v) ? 'checked' : ''}> ${esc(v)}`;
      fs.append(label);
    }
    fs.hidden = values.length === 0;
  };
  boxes('f-env', 'env', envs, state.env);
  boxes('f-distro', 'distro', distros, state.distro);
  boxes('f-engine', 'engine', engines, state.engine);
}

/** A point's run: its provenance from the month's catalog, and a link to its full results.json. @param {import('#model/history.js').Point} point */
async function openRun(point) {
  const dialog = /** @type {HTMLDialogElement} */ ($('run-dialog'));
  const run = await runEntry(point.runId, point.time);
  $('run-h').textContent = `Run ${point.runId}`;
  $('run-body').innerHTML = `<ul>
    <li>Time: ${esc(date(point.time))}</li><li>Commit: <code>${esc(shortCommit(point.commit))}</code> ${esc(point.commit ?? '')}</li>
    <li>Runner: ${esc(point.runner)}</li><li>Engine: ${esc(point.engines.outer)}${point.engines.inner ? `, inner ${esc(point.engines.inner)}` : ''}; storage ${esc(point.storageDriver ?? 'none (native)')}</li>
    <li>Samples: ${esc(point.samples.join(', '))}</li>
    ${run ? `<li>Profile ${esc(run.profile)}, ${run.complete ? 'complete' : 'some cells failed'}</li>` : ''}</ul>
    ${run ? `<p><a href="${esc(dataUrl(run.file))}">The run's full results.json</a> (every sample, host and engine facts).</p>` : ''}`;
  dialog.showModal();
}

main().catch((e) => {
  $('answer').textContent = `The history could not be loaded: ${e.message}`;
  console.error(e);
});
