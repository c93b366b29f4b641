// A workload's own time on the real engine (issue 43, items 1 and 5): a step that outlasts its own
// `timeout` is ended and fails its cell naming that limit, its last stderr lines first, in results, the
// terminal and report.md; only the build states the file asks for are measured beside the job.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-job-time-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** @param {string} name @param {string[]} lines @param {Record<string, string>} [files] */
function workload(name, lines, files = {}) {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, ['version: 1', `name: ${name}`, ...lines, ''].join('\n'));
  return file;
}

/** @param {string} file @param {string} out */
const run = (file, out) =>
  runCli(['run', '--workload', file, '--env', 'docker', '--iterations', '1', '--out', out], { timeout: 400_000 });

test('a step past its own timeout is ended, and fails naming the limit and its last stderr lines', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const file = workload('slow', [
    'steps:',
    '  - name: wait-db',
    "    run: \"echo 'waiting for the database'; echo 'error: the database is not up yet' >&2; sleep 60\"",
    '    timeout: 3s',
  ]);
  const out = path.join(work, 'slow-out');
  const t0 = performance.now();
  const r = run(file, out);
  assert.equal(r.status, 3, `a cell failed, results written\n${r.stderr.slice(-2000)}`);
  assert.ok(performance.now() - t0 < 60_000, 'the step was ended at its limit, not after its sleep');
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
  const cell = results.cells.find(
    (/** @type {any} */ c) => c.benchmark === 'workload.slow' && c.status !== 'unavailable',
  );
  assert.equal(cell.status, 'failed');
  assert.match(
    cell.reason,
    /step step-wait-db: .* did not end within its limit of 3s \(timeout\), so the run ended it/,
  );
  assert.match(cell.logTail, /^--- stderr \(\d lines?\) ---\nerror: the database is not up yet\n/);
  assert.match(cell.logTail, /--- stdout \(1 line\) ---\nwaiting for the database/);
  assert.match(
    r.stderr,
    /FAILED: .*did not end within its limit of 3s[^\n]*\n {4}--- stderr/,
    'the terminal shows the tail',
  );
  const md = readFileSync(path.join(out, 'report.md'), 'utf8');
  assert.match(md, /```text\n {2}--- stderr \(\d lines?\) ---\n {2}error: the database is not up yet/);
  assert.doesNotMatch(md, /native only/);
  await setup.leftAsFound();
});

test('only the build states the file asks for are measured beside the job', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const file = workload(
    'states',
    [
      'images:',
      '  - { name: team/base:1, source: present, from: dind-bench/lifecycle:debian }',
      'builds:',
      '  - { name: app, context: app, args: { BASE: team/base:1 } }',
      'states: [cold]',
    ],
    { 'app/Dockerfile': 'ARG BASE\nFROM ${BASE}\nRUN echo built > /built\n' },
  );
  const out = path.join(work, 'states-out');
  const r = run(file, out);
  assert.equal(r.status, 0, r.stderr.slice(-2000));
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
  const cell = results.cells.find((/** @type {any} */ c) => c.benchmark === 'workload.states' && c.status === 'ok');
  const names = cell.metrics.map((/** @type {any} */ m) => m.metric);
  assert.ok(names.includes('build.app_ms') && names.includes('build.app.cold_ms'), names.join(', '));
  assert.ok(!names.includes('build.app.warm_ms') && !names.includes('build.app.cache_import_ms'), names.join(', '));
  await setup.leftAsFound();
});
