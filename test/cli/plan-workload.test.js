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
  // runner's engine: about 4.7 h, over 240 min; 33 rounds fit.
  assert.match(
    r.stderr,
    /does NOT fit the CI job's limit \(--max-minutes 240\) \(240 min\): 33 iteration\(s\) would fit \(--iterations 33\)/,
  );
  assert.match(r.stderr, /runner minutes at \$0\.0032 a minute/);
});

test("in the reusable workflow's bench job (--hints workflow), a plan that does not fit names the smaller plans that do, by that workflow's inputs", () => {
  const args = ['--workload', path.join(GO_SERVICE, 'workload.yml'), '--env', 'native,docker,dind'];
  const r = plan(
    ...args,
    '--engine',
    '20.10,26.1',
    '--iterations',
    '40',
    '--max-minutes',
    '240',
    '--hints',
    'workflow',
  );
  assert.equal(r.status, 7, r.stderr);
  const [line] = r.stderr.split('\n').filter((l) => l.startsWith('does NOT fit'));
  assert.ok(line, r.stderr);
  // The workflow has no environments input: no command option is named, only its inputs.
  assert.doesNotMatch(line, /--env|--iterations|environments input/);
  assert.match(
    line,
    /^does NOT fit the time its bench job leaves it \(240 min\): the smallest plans that fit, by the reusable workflow's inputs: /,
  );
  // Fewer samples: the iterations the options' wording names too, and the interval's widening as 1/sqrt(n).
  const options = plan(...args, '--engine', '20.10,26.1', '--iterations', '40', '--max-minutes', '240');
  const n = Number(/(\d+) iteration\(s\) would fit/.exec(options.stderr)?.[1]);
  assert.ok(n >= 2 && n < 40, options.stderr);
  const wider = Math.sqrt(40 / n).toFixed(2);
  assert.ok(
    line.includes(`iterations: ${n} (${n} samples a side instead of 40: each interval about ${wider}x as wide)`),
    line,
  );
  // Fewer environments: Docker and DinD in jobs of their own, or one Engine line, each sized within the limit.
  const minutes = (/** @type {string} */ d) =>
    d.endsWith(' h') ? parseFloat(d) * 60 : d.endsWith(' s') ? parseFloat(d) / 60 : parseFloat(d);
  const separate =
    /layout: separate \(native, docker in one job, about ([\d.]+ (?:s|min|h)); dind in another, about ([\d.]+ (?:s|min|h));/.exec(
      line,
    );
  assert.ok(separate, line);
  for (const d of separate.slice(1)) assert.ok(minutes(d) <= 240, d);
  const one =
    /engines: '20\.10' \(about ([\d.]+ (?:s|min|h)); the next Engine line's question left for a run of its own\)/.exec(
      line,
    );
  assert.ok(one, line);
  assert.ok(minutes(one[1]) <= 240, one[1]);
  // Each smaller plan, sized by plan itself, fits: the separate DinD job and the one-line run.
  for (const [env, engine] of [
    ['dind', '20.10,26.1'],
    ['native,docker,dind', '20.10'],
  ]) {
    const alone = plan(
      '--workload',
      path.join(GO_SERVICE, 'workload.yml'),
      '--env',
      env,
      '--engine',
      engine,
      '--iterations',
      '40',
      '--max-minutes',
      '240',
    );
    assert.equal(alone.status, 0, `${env} ${engine}: ${alone.stderr}`);
  }
  // Nothing smaller fits: said so, with what is left.
  const none = plan(...args, '--engine', '20.10', '--iterations', '40', '--max-minutes', '5', '--hints', 'workflow');
  assert.equal(none.status, 7, none.stderr);
  assert.match(
    none.stderr,
    /does NOT fit the time its bench job leaves it \(5 min\): no smaller plan fits \(not two iterations a side, not one environment group alone\)/,
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
  // The same total the text prints, in minutes with one decimal.
  const text = /estimated wall time: ([\d.]+) min/.exec(r.stderr);
  assert.ok(text, r.stderr);
  assert.equal((out.workload.totalS / 60).toFixed(1), text[1]);
  assert.ok(out.estimate.totalS > 0 && out.estimate.setupS >= 0, JSON.stringify(out.estimate));
});
