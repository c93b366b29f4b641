// The statistics the history precomputes, from the project's src/stats. Fewer resamples than an
// interactive `compare` (which uses the library default): publishing summarises every series of a run
// three ways (its median, against Docker, against its own past) and must stay under a second with
// hundreds of series; 1000 resamples keep the 2.5%/97.5% percentiles stable to about a percent.
import { cliffsDelta, ratioOfMedians as ratio, summarize } from '../stats/index.js';

export const HISTORY_RESAMPLES = 1000;

export { cliffsDelta };

/** @param {number[]} baseline @param {number[]} candidate @param {{ seed?: number }} [opts] */
export const ratioOfMedians = (baseline, candidate, { seed } = {}) => ratio(baseline, candidate, { seed, resamples: HISTORY_RESAMPLES });

/** @param {number[]} samples */
export const summarizeSamples = (samples) => summarize(samples, { resamples: HISTORY_RESAMPLES });
