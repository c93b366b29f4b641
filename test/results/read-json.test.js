// readJsonFile: every way a JSON file can fail to load gives the caller's error class and a message that
// names what the file is, where it is (with line and column for a syntax error) and what to do.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readJsonFile } from '../../src/results/read-json.js';

class CallerError extends Error {}
const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-read-json-'));
const OPTIONS = { what: 'compare config', advice: 'fix it, or leave out --config', ErrorClass: CallerError };
const write = (/** @type {string} */ name, /** @type {string} */ text) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};
/**
 * Asserts that reading `file` throws CallerError with `message` (exactly, or matching a RegExp), and returns the error.
 * @param {string} file @param {string | RegExp} message
 */
async function refuses(file, message) {
  let err;
  await assert.rejects(readJsonFile(file, OPTIONS), (e) => {
    err = /** @type {any} */ (e);
    assert.ok(e instanceof CallerError, `a CallerError, not ${err?.constructor?.name}`);
    if (typeof message === 'string') assert.equal(err.message, message);
    else assert.match(err.message, message);
    assert.equal(err.file, file);
    return true;
  });
  return err;
}

test('a valid file is parsed', async () => {
  assert.deepEqual(await readJsonFile(write('ok.json', '{"a": [1, 2]}\n'), OPTIONS), { a: [1, 2] });
});

test('a missing file', async () => {
  const f = path.join(dir, 'nope.json');
  const e = await refuses(f, `${f}: cannot read the compare config: no such file; fix it, or leave out --config`);
  assert.equal(/** @type {any} */ (e).cause.code, 'ENOENT', 'callers can tell a missing file apart');
});

test('a directory instead of a file', async () => {
  const d = path.join(dir, 'config.json');
  mkdirSync(d);
  await refuses(
    d,
    `${d}: cannot read the compare config: it is a directory, not a file; fix it, or leave out --config`,
  );
});

const escape = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('invalid JSON: the line and column of the error', async () => {
  // The text in parentheses is V8's own and may be worded differently by another Node version.
  const f = write('comma.json', '{\n  "defaults": {"alpha": 0.01},\n}\n');
  await refuses(
    f,
    new RegExp(
      `^${escape(f)}: the compare config is not valid JSON at line 3, column 1 \\(.*position 33\\); fix it, or leave out --config$`,
    ),
  );
  const cut = write('cut.json', '{"metrics": [1,\n 2');
  await refuses(
    cut,
    new RegExp(
      `^${escape(cut)}: the compare config is not valid JSON at line 2, column 3 \\(.*position 18\\); fix it, or leave out --config$`,
    ),
  );
});

test('a file cut short: the end of its text is the position', async () => {
  const f = write('short.json', '{"a": [1,\n  2,\n');
  await refuses(
    f,
    new RegExp(
      `^${escape(f)}: the compare config is not valid JSON at line 2, column 5 \\(.*: the file may be cut short\\); fix it, or leave out --config$`,
    ),
  );
});

test('invalid JSON where Node gives no position: its own message is kept', async () => {
  const f = write('token.json', '{"a": }');
  await assert.rejects(readJsonFile(f, OPTIONS), (err) => {
    const m = /** @type {Error} */ (err).message;
    assert.ok(m.startsWith(`${f}: the compare config is not valid JSON `), m);
    assert.match(m, /Unexpected token/);
    assert.ok(m.endsWith('; fix it, or leave out --config'), m);
    return true;
  });
});

test('an empty file (or only white space)', async () => {
  const f = write('empty.json', '');
  await refuses(f, `${f}: the compare config is empty; fix it, or leave out --config`);
  const blank = write('blank.json', ' \n\t\n');
  await refuses(blank, `${blank}: the compare config is empty; fix it, or leave out --config`);
});

test('without advice or an error class: a plain Error naming the file and the problem', async () => {
  const f = path.join(dir, 'gone.json');
  await assert.rejects(readJsonFile(f, { what: 'history index' }), (e) => {
    assert.equal(/** @type {Error} */ (e).constructor, Error);
    assert.equal(/** @type {Error} */ (e).message, `${f}: cannot read the history index: no such file`);
    assert.equal(/** @type {any} */ (e).problem, 'cannot read the history index: no such file');
    return true;
  });
});
