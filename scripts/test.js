#!/usr/bin/env node
// `npm test`: node's test runner over test/ (or the files and folders given), one file at a time, with
// TMPDIR pointing at a folder of its own that is removed when the tests end, however they end. Many tests
// make temporary folders (histories, results, sites, clones) and not every one removes its own on every
// path; this way a test run leaves nothing behind in the machine's temp folder. Engine sockets stay under
// /tmp (src/environments/dind-daemon.js: a unix socket path must stay short) and are removed by their runs.
//
//   npm test                      every test
//   npm test -- test/stats/       those under test/stats/
//   npm test -- --test-name-pattern=verdict
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// In the order given, so a flag and its value stay together (`--test-reporter spec`); test/ when no
// argument is a file or folder that exists.
const args = process.argv.slice(2);
const named = args.some((a) => !a.startsWith('-') && existsSync(a));
const tmp = mkdtempSync(path.join(tmpdir(), 'dind-bench-tests-'));

const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...args, ...(named ? [] : ['test/'])], {
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: tmp },
});
// Ctrl-C reaches the runner through the terminal's process group; the folder goes when it has ended.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => {
  try {
    rmSync(tmp, { recursive: true, force: true });
  } catch (e) {
    // Files a container wrote as another user cannot always be removed: say where, do not fail the run.
    process.stderr.write(`npm test: could not remove ${tmp}: ${/** @type {Error} */ (e).message}\n`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
