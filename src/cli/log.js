// Progress and errors go to stderr, so stdout stays clean for tables and JSON.
export const log = (/** @type {string} */ s) => process.stderr.write(`${s}\n`);
