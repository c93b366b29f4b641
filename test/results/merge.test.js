// `dind-bench merge`: two real shards (a tiny run of native+docker and one of DinD, on the real engine)
// become one run that `publish` and `compare --history` accept, with DinD vs Docker compared across the
// shards; shards that could not have been one run are refused before anything is written.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MergeError, groupsOf, mergeShards, orderOf } from '../../src/results/merge.js';
import { engineOrSkip } from '../helpers/engine.js';
import { fixture, tmpDir } from '../history/helpers.js';
import { runCli } from '../helpers/run-cli.js';

/** @param {string[]} args */
const cli = (args) => runCli(args, { env: { ...process.env, GITHUB_ACTIONS: '' } });

/** The fixture run cut into two shards by benchmark, as two shard jobs would have written them. */
function fixtureShards() {
  const cut = (/** @type {string} */ bench, /** @type {string} */ id) => {
    const r = fixture();
    r.run.id = id;
    r.cells = r.cells.filter((/** @type {any} */ c) => c.benchmark === bench);
    return { file: `/shards/${id}/results.json`, results: r };
  };
  return [cut('lifecycle', 'shard-1'), cut('sysbench', 'shard-2')];
}

test('merge of fixture shards: every cell once, the shards recorded, deterministic id', () => {
  const shards = fixtureShards();
  const m = mergeShards(shards);
  assert.equal(m.cells.length, fixture().cells.length);
  assert.deepEqual(
    m.run.shards?.map((/** @type {any} */ s) => s.id),
    ['shard-1', 'shard-2'],
  );
  assert.deepEqual(m.run.args, { merged: ['shard-1', 'shard-2'] });
  assert.equal(m.run.state, 'finished');
  assert.equal(m.host.fingerprint, fixture().host.fingerprint);
  assert.equal(mergeShards(fixtureShards().reverse()).run.id, m.run.id, 'the same shards give the same run id');
  assert.equal(m.run.order, 'interleaved', 'split by benchmark: each benchmark still interleaved in its shard');
});

test("the merged run's step isolation is the weakest its shards had; none when no shard ran steps", () => {
  const ns = { kind: 'pid-namespace', how: 'a PID namespace per step (unshare --pid)' };
  const group = { kind: 'process-group', how: 'a process group per step only: no PID namespace can be made here' };
  const isolated = (/** @type {any[]} */ kinds) =>
    fixtureShards().map((s, i) => {
      if (kinds[i]) s.results.run.stepIsolation = kinds[i];
      return s;
    });
  assert.equal(mergeShards(isolated([])).run.stepIsolation, undefined);
  assert.deepEqual(mergeShards(isolated([ns, undefined])).run.stepIsolation, ns);
  assert.deepEqual(mergeShards(isolated([ns, group])).run.stepIsolation, group);
  assert.deepEqual(mergeShards(isolated([group, ns])).run.stepIsolation, group);
});

test('a benchmark whose environment groups ran in different shards makes the merged run `split`', () => {
  const byEnv = (/** @type {(c: any) => boolean} */ keep, /** @type {string} */ id) => {
    const r = fixture();
    r.run.id = id;
    r.cells = r.cells.filter(keep);
    return { file: `/shards/${id}/results.json`, results: r };
  };
  const dind = (/** @type {any} */ c) => c.environment.startsWith('dind');
  const shards = [byEnv((c) => !dind(c), 'base'), byEnv(dind, 'dind')];
  assert.ok(shards.every((s) => s.results.cells.length > 0));
  assert.equal(orderOf(shards), 'split');
  assert.equal(mergeShards(shards).run.order, 'split', 'the schema accepts it');
  assert.equal(orderOf(fixtureShards()), 'interleaved');
});

/** Shard folders as the workflow's merge job has them, and the matrix they ran from. */
function workflowShards() {
  const dir = tmpDir('merge-groups');
  const write = (/** @type {string} */ id, /** @type {any} */ results) => {
    mkdirSync(path.join(dir, 'shards', `shard-${id}`), { recursive: true });
    writeFileSync(path.join(dir, 'shards', `shard-${id}`, 'results.json'), JSON.stringify(results));
  };
  const [a, b] = fixtureShards();
  write('gce-interleaved-1', a.results);
  write('gce-interleaved-2', b.results);
  const whole = fixture();
  whole.run.id = 'whole-run';
  write('gce-docker', whole);
  const partial = fixture();
  partial.run.id = 'partial-run';
  partial.run.state = 'interrupted';
  partial.run.complete = false;
  write('lab-dind-1', partial);
  // lab-dind-2 left nothing (its job failed before its first step)
  const job = (/** @type {string} */ id, /** @type {string} */ group) => ({ id, group });
  const matrix = {
    include: [
      job('gce-docker', 'gce-docker'),
      job('gce-interleaved-1', 'gce-interleaved'),
      job('gce-interleaved-2', 'gce-interleaved'),
      job('lab-dind-1', 'lab-dind'),
      job('lab-dind-2', 'lab-dind'),
    ],
  };
  return { dir, matrix };
}

