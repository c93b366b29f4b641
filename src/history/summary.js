// The summary precomputed for each point (median and its 95% bootstrap interval), so charts draw a
// band without recomputing anything in the browser.
import { summarizeSamples } from './stats.js';

/** @param {number[]} samples @returns {{n: number, median: number, low: number, high: number}} */
export const summarizePoint = (samples) => summarizeSamples(samples);
