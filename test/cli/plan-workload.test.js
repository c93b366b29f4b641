// `dind-bench plan --workload FILE` (issue 43, item 2) on a machine with no engine: DOCKER_HOST points at a
// socket that does not exist, so anything that asked an engine would fail or hang. A good file is sized
// (cells, samples, wall time, runner cost, whether it fits); a bad one, whatever its bad field, is refused in
// under 2 s naming the file and the field; a plan over the CI job's limit says so with the iterations that
// would fit, and exits 7.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const BIN = new URL('../../bin/dind-bench.js', import.meta.url).pathname;
const GO_SERVICE = new URL('../../examples/workloads/go-service/', import.meta.url).pathname;
const work = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-plan-workload-'));
after(() => rmSync(work, { recursive: true, force: true }));

const NO_ENGINE = {
  ...process.env,
  DOCKER_HOST: `unix://${path.join(work, 'no-engine.sock')}`,
  DIND_BENCH_REGISTRY_USERNAME: 'ci',
  DIND_BENCH_REGISTRY_PASSWORD: 'not-a-real-password',
  GO_NETRC: 'machine modules.team.example login ci password not-a-real-token',
};

/** @param {string[]} args */
function plan(...args) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, BIN, 'plan', ...args], {
    encoding: 'utf8',
    env: NO_ENGINE,
    timeout: 60_000,
  });
  const wallS = (performance.now() - t0) / 1000;
  const [, user, sys] = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr) ?? [];
  return { ...r, wallS, cpuS: Number(user) + Number(sys) };
}

/**
 * Under 2 s: the wall time, on a machine that is not overloaded; on one that is (other work's load above
 * its cores), the wall time measures the queue, so the CPU time the command used stands for it.
 * @param {{ wallS: number, cpuS: number }} r
 */
function fast(r) {
  const busy = os.loadavg()[0] > os.cpus().length;
  const took = busy ? r.cpuS : r.wallS;
  assert.ok(
    took < 2,
    `${busy ? 'CPU' : 'wall'} time ${took.toFixed(2)} s (wall ${r.wallS.toFixed(2)} s, CPU ${r.cpuS.toFixed(2)} s)`,
  );
}