test('merge --matrix: each group one run, a single job copied as it is, an incomplete group left out', () => {
  const { dir, matrix } = workflowShards();
  const out = path.join(dir, 'results');
  const r = cli(['merge', '--matrix', JSON.stringify(matrix), '--out', out, path.join(dir, 'shards')]);
  assert.equal(r.status, 3, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['gce-docker', 'gce-interleaved']);
  const read = (/** @type {string} */ g) => JSON.parse(readFileSync(path.join(out, g, 'results.json'), 'utf8'));
  assert.equal(read('gce-docker').run.id, 'whole-run');
  const merged = read('gce-interleaved');
  assert.deepEqual(merged.run.args, { merged: ['shard-1', 'shard-2'] });
  assert.equal(merged.cells.length, fixture().cells.length);
  assert.match(r.stderr, /run lab-dind left out: job lab-dind-1 stopped before its end \(state interrupted/);
  assert.match(r.stderr, /re-run that job, which resumes from its uploaded partial results/);
  assert.match(r.stderr, /2 run\(s\) written .*, 1 left out/);

  // A missing shard is named too.
  const partialFile = path.join(dir, 'shards', 'shard-lab-dind-1', 'results.json');
  const doc = JSON.parse(readFileSync(partialFile, 'utf8'));
  doc.run.state = 'finished';
  writeFileSync(partialFile, JSON.stringify(doc));
  const again = cli([
    'merge',
    '--matrix',
    JSON.stringify(matrix),
    '--out',
    path.join(dir, 'again'),
    path.join(dir, 'shards'),
  ]);
  assert.equal(again.status, 3);
  assert.match(again.stderr, /job lab-dind-2 left no results \(.*shard-lab-dind-2\/results\.json\)/);

  const none = cli([
    'merge',
    '--matrix',
    JSON.stringify({ include: [{ id: 'x', group: 'x' }] }),
    '--out',
    path.join(dir, 'none'),
    path.join(dir, 'shards'),
  ]);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no run of the matrix could be merged/);
});

