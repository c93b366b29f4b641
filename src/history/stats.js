// The statistics the history precomputes, from the project's src/stats. Fewer resamples than
// `compare` (which uses the library default, for its verdicts): publishing summarises every series of
// a run three ways (its median, against Docker, against its own past) and must stay near a second with
// hundreds of series. 500 resamples are enough for the bands and overview the site draws.
import { cliffsDelta, median, ratioOfMedians as ratio, summarize } from '../stats/index.js';

export const HISTORY_RESAMPLES = 500;

export { cliffsDelta, median };

/** @param {number[]} baseline @param {number[]} candidate @param {{ seed?: number }} [opts] */
export const ratioOfMedians = (baseline, candidate, { seed } = {}) =>
  ratio(baseline, candidate, { seed, resamples: HISTORY_RESAMPLES });

/** @param {number[]} samples */
export const summarizeSamples = (samples) => summarize(samples, { resamples: HISTORY_RESAMPLES });
