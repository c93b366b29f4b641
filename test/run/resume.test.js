// Long runs on the real engine: a quick run killed with SIGTERM mid-way leaves a valid partial
// results.json (state interrupted); `run --resume DIR` finishes it without repeating a step, and its
// cells equal those of the same run left alone. Partial files are refused where they do not belong.
// npm run test:e2e: a whole quick run killed mid-way and resumed, beside the same run left alone
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { OtherHardwareError, readPartial } from '../../src/run/checkpoint.js';
import { validateResults } from '../../src/results/schema.js';
import { engineOrSkip } from '../helpers/engine.js';
import { fixture, tmpDir } from '../history/helpers.js';
import { NOTHING, runCli, settled, STEP, stepsIn, streamCli } from '../helpers/run-cli.js';

const RUN = [
  'run',
  '--profile',
  'tiny',
  '--bench',
  'lifecycle',
  '--env',
  'native,docker',
  '--distro',
  'debian',
  '--iterations',
  '4',
  '--no-build',
];
/** What a cell is, without the numbers a second run measures differently. @param {any} r */
const cellSet = (r) =>
  r.cells
    .map((/** @type {any} */ c) => ({
      cell: `${c.benchmark}/${c.environmentKey}/${c.distro}`,
      status: c.status,
      metrics: c.metrics
        .map((/** @type {any} */ m) => `${m.metric}:${m.unit}:${m.better}:${m.samples.length}+${m.warmup.length}`)
        .sort(),
    }))
    .sort((/** @type {any} */ a, /** @type {any} */ b) => a.cell.localeCompare(b.cell));

test(
  'SIGTERM mid-way, then --resume: a valid partial file, no step run twice, the cells of an uninterrupted run',
  { timeout: 600_000 },
  async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    assert.ok(process.env.DIND_BENCH_OWNER, 'the engine helpers set an owner label for this process tree');
    const dir = tmpDir('resume');
    const whole = path.join(dir, 'whole');
    const cut = path.join(dir, 'cut');

    const ref = await streamCli([...RUN, '--out', whole]);
    assert.equal(ref.code, 0, ref.lines.join('\n'));
    const total = ref.lines.filter((/** @type {string} */ l) => STEP.test(l)).length;
    assert.equal(total, 8);

    const killed = await streamCli([...RUN, '--out', cut], {
      onLine: (_, lines, child) => stepsIn(lines) === 3 && child.kill('SIGTERM'),
    });
    assert.equal(killed.code, 143, killed.lines.join('\n'));
    const partial = JSON.parse(readFileSync(path.join(cut, 'results.json'), 'utf8'));
    validateResults(partial, 'partial');
    assert.equal(partial.run.state, 'interrupted');
    assert.equal(partial.run.complete, false);
    const doneBefore = partial.cells.reduce(
      (/** @type {number} */ n, /** @type {any} */ c) => n + (c.stepsDone ?? 0),
      0,
    );
    assert.ok(doneBefore >= 3 && doneBefore < total, `steps recorded before the kill: ${doneBefore}`);
    assert.ok(partial.cells.every((/** @type {any} */ c) => c.status === 'pending'));
    // publish refuses it; compare reads it
    const pub = runCli(['publish', path.join(cut, 'results.json'), '--history', path.join(dir, 'h')]);
    assert.equal(pub.status, 1);
    assert.match(pub.stderr, /is a partial run \(state interrupted\)/);
    assert.deepEqual(await settled(outer), NOTHING, 'the killed run left nothing behind');

    const resumed = await streamCli(['run', '--resume', cut]);
    assert.equal(resumed.code, 0, resumed.lines.join('\n'));
    assert.match(resumed.lines[0], /^resuming run \S+ \(interrupted\): \d+ step\(s\) of pending cells done/);
    const again = resumed.lines.filter((/** @type {string} */ l) => STEP.test(l));
    assert.equal(again.length, total - doneBefore, 'only the steps not done before');
    assert.equal(Number(/** @type {RegExpMatchArray} */ (again[0].match(STEP))[1]), doneBefore + 1);

    const finished = JSON.parse(readFileSync(path.join(cut, 'results.json'), 'utf8'));
    validateResults(finished, 'resumed');
    assert.equal(finished.run.state, 'finished');
    assert.equal(finished.run.id, partial.run.id);
    assert.equal(finished.run.startedAt, partial.run.startedAt);
    assert.deepEqual(
      finished.run.resumed.map((/** @type {any} */ r) => r.stepsDone),
      [doneBefore],
    );
    assert.ok(finished.cells.every((/** @type {any} */ c) => c.stepsDone === undefined));
    assert.deepEqual(cellSet(finished), cellSet(JSON.parse(readFileSync(path.join(whole, 'results.json'), 'utf8'))));
    assert.deepEqual(await settled(outer), NOTHING, 'nothing left behind');

    const twice = runCli(['run', '--resume', cut]);
    assert.equal(twice.status, 1);
    assert.match(twice.stderr, /this run is finished; nothing to resume/);
  },
);

test('readPartial refuses a missing file, a complete finished run and another suite version; other hardware is its own error', async () => {
  const dir = tmpDir('partial');
  const here = { fingerprint: fixture().host.fingerprint, suite: fixture().suite };
  await assert.rejects(readPartial(path.join(dir, 'none'), here), /no such file: nothing to resume/);
  /** @param {string} name @param {(r: any) => void} change */
  const write = (name, change) => {
    const r = fixture();
    r.run.state = 'interrupted';
    change(r);
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'results.json'), JSON.stringify(r));
    return path.join(dir, name);
  };
  assert.equal(
    (
      await readPartial(
        write('ok', () => {}),
        here,
      )
    ).run.state,
    'interrupted',
  );
  await assert.rejects(
    readPartial(
      write('done', (r) => {
        r.run.state = 'finished';
      }),
      here,
    ),
    /this run is finished/,
  );
  await assert.rejects(
    readPartial(
      write('old', (r) => {
        delete r.run.state;
      }),
      here,
    ),
    /this run is finished/,
  );
  // A finished run with a failed cell is continued: `run --resume` tries that cell again.
  const retried = await readPartial(
    write('failed', (r) => {
      r.run.state = 'finished';
      r.cells[0].status = 'failed';
      r.cells[0].reason = 'the engine went away';
    }),
    here,
  );
  assert.equal(retried.cells[0].status, 'failed');
  // Other hardware: an error of its own kind, carrying the recorded run, so `run --resume` starts afresh.
  await assert.rejects(
    readPartial(
      write('hw', (r) => {
        r.host.fingerprint = '0'.repeat(16);
      }),
      here,
    ),
    (/** @type {any} */ e) =>
      e instanceof OtherHardwareError && /recorded on other hardware/.test(e.message) && e.results.run.id !== undefined,
  );
  await assert.rejects(
    readPartial(
      write('suite', (r) => {
        r.suite.version = '9.0.0';
      }),
      here,
    ),
    /recorded by dind-bench 9\.0\.0 .*resume it with the same suite version/,
  );
});
