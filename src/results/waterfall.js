// The start-up waterfall of report.html: each environment's start-up as its phases laid end to end, DinD
// beside Docker, drawn in plain HTML (the report has no scripts); and TLS on against TLS off with
// intervals. The medians and the ratio are the Reading's (src/reading/waterfall.js): laid out here only.
import { PHASE_ORDER } from '../engine/startup.js';
import { ms } from '../model/numbers.js';
import { PHASE_COLOURS as COLOURS } from '../model/phases.js';

const esc = (/** @type {unknown} */ s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const colour = (/** @type {string} */ phase) => COLOURS[PHASE_ORDER.indexOf(phase) % COLOURS.length];

/**
 * @typedef {import('../reading/waterfall.js').Bar} Bar
 * @typedef {import('../reading/waterfall.js').Waterfall} Waterfall
 */

/** One bar as a row of coloured segments, widths relative to the longest bar. @param {Bar} b @param {number} max */
function barRow(b, max) {
  const segments = b.phases.map((p) => {
    const style = `width:${((p.ms / max) * 100).toFixed(3)}%;background:${colour(p.phase)}`;
    return `<span class="wf-seg" style="${style}" title="${esc(p.phase)}: ${ms(p.ms)} ms"></span>`;
  });
  return (
    `<div class="wf-row"><span class="wf-label">${esc(b.label)}</span>` +
    `<span class="wf-bar">${segments.join('')}</span><span class="wf-total">${ms(b.total)} ms</span></div>`
  );
}

const STYLE = `<style>.wf-row { display: flex; align-items: center; gap: .5rem; margin: .2rem 0; }
.wf-label { width: 16rem; flex: none; } .wf-bar { flex: 1; display: flex; height: 1.1rem; }
.wf-seg { display: block; height: 100%; min-width: 1px; } .wf-total { width: 6rem; text-align: right; flex: none; }
.wf-legend { display: flex; flex-wrap: wrap; gap: .2rem 1rem; list-style: none; padding: 0; font-size: 85%; }
.wf-key { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; }</style>`;

/** @param {Waterfall['tls']} tls */
function tlsTable(tls) {
  if (!tls.length) return '';
  const ci = (/** @type {{median: number, low: number, high: number}} */ s) =>
    `${ms(s.median)} [${ms(s.low)}, ${ms(s.high)}] ms`;
  const ratio = (/** @type {{ratio: number, low: number, high: number}} */ r) =>
    `${r.ratio.toFixed(2)} [${r.low.toFixed(2)}, ${r.high.toFixed(2)}]`;
  const rows = tls.map(
    (t) =>
      `<tr><td>${esc(t.environment)} (${esc(t.distro)})</td><td>${ci(t.off)}</td>` +
      `<td>${ci(t.on)}</td><td>${ratio(t.ratio)}</td><td>${t.keys ? ci(t.keys) : '–'}</td></tr>`,
  );
  return (
    `<h3>TLS material made at start (as the official docker:dind image does) against none</h3>
<div class="scroll"><table><thead><tr><th>environment</th><th>start to ready, TLS off</th><th>TLS on</th>` +
    `<th>ratio on/off</th><th>key material alone</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>
<p><small>Medians with 95% bootstrap intervals; the ratio's interval is of the ratio of medians.</small></p>`
  );
}

/**
 * The report's section: the waterfall and the TLS comparison, or '' when the run has neither.
 * @param {Waterfall} w the Reading's
 */
export function waterfallSection({ bars, tls }) {
  if (!bars.length && !tls.length) return '';
  const max = Math.max(...bars.map((b) => b.total), 1);
  const used = PHASE_ORDER.filter((p) => bars.some((b) => b.phases.some((x) => x.phase === p)));
  const legend = used.map((p) => `<li><span class="wf-key" style="background:${colour(p)}"></span>${esc(p)}</li>`);
  return `<h2 id="startup">Start-up, phase by phase</h2>
<p>Each bar is one start-up: the median of each phase, laid end to end, from the moment it was asked for to the
first output of the first container (DinD), or to the inner engine's first /_ping (TLS on). Docker's engine is
already up, so its start-up is the first container's alone. Hover a segment for its phase.</p>
${STYLE}
<div class="waterfall">${bars.map((b) => barRow(b, max)).join('\n')}</div>
<ul class="wf-legend">${legend.join('')}</ul>
${tlsTable(tls)}`;
}
