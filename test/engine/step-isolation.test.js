// The step isolation a run actually uses is said, not silent (issue 52): a PID namespace per workload step
// where one can be made, else a process group only, with unshare's own reason; `dind-bench doctor` shows
// which, and a merged run keeps the weakest of its shards'. Where no namespace can be made is made real by an
// `unshare` first on PATH that refuses as a kernel without user namespaces does. No engine needed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { available, stepIsolation } from '../../src/engine/step-pidns.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-step-isolation-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// What util-linux's unshare says where the kernel refuses a namespace.
const REFUSAL = 'unshare: unshare failed: Operation not permitted';
const bin = path.join(dir, 'bin');
spawnSync('mkdir', ['-p', bin]);
writeFileSync(path.join(bin, 'unshare'), `#!/bin/sh\necho '${REFUSAL}' >&2\nexit 1\n`);
chmodSync(path.join(bin, 'unshare'), 0o755);
const REFUSING = { ...process.env, PATH: `${bin}:${process.env.PATH}` };

/** stepIsolation() as a fresh process with `env` sees it. @param {NodeJS.ProcessEnv} env */
function isolationIn(env) {
  const module = new URL('../../src/engine/step-pidns.js', import.meta.url).href;
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(module)}); console.log(JSON.stringify(m.stepIsolation()))`,
    ],
    { encoding: 'utf8', env },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('the isolation is the one the steps get: a PID namespace where unshare makes one, else a process group with its reason', () => {
  const here = stepIsolation();
  const flags = available();
  if (flags) {
    assert.equal(here.kind, 'pid-namespace');
    assert.ok(here.how.startsWith(`a PID namespace per step (unshare ${flags.join(' ')})`), here.how);
  } else {
    if (process.env.CI) assert.fail(`no PID namespace can be made here: ${here.how}`);
    assert.equal(here.kind, 'process-group');
  }
  const refused = isolationIn(REFUSING);
  assert.equal(refused.kind, 'process-group');
  assert.match(
    refused.how,
    /^a process group per step only: no PID namespace can be made here \(`unshare (--user --map-current-user )?--pid …`: unshare: unshare failed: Operation not permitted\); a process a step starts that leaves its group \(setsid, a double fork\) can outlive the step$/,
  );
  // Without unshare at all, the reason is that.
  const none = isolationIn({ ...process.env, PATH: bin.replace(/bin$/, 'empty') });
  assert.equal(none.kind, 'process-group');
  assert.match(none.how, /spawnSync unshare ENOENT/);
});

test('doctor shows the step isolation, with what would give each step a namespace where it is only a process group', () => {
  const doctor = (/** @type {NodeJS.ProcessEnv} */ env) => {
    const r = runCli(['doctor', '--json'], { env: { ...env, DOCKER_HOST: 'unix:///tmp/dind-bench-no-such.sock' } });
    return JSON.parse(r.stdout).find((/** @type {any} */ c) => c.check === 'workload step isolation');
  };
  const here = doctor(process.env);
  assert.deepEqual(here, {
    check: 'workload step isolation',
    ok: true,
    detail: stepIsolation().how,
    ...(stepIsolation().kind === 'pid-namespace' ? {} : { fix: here.fix }),
  });
  const refused = doctor(REFUSING);
  assert.equal(refused.ok, true, 'a process group still runs every workload');
  assert.equal(refused.detail, isolationIn(REFUSING).how);
  assert.match(
    refused.fix,
    /run dind-bench as root, or allow unprivileged user namespaces .*kernel\.unprivileged_userns_clone=1/,
  );
  const text = runCli(['doctor'], { env: { ...REFUSING, DOCKER_HOST: 'unix:///tmp/dind-bench-no-such.sock' } }).stdout;
  assert.match(
    text,
    /^ok {4}workload step isolation: a process group per step only: .*\n {6}fix: run dind-bench as root/m,
  );
});
