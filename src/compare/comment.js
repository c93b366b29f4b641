// One pull-request comment from the comments of several benchmark jobs (`dind-bench comment`), kept below
// GitHub's limit on comment bodies (65,536 characters; one two-benchmark comparison is already ~40 KB).
// What gives way first is what is also elsewhere: the folded full reports (they are the job summaries and
// the report artifact), largest first; then the headline lines of each part, evenly; the link to the full
// report is always kept.

import { DEFAULT_COMMENT_MAX, GITHUB_COMMENT_LIMIT } from '../text/limits.js';

export { DEFAULT_COMMENT_MAX, GITHUB_COMMENT_LIMIT };
const MIN_MAX = 1_000;

export class CommentInputError extends Error {}

const DETAILS = /\n*<details>[\s\S]*?<\/details>\n*/g;
const SEPARATOR = '\n\n---\n\n';

/**
 * @param {string[]} parts comment bodies written by `compare --pr-comment`, one per results file
 * @param {{max?: number, reportUrl?: string}} [opts]
 * @returns {{body: string, truncated: 'no' | 'details' | 'lines', length: number}}
 */
export function mergeComments(parts, { max = DEFAULT_COMMENT_MAX, reportUrl } = {}) {
  if (!Number.isInteger(max) || max < MIN_MAX || max > GITHUB_COMMENT_LIMIT) {
    throw new CommentInputError(
      `comment cap ${max} is out of range: give a whole number from ${MIN_MAX} to ${GITHUB_COMMENT_LIMIT}`,
    );
  }
  const link = reportUrl ? `\n\n${linkLine(reportUrl)}\n` : '\n';
  const budget = max - link.length;
  let bodies = parts.map((p) => p.trim());
  const total = () => bodies.join(SEPARATOR).length;
  if (total() <= budget) return done(bodies.join(SEPARATOR) + link, 'no');

  // 1. Drop the folded full reports, largest first, until the rest fits.
  const order = bodies.map((b, i) => ({ i, size: b.length })).sort((a, b) => b.size - a.size);
  for (const { i } of order) {
    bodies[i] = bodies[i].replace(DETAILS, '\n\n_Full report: in the job summary and the report artifact._\n\n').trim();
    if (total() <= budget) return done(bodies.join(SEPARATOR) + link, 'details');
  }

  // 2. Shorten every part to an equal share, whole lines only, saying how many lines were left out.
  const share = Math.floor((budget - SEPARATOR.length * (bodies.length - 1)) / Math.max(1, bodies.length));
  bodies = bodies.map((b) => shorten(b, share));
  return done(bodies.join(SEPARATOR).slice(0, budget) + link, 'lines');

  /** @param {string} body @param {'no' | 'details' | 'lines'} truncated */
  function done(body, truncated) {
    return { body, truncated, length: body.length };
  }
}

/**
 * The first whole lines of `text` that fit in `size` characters with a note of what was left out.
 * @param {string} text @param {number} size
 */
function shorten(text, size) {
  if (text.length <= size) return text;
  const lines = text.split('\n');
  const kept = [];
  let used = 0;
  for (const line of lines) {
    const note = omitted(lines.length - kept.length);
    if (used + line.length + 1 + note.length > size) break;
    kept.push(line);
    used += line.length + 1;
  }
  const note = omitted(lines.length - kept.length);
  // A part too small for even one line and the note keeps the note alone, cut to fit.
  return kept.length ? `${kept.join('\n')}\n${note}` : note.slice(0, Math.max(0, size));
}

const omitted = (/** @type {number} */ n) => `_… ${n} more line(s) in the full report._`;

/**
 * The Markdown line that links to the full report. Only an http(s) URL is accepted: it is printed inside
 * a Markdown link, where a `)` or a space would end it early and `javascript:` would be a trap.
 * @param {string} url
 */
export function linkLine(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new CommentInputError(
      `report URL ${JSON.stringify(url.slice(0, 200))} is not a URL; give the run's or the artifact's https:// address`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new CommentInputError(`report URL must be http(s), not ${parsed.protocol}`);
  }
  const href = parsed.href.replace(/[()<> ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `**Full report:** [job summaries and the report artifact](${href})`;
}
