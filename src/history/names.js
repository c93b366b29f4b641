// Names that come from data (run ids, runner names, fingerprints, benchmark, metric, environment and
// distribution names) and become file names or keys in a history. Every such name is hostile until
// checked here: bounded, printable, and turned into a path segment that is the same on every
// filesystem a history is cloned to (Linux, macOS's case-insensitive and normalising APFS, Windows).
import { createHash } from 'node:crypto';
import { HistoryError } from './files.js';

/** The longest name a history accepts (a results document is refused by its schema before this). */
export const MAX_NAME = 200;

// Control characters (C0, DEL, C1) and unpaired surrogates: they split log lines and table rows, and
// some filesystems refuse them.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Throws a HistoryError unless `value` is a name a history can hold. `what` and `where` say which name
 * and from which file, so the message tells the user what to fix.
 * @param {string} where @param {string} what @param {unknown} value @returns {string}
 */
export function checkName(where, what, value) {
  const fail = (/** @type {string} */ problem) =>
    new HistoryError(
      where,
      `${what} ${problem}; nothing was written. Fix the name where the run was made (or in the file) and publish again`,
    );
  if (typeof value !== 'string') throw fail(`is not a string (${typeof value})`);
  if (value.length === 0) throw fail('is empty');
  if (value.length > MAX_NAME) throw fail(`is ${value.length} characters long; at most ${MAX_NAME} are allowed`);
  if (CONTROL.test(value)) throw fail(`contains a control character (${JSON.stringify(value.slice(0, 60))})`);
  if (LONE_SURROGATE.test(value)) throw fail('contains an unpaired surrogate (not valid Unicode)');
  return value;
}

// A name kept as it is in a path: lower-case ASCII letters, digits and `. _ @ -`, starting with a letter
// or digit, short. Anything else is written as a readable prefix plus a hash of the exact name.
const PLAIN = /^[a-z0-9][a-z0-9._@-]{0,39}$/;
// Windows refuses these as a file's base name whatever the extension (`nul.json`, `con.2026-11.json`).
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/;
const HASH_CHARS = 20;
// The base names the layout (./layout.js) gives its own files and folders (`runs/<month>/catalog.json`,
// `index.json`, ...). A name from data equal to one of them is hashed like any other non-plain name, so
// an encoded segment can never be a fixed file's name: a run id `catalog` must not overwrite its month's
// catalog. Fixed names never contain `~`, which every hashed segment has, so only this list matters.
export const LAYOUT_NAMES = new Set(['catalog', 'index', 'latest', 'dind-bench-history', 'series', 'runs', 'archive']);

/** @param {string} name */
const isPlain = (name) =>
  PLAIN.test(name) && !RESERVED.test(name) && !LAYOUT_NAMES.has(name) && !name.endsWith('.') && !name.endsWith('.tmp');

/**
 * The path segment of a name. Injective: a plain name (not one of LAYOUT_NAMES) is kept verbatim and
 * never contains `~`; every other name becomes `<readable>~<first 80 bits of its SHA-256>`, so two names never share a segment,
 * not even on a case-insensitive or Unicode-normalising filesystem (the segment is lower-case ASCII).
 * At most 41 characters, so the deepest shard path stays under 260 (Windows' MAX_PATH).
 * @param {string} name
 */
export function nameSegment(name) {
  if (isPlain(name)) return name;
  const readable = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_@-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20);
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, HASH_CHARS);
  return `${readable}~${hash}`;
}

// YYYY-MM, the months a history is sharded by; the only other thing that becomes a path.
const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/** @param {string} where @param {unknown} value @returns {string} */
export function checkPeriod(where, value) {
  if (typeof value !== 'string' || !PERIOD.test(value)) {
    throw new HistoryError(
      where,
      `${JSON.stringify(value)?.slice(0, 60)} is not a month (YYYY-MM); the file was edited or damaged, restore it from the branch the history lives in`,
    );
  }
  return value;
}

// Runs are dated by the machine that made them. A date far in the future would stay "the newest run"
// forever (latest.json), so a run more than a day ahead of this machine's clock is refused.
const EARLIEST = Date.UTC(2000, 0, 1);
const SKEW_MS = 24 * 3600 * 1000;

/**
 * The ISO time of a run, checked: a real date, not before 2000, not more than a day in the future.
 * @param {string} where @param {string} what @param {unknown} value @param {number} [now]
 */
export function checkRunTime(where, what, value, now = Date.now()) {
  const ms = typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value : NaN;
  const shown = JSON.stringify(value)?.slice(0, 60);
  const fail = (/** @type {string} */ problem) =>
    new HistoryError(where, `${what} ${shown} ${problem}; nothing was written`);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw fail('is not a date');
  if (ms < EARLIEST) throw fail('is before 2000: not the time of a dind-bench run. Fix the date in the file');
  if (ms > now + SKEW_MS) {
    throw fail(
      `is more than a day after this machine's clock (${new Date(now).toISOString()}): check the clock of the machine that made the run, or fix the date`,
    );
  }
  return new Date(ms).toISOString();
}

/**
 * Sets an own property, also for keys such as `__proto__` (plain assignment would change the object's
 * prototype instead and the entry would silently vanish from JSON).
 * @template T @param {Record<string, T>} obj @param {string} key @param {T} value @returns {T}
 */
export function setOwn(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}

/**
 * An own property or undefined (never one inherited from Object.prototype).
 * @template T @param {Record<string, T>} obj @param {string} key @returns {T | undefined}
 */
export const getOwn = (obj, key) => (Object.hasOwn(obj, key) ? obj[key] : undefined);
