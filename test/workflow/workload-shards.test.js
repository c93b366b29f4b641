// Where the workflow's prepare job puts a team's workload (src/workflow/workload-shards.js): beside its run's
// benchmarks when it fits, split by samples over shard jobs of its own when it does not, refused naming the
// smallest plans that fit (and an input that exists) when the caller allows no split. Pure code, no engine:
// a linear plan first, then the CLI with the real estimate of a real workload file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { jobMatrix } from '../../src/workflow/job-matrix.js';
import { placeWorkload } from '../../src/workflow/workload-shards.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const WORKLOAD = '.ci/e2e/shard-job/workload.yml';
const bake = { distros: ['debian'], engines: ['20.10', '26.1'] };
/** The inputs a caller can write, in both workflows. */
const inputsOf = (/** @type {string} */ rel) => {
  const w = parse(readFileSync(`${ROOT}${rel}`, 'utf8'));
  return Object.keys(w.on.workflow_dispatch?.inputs ?? w.on.workflow_call?.inputs);
};
const INPUTS = ['.github/workflows/bench.yml', '.github/workflows/reusable-bench.yml'].map(inputsOf);

/** One interleaved run of lifecycle, about `minutes` of benchmarks. @param {string} engines @param {number} minutes */
function matrix(engines, minutes) {
  const { include } = jobMatrix({
    bake,
    benchmarkNames: ['lifecycle'],
    inputs: {
      benchmarks: 'lifecycle',
      distributions: 'debian',
      engines,
      runners: 'self-hosted,linux,lab',
      layout: 'interleaved',
    },
  });
  return include.map((j) => ({ ...j, estimateMinutes: minutes }));
}

/**
 * A plan linear in its cells: 60 s of setup, then 30 s a job in each environment with a job (native has
 * none) and each inner Engine line. @type {import('../../src/workflow/workload-shards.js').NeedSeconds}
 */
const need = ({ environments, engines, iterations }) =>
  60 +
  30 * iterations * ((environments.includes('docker') ? 1 : 0) + (environments.includes('dind') ? engines.length : 0));

test('a workload that fits beside its run’s benchmarks runs in that job, with the run’s samples', () => {
  const r = placeWorkload({ include: matrix('20.10', 10), iterations: 10, maxMinutes: 30, maxShards: 16, need });
  assert.deepEqual(r.refusals, []);
  assert.equal(r.include.length, 1);
  assert.equal(r.include[0].workload, true);
  assert.equal(r.include[0].iterations, undefined, "the run's iterations");
  assert.deepEqual(r.placements[0], {
    group: 'lab-interleaved',
    jobs: ['lab-interleaved'],
    shards: 1,
    perShard: 10,
    needS: 660,
    beside: true,
  });
});

test('a workload over one job splits its samples over shard jobs, every environment in each', () => {
  // 10 a side in docker and dind: 660 s; beside 10 min of benchmarks a 6-min budget leaves nothing. Alone,
  // 2 jobs of 5 a side (360 s each) fit 6 min; 1 does not.
  const r = placeWorkload({ include: matrix('20.10', 10), iterations: 10, maxMinutes: 6, maxShards: 16, need });
  assert.deepEqual(r.refusals, []);
  const [bench, ...own] = r.include;
  assert.equal(bench.workload, undefined, 'the benchmarks run without it');
  assert.deepEqual(
    own.map((j) => [j.id, j.group, j.shard, j.environments, j.benchmarks, j.iterations, j.split, j.workload]),
    [
      ['lab-interleaved-workload-1', 'lab-interleaved-workload', '1/2', 'native,docker,dind', '', '5', 'samples', true],
      ['lab-interleaved-workload-2', 'lab-interleaved-workload', '2/2', 'native,docker,dind', '', '5', 'samples', true],
    ],
  );
  for (const j of own) {
    assert.deepEqual(j.runsOn, bench.runsOn, 'on runners of the same label set (one machine kind)');
    assert.equal(j.estimateMinutes, 6);
    assert.equal(j.name, 'lab · workload · ' + j.shard);
  }
  assert.deepEqual(
    { ...r.placements[0], needS: undefined },
    {
      group: 'lab-interleaved-workload',
      jobs: own.map((j) => j.id),
      shards: 2,
      perShard: 5,
      needS: undefined,
      beside: false,
    },
  );
  // Odd samples: every shard the same design, one sample a side more in all than asked at most.
  const odd = placeWorkload({ include: matrix('20.10', 10), iterations: 11, maxMinutes: 6, maxShards: 16, need });
  assert.deepEqual(
    odd.include.filter((j) => j.split).map((j) => j.iterations),
    ['4', '4', '4'],
  );
});

