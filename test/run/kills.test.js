// A step killed from outside (exit 137) costs that iteration, never the cell: it runs once more, said in the
// log and the cell's `killed` record; killed again, the iteration is recorded as failed and the cell's other
// iterations are measured. Here with a benchmark of the test's own whose measure() fails on cue (the real
// engine's kills are in ./faults.test.js).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { finishCells } from '../../src/run/cells.js';
import { killedBy } from '../../src/run/kills.js';
import { Progress } from '../../src/run/progress.js';
import { runPlannedSteps } from '../../src/run/steps.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-kills-'));
after(() => rmSync(work, { recursive: true, force: true }));

const KILLED = () =>
  Object.assign(new Error('step cpu: cut short (the script exited 137 before this step finished): (no output)'), {
    step: 'cpu',
    exitCode: 137,
  });
const BROKEN = () => Object.assign(new Error('step cpu: `sysbench cpu run` exited 1: FATAL: broken'), { exitCode: 1 });

/**
 * Runs `iterations` steps of one cell whose measure() meets `faults` in order (null: measured).
 * @param {(null | (() => Error))[]} faults @param {number} [iterations]
 */
async function runCell(faults, iterations = 3) {
  let call = 0;
  const bench = {
    name: 'fake',
    image: 'lifecycle',
    description: 'test only',
    params: { quick: {} },
    async measure() {
      const fault = faults[call++];
      if (fault) throw fault();
      return [{ metric: 'x_ms', unit: 'ms', better: /** @type {const} */ ('lower'), value: call }];
    },
  };
  const key = 'fake/docker/debian';
  /** @type {import('../../src/run/cells.js').CellResult} */
  const cell = {
    benchmark: 'fake',
    environment: 'docker',
    environmentKey: 'docker',
    distro: 'debian',
    engine: null,
    image: 'dind-bench/lifecycle:debian',
    status: 'pending',
    metrics: [],
    raw: [],
  };
  const cells = new Map([[key, cell]]);
  const steps = Array.from({ length: iterations }, (_, i) => ({ cell: key, iteration: i, warmup: false }));
  /** @type {string[]} */
  const lines = [];
  const run = /** @type {import('../../src/run/runner.js').RunContext} */ ({
    outDir: work,
    profile: { name: 'quick', stepTimeoutMs: 10_000 },
    log: (/** @type {string} */ l) => lines.push(l),
    benchmarks: { fake: bench },
    paramOverrides: {},
    tracker: /** @type {any} */ ({ closing: false }),
    progress: new Progress(steps.map(() => ({ benchmark: 'fake', environment: 'docker', seconds: 1 }))),
    environments: [],
    roundMs: new Map(),
  });
  await runPlannedSteps(steps, new Map([['docker', /** @type {any} */ ({})]]), cells, run);
  const stepsDone = cell.stepsDone;
  finishCells(cells);
  return { cell, lines, calls: call, stepsDone };
}

test('killed once: the iteration runs once more, measured; the log and the cell say so', async () => {
  const { cell, lines, calls } = await runCell([null, KILLED, null, null]);
  assert.equal(calls, 4);
  assert.equal(cell.status, 'ok');
  assert.deepEqual(cell.metrics[0].samples, [1, 3, 4]);
  assert.deepEqual(
    cell.killed?.map((k) => [k.iteration, k.outcome]),
    [['#2', 'measured']],
  );
  assert.match(
    cell.killed?.[0].reason ?? '',
    /^fake in docker \(debian\), #2, step cpu: step cpu: cut short .*exited 137/,
  );
  assert.ok(
    lines.some((l) => /#2: killed \(exit 137: SIGKILL, as the OOM killer sends\); running it once more$/.test(l)),
    lines.join('\n'),
  );
});

test("killed twice: that iteration is recorded as failed, the cell's other iterations are measured", async () => {
  const { cell, lines, calls, stepsDone } = await runCell([null, KILLED, KILLED, null]);
  assert.equal(calls, 4);
  assert.equal(stepsDone, 3, 'the lost iteration is done: a resumed run does not run it again');
  assert.equal(cell.status, 'ok');
  assert.equal(cell.reason, undefined);
  assert.deepEqual(cell.metrics[0].samples, [1, 4]);
  assert.deepEqual(
    cell.killed?.map((k) => [k.iteration, k.outcome]),
    [['#2', 'killed again']],
  );
  assert.ok(
    lines.some((l) => /#2: killed again \(exit 137\); recorded as this iteration's failure/.test(l)),
    lines.join('\n'),
  );
});

test("a retry that fails otherwise is the benchmark's own failure: the cell fails, the record says so", async () => {
  const { cell, calls } = await runCell([null, KILLED, BROKEN, null]);
  assert.equal(calls, 3, 'nothing runs after a failed cell');
  assert.equal(cell.status, 'failed');
  assert.match(cell.reason ?? '', /#2: step cpu: `sysbench cpu run` exited 1: FATAL: broken/);
  assert.deepEqual(
    cell.killed?.map((k) => [k.iteration, k.outcome]),
    [['#2', 'failed']],
  );
});

test('a failure that is no kill is not run again', async () => {
  const { cell, calls } = await runCell([null, BROKEN, null]);
  assert.equal(calls, 2);
  assert.equal(cell.status, 'failed');
  assert.equal(cell.killed, undefined);
});

test('every iteration killed twice: nothing measured, the cell fails naming the kills', async () => {
  const { cell } = await runCell([KILLED, KILLED, KILLED, KILLED], 2);
  assert.equal(cell.status, 'failed');
  assert.match(cell.reason ?? '', /^every measured iteration was killed twice \(exit 137\); the last: .*#2/);
});

test('killedBy: exit status 137 from a step, or "exited 137" on the first line of a CLI step', () => {
  assert.equal(killedBy(KILLED()), true);
  assert.equal(killedBy(new Error('step pull-x: `docker run --rm x` exited 137: \nKilled')), true);
  assert.equal(killedBy(BROKEN()), false);
  assert.equal(killedBy(new Error('step a: `x` exited 1: fine\nexited 137')), false, 'only the first line');
  assert.equal(killedBy(new Error('step a: `x` exited 1370: odd')), false);
  assert.equal(killedBy(undefined), false);
});
