// `redact: all` (the workflow's default) leaves every runner identity out of everything a run publishes or
// uploads (issue 46): a runner label, a runner name and a host name are planted where a real run records
// them (host.hostname, runner.name, runner.labels, run.args.runnerLabels, the reports and a raw log), and
// each thing the workflow uploads or shows is built by the workflow's own step scripts: the shard artifact
// and the bench job's summary (run action, bench job's Partial results), the results artifact (merge job),
// the report job's summary, outputs, comment and comparison report (compare action), the history and the
// site (publish action). None holds any of the three; with `none` (the control) they are all there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { runHtml, runMarkdown } from '../helpers/reading.js';
import { fixture, tmpDir } from '../history/helpers.js';
import { runCompareAll } from '../helpers/compare-all.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const PLANTED = { host: 'build-host-17.corp.example', name: 'arc-runner-x7k2p', label: 'gpu-pool-secret' };
// Issue 52: the host name written in a failed cell's text in another case, an e-mail address in the reports
// and raw/, and secrets' shapes (a URL's userinfo, a private key), which are never published, whatever redact says.
const WRITTEN = { upper: PLANTED.host.toUpperCase(), email: 'dev.person@mail.example' };
const SECRET = { password: 's3cr3t-Pw-91', key: 'MHcCAQEEIKq7' };
const URL_WITH_PASSWORD = `https://ci-bot:${SECRET.password}@registry.corp.example/v2/`;
const KEY = `-----BEGIN EC PRIVATE KEY-----\n${SECRET.key}\n-----END EC PRIVATE KEY-----`;
const BENCH = parse(readFileSync(path.join(ROOT, '.github/workflows/bench.yml'), 'utf8'));
const EXPRESSION = "${{ inputs.redact || vars.DIND_BENCH_REDACT || 'all' }}";

const EVERYTHING = [...Object.keys(PLANTED), ...Object.keys(WRITTEN), ...Object.keys(SECRET)];

/** A run's folder as `dind-bench run --out` leaves it, with the identity planted everywhere it goes. */
function runFolder() {
  const r = fixture();
  r.host.hostname = PLANTED.host;
  r.runner.name = PLANTED.name;
  r.runner.labels = ['self-hosted', 'linux', PLANTED.label];
  r.run.args = { ...r.run.args, runnerLabels: ['self-hosted', 'linux', PLANTED.label] };
  r.cells[0].reason = `the step printed ${WRITTEN.upper} and ${URL_WITH_PASSWORD}`;
  r.cells[0].logTail = `hostname: ${PLANTED.host}\nmail ${WRITTEN.email}\n${KEY}`;
  const dir = tmpDir('redact-run');
  writeFileSync(path.join(dir, 'results.json'), JSON.stringify(r));
  writeFileSync(path.join(dir, 'report.md'), `${runMarkdown(r)}\nAsk ${WRITTEN.email}\n`);
  writeFileSync(path.join(dir, 'report.html'), runHtml(r));
  mkdirSync(path.join(dir, 'raw'));
  writeFileSync(
    path.join(dir, 'raw', 'engine.log'),
    `runner ${PLANTED.name} on ${PLANTED.host} (${PLANTED.label})\n${WRITTEN.upper} ${WRITTEN.email} ${URL_WITH_PASSWORD}\n${KEY}\n`,
  );
  return dir;
}

/** Which planted strings a folder's files (or one text) still hold: {what: [file...]}. @param {string} dir */
function found(dir) {
  /** @type {Record<string, string[]>} */
  const out = {};
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(path.join(dir, f)).isFile(),
  );
  for (const [what, s] of Object.entries({ ...PLANTED, ...WRITTEN, ...SECRET })) {
    const hits = files.filter((f) => readFileSync(path.join(dir, f), 'utf8').includes(s));
    if (hits.length) out[what] = hits;
  }
  return out;
}

/** Runs a workflow step's script as the runner would (bash -e), with the suite at ROOT. */
function step(/** @type {any} */ s, /** @type {Record<string, string>} */ env) {
  const r = spawnSync('bash', ['-e', '-c', s.run], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DIND_BENCH_SUITE: ROOT, ...env },
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return r;
}

