// The long-run wiring of bench.yml and the reusable workflow made from it: prepare shards the matrix by
// the profile and the time budget, every bench job uploads its results even when stopped (and a re-run
// downloads them to resume), merge makes each group of shards one run, and report and publish read only
// the merged runs. The workflow's own `run:` scripts are run here, in order, on a real sharded matrix and
// the real quick run cut into its shards: prepare -> bench folders -> merge -> compare -> publish.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';

const ROOT = new URL('../..', import.meta.url).pathname;
const FIXTURE = path.join(ROOT, 'test/fixtures/results/quick-debian.json');
const WORKFLOWS = ['.github/workflows/bench.yml', '.github/workflows/reusable-bench.yml'];
const tmp = mkdtempSync(path.join(tmpdir(), 'dind-bench-shard-merge-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** @param {string} rel */
const workflow = (rel) => parse(readFileSync(path.join(ROOT, rel), 'utf8'));
/** A job's step by name, or by the action it uses. @param {any} job @param {string} what */
function step(job, what) {
  const s = job.steps.find(
    (/** @type {any} */ x) => x.name === what || String(x.uses ?? '').replace(/@.*/, '') === what || x.id === what,
  );
  assert.ok(s, `step ${what}`);
  return s;
}
/** Steps of a job that use an action (its name without the ref). @param {any} job @param {string} action */
const usesOf = (job, action) =>
  job.steps.filter((/** @type {any} */ s) => String(s.uses ?? '').startsWith(`${action}@`));

/**
 * Runs a step's script as the runner would (bash -e), with its env: expressions replaced by `values`
 * (every expression of the step's env must have one), and returns its GITHUB_OUTPUT.
 * @param {any} s @param {Record<string, string>} values expression (as written) -> value
 * @param {Record<string, string>} [extra] more environment (what earlier steps or the runner set)
 */
function runStep(s, values, extra = {}) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [k, v] of Object.entries(s.env ?? {})) {
    const text = String(v);
    if (!text.includes('${{')) env[k] = text;
    else {
      assert.ok(text in values, `${s.name}: no value for ${k}: ${text}`);
      env[k] = values[text];
    }
  }
  const outputs = path.join(mkdtempSync(path.join(tmp, 'out-')), 'github-output');
  writeFileSync(outputs, '');
  const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', s.run], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, GITHUB_OUTPUT: outputs, ...extra, ...env },
    encoding: 'utf8',
  });
  const text = readFileSync(outputs, 'utf8');
  const out = Object.fromEntries(
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { status: r.status, log: `${r.stdout}${r.stderr}`, out };
}

