// Reading a JSON file a user handed us (results, configs, history files), with one kind of answer for
// every way it can go wrong: the message names WHAT the file is, WHERE it is (the path, and the line and
// column of a syntax error), and WHAT TO DO (the caller's advice). Checking the parsed value's shape
// stays with each caller: only it knows what it expects.
import { readFile } from 'node:fs/promises';

/**
 * @typedef {new (message: string, options?: ErrorOptions) => Error} ErrorClass
 * @typedef {{ what: string, advice?: string, ErrorClass?: ErrorClass }} ReadJsonOptions
 *   what: the kind of file, e.g. "results file", "compare config"; advice: what the user should do,
 *   appended after the problem; ErrorClass: the caller's error class (default Error).
 */

/**
 * The parsed content of `file`. Throws `ErrorClass` with the message `FILE: PROBLEM; ADVICE`; the error
 * also carries `file`, `problem` (the message without file and advice) and `cause` (the fs or JSON error),
 * so a caller can, for example, treat a missing file (`cause.code === 'ENOENT'`) differently.
 * @param {string} file @param {ReadJsonOptions} options
 * @returns {Promise<any>}
 */
export async function readJsonFile(file, { what, advice, ErrorClass = Error }) {
  const fail = (/** @type {string} */ problem, /** @type {unknown} */ cause) =>
    Object.assign(new ErrorClass(`${file}: ${problem}${advice ? `; ${advice}` : ''}`, { cause }), { file, problem });
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw fail(`cannot read the ${what}: ${readProblem(/** @type {NodeJS.ErrnoException} */ (e))}`, e);
  }
  // JSON.parse would say "Unexpected end of JSON input", which does not tell that nothing is there.
  if (text.trim() === '') throw fail(`the ${what} is empty`, undefined);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw fail(`the ${what} is not valid JSON${syntaxWhere(text, /** @type {Error} */ (e).message)}`, e);
  }
}

/** @param {NodeJS.ErrnoException} e */
function readProblem(e) {
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EISDIR') return 'it is a directory, not a file';
  if (e.code === 'EACCES') return 'permission denied';
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
