// A history held in memory with the store's reading interface (listSeries, readSeries), for the detection
// evaluation, the compare benchmark and tests: they generate thousands of runs and need no files.
// The real store (src/history/store.js) is what `compare --history DIR` reads.

/** @typedef {import('./against-history.js').SeriesInfo} SeriesInfo */

export class InMemoryHistory {
  constructor() {
    /** @type {Map<string, { info: SeriesInfo, points: Awaited<ReturnType<import('./against-history.js').HistoryReader['readSeries']>> }>} */
    this.series = new Map();
  }

  /**
   * @param {SeriesInfo} info
   * @param {{ runId: string, time: string, samples: number[], engines: { outer: string, inner: string | null } }} point appended as the newest
   */
  add(info, point) {
    let s = this.series.get(info.key);
    if (!s) this.series.set(info.key, (s = { info, points: [] }));
    s.points.push({ unit: info.unit, better: info.better, ...point });
  }

  listSeries() {
    return [...this.series.values()].map((s) => s.info);
  }

  /** @param {string} key @param {{ limit: number }} opts */
  async readSeries(key, { limit }) {
    return (this.series.get(key)?.points ?? []).slice(-limit);
  }
}
