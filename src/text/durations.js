// Durations as people write them on a command line: "15m", "90s", "1h30m", or plain seconds.

/**
 * Milliseconds of a duration such as "15m", "90s", "1h30m" or "900" (seconds); NaN for anything else
 * (callers word their own error).
 * @param {string} text
 */
export function parseDuration(text) {
  const s = String(text).trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(s);
  if (!m || !s) return NaN;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000;
}
