// Results files written by an earlier dind-bench, read as the current one writes them: a metric added
// since then that is exactly a function of the same iteration's other metrics is derived here, so an
// earlier run still answers the question the current reading asks of it. Only exact derivations: a metric
// that would need new measurements stays missing, and its decision says so. Import-free, as the rest of
// the results model.

/**
 * The start-up a job pays before its images: the total less the image's load (0 where the engine already
 * had the image), never below 0, to the microsecond. What lifecycle records (src/engine/startup.js
 * withoutImageMs) and what an earlier file is read as (below) are this one number.
 * @param {number} totalMs @param {number} imageMs
 */
export const startupWithoutImageMs = (totalMs, imageMs) => Math.max(0, Math.round((totalMs - imageMs) * 1000) / 1000);

/**
 * The lifecycle cell with `startup.without_image_ms` (src/engine/startup.js withoutImageMs): the same
 * iteration's `startup.total_ms` less its `startup.image_load_ms` (0 where the engine already had the
 * image: no such phase). The cell as it was when it has the metric, is not lifecycle, or its samples do not
 * pair up one to one.
 * @param {import('./results.js').Cell} cell @returns {import('./results.js').Cell}
 */
export function withStartupWithoutImage(cell) {
  if (cell.benchmark !== 'lifecycle' || !Array.isArray(cell.metrics)) return cell;
  const find = (/** @type {string} */ name) => cell.metrics.find((m) => m.metric === name);
  if (find('startup.without_image_ms')) return cell;
  const total = find('startup.total_ms');
  if (!total || !total.samples.length) return cell;
  const image = find('startup.image_load_ms');
  if (image && image.samples.length !== total.samples.length) return cell;
  const samples = total.samples.map((t, i) => startupWithoutImageMs(t, image?.samples[i] ?? 0));
  return { ...cell, metrics: [...cell.metrics, { ...total, metric: 'startup.without_image_ms', samples, warmup: [] }] };
}