for (const rel of WORKFLOWS) {
  test(`${rel}: shard -> merge -> compare/publish, as jobs and artifacts`, () => {
    const w = workflow(rel);
    const inputs = w.on.workflow_dispatch?.inputs ?? w.on.workflow_call?.inputs;
    const { prepare, bench, merge, report, publish } = w.jobs;

    // prepare: the profile and the budget reach `workflow matrix`; the budget fits the job timeout.
    const matrixStep = step(prepare, 'Job matrix');
    assert.match(matrixStep.run, /workflow matrix [^]*--profile "\$PROFILE"[^]*--max-minutes "\$MAX_MINUTES"/);
    assert.match(matrixStep.env.MAX_MINUTES, /inputs\.max-minutes/);
    assert.match(w.env.PROFILE, /inputs\.profile/);
    // The budget a run gets when nothing sets it: the input's default, else (a call's input has none) the
    // workflow's fallback after the repository variable.
    const budget = Number(inputs['max-minutes'].default || matrixStep.env.MAX_MINUTES.match(/\|\| '(\d+)' \}\}$/)?.[1]);
    assert.ok(budget > 0 && budget < bench['timeout-minutes'], `room for setup and images (${budget} min)`);
    // With a workload, its placement's matrix (src/workflow/workload-shards.js); else workflow matrix's.
    assert.equal(prepare.outputs.matrix, '${{ steps.workload.outputs.matrix || steps.matrix.outputs.matrix }}');
    assert.equal(step(prepare, 'Workload plan').id, 'workload');
    assert.match(step(prepare, 'Workload plan').run, /workflow workload [^]*--max-shards "\$MAX_SHARDS"/);
    assert.match(matrixStep.run, /--max-shards "\$MAX_SHARDS"/);
    const benchRun = bench.steps.find((/** @type {any} */ s) => String(s.uses).includes('actions/run'));
    assert.match(benchRun.with.workload, /^\$\{\{ matrix\.workload && /, 'the jobs prepare placed it in');
    assert.match(benchRun.with.iterations, /^\$\{\{ matrix\.iterations \|\| inputs\.iterations/);

    // bench: resumes an earlier attempt's upload and uploads whatever it has, always, under one name.
    assert.equal(bench.strategy.matrix, '${{ fromJSON(needs.prepare.outputs.matrix) }}');
    const [earlier] = usesOf(bench, 'actions/download-artifact');
    const [upload] = usesOf(bench, 'actions/upload-artifact');
    assert.equal(upload.with.name, '${{ env.SHARD_PREFIX }}${{ matrix.id }}');
    assert.match(upload.if, /always\(\)/);
    assert.equal(upload.with.overwrite, true, "a re-run's upload replaces the stopped attempt's");
    assert.equal(upload.with.path, '${{ steps.out.outputs.dir }}');
    assert.equal(earlier.with.name, upload.with.name);
    assert.equal(earlier.with.path, upload.with.path);
    assert.equal(earlier.with['run-id'], '${{ github.run_id }}', 'an earlier attempt is found by the run');
    assert.match(earlier.if, /github\.run_attempt != '1'/);
    assert.equal(earlier['continue-on-error'], true);
    assert.equal(bench.permissions.actions, 'read');
    const run = bench.steps.find((/** @type {any} */ s) => String(s.uses).includes('actions/run'));
    assert.equal(run.with.resume, 'true');
    assert.equal(run.with.out, upload.with.path);
    assert.match(step(bench, 'Partial results').if, /always\(\)/);

    // merge: after every bench job, from every shard artifact, into the one artifact report and publish read.
    // (the reusable workflow's jobs also need its `suite` job: src/workflow/reusable.js)
    assert.deepEqual([...merge.needs].filter((n) => n !== 'suite').sort(), ['bench', 'prepare']);
    assert.match(merge.if, /!cancelled\(\)/);
    const [shards] = usesOf(merge, 'actions/download-artifact');
    assert.equal(shards.with.pattern, '${{ env.SHARD_PREFIX }}*');
    assert.ok(upload.with.name.startsWith(shards.with.pattern.replace('*', '')));
    assert.equal(shards.with.path, '${{ steps.dirs.outputs.shards }}');
    const mergeStep = step(merge, 'Merge the shards of each run');
    assert.equal(mergeStep.env.MATRIX, '${{ needs.prepare.outputs.matrix }}');
    assert.match(mergeStep.run, /merge --matrix "\$MATRIX" --shard-prefix "\$SHARD_PREFIX"/);
    const [merged] = usesOf(merge, 'actions/upload-artifact');
    assert.equal(merged.with.name, 'results${{ env.ARTIFACT_SUFFIX }}');
    assert.equal(merged.with.path, '${{ steps.dirs.outputs.results }}');
    const bound = step(merge, 'Bound the untrusted results');
    assert.equal(bound.env.RESULTS, '${{ steps.dirs.outputs.shards }}');
    assert.ok(merge.steps.indexOf(bound) < merge.steps.indexOf(mergeStep), 'bounded before merge reads them');

    // report and publish: the merged runs only, never the shards.
    for (const [name, job] of /** @type {[string, any][]} */ ([
      ['report', report],
      ['publish', publish],
    ])) {
      assert.ok([job.needs].flat().includes('merge'), `${name} needs merge`);
      assert.ok(![job.needs].flat().includes('bench'), `${name} reads no shard`);
      assert.match(job.if, /needs\.merge\.result != 'skipped'/);
      const downloads = usesOf(job, 'actions/download-artifact');
      assert.deepEqual(
        downloads.map((/** @type {any} */ d) => [d.with.name, d.with.path]),
        [['results${{ env.ARTIFACT_SUFFIX }}', '${{ steps.dirs.outputs.results }}']],
      );
    }
    const compare = report.steps.find((/** @type {any} */ s) => String(s.uses).includes('actions/compare'));
    assert.equal(compare.with.results, '${{ steps.dirs.outputs.results }}');
    assert.equal(
      compare.with['report-artifact'],
      'comparison-report${{ env.ARTIFACT_SUFFIX }}',
      'the full report, linked from the comment',
    );
    const pub = publish.steps.find((/** @type {any} */ s) => String(s.uses).includes('actions/publish'));
    assert.equal(pub.with.results, '${{ steps.dirs.outputs.results }}');
  });
}

/**
 * The workflow-level env a call's steps see for its artifact-suffix input: bench.yml's env block, whose
 * expressions are checked here as written (test/workflow/artifact-names.test.js checks the names).
 * @param {any} w @param {string} suffix
 */
function callEnv(w, suffix) {
  assert.equal(w.env.ARTIFACT_SUFFIX, "${{ inputs.artifact-suffix && format('.{0}', inputs.artifact-suffix) || '' }}");
  assert.equal(
    w.env.SHARD_PREFIX,
    "${{ inputs.artifact-suffix && format('shard.{0}.', inputs.artifact-suffix) || 'shard-' }}",
  );
  return { ARTIFACT_SUFFIX: suffix ? `.${suffix}` : '', SHARD_PREFIX: suffix ? `shard.${suffix}.` : 'shard-' };
}

test("bench.yml's scripts, run in order for two calls sharing one folder (as under act): each a quick profile sharded in two, merged into its own run, compared and published", () => {
  const w = workflow('.github/workflows/bench.yml');
  const { prepare, bench, merge, report } = w.jobs;
  const act = path.join(tmp, 'act-out');
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const history = path.join(tmp, 'history');
  /** @type {Record<string, string>} call -> its merged run's results.json */
  const runs = {};

  // The plain names (no artifact-suffix), then a second call of the same run with one.
  for (const suffix of ['', 'gate-26']) {
    const call = callEnv(w, suffix);
    const runner = { DIND_BENCH_SUITE: ROOT, DIND_BENCH_ACT_OUT: act, RUNNER_TEMP: tmp, ...call };

    // prepare: the suffix is checked; under act, this call's earlier outputs go (never another call's).
    const names = runStep(step(prepare, 'Artifact names'), { '${{ inputs.artifact-suffix }}': suffix }, runner);
    assert.equal(names.status, 0, names.log);
    const fresh = runStep(step(prepare, 'Fresh outputs under act'), {}, runner);
    assert.equal(fresh.status, 0, fresh.log);
    for (const earlier of Object.values(runs)) assert.ok(existsSync(earlier), `${suffix}: removed ${earlier}`);

    // prepare, with a budget under the whole job's estimate (both Engine lines, the quick plan's measured step
    // times of src/run/estimate.js): one shard per benchmark.
    const bake = JSON.stringify({ distros: ['debian'], engines: ['20.10', '26.1'] });
    const p = runStep(
      step(prepare, 'Job matrix'),
      {
        '${{ steps.bake.outputs.matrix }}': bake,
        "${{ inputs.benchmarks || vars.DIND_BENCH_BENCHMARKS || 'lifecycle,sysbench' }}": 'lifecycle,sysbench',
        "${{ inputs.distributions || vars.DIND_BENCH_DISTRIBUTIONS || 'debian' }}": 'debian',
        "${{ inputs.engines || vars.DIND_BENCH_ENGINES || '20.10,26.1' }}": '20.10,26.1',
        "${{ inputs.host-engines || vars.DIND_BENCH_HOST_ENGINES || '' }}": '',
        "${{ inputs.runners || vars.DIND_BENCH_RUNNERS || 'self-hosted,linux,gce; self-hosted,linux,lab' }}":
          'self-hosted,linux,local',
        "${{ inputs.layout || vars.DIND_BENCH_LAYOUT || 'both' }}": 'interleaved',
        "${{ inputs.max-minutes || vars.DIND_BENCH_MAX_MINUTES || '200' }}": '2',
        "${{ inputs.max-shards || vars.DIND_BENCH_MAX_SHARDS || '16' }}": '16',
        "${{ inputs.iterations || vars.DIND_BENCH_ITERATIONS || '' }}": '',
      },
      { ...runner, PROFILE: 'quick' },
    );
    assert.equal(p.status, 0, p.log);
    const matrix = JSON.parse(p.out.matrix);
    assert.deepEqual(
      matrix.include.map((/** @type {any} */ j) => [j.id, j.group, j.shard, j.benchmarks]),
      [
        ['local-interleaved-1', 'local-interleaved', '1/2', 'lifecycle'],
        ['local-interleaved-2', 'local-interleaved', '2/2', 'sysbench'],
      ],
    );

    // bench: each job's folder, named as its artifact (the call's shard prefix and the job id), and in it
    // the results that job would write (the quick run, its benchmark only).
    for (const job of matrix.include) {
      const b = runStep(step(bench, 'Results folder'), { '${{ matrix.id }}': job.id }, runner);
      assert.equal(b.status, 0, b.log);
      assert.equal(b.out.dir, path.join(act, 'shards', `${call.SHARD_PREFIX}${job.id}`));
      mkdirSync(b.out.dir, { recursive: true });
      const shard = structuredClone(fixture);
      shard.run.id = `${fixture.run.id}-${suffix || 'plain'}-${job.id}`;
      shard.cells = shard.cells.filter((/** @type {any} */ c) => job.benchmarks.split(',').includes(c.benchmark));
      writeFileSync(path.join(b.out.dir, 'results.json'), JSON.stringify(shard));
    }

    // merge: the folders where bench left them (under act) or download-artifact put them (on GitHub): the
    // other call's shards are there too, and stay apart.
    const dirs = runStep(step(merge, 'Folders'), {}, runner);
    assert.equal(dirs.status, 0, dirs.log);
    assert.equal(dirs.out.results, path.join(act, `results${call.ARTIFACT_SUFFIX}`));
    const m = runStep(
      step(merge, 'Merge the shards of each run'),
      {
        '${{ needs.prepare.outputs.matrix }}': p.out.matrix,
        '${{ steps.dirs.outputs.shards }}': dirs.out.shards,
        '${{ steps.dirs.outputs.results }}': dirs.out.results,
      },
      runner,
    );
    assert.equal(m.status, 0, m.log);
    assert.deepEqual(readdirSync(dirs.out.results), ['local-interleaved']);
    const file = path.join(dirs.out.results, 'local-interleaved', 'results.json');
    const run = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(run.run.shards.length, 2);
    assert.deepEqual(
      run.run.shards.map((/** @type {any} */ x) => x.id),
      matrix.include.map((/** @type {any} */ j) => `${fixture.run.id}-${suffix || 'plain'}-${j.id}`),
      'merged from its own shards',
    );
    assert.equal(run.run.order, 'interleaved', 'split by benchmark: each still interleaved');
    assert.equal(run.cells.length, fixture.cells.length);
    runs[suffix] = file;

    // report reads the folder merge wrote: compare (the action's script) and publish accept the merged run.
    const r = runStep(step(report, 'Folders'), {}, runner);
    assert.equal(r.out.results, dirs.out.results);
    assert.equal(r.out.compare, path.join(act, `compare${call.ARTIFACT_SUFFIX}`));
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SUITE: ROOT, DIND_BENCH_SUITE: ROOT };
    const compare = spawnSync('bash', [path.join(ROOT, 'actions/compare/compare-all.sh')], {
      env: { ...env, RESULTS: r.out.results, OUT: r.out.compare, HISTORY: '' },
      encoding: 'utf8',
    });
    assert.equal(compare.status, 0, compare.stderr);
    assert.match(readFileSync(path.join(r.out.compare, 'comparison.md'), 'utf8'), /lifecycle/);
    const publish = spawnSync('bash', [path.join(ROOT, 'actions/publish/publish-history.sh')], {
      env: { ...env, RESULTS: r.out.results, HISTORY: history },
      encoding: 'utf8',
    });
    assert.equal(publish.status, 0, publish.stderr);
    assert.match(publish.stderr, /publish: run .*-merged-[0-9a-f]{8}/);
  }
  // Both calls' runs are there, each its own; their comparisons too.
  assert.notEqual(
    JSON.parse(readFileSync(runs[''], 'utf8')).run.id,
    JSON.parse(readFileSync(runs['gate-26'], 'utf8')).run.id,
  );
  assert.deepEqual(readdirSync(act).sort(), ['compare', 'compare.gate-26', 'results', 'results.gate-26', 'shards']);
  assert.deepEqual(readdirSync(path.join(act, 'shards')).sort(), [
    'shard-local-interleaved-1',
    'shard-local-interleaved-2',
    'shard.gate-26.local-interleaved-1',
    'shard.gate-26.local-interleaved-2',
  ]);
});
