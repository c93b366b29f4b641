// A tool or a job's step runs in a process group of its own (src/engine/cli.js), a step in a PID namespace
// of its own where one can be made (src/engine/step-pidns.js): when it ends, or its timeout does, whatever
// it started is ended with it, `setsid` and double-forked processes too, and a step whose child outlived it
// is no success. No engine needed: nothing here reaches a socket.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { shellStep } from '../../src/engine/cli.js';
import { available } from '../../src/engine/step-pidns.js';
import { stepError } from '../../src/workload/failure.js';

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** @param {string} script @param {number} [timeoutMs] */
const step = (script, timeoutMs = 10_000) =>
  shellStep({ socket: path.join(dir, 'no-engine.sock'), script, cwd: dir, timeoutMs, config: dir });

/**
 * The running processes (zombies are not) whose command line is `cmd` exactly: a step's PIDs are its
 * namespace's, so its processes are found by a command line of their own.
 * @param {string} cmd
 */
function running(cmd) {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') return false;
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === cmd;
      } catch {
        return false;
      }
    });
}

test('a step that leaves a background child: ended with the step, not waited for, and no success', async () => {
  const pidFile = path.join(dir, 'child.pid');
  const t0 = performance.now();
  const r = await step(`sleep 30.1 & echo $! > ${pidFile}; echo started`, 2_000);
  const s = (performance.now() - t0) / 1000;
  assert.ok(s < 1.5, `returned after ${s.toFixed(1)} s, not at the step's timeout or the child's end`);
  assert.equal(r.exitCode, 0, 'the step itself exited 0');
  assert.equal(r.timedOut, false);
  assert.match(r.stdout, /^started$/m);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.equal(r.leftRunning.length, 1, r.leftRunning.join('\n'));
  assert.match(r.leftRunning[0], new RegExp(`^${pid} sleep 30.1$`));
  assert.deepEqual(running('sleep 30.1'), [], 'the child was ended');
  const e = stepError('step-serve', 'sleep 30.1 &', r);
  assert.match(
    String(e?.message),
    new RegExp(
      `^step step-serve: \`sleep 30.1 &\` exited 0 but left 1 process running \\(${pid} sleep 30.1\\), ended by the run`,
    ),
  );
});

test("a step's timeout ends its whole group, grandchildren too", async () => {
  const pidFile = path.join(dir, 'grandchild.pid');
  const r = await step(`sh -c 'sleep 30.2 & echo $! > ${pidFile}; wait' & wait`, 1_000);
  assert.equal(r.timedOut, true);
  assert.notEqual(r.exitCode, 0);
  assert.match(r.stderr, /killed: no exit within 1 s/);
  assert.ok(existsSync(pidFile));
  assert.deepEqual(running('sleep 30.2'), [], 'the grandchild was ended');
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

test('a step whose processes left its group (setsid, a double fork) names them, ends them and fails', async (t) => {
  if (!available()) {
    if (process.env.CI) assert.fail('no PID namespace can be made here (unshare --pid), so setsid escapes a step');
    t.skip('no PID namespace can be made here (unshare --pid, as root or in a user namespace)');
    return;
  }
  for (const [script, cmd] of [
    ['setsid sleep 30.3 & echo started', 'sleep 30.3'],
    ['( (sleep 30.4 &) & ); echo started', 'sleep 30.4'],
    ["setsid sh -c '(sleep 30.5 &)' & wait; echo started", 'sleep 30.5'],
  ]) {
    const r = await step(script, 5_000);
    assert.equal(r.exitCode, 0, `${script}: the step itself exited 0`);
    assert.equal(r.timedOut, false, script);
    assert.equal(r.leftRunning.length, 1, `${script}: ${r.leftRunning.join('\n')}`);
    assert.match(r.leftRunning[0], new RegExp(`^\\d+ ${cmd}$`), script);
    assert.deepEqual(running(cmd), [], `${script}: ended with the step`);
    assert.match(String(stepError('step-x', script, r)?.message), /exited 0 but left 1 process running/, script);
  }
});
