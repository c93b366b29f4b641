// The command line: help everywhere, and wrong values rejected with the valid ones listed.
// These run the real CLI and need no engine.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/run-cli.js';

const cli = (/** @type {string[]} */ ...args) => runCli(args);

for (const cmd of [[], ['doctor'], ['images'], ['images', 'build'], ['run']]) {
  test(`${['dind-bench', ...cmd].join(' ')} --help`, () => {
    const r = cli(...cmd, '--help');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^Usage: dind-bench/);
  });
}

const wrong = [
  {
    args: ['run', '--out', 'x', '--bench', 'sysbench,nope'],
    message: /unknown benchmark nope; valid: lifecycle, sysbench/,
  },
  {
    args: ['run', '--out', 'x', '--env', 'docker,vm'],
    message: /unknown environment vm; valid: native, docker, dind, dind-vfs/,
  },
  { args: ['run', '--out', 'x', '--distro', 'ubuntu'], message: /unknown distribution ubuntu; valid: debian, alpine/ },
  { args: ['run', '--out', 'x', '--engine', '19.03'], message: /unknown engine version 19.03; valid: 20.10, 26.1/ },
  { args: ['run', '--out', 'x', '--profile', 'long'], message: /Allowed choices are quick, standard, tiny/ },
  { args: ['run', '--out', 'x', '--iterations', '0'], message: /at least 1/ },
  { args: ['run'], message: /required option '--out <dir>'/ },
  { args: ['images', 'build', '--distro', 'arch'], message: /unknown distribution arch; valid: debian, alpine/ },
  { args: ['frobnicate'], message: /unknown command 'frobnicate'/ },
];
for (const w of wrong) {
  test(`rejects ${w.args.join(' ')}`, () => {
    const r = cli(...w.args);
    assert.equal(r.status, 1);
    assert.match(r.stderr, w.message);
  });
}

test('an engine that is not a unix socket is refused, with what to do', () => {
  const r = runCli(['doctor'], { env: { ...process.env, DOCKER_HOST: 'tcp://127.0.0.1:2375' } });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /only talks to an engine over a unix socket.*Unset DOCKER_HOST/);
});

test('doctor without an engine says how to start one', () => {
  const r = runCli(['doctor', '--json'], {
    env: { ...process.env, DOCKER_HOST: 'unix:///tmp/dind-bench-no-such.sock' },
  });
  assert.equal(r.status, 1);
  const checks = JSON.parse(r.stdout);
  const engine = checks.find((/** @type {any} */ c) => c.check === 'engine reachable');
  assert.equal(engine.ok, false);
  assert.match(engine.fix, /start-engine\.sh/);
});

test("run without an engine fails with the doctor's advice", () => {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'dind-bench-no-engine-')), 'out');
  const r = runCli(['run', '--out', out], {
    env: { ...process.env, DOCKER_HOST: 'unix:///tmp/dind-bench-no-such.sock' },
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no Docker engine answers on \/tmp\/dind-bench-no-such.sock.*dind-bench doctor/);
});