test('the Go-service example is checked and sized with no engine: cells, samples, wall time, runner cost', () => {
  const r = plan('--workload', path.join(GO_SERVICE, 'workload.yml'), '--env', 'docker,dind', '--max-minutes', '240');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /workload\.go-service \(.*go-service\/workload\.yml\): checked, no engine asked/);
  assert.match(r.stderr, /docker\s+5\s+\+1\s+20 s\s+expected\.docker/);
  assert.match(r.stderr, /dind@20\.10\s+5\s+2\.5 min\s+expected\.dind/);
  assert.match(r.stderr, /cells: 2, samples: 10 \(jobs run: 11/);
  assert.match(r.stderr, /estimated wall time: \d+\.\d min; runner cost of the run: \d+ billed minutes .*\$0\.\d\d/);
  assert.match(r.stderr, /fits the CI job's limit \(--max-minutes 240\)/);
  fast(r);
});

test('a plan over the CI job limit says so with the iterations that would fit, and exits 7', () => {
  const r = plan(
    '--workload',
    path.join(GO_SERVICE, 'workload.yml'),
    '--env',
    'docker,dind,dind-vfs',
    '--iterations',
    '40',
    '--max-minutes',
    '240',
    '--billing',
    'occupancy',
    '--price-per-minute',
    '0.0032',
  );
  assert.equal(r.status, 7, r.stderr);
  // 40 rounds of 20 s + 2m38s + 4m08s (each DinD job with its engine's stop) = 7m06s each, and the first job on the
  // runner's engine: about 4.8 h, over 240 min; 33 rounds fit in 240 min, 29 with the estimate's 15% to spare,
  // each interval then sqrt(40/29) = 1.17x as wide.
  assert.match(
    r.stderr,
    /does NOT fit the CI job's limit \(--max-minutes 240\) \(240 min\): over it by [\d.]+ (min|h), and the estimate's error is [\d.]+ min: 29 iteration\(s\) would fit with it to spare \(--iterations 29; each interval about 1\.17x as wide as at 40 a side\)/,
  );
  assert.match(r.stderr, /runner minutes at \$0\.0032 a minute/);
});

test("a plan fits only with its own estimate's error to spare, and says so", () => {
  const file = path.join(GO_SERVICE, 'workload.yml');
  // About 17.4 min planned: 94 s to spare in a 19-minute job is less than its error (15% of it, 2.6 min).
  const tight = plan('--workload', file, '--env', 'docker,dind', '--max-minutes', '19');
  assert.equal(tight.status, 7, tight.stderr);
  assert.match(
    tight.stderr,
    /the estimate's own error, which a limit must leave to spare: 2\.6 min \(15% of an estimate from expected times/,
  );
  assert.match(
    tight.stderr,
    /does NOT fit the CI job's limit \(--max-minutes 19\) \(19 min\): 94 s to spare, less than the estimate's error of 2\.6 min: 4 iteration\(s\) would fit with it to spare \(--iterations 4; each interval about 1\.12x as wide as at 5 a side\), or split the environments/,
  );
  const roomy = plan('--workload', file, '--env', 'docker,dind', '--max-minutes', '21');
  assert.equal(roomy.status, 0, roomy.stderr);
  assert.match(roomy.stderr, /fits the CI job's limit \(--max-minutes 21\) \(21 min\), with 3\.6 min to spare/);

  // The reusable workflow's plan step asks for its own inputs' words: what to write, by inputs that exist.
  const inputs = plan(
    '--workload',
    file,
    '--env',
    'docker,dind',
    '--engine',
    '20.10,26.1',
    '--max-minutes',
    '22',
    '--advice',
    'workflow',
  );
  assert.equal(inputs.status, 7, inputs.stderr);
  assert.match(
    inputs.stderr,
    /would fit with it to spare \(write `iterations: \d` under the caller's with:; each interval about [\d.]+x as wide as at 5 a side\), or measure one inner Engine line \(`engines: 20\.10`\), or leave the workload more of its bench job \(fewer benchmarks beside it: `benchmarks: lifecycle`\)/,
  );
  assert.doesNotMatch(inputs.stderr, /--iterations|--env\)/);

  // With no expected times the jobs are guessed: the error to spare is larger, and the plan says how to shrink it.
  const guessed = goServiceWith((t) => t.replace(/\nexpected:[\s\S]*$/, '\n'));
  const g = plan('--workload', guessed, '--env', 'docker,dind', '--max-minutes', '240');
  assert.equal(g.status, 0, g.stderr);
  assert.match(
    g.stderr,
    /the estimate's own error, which a limit must leave to spare: [\d.]+ (s|min) \(50% of the jobs guessed \(docker, dind@20\.10: expected times in the file would make it 15%\)/,
  );
});

/** A copy of the Go-service folder with its workload file changed by `edit`. @param {(text: string) => string} edit */
function goServiceWith(edit) {
  const dir = mkdtempSync(path.join(work, 'go-'));
  cpSync(GO_SERVICE, dir, { recursive: true });
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return file;
}

/** @type {[string, (text: string) => string, RegExp][]} one bad value per field of the file */
const BAD = [
  ['version', (t) => t.replace('version: 1', 'version: 2'), /field \/version: must be 1/],
  ['name', (t) => t.replace('name: go-service', 'name: Go Service'), /field \/name: must be a name of 1 to 40/],
  [
    'registries',
    (t) => t.replace('env: DIND_BENCH_REGISTRY_PASSWORD', 'env: DIND_BENCH_NOT_SET'),
    /field \/registries\/0\/password: the environment variable DIND_BENCH_NOT_SET is not set/,
  ],
  [
    'images',
    (t) => t.replace('source: pull\n    seed: dind-bench/pgbench', 'source: pulled\n    seed: dind-bench/pgbench'),
    /field \/images\/0\/source: must be one of pull, archive, present/,
  ],
  [
    'an image reference',
    (t) => t.replace('name: postgres:16', 'name: Postgres:16'),
    /field \/images\/0\/name: .*not an image reference/,
  ],
  [
    'builds',
    (t) => t.replace('context: service', 'context: ../elsewhere'),
    /field \/builds\/0\/context: .*stay inside it/,
  ],
  [
    'a build argument',
    (t) => t.replace('GO_IMAGE: registry', 'GO-IMAGE: registry'),
    /field \/builds\/0\/args: .*GO-IMAGE.*a name this field does not take/,
  ],
  [
    'a build secret',
    (t) => t.replace('env: GO_NETRC', 'env: GO_NETRC_NOT_SET'),
    /field \/builds\/0\/secrets\/0\/env: the environment variable GO_NETRC_NOT_SET is not set/,
  ],
  [
    'compose',
    (t) => t.replace('service: integration-test', 'service: e2e'),
    /field \/compose\/test\/service: e2e is not a service of compose\.yml/,
  ],
  ['timeout', (t) => t.replace('job: 30m', 'job: half an hour'), /field \/timeout\/job: must be a time such as 90s/],
  [
    'timeout.step',
    (t) => t.replace('step: 15m', 'step: 45m'),
    /field \/timeout\/step: 45m is longer than the job's limit \(30m/,
  ],
  [
    'states',
    (t) => t.replace('states: []', 'states: [frozen]'),
    /field \/states\/0: must be one of cold, warm, cache-import/,
  ],
  [
    'expected',
    (t) => t.replace('dind: 2m30s', 'dind: 45m'),
    /field \/expected\/dind: a job expected to take 45m cannot fit its own limit of 30m/,
  ],
  [
    'an expected environment',
    (t) => t.replace('dind-vfs: 4m', 'kubernetes: 4m'),
    /field \/expected\/kubernetes: not a name expected takes; give job, build or an environment's name/,
  ],
  ['a field it does not take', (t) => `${t}retries: 3\n`, /field \/: has a field it does not take: "retries"/],
];

for (const [field, edit, says] of BAD)
  test(`plan --workload refuses a bad ${field} with no engine, in under 2 s, naming the file and the field`, () => {
    const file = goServiceWith(edit);
    const r = plan('--workload', file, '--env', 'docker,dind');
    assert.equal(r.status, 1, r.stderr);
    assert.ok(r.stderr.includes(file), `names the file: ${r.stderr}`);
    assert.match(r.stderr, says);
    assert.doesNotMatch(r.stderr, /ENOENT|ECONNREFUSED|no-engine\.sock/, 'no engine was asked');
    fast(r);
  });

test('plan --json gives on stdout what the tables say: the run estimate and the sized workload plan', () => {
  const script = new URL('../../examples/workloads/script/workload.yml', import.meta.url).pathname;
  const r = plan('--workload', script, '--env', 'docker,dind', '--max-minutes', '240', '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    out.workload.rows.map((/** @type {{ environment: string }} */ row) => row.environment),
    ['docker', 'dind@20.10'],
  );
  assert.equal(out.workload.fits, true);
  assert.equal(out.workload.samples, 10);
  // The same total the text prints: in seconds, or in minutes with one decimal.
  const text = /estimated wall time: ([\d.]+) (min|s)\b/.exec(r.stderr);
  assert.ok(text, r.stderr);
  if (text[2] === 's') assert.equal(String(Math.round(out.workload.totalS)), text[1]);
  else assert.equal((out.workload.totalS / 60).toFixed(1), text[1]);
  assert.ok(out.estimate.totalS > 0 && out.estimate.setupS >= 0, JSON.stringify(out.estimate));
});
