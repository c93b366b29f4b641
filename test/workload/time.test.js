// A workload's own time (issue 43, items 1 and 5): its limits, its build states and its expected times
// are checked with the file, every bad value refused naming the file and the field; a job's commands run
// under the file's limits, not the profile's; a failed command says why in its own words, stderr first.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { workloadBenchmark } from '../../src/workload/benchmark.js';
import { jobClock } from '../../src/workload/clock.js';
import { jobEstimate } from '../../src/workload/estimate.js';
import { failed, stepError } from '../../src/workload/failure.js';
import { loadWorkload } from '../../src/workload/load.js';
import { DEFAULT_JOB_TIMEOUT_MS, DEFAULT_STEP_TIMEOUT_MS, jobLimits, statesOf } from '../../src/workload/time.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-workload-time-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** @param {string} text */
function fileWith(text) {
  const dir = mkdtempSync(path.join(work, 'w-'));
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, `version: 1\nname: job\nsteps:\n  - { name: one, run: 'true' }\n${text}`);
  return file;
}

test('defaults: a 20-minute step and a 60-minute job, no build state beside the job', async () => {
  const w = await loadWorkload(fileWith(''));
  assert.deepEqual(jobLimits(w), { jobMs: DEFAULT_JOB_TIMEOUT_MS, stepMs: DEFAULT_STEP_TIMEOUT_MS });
  assert.deepEqual(statesOf(w), []);
  const bench = workloadBenchmark(w);
  assert.ok((bench.timeLimitMs ?? 0) > DEFAULT_JOB_TIMEOUT_MS, 'the run gives measure() at least the job');
});

test("the file's limits, states and expected times are read", async () => {
  const w = await loadWorkload(
    fileWith('timeout: { job: 45m, step: 5m }\nstates: [cold, warm]\nexpected: { job: 2m, dind: 3m30s, build: 1m }\n'),
  );
  assert.deepEqual(jobLimits(w), { jobMs: 45 * 60_000, stepMs: 5 * 60_000 });
  assert.deepEqual(statesOf(w), ['cold', 'warm']);
  assert.equal(jobEstimate(w, 'docker'), 120, 'no build: the states add nothing');
  assert.equal(jobEstimate(w, 'dind'), 210);
  assert.equal(jobEstimate(w, 'dind-rootless'), 210, 'an alternative DinD is planned as dind');
});

/** @type {[string, string, RegExp][]} */
const BAD = [
  ['a duration in words', 'timeout: { job: an hour }\n', /field \/timeout\/job: must be a time such as 90s/],
  ['a bare number', 'timeout: { step: 90 }\n', /field \/timeout\/step: must be a time with its unit: write 90s \(/],
  [
    'a bare number of minutes',
    'timeout: { job: 600 }\n',
    /field \/timeout\/job: must be a time with its unit: write 600s or 10m /,
  ],
  ['over 6h', 'timeout: { job: 7h }\n', /field \/timeout\/job: "?7h"? is outside 1s to 6h/],
  ['zero', 'timeout: { step: 0s }\n', /field \/timeout\/step: "?0s"? is outside 1s to 6h/],
  [
    'a step over the job',
    'timeout: { job: 10m, step: 20m }\n',
    /field \/timeout\/step: .*longer than the job's limit \(10m/,
  ],
  ['an unknown timeout', 'timeout: { build: 10m }\n', /field \/timeout: has a field it does not take: "build"/],
  ['an unknown state', 'states: [hot]\n', /field \/states\/0: must be one of cold, warm, cache-import/],
  ['a state twice', 'states: [cold, cold]\n', /field \/states: must NOT have duplicate items/],
  [
    'an expected job over its limit',
    'timeout: { job: 10m }\nexpected: { job: 11m }\n',
    /field \/expected\/job: a job expected to take 11m cannot fit its own limit of 10m/,
  ],
  ['an expected time in words', 'expected: { job: soon }\n', /field \/expected\/job: must be a time such as 90s/],
  ['an expected key', 'expected: { Docker: 1m }\n', /field \/expected: .*Docker.*: a name this field does not take/],
];

for (const [name, text, says] of BAD)
  test(`refused: ${name}, naming the file and the field`, async () => {
    const file = fileWith(text);
    await assert.rejects(loadWorkload(file), (e) => {
      const message = /** @type {Error} */ (e).message;
      assert.ok(message.includes(file), `names the file: ${message}`);
      assert.match(message, says);
      return true;
    });
  });

test("a step's own timeout over the job's is refused naming the step", async () => {
  const file = fileWith('timeout: { job: 5m }\n').replace(/$/, '');
  writeFileSync(
    file,
    "version: 1\nname: job\ntimeout: { job: 5m }\nsteps:\n  - { name: one, run: 'true', timeout: 6m }\n",
  );
  await assert.rejects(loadWorkload(file), /field \/steps\/0\/timeout: 6m is longer than the job's limit \(5m/);
});

test("a command's limit is its own, never past what is left of the job's", async () => {
  const w = await loadWorkload(fileWith('timeout: { job: 2m, step: 90s }\n'));
  const clock = jobClock(w);
  assert.equal(clock.limit().ms, 90_000);
  assert.match(clock.limit().what, /step limit of 90s \(timeout\.step\)/);
  assert.match(clock.limit({ timeout: '1m' }).what, /its limit of 1m/);
  // Past a second of a 3-second job, a command gets what is left, named as the job's limit; past 3 s, none.
  const short = jobClock({ ...w, timeout: { job: '3s', step: '3s' } });
  await new Promise((r) => setTimeout(r, 1200));
  const left = short.limit();
  assert.ok(left.ms <= 1800, `what is left: ${left.ms}`);
  assert.match(left.what, /the job's limit of 3s \(timeout\.job\)/);
  await new Promise((r) => setTimeout(r, 2000));
  assert.throws(() => short.limit(), /the job reached its limit of 3s \(timeout\.job\) before this step/);
});

/** @param {Partial<import('../../src/engine/cli.js').CliResult>} r */
const result = (r) => ({ exitCode: 0, stdout: '', stderr: '', ms: 1, timedOut: false, leftRunning: [], ...r });

test('a failed step: its exit status and error line first, then the last lines of stderr, then of stdout', () => {
  const stdout = Array.from({ length: 30 }, (_, i) => `progress ${i}`).join('\n');
  const e = failed(
    'step-build',
    'make',
    result({ exitCode: 2, stdout, stderr: 'warning: old\nerror: no rule to make target\n' }),
  );
  const [first, ...rest] = e.message.split('\n');
  assert.equal(first, 'step step-build: `make` exited 2: error: no rule to make target');
  const tail = rest.join('\n');
  assert.ok(tail.indexOf('--- stderr (2 lines) ---') < tail.indexOf('--- stdout (last 10 of 30 lines) ---'), tail);
  assert.match(tail, /progress 29$/);
  assert.doesNotMatch(tail, /progress 19\n/, 'only the last lines of stdout');
});

test('a step ended at its limit says which limit, and its last words', () => {
  const r = result({ exitCode: 137, stderr: 'building...\n(killed: no exit within 90 s)', timedOut: true });
  const e = stepError('build-app', 'docker buildx build .', r, 'the step limit of 90s (timeout.step)');
  assert.match(
    String(e?.message).split('\n')[0],
    /did not end within the step limit of 90s \(timeout\.step\), so the run ended it \(exit 137\); its last words: building\.\.\./,
  );
});
