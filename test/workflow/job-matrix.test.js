// The job matrix of bench.yml: a table of workflow inputs -> jobs, and inputs that are refused with the
// valid values. Pure code, no engine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matrixFromBakePrint } from '../../src/images/matrix.js';
import { jobMatrix, parseRunnerSets } from '../../src/workflow/job-matrix.js';
import { runCli } from '../helpers/run-cli.js';

const bake = { distros: ['debian', 'alpine'], engines: ['20.10', '26.1'] };
const benchmarkNames = ['lifecycle', 'sysbench'];
const base = {
  benchmarks: 'lifecycle,sysbench',
  distributions: 'debian',
  engines: '20.10,26.1',
  runners: 'self-hosted,linux,gce',
};

const cases = [
  {
    name: 'both layouts on one label set: docker, dind and interleaved jobs',
    inputs: { ...base, layout: 'both' },
    jobs: [
      ['gce-docker', ['self-hosted', 'linux', 'gce'], 'native,docker'],
      ['gce-dind', ['self-hosted', 'linux', 'gce'], 'dind'],
      ['gce-interleaved', ['self-hosted', 'linux', 'gce'], 'native,docker,dind'],
    ],
  },
  {
    name: 'two label sets, interleaved only',
    inputs: { ...base, runners: 'self-hosted,linux,gce; self-hosted, linux, lab', layout: 'interleaved' },
    jobs: [
      ['gce-interleaved', ['self-hosted', 'linux', 'gce'], 'native,docker,dind'],
      ['lab-interleaved', ['self-hosted', 'linux', 'lab'], 'native,docker,dind'],
    ],
  },
  {
    name: 'host Engine versions become runner labels, one job each',
    inputs: { ...base, hostEngines: '27.5, 28.2', layout: 'separate' },
    jobs: [
      ['gce-docker-27.5-docker', ['self-hosted', 'linux', 'gce', 'docker-27.5'], 'native,docker'],
      ['gce-docker-27.5-dind', ['self-hosted', 'linux', 'gce', 'docker-27.5'], 'dind'],
      ['gce-docker-28.2-docker', ['self-hosted', 'linux', 'gce', 'docker-28.2'], 'native,docker'],
      ['gce-docker-28.2-dind', ['self-hosted', 'linux', 'gce', 'docker-28.2'], 'dind'],
    ],
  },
];
for (const c of cases) {
  test(`job matrix: ${c.name}`, () => {
    const { include } = jobMatrix({ bake, benchmarkNames, inputs: c.inputs });
    assert.deepEqual(
      include.map((j) => [j.id, j.runsOn, j.environments]),
      c.jobs,
    );
    for (const j of include) {
      assert.equal(j.benchmarks, 'lifecycle,sysbench');
      assert.equal(j.distributions, 'debian');
      assert.equal(j.engines, '20.10,26.1');
    }
  });
}

const refused = [
  { inputs: { ...base, engines: '19.03' }, message: /input engines: unknown 19\.03; valid: 20\.10, 26\.1/ },
  {
    inputs: { ...base, distributions: 'ubuntu' },
    message: /input distributions: unknown ubuntu; valid: debian, alpine/,
  },
  { inputs: { ...base, benchmarks: '' }, message: /input benchmarks is empty; valid: lifecycle, sysbench/ },
  { inputs: { ...base, runners: ' ; ' }, message: /input runners is empty/ },
  { inputs: { ...base, runners: 'self-hosted,linux,$(id)' }, message: /label "\$\(id\)" is not a runner label/ },
  {
    inputs: { ...base, layout: 'sideways' },
    message: /input layout: unknown sideways; valid: separate, interleaved, both/,
  },
  { inputs: { ...base, hostEngines: 'latest' }, message: /input host-engines: "latest" is not an Engine version/ },
  {
    inputs: { ...base, runners: 'self-hosted,gce; self-hosted,linux,gce' },
    message: /two label sets give the same job gce-docker/,
  },
];
for (const r of refused) {
  test(`job matrix refuses ${JSON.stringify(r.inputs)}`, () => {
    assert.throws(() => jobMatrix({ bake, benchmarkNames, inputs: r.inputs }), r.message);
  });
}

test('runner label sets: trimmed, de-duplicated, empty sets dropped', () => {
  assert.deepEqual(parseRunnerSets(' self-hosted , linux,linux ;; lab '), [['self-hosted', 'linux'], ['lab']]);
});