test('max-shards 1: refused, naming the smallest plans that fit and inputs the caller can write', () => {
  const r = placeWorkload({ include: matrix('20.10,26.1', 10), iterations: 10, maxMinutes: 6, maxShards: 1, need });
  assert.deepEqual(r.placements, []);
  assert.equal(r.include.length, 1, 'no job added');
  const [refusal] = r.refusals;
  assert.equal(refusal.group, 'lab-interleaved');
  // 6 min hold 60 s + 90 s a round of three environments: 3 rounds; one line (two environments): 5.
  assert.deepEqual(
    refusal.fits.map((f) => [f.input, f.value]),
    [
      ['iterations', '3'],
      ['max-shards', '4'],
    ],
  );
  assert.match(refusal.text, /10 samples a side in native, docker, dind need about 16 min/);
  assert.match(refusal.text, /max-shards 1 allows no split/);
  assert.match(refusal.text, /`iterations: 3` - 3 samples a side instead of 10 \(each interval about 1\.83x as wide\)/);
  // Two inner Engine lines, two shards allowed: one line fits, 5 a side in each of 2 jobs.
  const two = placeWorkload({ include: matrix('20.10,26.1', 10), iterations: 10, maxMinutes: 6, maxShards: 2, need });
  assert.deepEqual(
    two.refusals[0].fits.map((f) => [f.input, f.value]),
    [
      ['iterations', '6'],
      ['engines', '20.10'],
      ['max-shards', '4'],
    ],
  );
  // Not one sample fits a job: a larger budget.
  const none = placeWorkload({ include: matrix('20.10', 0), iterations: 4, maxMinutes: 1, maxShards: 1, need });
  assert.deepEqual(
    none.refusals[0].fits.map((f) => [f.input, f.value]),
    [['max-minutes', '2']],
  );
  for (const fit of [refusal, two.refusals[0], none.refusals[0]].flatMap((x) => x.fits))
    for (const inputs of INPUTS) assert.ok(inputs.includes(fit.input), `${fit.input}: an input of the workflow`);
});

test('a run of the profile split into more jobs than max-shards is refused, naming inputs that exist', () => {
  // lifecycle and sysbench, 60 min each: two jobs of a 90-min budget.
  const estimate = (/** @type {{benchmarks: string[]}} */ p) => 60 * 60 * p.benchmarks.length;
  const inputs = {
    benchmarks: 'lifecycle,sysbench',
    distributions: 'debian',
    engines: '20.10',
    runners: 'self-hosted,linux,lab',
    layout: 'interleaved',
    maxMinutes: 90,
  };
  assert.equal(jobMatrix({ bake, benchmarkNames: ['lifecycle', 'sysbench'], inputs, estimate }).include.length, 2);
  assert.throws(
    () => jobMatrix({ bake, benchmarkNames: ['lifecycle', 'sysbench'], inputs: { ...inputs, maxShards: 1 }, estimate }),
    (/** @type {Error} */ e) => {
      assert.match(e.message, /needs 2 shard jobs of at most max-minutes 90, and max-shards 1 allows no more/);
      const named = [...e.message.matchAll(/`([a-z-]+):/g)].map((m) => m[1]);
      assert.deepEqual(named, ['benchmarks', 'max-shards', 'iterations']);
      for (const n of named) for (const list of INPUTS) assert.ok(list.includes(n), n);
      return true;
    },
  );
});

test('the CLI places a real workload by its real plan: split over two jobs, or refused with max-shards 1', () => {
  const env = { ...process.env, GITHUB_ACTIONS: '' };
  const m = runCli(
    [
      'workflow',
      'matrix',
      '--bake-matrix',
      JSON.stringify(bake),
      '--bench',
      'lifecycle',
      '--distro',
      'debian',
      '--engine',
      '20.10',
      '--runners',
      'self-hosted,linux,lab',
      '--layout',
      'interleaved',
      '--profile',
      'tiny',
      '--iterations',
      '4',
      '--max-minutes',
      '7',
    ],
    { env },
  );
  assert.equal(m.status, 0, m.stderr);
  const args = [
    'workflow',
    'workload',
    '--matrix',
    m.stdout.trim(),
    '--workload',
    WORKLOAD,
    '--profile',
    'tiny',
    '--iterations',
    '4',
    '--max-minutes',
    '7',
  ];
  const placed = runCli(args, { env, cwd: ROOT });
  assert.equal(placed.status, 0, placed.stderr);
  const own = JSON.parse(placed.stdout).include.filter((/** @type {any} */ j) => j.split === 'samples');
  assert.deepEqual(
    own.map((/** @type {any} */ j) => [j.id, j.iterations]),
    [
      ['lab-interleaved-workload-1', '2'],
      ['lab-interleaved-workload-2', '2'],
    ],
  );
  assert.match(placed.stderr, /in 2 job\(s\) of its own .*2 samples a side each .*merged into one reading/);
  const refused = runCli([...args, '--max-shards', '1'], { env, cwd: ROOT });
  assert.equal(refused.status, 7, refused.stderr);
  assert.equal(refused.stdout, '', 'no matrix: nothing runs');
  assert.match(
    refused.stderr,
    /::error title=dind-bench workload::run lab-interleaved: the workload's 4 samples a side/,
  );
  assert.match(
    refused.stderr,
    /`iterations: [123]` - [123] samples a side instead of 4 \(each interval about [\d.]+x as wide\)/,
  );
  assert.match(refused.stderr, /`max-shards: 2`/);
});
