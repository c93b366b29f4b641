// The history's files as the site reads them: the index (index.json), a series' points (its monthly
// shards) and what one point holds. history/ writes them; site/js reads them. Types only: nothing here runs.

/**
 * @typedef {{ outer: string, inner: string | null }} Engines
 * @typedef {{ n: number, median: number, low: number, high: number }} Summary
 * One run's samples of one series.
 * @typedef {{ runId: string, time: string, commit: string | null, samples: number[], engines: Engines,
 *   storageDriver: string | null, runner: string, summary?: Summary }} StoredPoint
 * What names a series: the hardware (fingerprint), the benchmark's metric, the environment and the distro.
 * @typedef {{ key: string, fingerprint: string, runner: string, benchmark: string, metric: string,
 *   environmentKey: string, distro: string, unit: string, better: 'higher' | 'lower' }} SeriesInfo
 * A series in the index: where its shards are and how many points it has.
 * @typedef {SeriesInfo & { dir: string, periods: string[], archived: string[], points: number, last: string }} IndexedSeries
 * @typedef {{ format: string, version: number, updatedAt: string, runs: number, periods: string[],
 *   series: Record<string, IndexedSeries> }} HistoryIndex
 * A point as a shard stores it: the series' unit and direction with it.
 * @typedef {StoredPoint & { unit: string, better: 'higher' | 'lower' }} Point
 * A monthly shard of one series (DIR/<period>.json).
 * @typedef {{ format: string, points: Point[] }} Shard
 * Each runner's newest run and where its overview is (latest.json), by hardware fingerprint.
 * @typedef {{ runner: string, fingerprint: string, runId: string, time: string, commit: string | null,
 *   file: string, run: string }} LatestRunner
 * @typedef {{ format: 'dind-bench-latest', runners: Record<string, LatestRunner> }} Latest
 * A run in its month's catalog (runs/<period>/catalog.json): the run's facts and its results.json.
 * @typedef {{ runId: string, time: string, profile: string, complete: boolean, file: string }} CatalogRun
 * @typedef {{ runs: CatalogRun[] }} Catalog
 */

export {};
