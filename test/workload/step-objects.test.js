// What a workload's steps make and start on the runner's engine does not outlive the job (issue 37, item 3),
// on the real engine: containers, volumes and networks a step creates carry the run's and the step's labels
// (they are there for the next step of the job), are listed in the raw output and removed when the job ends,
// so the engine is as found; a step that leaves a background process fails its cell, naming it, and the
// process is gone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { validateResults } from '../../src/results/schema.js';
import { onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-step-objects-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A workload file of these steps, on the suite's lifecycle image (present on the runner). @param {string} name @param {string[]} steps */
function workload(name, steps) {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  const file = path.join(dir, 'workload.yml');
  writeFileSync(
    file,
    [
      'version: 1',
      `name: ${name}`,
      'images:',
      '  - name: team/tools:1',
      '    source: present',
      '    from: dind-bench/lifecycle:debian',
      'steps:',
      ...steps,
      '',
    ].join('\n'),
  );
  return file;
}

/** @param {string} file @param {string} out */
const run = (file, out) =>
  runCli(['run', '--workload', file, '--env', 'docker,dood', '--iterations', '1', '--out', out], { timeout: 300_000 });

/** Every raw file of a run whose name has `part`, with its text. @param {string} out @param {string} part */
const raws = (out, part) =>
  readdirSync(path.join(out, 'raw'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.includes(part))
    .map((f) => readFileSync(path.join(out, 'raw', f), 'utf8'));

test("a step's containers, volumes and networks: labelled, seen by the next step, removed when the job ends", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const file = workload('leftovers', [
    '  - name: serve',
    '    run: docker run -d --network none --name "srv-$$" team/tools:1 sleep 300 && docker volume create "data-$$" && docker network create "net-$$"',
    '  - name: use',
    "    run: docker ps --filter label=dind-bench.workload-step=serve --format '{{.Names}} {{.Label \"dind-bench.run\"}}' | grep -E '^srv-[0-9]+ .+'",
  ]);
  const out = path.join(work, 'leftovers-out');
  const r = run(file, out);
  assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  const cells = results.cells.filter((/** @type {any} */ c) => c.benchmark === 'workload.leftovers');
  assert.deepEqual(
    cells.map((/** @type {any} */ c) => [c.environmentKey, c.status]),
    [
      ['docker', 'ok'],
      ['dood', 'ok'],
    ],
  );
  const listed = raws(out, 'step-objects');
  assert.ok(listed.length >= 2, `a list for each job on the runner's engine (primed and measured): ${listed.length}`);
  for (const text of listed) {
    assert.match(text, /^container [0-9a-f]{12} srv-\d+ \(step serve\)$/m);
    assert.match(text, /^network net-\d+ \(step serve\)$/m);
    assert.match(text, /^volume data-\d+ \(step serve\)$/m);
    assert.doesNotMatch(text, /not removed/);
  }
  await setup.leftAsFound();
});

test('a step that leaves a background process fails its cell, naming it; the process is gone', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  // A sleep of its own length, to tell it from any other process.
  const marker = `sleep ${300 + (process.pid % 997)}`;
  const file = workload('background', ['  - name: bg', `    run: ${marker} & echo started`]);
  const out = path.join(work, 'background-out');
  const r = run(file, out);
  assert.equal(r.status, 3, `exit 3: cells failed\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  for (const cell of results.cells.filter((/** @type {any} */ c) => c.benchmark === 'workload.background')) {
    assert.equal(cell.status, 'failed');
    assert.match(
      cell.reason ?? '',
      new RegExp(`step step-bg: .* exited 0 but left 1 process running \\(\\d+ ${marker}\\), ended by the run`),
    );
  }
  const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
  assert.ok(!ps.split('\n').some((l) => l.trim() === marker), 'the background process is gone');
  await setup.leftAsFound();
});
