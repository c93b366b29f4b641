// A tool or a job's step runs in a process group of its own (src/engine/cli.js): when it ends, or its
// timeout does, whatever it started is ended with it, and a step whose child outlived it is no success. No
// engine needed: nothing here reaches a socket.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { shellStep } from '../../src/engine/cli.js';
import { stepError } from '../../src/benchmarks/workload.js';

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** @param {string} script @param {number} [timeoutMs] */
const step = (script, timeoutMs = 10_000) =>
  shellStep({ socket: path.join(dir, 'no-engine.sock'), script, cwd: dir, timeoutMs, config: dir });

/** Whether process `pid` is running (a zombie is not). @param {number} pid */
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

test('a step that leaves a background child: ended with the step, not waited for, and no success', async () => {
  const pidFile = path.join(dir, 'child.pid');
  const t0 = performance.now();
  const r = await step(`sleep 30 & echo $! > ${pidFile}; echo started`, 2_000);
  const s = (performance.now() - t0) / 1000;
  assert.ok(s < 1.5, `returned after ${s.toFixed(1)} s, not at the step's timeout or the child's end`);
  assert.equal(r.exitCode, 0, 'the step itself exited 0');
  assert.equal(r.timedOut, false);
  assert.match(r.stdout, /^started$/m);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.equal(r.leftRunning.length, 1, r.leftRunning.join('\n'));
  assert.match(r.leftRunning[0], new RegExp(`^${pid} sleep 30$`));
  assert.equal(alive(pid), false, 'the child was ended');
  const e = stepError('step-serve', 'sleep 30 &', r);
  assert.match(
    String(e?.message),
    new RegExp(
      `^step step-serve: \`sleep 30 &\` exited 0 but left 1 process running \\(${pid} sleep 30\\), ended by the run`,
    ),
  );
});

test("a step's timeout ends its whole group, grandchildren too", async () => {
  const pidFile = path.join(dir, 'grandchild.pid');
  const r = await step(`sh -c 'sleep 30 & echo $! > ${pidFile}; wait' & wait`, 1_000);
  assert.equal(r.timedOut, true);
  assert.notEqual(r.exitCode, 0);
  assert.match(r.stderr, /killed: no exit within 1 s/);
  assert.ok(existsSync(pidFile));
  assert.equal(alive(Number(readFileSync(pidFile, 'utf8'))), false, 'the grandchild was ended');
});

test('a step that waits for its background work, or whose child exits in time, is a success', async () => {
  for (const script of ['sleep 0.2 & wait; echo done', 'true & wait', 'echo a | cat', 'exit 0']) {
    const r = await step(script);
    assert.equal(r.exitCode, 0, script);
    assert.deepEqual(r.leftRunning, [], script);
    assert.equal(stepError('step-x', script, r), null, script);
  }
  const r = await step('echo out; echo err >&2; exit 3');
  assert.equal(r.exitCode, 3);
  assert.match(String(stepError('step-x', 'exit 3', r)?.message), /exited 3: err/);
});
