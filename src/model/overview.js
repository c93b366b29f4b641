// The overview of one run: the file `publish` writes per runner (latest.json and each run's overview) and
// the site's first screen reads. history/overview.js builds it; site/js reads it. Types only: nothing here
// runs. A change to its shape bumps `version` (history/overview.js says what each version added).

/**
 * The verdict of a series against its own earlier runs (stats/verdicts.js), as the site shows it.
 * `change` is relative and signed towards worse (+0.1: 10% worse for the metric's direction).
 * @typedef {{
 *   status: 'regression' | 'improvement' | 'inconclusive' | 'insufficient data' | 'equivalent' | 'baseline' | 'no change',
 *   change: number | null, p: number | null, pastRuns: number, pastMedian: number | null,
 *   reason: string, engineChange: string | null, threshold?: number,
 *   detectable?: { change: number | null, iterationsFor5Pct: number | null },
 * }} Trend
 * `detectable`: the smallest change a run like this one could be flagged for against this history
 * (stats/detectable.js historyDetectable; absent in overviews before version 4). "no change": overviews
 * before version 5 only; since, "equivalent" (could have seen T) or "inconclusive" (could not).
 *
 * One environment's summary of one metric in this run.
 * @typedef {{
 *   key: string, n: number, median: number, low: number, high: number,
 *   engines: { outer: string, inner: string | null }, storageDriver: string | null, trend: Trend,
 * }} OverviewEnv
 *
 * One environment against plain Docker on one metric: the ratio of medians with its interval (candidate
 * over Docker), the rank test's p, Cliff's delta, compare's within-run word and what the run could detect.
 * @typedef {{
 *   ratio: number, low: number, high: number, p: number, q?: number, delta: number,
 *   magnitude: 'negligible' | 'small' | 'medium' | 'large', threshold?: number, significant?: boolean, testable?: boolean,
 *   verdict: import('./change.js').Outcome | 'worse' | 'better' | 'no diff' | 'too few' | null,
 *   detectable: { change: number | null, iterationsFor5Pct: number | null },
 * }} VsDocker
 * `verdict`: the outcome (version 5); overviews before it hold the older words (worse, better, no diff, too few).
 *
 * @typedef {{
 *   benchmark: string, metric: string, distro: string, unit: string, better: 'higher' | 'lower',
 *   envs: Record<string, OverviewEnv>, vsDocker: Record<string, VsDocker>,
 * }} OverviewRow
 *
 * @typedef {import('./results.js').Results} Results
 * @typedef {{
 *   format: 'dind-bench-overview', version: 4 | 5 | 6 | 7 | 8, answers?: string[],
 *   answer?: Pick<import('./reading.js').Reading, 'intro' | 'leftOut' | 'table' | 'caveats' | 'questions' | 'decided' | 'cost'>
 *     & Partial<Pick<import('./reading.js').Reading, 'parts'>>,
 *   modes?: (import('./isolation.js').ModeTable & { policyError: string | null }) | null,
 *   run: {
 *     id: string, time: string, endedAt: string, profile: string, iterations: number, complete: boolean,
 *     commit: string | null,
 *   },
 *   runner: Pick<Results['runner'], 'name' | 'labels' | 'machineType'>,
 *   jobs: import('./job-cost.js').WorkloadCost[],
 *   host: Results['host'], engines: Results['engines'],
 *   environments: Pick<import('./results.js').EnvironmentEntry, 'key' | 'name' | 'engine' | 'status' | 'reason' | 'facts'>[],
 *   unavailable: Pick<import('./results.js').Cell, 'benchmark' | 'environmentKey' | 'distro' | 'status' | 'reason'>[],
 *   rows: OverviewRow[],
 * }} Overview
 */

export {};
