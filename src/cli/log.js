// Progress and errors go to stderr, so stdout stays clean for tables and JSON. Messages quote data (run
// ids, file names, engine messages): no line of them may start an Actions workflow command (logSafe).
import { logSafe } from '../text/escape.js';

export const log = (/** @type {string} */ s) => process.stderr.write(`${logSafe(s)}\n`);