test("merge --matrix --shard-prefix: a call's own shard folders (the workflow's artifact-suffix), not another call's", () => {
  const { dir } = workflowShards();
  const shards = path.join(dir, 'shards');
  // A second call of the workflow in the same run: its shards beside the first call's, under its prefix.
  const other = fixture();
  other.run.id = 'other-call';
  mkdirSync(path.join(shards, 'shard.gate-26.gce-docker'), { recursive: true });
  writeFileSync(path.join(shards, 'shard.gate-26.gce-docker', 'results.json'), JSON.stringify(other));
  const matrix = JSON.stringify({ include: [{ id: 'gce-docker', group: 'gce-docker' }] });
  const read = (/** @type {string} */ out) =>
    JSON.parse(readFileSync(path.join(out, 'gce-docker', 'results.json'), 'utf8')).run.id;

  const plain = cli(['merge', '--matrix', matrix, '--out', path.join(dir, 'plain'), shards]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.equal(read(path.join(dir, 'plain')), 'whole-run', 'the default prefix is shard-');
  const own = ['merge', '--matrix', matrix, '--shard-prefix', 'shard.gate-26.', '--out', path.join(dir, 'own'), shards];
  const r = cli(own);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(read(path.join(dir, 'own')), 'other-call');
  const missing = cli([
    'merge',
    '--matrix',
    matrix,
    '--shard-prefix',
    'shard.x.',
    '--out',
    path.join(dir, 'x'),
    shards,
  ]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /job gce-docker left no results \(.*shard\.x\.gce-docker\/results\.json\)/);
  for (const bad of ['../', 'a/b', '']) {
    const b = cli(['merge', '--matrix', matrix, '--shard-prefix', bad, '--out', path.join(dir, 'bad'), shards]);
    assert.notEqual(b.status, 0, bad);
    assert.match(b.stderr, /shard prefix .*: letters, digits, \. _ - only/, bad);
  }
});

test('the matrix is checked before its names become folders', () => {
  assert.deepEqual(
    [...groupsOf({ include: [{ id: 'a-1', group: 'a' }, { id: 'a-2', group: 'a' }, { id: 'b' }] })],
    [
      ['a', ['a-1', 'a-2']],
      ['b', ['b']],
    ],
  );
  for (const [matrix, message] of /** @type {[unknown, RegExp][]} */ ([
    [{}, /has no jobs/],
    [{ include: [{ id: '../etc', group: 'x' }] }, /has id "\.\.\/etc": not a job name/],
    [{ include: [{ id: 'a', group: 'x/y' }] }, /has group "x\/y": not a job name/],
    [
      {
        include: [
          { id: 'a', group: 'x' },
          { id: 'a', group: 'x' },
        ],
      },
      /job a is twice/,
    ],
  ])) {
    assert.throws(
      () => groupsOf(matrix),
      (e) => e instanceof MergeError && message.test(e.message),
    );
  }
});

test('shards that could not be one run are refused, naming both files and what differs', () => {
  /** @type {[string, (r: any) => void, RegExp][]} */
  const cases = [
    [
      'other hardware',
      (r) => {
        r.host.fingerprint = 'ffffffffffffffff';
      },
      /differ in hardware \(host fingerprint\): \/shards\/shard-1\/results\.json has .*, \/shards\/shard-2\/results\.json has "ffffffffffffffff"/,
    ],
    [
      'another suite version',
      (r) => {
        r.suite.version = '9.9.9';
      },
      /differ in suite version: .* has "0\.1\.0 .*", .* has "9\.9\.9 /,
    ],
    [
      'another suite commit',
      (r) => {
        r.suite.commit = 'b'.repeat(40);
      },
      /differ in suite version/,
    ],
    [
      'another profile',
      (r) => {
        r.run.iterations = 20;
      },
      /differ in profile: .*every shard the same --profile and --iterations/,
    ],
    [
      'another Engine',
      (r) => {
        r.engines.outer.version = '28.2.2';
      },
      /differ in outer Engine/,
    ],
    [
      'a partial shard',
      (r) => {
        r.run.state = 'interrupted';
      },
      /shard-2\/results\.json: a partial run \(state interrupted\); finish it with `dind-bench run --resume \/shards\/shard-2`/,
    ],
    [
      'a cell in both',
      (r) => {
        r.cells.push(fixture().cells.find((/** @type {any} */ c) => c.benchmark === 'lifecycle'));
      },
      /cell lifecycle\/\S+ is in two shards \(\/shards\/shard-1\/results\.json and \/shards\/shard-2\/results\.json\)/,
    ],
  ];
  for (const [name, change, message] of cases) {
    const shards = fixtureShards();
    change(shards[1].results);
    assert.throws(
      () => mergeShards(shards),
      (e) => e instanceof MergeError && message.test(e.message),
      name,
    );
  }
  assert.throws(() => mergeShards([]), /no shards to merge/);
});

test('the CLI refuses to write over a run and names a missing shard', () => {
  const dir = tmpDir('merge-cli');
  const r = cli(['merge', path.join(dir, 'nope'), '--out', path.join(dir, 'out')]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /nope: no such file or folder/);
  assert.equal(existsSync(path.join(dir, 'out')), false, 'nothing written');
});

test(
  'two real shards (native+docker, dind) merge into one run that publish and compare --history accept',
  { timeout: 600_000 },
  async (t) => {
    if (!(await engineOrSkip(t))) return;
    const dir = tmpDir('merge-real');
    const common = ['run', '--profile', 'tiny', '--bench', 'lifecycle', '--distro', 'debian', '--engine', '20.10'];
    const a = cli([...common, '--env', 'native,docker', '--out', path.join(dir, 'jobs', 'results-a')]);
    assert.equal(a.status, 0, a.stderr);
    const b = cli([...common, '--env', 'dind', '--out', path.join(dir, 'jobs', 'results-b')]);
    assert.equal(b.status, 0, b.stderr);

    // The folder of downloaded artifacts, as the workflow's merge job has it.
    const out = path.join(dir, 'merged');
    const m = cli(['merge', path.join(dir, 'jobs'), '--out', out]);
    assert.equal(m.status, 0, m.stderr);
    assert.match(m.stderr, /merge: 2 shard\(s\), 3 cells/);
    const merged = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.deepEqual(merged.cells.map((/** @type {any} */ c) => c.environmentKey).sort(), [
      'dind@20.10',
      'docker',
      'native',
    ]);
    assert.equal(merged.run.shards.length, 2);
    assert.equal(merged.run.order, 'split', 'native+docker and DinD ran in two jobs: not interleaved');
    // Every raw file a cell names is there, copied from its shard.
    for (const c of merged.cells) for (const f of c.raw) assert.ok(existsSync(path.join(out, f)), f);
    assert.ok(readdirSync(path.join(out, 'raw', 'lifecycle')).length === 3);

    const hist = path.join(dir, 'history');
    const p = cli(['publish', path.join(out, 'results.json'), '--history', hist]);
    assert.equal(p.status, 0, p.stderr);
    assert.match(p.stderr, /publish: run .*-merged-[0-9a-f]{8}: \d+ points/);
    const c = cli([
      'compare',
      path.join(out, 'results.json'),
      '--history',
      hist,
      '--json',
      path.join(dir, 'verdicts.json'),
    ]);
    assert.equal(c.status, 0, c.stderr);
    assert.match(c.stdout, /DinD vs Docker, lifecycle \(debian\): dind@20\.10\/debian vs docker\/debian/);
    const verdicts = JSON.parse(readFileSync(path.join(dir, 'verdicts.json'), 'utf8'));
    assert.ok(
      verdicts.verdicts.length > 0 && verdicts.comparisons.some((/** @type {any} */ x) => x.kind === 'dind-vs-docker'),
    );

    const again = cli(['merge', path.join(dir, 'jobs'), '--out', out]);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /results\.json already exists: choose another --out folder/);
  },
);