test("the workflow passes redact to the run action, the bench job's upload and the merge job, 'all' by default", () => {
  const bench = BENCH.jobs.bench.steps;
  assert.equal(bench.find((/** @type {any} */ s) => s.uses === './actions/run').with.redact, EXPRESSION);
  assert.equal(bench.find((/** @type {any} */ s) => s.name === 'Partial results').env.REDACT, EXPRESSION);
  const merge = BENCH.jobs.merge.steps.find((/** @type {any} */ s) => s.name === "Leave out the runner's identity");
  assert.equal(merge.env.REDACT, EXPRESSION);
  const action = parse(readFileSync(path.join(ROOT, 'actions/run/action.yml'), 'utf8'));
  assert.equal(action.inputs.redact.default, 'all');
  const run = action.runs.steps.find((/** @type {any} */ s) => s.id === 'run').run;
  // Redacted before the summary shows the report.
  assert.ok(run.indexOf('redact "$OUT"') > 0 && run.indexOf('redact "$OUT"') < run.indexOf('GITHUB_STEP_SUMMARY'));
});

test('redact all: the shard artifact, the results artifact, summaries, outputs, comment, comparison report, history and site hold no runner identity', () => {
  // bench job: the run action's redaction (as its step runs it), then Partial results before the upload.
  const shard = runFolder();
  assert.deepEqual(Object.keys(found(shard)), [...EVERYTHING], 'planted');
  const cli = runCli(['redact', shard, '--redact', 'all']);
  assert.equal(cli.status, 0, cli.stderr);
  const partial = runFolder();
  step(
    BENCH.jobs.bench.steps.find((/** @type {any} */ s) => s.name === 'Partial results'),
    { DIR: partial, JOB_ID: 'job-1', REDACT: 'all' },
  );
  for (const dir of [shard, partial]) {
    assert.deepEqual(found(dir), {}, `shard artifact and the bench job's summary (report.md): ${dir}`);
    const doc = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
    assert.deepEqual(doc.runner.labels, []);
    assert.deepEqual(doc.run.args.runnerLabels, []);
    // What the run measured is untouched: environment keys such as dind@20.10 are no e-mail addresses.
    assert.deepEqual(
      doc.environments.map((/** @type {any} */ e) => e.key),
      fixture().environments.map((/** @type {any} */ e) => e.key),
    );
    assert.ok(doc.environments.some((/** @type {any} */ e) => e.key === 'dind@20.10'));
  }

  // merge job: each group's folder of the merged run, redacted before the results artifact is uploaded.
  const results = tmpDir('redact-results');
  cpSync(runFolder(), path.join(results, 'group-1'), { recursive: true });
  step(
    BENCH.jobs.merge.steps.find((/** @type {any} */ s) => s.name === "Leave out the runner's identity"),
    { RESULTS: results, REDACT: 'all' },
  );
  assert.deepEqual(found(results), {}, 'results artifact');

  // report job: the compare action on that artifact (summary, outputs, pr-comment.md, comparison-report).
  const c = compareAll(path.join(results, 'group-1', 'results.json'));
  assert.deepEqual(found(c.dir), {}, 'job summary, outputs, PR comment and comparison report');

  // publish job: the history and the site, from the run as the runner wrote it (publish redacts too).
  assert.deepEqual(found(publishAndBuild(runFolder(), 'all')), {}, 'history and site');
});

test('with redact none (the control) the identity is in the artifacts, the summary and the site: the checks can see it', () => {
  const shard = runFolder();
  const cli = runCli(['redact', shard, '--redact', 'none']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepEqual(Object.keys(found(shard)), [...EVERYTHING]);
  const c = compareAll(path.join(shard, 'results.json'));
  assert.ok(found(c.dir).name, 'the runner name is in the summary or the comment');
  // Secrets' shapes are not published even so.
  assert.deepEqual(Object.keys(found(publishAndBuild(runFolder(), 'none'))), [
    ...Object.keys(PLANTED),
    ...Object.keys(WRITTEN),
  ]);
});

/** compare-all.sh as the compare action runs it (its outputs, summary, out folder and log in one folder). */
function compareAll(/** @type {string} */ results) {
  const r = runCompareAll({ RESULTS: results, PR_COMMENT: 'true' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  writeFileSync(path.join(r.dir, 'log.txt'), r.stdout + r.stderr);
  return { dir: r.dir };
}

/** The publish action's scripts: publish-history.sh with REDACT, then the site build; both folders in one. */
function publishAndBuild(/** @type {string} */ results, /** @type {string} */ redact) {
  const dir = tmpDir('redact-publish');
  const [history, site] = [path.join(dir, 'history'), path.join(dir, 'site')];
  const p = spawnSync('bash', [path.join(ROOT, 'actions/publish/publish-history.sh')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SUITE: ROOT,
      RESULTS: results,
      HISTORY: history,
      REDACT: redact,
    },
    encoding: 'utf8',
  });
  assert.equal(p.status, 0, p.stderr);
  const b = runCli(['site', 'build', '--history', history, '--out', site]);
  assert.equal(b.status, 0, b.stderr);
  return dir;
}
