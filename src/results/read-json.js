// Reading a JSON file a user handed us (results, configs, history files), with one kind of answer for
// every way it can go wrong: the message names WHAT the file is, WHERE it is (the path, and the line and
// column of a syntax error), and WHAT TO DO (the caller's advice). Checking the parsed value's shape
// stays with each caller: only it knows what it expects.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { logText } from '../text/escape.js';

// Bounds checked BEFORE parsing: a file handed to us may be built to exhaust memory, time or the stack.
// 64 MiB is far above any real results file (a standard run with every time series is a few MiB);
// 64 levels is far above the deepest real document (about 8).
export const MAX_JSON_BYTES = 64 * 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

/** What to do about a results file that cannot be read: the advice of every command that reads one. */
export const RESULTS_ADVICE = 'pass the results.json that `dind-bench run --out DIR` wrote';

/**
 * @typedef {new (message: string, options?: ErrorOptions) => Error} ErrorClass
 * @typedef {{ what: string, advice?: string, ErrorClass?: ErrorClass, maxBytes?: number, maxDepth?: number,
 *   noFollow?: boolean }} ReadJsonOptions
 *   what: the kind of file, e.g. "results file", "compare config"; advice: what the user should do,
 *   appended after the problem; ErrorClass: the caller's error class (default Error); maxBytes, maxDepth:
 *   bounds checked before parsing; noFollow: refuse a symbolic link (O_NOFOLLOW) instead of following it.
 */

/**
 * The parsed content of `file`. Throws `ErrorClass` with the message `FILE: PROBLEM; ADVICE`; the error
 * also carries `file`, `problem` (the message without file and advice) and `cause` (the fs or JSON error),
 * so a caller can, for example, treat a missing file (`cause.code === 'ENOENT'`) differently.
 * @param {string} file @param {ReadJsonOptions} options
 * @returns {Promise<any>}
 */
export async function readJsonFile(file, options) {
  const {
    what,
    advice,
    ErrorClass = Error,
    maxBytes = MAX_JSON_BYTES,
    maxDepth = MAX_JSON_DEPTH,
    noFollow = false,
  } = options;
  // The message ends up in logs: the path, a JSON path or V8's quote of the text come from data, so
  // their control characters are written as escapes (logText) and no line break gets into it.
  const fail = (/** @type {string} */ raw, /** @type {unknown} */ cause) => {
    const problem = logText(raw);
    return Object.assign(new ErrorClass(`${logText(file)}: ${problem}${advice ? `; ${advice}` : ''}`, { cause }), {
      file,
      problem,
    });
  };
  let text;
  try {
    text = await readBounded(file, maxBytes, noFollow);
  } catch (e) {
    if (e instanceof TooLarge) throw fail(`the ${what} is ${e.size} bytes; at most ${maxBytes} are read`, undefined);
    throw fail(`cannot read the ${what}: ${readProblem(/** @type {NodeJS.ErrnoException} */ (e))}`, e);
  }
  // JSON.parse would say "Unexpected end of JSON input", which does not tell that nothing is there.
  if (text.trim() === '') throw fail(`the ${what} is empty`, undefined);
  const depth = nestingDepth(text, maxDepth);
  if (depth !== null)
    throw fail(`the ${what} nests arrays and objects more than ${maxDepth} deep (at character ${depth})`, undefined);
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw fail(`the ${what} is not valid JSON${syntaxWhere(text, /** @type {Error} */ (e).message)}`, e);
  }
  const inf = nonFinite(value);
  // JSON has no Infinity: 1e999 parses as Infinity and would be written back as null.
  if (inf !== null)
    throw fail(
      `the ${what} holds a number too large for a double at ${inf} (written back it would become null)`,
      undefined,
    );
  return value;
}

class TooLarge extends Error {
  /** @param {number} size */
  constructor(size) {
    super(`too large: ${size} bytes`);
    this.size = size;
  }
}

/** The file's text, refused unread when larger than `maxBytes`. @param {string} file @param {number} maxBytes @param {boolean} noFollow */
async function readBounded(file, maxBytes, noFollow) {
  const handle = await open(file, constants.O_RDONLY | (noFollow ? constants.O_NOFOLLOW : 0));
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (st.size > maxBytes) throw new TooLarge(st.size);
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let n = 0;
    // Read to the end (a file growing meanwhile is bounded too).
    for (let r; n < buf.length && (r = (await handle.read(buf, n, buf.length - n, n)).bytesRead) > 0;) n += r;
    if (n > maxBytes) throw new TooLarge(n);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The position where `text` first nests deeper than `max` (brackets inside strings not counted), or
 * null. A linear scan, so a hostile file cannot overflow a recursive parser or validator later on.
 * @param {string} text @param {number} max
 */
export function nestingDepth(text, max) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return null;
}

/**
 * The JSON path (a JSON Pointer, `/cells/0/samples/3`) of the first non-finite number in `value`, or
 * null. Keys come from the file: each is cut to 60 characters; the caller escapes the whole message.
 * @param {unknown} value
 */
function nonFinite(value) {
  /** @type {[unknown, string][]} */
  const stack = [[value, '/']];
  while (stack.length) {
    const [v, at] = /** @type {[unknown, string]} */ (stack.pop());
    if (typeof v === 'number' && !Number.isFinite(v)) return at;
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) stack.push([x, `${at === '/' ? '' : at}/${pointerToken(k)}`]);
    }
  }
  return null;
}

/** One key as a JSON Pointer token (`~` and `/` escaped), at most 60 characters. @param {string} key */
const pointerToken = (key) => {
  const token = key.replace(/~/g, '~0').replace(/\//g, '~1');
  return token.length > 60 ? `${token.slice(0, 59)}…` : token;
};

/** @param {NodeJS.ErrnoException} e */
function readProblem(e) {
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EISDIR') return 'it is a directory, not a file';
  if (e.code === 'EACCES') return 'permission denied';
  if (e.code === 'ELOOP') return 'it is a symbolic link, which is never followed here; replace it with the file itself';
  return e.message;
}

/**
 * " at line L, column C (V8's message)" where the position is known, else " (V8's message)". V8 gives a
 * position for most syntax errors (not for "Unexpected token" on Node 20); at an unexpected end the
 * position is the end of the text, the likely sign of a file cut short. Newer Node appends its own line
 * and column; that is dropped so they are not said twice.
 * @param {string} text @param {string} message
 */
function syntaxWhere(text, message) {
  let detail = message.replace(/ \(line \d+ column \d+\)$/, '');
  let position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined && /end of JSON input/.test(message)) {
    position = String(text.trimEnd().length);
    detail += ': the file may be cut short';
  }
  if (position === undefined) return ` (${detail})`;
  const before = text.slice(0, Number(position)).split('\n');
  return ` at line ${before.length}, column ${before[before.length - 1].length + 1} (${detail})`;
}
