// Durations as every timing in dind-bench records them: milliseconds from performance.now(), rounded
// to the microsecond (finer digits are clock noise and only bloat results.json).

/** @param {number} ms */
export const roundMs = (ms) => Math.round(ms * 1000) / 1000;

/** Milliseconds since `t0` (a performance.now() reading). @param {number} t0 */
export const since = (t0) => roundMs(performance.now() - t0);