test('bake matrix: distributions, DinD engines and images from the printed bake file', () => {
  const printed = {
    target: {
      'lifecycle-debian': {
        labels: { 'dind-bench.kind': 'bench', 'dind-bench.bench': 'lifecycle', 'dind-bench.distro': 'debian' },
        tags: ['dind-bench/lifecycle:debian'],
      },
      'sysbench-alpine': {
        labels: { 'dind-bench.kind': 'bench', 'dind-bench.bench': 'sysbench', 'dind-bench.distro': 'alpine' },
        tags: ['dind-bench/sysbench:alpine'],
      },
      'dind-26-1': {
        labels: { 'dind-bench.kind': 'dind', 'dind-bench.engine': '26.1' },
        tags: ['dind-bench/dind:26.1'],
      },
      'dind-official-28-2': {
        labels: { 'dind-bench.kind': 'dind-official', 'dind-bench.engine': '28.2' },
        tags: ['dind-bench/dind:28.2-official'],
      },
      unlabelled: { tags: ['x'] },
    },
  };
  const m = matrixFromBakePrint(printed);
  assert.deepEqual(m.distros, ['debian', 'alpine']);
  assert.deepEqual(m.engines, ['26.1']);
  assert.deepEqual(m.images, ['lifecycle', 'sysbench']);
  assert.equal(m.targets.length, 4);
});

// Shards: a table of per-cell costs stands in for plan's estimate (each part also pays a setup), so the
// split is checked against numbers the test controls; the CLI case uses plan's real estimates.
const COST = { lifecycle: 10, sysbench: 50, fio: 120, 'stress-ng': 200 };
const SETUP = 5;
/** @type {import('../../src/workflow/job-matrix.js').Estimate} */
const estimate = ({ benchmarks, environments }) =>
  SETUP + (benchmarks.reduce((s, b) => s + /** @type {any} */ (COST)[b] * environments.length, 0) * 60) / 10;

/** Every benchmark x environment cell of a job's shards, each once. @param {any[]} jobs */
const cellsOf = (jobs) =>
  jobs
    .flatMap((j) =>
      j.benchmarks
        .split(',')
        .flatMap((/** @type {string} */ b) => j.environments.split(',').map((/** @type {string} */ e) => `${b}/${e}`)),
    )
    .sort();

test('shards: under max-minutes each, every cell in exactly one shard of the group, interleaved where it fits', () => {
  const names = Object.keys(COST);
  const inputs = { ...base, benchmarks: names.join(','), layout: 'interleaved', maxMinutes: 45 };
  const { include } = jobMatrix({ bake, benchmarkNames: names, inputs, estimate });
  assert.ok(include.length > 1, 'split');
  for (const j of include) {
    assert.equal(j.group, 'gce-interleaved');
    assert.ok(/** @type {number} */ (j.estimateMinutes) <= 45, `${j.id}: ${j.estimateMinutes} min`);
    assert.match(j.shard, /^\d+\/\d+$/);
  }
  assert.deepEqual(new Set(include.map((j) => j.id)).size, include.length);
  const all = names.flatMap((b) => ['native', 'docker', 'dind'].map((e) => `${b}/${e}`)).sort();
  assert.deepEqual(cellsOf(include), all);
  // stress-ng is 200 min a cell (x3 environments = 60 min): too long interleaved, so split by environment group.
  assert.ok(include.some((j) => j.benchmarks === 'stress-ng' && j.environments === 'native,docker'));
  assert.ok(include.some((j) => j.benchmarks === 'stress-ng' && j.environments === 'dind'));
  // the short ones stay interleaved, several to a shard
  assert.ok(include.some((j) => j.environments === 'native,docker,dind' && j.benchmarks.split(',').length > 1));
});

test('shards: without a budget one shard per job; a cell over the budget alone is refused with what to do', () => {
  const { include } = jobMatrix({ bake, benchmarkNames, inputs: base, estimate });
  assert.deepEqual(
    include.map((j) => [j.id, j.group, j.shard]),
    [
      ['gce-docker', 'gce-docker', '1/1'],
      ['gce-dind', 'gce-dind', '1/1'],
      ['gce-interleaved', 'gce-interleaved', '1/1'],
    ],
  );
  assert.throws(
    () =>
      jobMatrix({
        bake,
        benchmarkNames: Object.keys(COST),
        inputs: { ...base, benchmarks: 'stress-ng', layout: 'separate', maxMinutes: 10 },
        estimate,
      }),
    /job gce-docker: stress-ng in native alone is estimated at 21 min, over max-minutes 10: raise max-minutes/,
  );
});

test("workflow matrix --max-minutes: the standard profile split by plan's estimates", () => {
  const r = runCli([
    'workflow',
    'matrix',
    '--runners',
    'self-hosted,linux,gce',
    '--profile',
    'standard',
    '--layout',
    'interleaved',
    '--max-minutes',
    '240',
    '--bake-matrix',
    JSON.stringify({ distros: ['debian'], engines: ['20.10'] }),
  ]);
  assert.equal(r.status, 0, r.stderr);
  const { include } = JSON.parse(r.stdout);
  assert.ok(include.length > 1);
  for (const j of include) assert.ok(j.estimateMinutes <= 240 && j.group === 'gce-interleaved', JSON.stringify(j));
});
