// The job matrix of bench.yml: a table of workflow inputs -> jobs, and inputs that are refused with the
// valid values. Pure code, no engine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matrixFromBakePrint } from '../../src/images/matrix.js';
import { jobMatrix, parseRunnerSets } from '../../src/workflow/job-matrix.js';

const bake = { distros: ['debian', 'alpine'], engines: ['20.10', '26.1'] };
const benchmarkNames = ['lifecycle', 'sysbench'];
const base = { benchmarks: 'lifecycle,sysbench', distributions: 'debian', engines: '20.10,26.1', runners: 'self-hosted,linux,gce' };

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
    assert.deepEqual(include.map((j) => [j.id, j.runsOn, j.environments]), c.jobs);
    for (const j of include) {
      assert.equal(j.benchmarks, 'lifecycle,sysbench');
      assert.equal(j.distributions, 'debian');
      assert.equal(j.engines, '20.10,26.1');
    }
  });
}

const refused = [
  { inputs: { ...base, engines: '19.03' }, message: /input engines: unknown 19\.03; valid: 20\.10, 26\.1/ },
  { inputs: { ...base, distributions: 'ubuntu' }, message: /input distributions: unknown ubuntu; valid: debian, alpine/ },
  { inputs: { ...base, benchmarks: '' }, message: /input benchmarks is empty; valid: lifecycle, sysbench/ },
  { inputs: { ...base, runners: ' ; ' }, message: /input runners is empty/ },
  { inputs: { ...base, runners: 'self-hosted,linux,$(id)' }, message: /label "\$\(id\)" is not a runner label/ },
  { inputs: { ...base, layout: 'sideways' }, message: /input layout: unknown sideways; valid: separate, interleaved, both/ },
  { inputs: { ...base, hostEngines: 'latest' }, message: /input host-engines: "latest" is not an Engine version/ },
  { inputs: { ...base, runners: 'self-hosted,gce; self-hosted,linux,gce' }, message: /two label sets give the same job gce-docker/ },
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
      'lifecycle-debian': { labels: { 'dind-bench.kind': 'bench', 'dind-bench.bench': 'lifecycle', 'dind-bench.distro': 'debian' }, tags: ['dind-bench/lifecycle:debian'] },
      'sysbench-alpine': { labels: { 'dind-bench.kind': 'bench', 'dind-bench.bench': 'sysbench', 'dind-bench.distro': 'alpine' }, tags: ['dind-bench/sysbench:alpine'] },
      'dind-26-1': { labels: { 'dind-bench.kind': 'dind', 'dind-bench.engine': '26.1' }, tags: ['dind-bench/dind:26.1'] },
      'dind-official-28-2': { labels: { 'dind-bench.kind': 'dind-official', 'dind-bench.engine': '28.2' }, tags: ['dind-bench/dind:28.2-official'] },
      unlabelled: { tags: ['x'] },
    },
  };
  const m = matrixFromBakePrint(printed);
  assert.deepEqual(m.distros, ['debian', 'alpine']);
  assert.deepEqual(m.engines, ['26.1']);
  assert.deepEqual(m.images, ['lifecycle', 'sysbench']);
  assert.equal(m.targets.length, 4);
});
