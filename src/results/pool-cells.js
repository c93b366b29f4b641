// The cells of sample shards pooled: a workload too long for one job runs in shard jobs that each hold every
// environment of the run, interleaved there, with a share of its samples (src/workflow/workload-shards.js).
// Merged, each cell is one cell again, its samples every shard's in shard order: each shard's rounds stay
// together, so a pairing by round index pairs samples of one runner and one time. Pure.

/** A cell's raw files, time series: a pooled cell keeps at most this many of each (the schema's bound). */
const MAX_ITEMS = 10_000;

/**
 * @typedef {import('#model/results.js').Results['cells'][number]} Cell
 * @typedef {{ file: string, results: import('#model/results.js').Results }} PoolShard
 */

/**
 * Every cell once: the same cell of several shards as one, its metrics' samples and warm-ups in shard order.
 * A cell that failed in one shard and ran in another keeps the samples that were measured; failed
 * everywhere, the first shard's failure stands.
 * @param {PoolShard[]} shards @returns {Cell[]}
 */
export function poolCells(shards) {
  /** @type {Map<string, Cell[]>} */
  const byKey = new Map();
  for (const s of shards) {
    for (const c of s.results.cells) {
      const key = `${c.benchmark}/${c.environmentKey}/${c.distro}`;
      byKey.set(key, [...(byKey.get(key) ?? []), c]);
    }
  }
  return [...byKey.values()].map((copies) => (copies.length === 1 ? copies[0] : pool(copies)));
}

/** @param {Cell[]} copies the same cell from each shard that has it @returns {Cell} */
function pool(copies) {
  const ok = copies.filter((c) => c.status === 'ok');
  if (!ok.length) return copies[0];
  const [first] = ok;
  const metrics = first.metrics.map((m) => {
    const same = ok.map((c) => c.metrics.find((x) => x.metric === m.metric)).filter((x) => x !== undefined);
    return {
      ...m,
      samples: same.flatMap((x) => x.samples),
      warmup: same.flatMap((x) => x.warmup),
    };
  });
  /** @type {Cell} */
  const out = { ...first, metrics };
  const raw = ok.flatMap((c) => c.raw ?? []);
  if (raw.length) out.raw = raw.slice(0, MAX_ITEMS);
  const series = ok.flatMap((c) => c.timeseries ?? []);
  if (series.length) out.timeseries = series.slice(0, MAX_ITEMS);
  return out;
}

/**
 * Whether shards are sample shards of one run: each holds the same cells (every environment, a share of
 * the samples), so each interleaved its environments and the merged run may say so.
 * @param {PoolShard[]} shards
 */
export function sameCells(shards) {
  const keys = (/** @type {PoolShard} */ s) =>
    s.results.cells
      .map((c) => `${c.benchmark}/${c.environmentKey}/${c.distro}`)
      .sort()
      .join('\n');
  return shards.every((s) => keys(s) === keys(shards[0]));
}
