// A run records the step isolation its workload steps really got (issue 52), on the real engine: the step
// prints the PID namespace it is in; where a namespace can be made, results.json says pid-namespace and the
// step's namespace is not the test's; where unshare refuses (an `unshare` first on PATH that refuses as a
// kernel without user namespaces does), it says process-group with unshare's reason, and the step shares the
// test's namespace. The file stays valid against the schema.
import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { validateResults } from '../../src/results/schema.js';
import { onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-step-isolation-run-'));
after(() => rmSync(work, { recursive: true, force: true }));

const bin = path.join(work, 'bin');
mkdirSync(bin);
writeFileSync(
  path.join(bin, 'unshare'),
  "#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n",
);
chmodSync(path.join(bin, 'unshare'), 0o755);

const job = path.join(work, 'job');
mkdirSync(job);
writeFileSync(
  path.join(job, 'workload.yml'),
  [
    'version: 1',
    'name: isolation',
    'steps:',
    '  - name: where',
    '    run: echo "pidns=$(readlink /proc/self/ns/pid)"',
    '',
  ].join('\n'),
);

/** A run of the workload; its results and the namespace its step printed. @param {string} name @param {NodeJS.ProcessEnv} env */
function run(name, env) {
  const out = path.join(work, name);
  const r = runCli(
    ['run', '--workload', path.join(job, 'workload.yml'), '--env', 'docker', '--iterations', '1', '--out', out],
    {
      timeout: 400_000,
      env,
    },
  );
  assert.equal(r.status, 0, `${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  const raw = readdirSync(path.join(out, 'raw'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('step-where.txt'),
  );
  assert.ok(raw.length, 'the step output is kept');
  const printed = readFileSync(path.join(out, 'raw', raw[0]), 'utf8').match(/pidns=(pid:\[\d+\])/)?.[1];
  return { isolation: results.run.stepIsolation, printed };
}

test("results.json records the step isolation the workload's steps got: a PID namespace, or a process group with the reason", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const mine = readlinkSync('/proc/self/ns/pid');
  const held = run('namespace', process.env);
  assert.equal(held.isolation?.kind, 'pid-namespace', JSON.stringify(held.isolation));
  assert.match(held.isolation?.how ?? '', /^a PID namespace per step \(unshare .*--pid --fork --kill-child/);
  assert.match(String(held.printed), /^pid:\[\d+\]$/, 'the step printed its namespace');
  assert.notEqual(held.printed, mine, "the step's PID namespace is its own");
  const group = run('group', { ...process.env, PATH: `${bin}:${process.env.PATH}` });
  assert.equal(group.isolation?.kind, 'process-group');
  assert.match(
    group.isolation?.how ?? '',
    /^a process group per step only: no PID namespace can be made here \(.*unshare: unshare failed: Operation not permitted\)/,
  );
  assert.equal(group.printed, mine, "without a namespace the step is in the run's");
  await setup.leftAsFound();
});
