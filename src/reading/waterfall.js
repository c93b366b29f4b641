// The start-up waterfall's figures, read once with the run (./read-run.js) for report.html to lay out
// (src/results/waterfall.js): each environment's start-up as its phases end to end (the median of each
// phase's samples), and TLS on against TLS off with intervals. Reads the lifecycle cells' `startup.*`,
// `startup_tls.*`, `daemon.start_to_ready_ms` and `daemon_tls.start_to_ready_ms` metrics.
import { PHASE_ORDER } from '../engine/startup.js';
import { median, ratioOfMedians, summarize } from '../stats/index.js';

/**
 * @typedef {{label: string, phases: {phase: string, ms: number}[], total: number}} Bar
 * @typedef {{ bars: Bar[], tls: ReturnType<typeof tlsComparisons> }} Waterfall
 */

/** The lifecycle cells that ran. @param {import('#model/results.js').Results} results @returns {any[]} */
const lifecycleCells = (results) => results.cells.filter((c) => c.benchmark === 'lifecycle' && c.status === 'ok');

/** A metric's samples in a cell, or none. @param {import('#model/results.js').Cell} cell @param {string} metric @returns {number[]} */
const samplesOf = (cell, metric) => cell.metrics.find((m) => m.metric === metric)?.samples ?? [];

/**
 * The bars, one per lifecycle cell (ok, on Debian or else the first distro) and timeline kind.
 * @param {import('#model/results.js').Results} results a results document
 * @returns {Bar[]}
 */
export function waterfallBars(results) {
  const cells = lifecycleCells(results);
  const distro = ['debian', ...cells.map((c) => c.distro)].find((d) => cells.some((c) => c.distro === d));
  /** @type {Bar[]} */
  const bars = [];
  for (const [prefix, suffix] of [
    ['startup', ''],
    ['startup_tls', ' (TLS on, to /_ping)'],
  ]) {
    for (const cell of cells.filter((c) => c.distro === distro)) {
      const phases = PHASE_ORDER.flatMap((phase) => {
        const samples = samplesOf(cell, `${prefix}.${phase}_ms`);
        return samples.length ? [{ phase, ms: median(samples) }] : [];
      });
      const total = phases.reduce((a, p) => a + p.ms, 0);
      if (phases.length) bars.push({ label: `${cell.environmentKey}${suffix}`, phases, total });
    }
  }
  return bars;
}

/**
 * TLS on against TLS off, per DinD cell: start to ready (outer start call to the first OK /_ping) with
 * 95% intervals, the ratio of medians with its interval, and the key material's own phase.
 * @param {import('#model/results.js').Results} results
 */
export function tlsComparisons(results) {
  return lifecycleCells(results).flatMap((c) => {
    const off = samplesOf(c, 'daemon.start_to_ready_ms');
    const on = samplesOf(c, 'daemon_tls.start_to_ready_ms');
    const keys = samplesOf(c, 'startup_tls.tls_material_ms');
    if (!off.length || !on.length) return [];
    return [
      {
        environment: /** @type {string} */ (c.environmentKey),
        distro: /** @type {string} */ (c.distro),
        off: summarize(off),
        on: summarize(on),
        ratio: ratioOfMedians(off, on),
        keys: keys.length ? summarize(keys) : null,
      },
    ];
  });
}

/** The waterfall of a run: its bars and its TLS comparisons. @param {import('#model/results.js').Results} results @returns {Waterfall} */
export const waterfallOf = (results) => ({ bars: waterfallBars(results), tls: tlsComparisons(results) });
