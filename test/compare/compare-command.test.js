// `dind-bench compare` end to end on the real fixture run (output of `dind-bench run`), with histories
// written by the real store (publishRun, what `dind-bench publish` calls): every output file, exit codes,
// the GitHub Actions summary and annotations, and bad input. Most cases call the command in-process; the
// CLI itself is spawned only where its exit code and stderr are the point (each start costs seconds on a
// loaded 2-core machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURE, fixture, tmpDir, variant } from '../history/helpers.js';
import { compareWithinRun } from '../../src/results/within-run.js';
import { compareCommand } from '../../src/compare/command.js';
import { CompareInputError } from '../../src/compare/load-results.js';
import { publishRun } from '../../src/history/append.js';
import { runCli } from '../helpers/run-cli.js';

/** @param {string[]} args @param {Record<string, string>} [env] */
const cli = (args, env = {}) => runCli(args, { env: { ...process.env, GITHUB_ACTIONS: '', ...env } });

/** A history of `count` nights on one runner, each within +-1% of the fixture run. */
async function history(count) {
  const dir = tmpDir('compare');
  const hist = path.join(dir, 'history');
  for (let i = 0; i < count; i++) {
    const file = variant(dir, {
      id: `night-${i}`,
      startedAt: new Date(Date.UTC(2026, 9, 1 + i)).toISOString(),
      scale: 1 + 0.01 * Math.sin(i * 1.7),
    });
    await publishRun(hist, file);
  }
  return { dir, hist };
}

/** compareCommand in-process, its printed text captured. @param {import('../../src/compare/command.js').CompareOptions} opts */
async function compare(opts) {
  let printed = '';
  const r = await compareCommand({ githubActions: false, print: (t) => (printed += t), ...opts });
  return { ...r, printed };
}

test('within a run: DinD vs Docker and Docker vs native for every metric, with interval, p and effect size', () => {
  const cs = compareWithinRun(fixture());
  const dind = cs.filter((c) => c.kind === 'dind-vs-docker');
  assert.equal(dind.length, 7 + 33); // lifecycle metrics both cells have, and every sysbench metric
  assert.ok(cs.some((c) => c.kind === 'docker-vs-native'));
  for (const c of cs) {
    // a metric whose baseline median is 0 (sysbench rounds tiny latencies to 0.00) has no ratio
    if (c.baseline.median === 0) {
      assert.ok(Number.isNaN(c.ratio.ratio) || !Number.isFinite(c.ratio.ratio));
      continue;
    }
    assert.ok(c.ratio.low <= c.ratio.ratio && c.ratio.ratio <= c.ratio.high, `${c.metric}: ${JSON.stringify(c.ratio)}`);
    assert.ok(c.p > 0 && c.p <= 1);
    assert.ok(['negligible', 'small', 'medium', 'large'].includes(c.magnitude));
  }
  const create = dind.find((c) => c.metric === 'container.create_ms');
  // Significant alone (p 0.032), but not one of the run's questions: described, with its change and
  // interval, never an outcome.
  assert.ok(
    create && create.p < 0.05 && create.described && !create.significant && create.outcome === null && create.worse > 0,
    'DinD creates containers slower in the fixture run: described, not decided',
  );
  // The run's one decision against Docker (this older run has no start-up waterfall): sysbench's CPU, which
  // 5 noisy samples a side cannot decide, said with what would.
  const decisions = dind.filter((c) => c.decision);
  assert.deepEqual(
    decisions.map((c) => c.metric),
    ['cpu.events_per_second'],
  );
  assert.ok(decisions[0].outcome === 'inconclusive' && decisions[0].samplesToDecide !== null);
});

test('terminal table, then against a history: quiet when unchanged, regressions flagged with exit 4 when asked', async () => {
  const { dir, hist } = await history(7);
  const plain = await compare({ results: FIXTURE });
  assert.equal(plain.exitCode, 0);
  assert.match(plain.printed, /DinD vs Docker, lifecycle \(debian\): dind@20.10\/debian vs docker\/debian/);
  assert.match(
    plain.printed,
    /container\.create_ms \(ms\) +8\.63 +12\.3 +\+43% ±44 described +\[1\.05, 1\.92\] p 0\.032 δ/,
  );

  const same = variant(dir, { id: 'tonight-same', startedAt: '2026-11-01T00:00:00Z', scale: 1.002 });
  const quiet = await compare({ results: same, history: hist, failOnRegression: true });
  assert.equal(quiet.exitCode, 0);
  // Nothing changed, and nothing is called "no change": equivalent where the series could have seen its
  // threshold, inconclusive where it could not.
  assert.doesNotMatch(quiet.printed, /no change|Regression in/);
  assert.match(
    quiet.printed,
    /Against history: Inconclusive: \d+ of \d+ gated metrics could not be judged [^]*it could not\s+have seen/,
  );

  // everything 2.5 times larger: lower-is-better metrics regress, higher-is-better ones improve. (The fixture
  // has 5 samples per cell, spread widely: a verdict cannot be sharper than a run's own samples allow.)
  const slow = variant(dir, { id: 'tonight-slow', startedAt: '2026-11-02T00:00:00Z', scale: 2.5 });
  const files = {
    md: path.join(dir, 'out/report.md'),
    json: path.join(dir, 'out/verdicts.json'),
    pr: path.join(dir, 'out/comment.md'),
    gab: path.join(dir, 'out/gab'),
  };
  const flagged = cli([
    'compare',
    slow,
    '--history',
    hist,
    // every metric of the two benchmarks gated (by default a gate judges the run's decision metrics)
    '--gate',
    'lifecycle/*,sysbench/*',
    '--fail-on-regression',
    '--markdown',
    files.md,
    '--json',
    files.json,
    '--pr-comment',
    files.pr,
    '--export-gab',
    files.gab,
  ]);
  assert.equal(flagged.status, 4, flagged.stderr);
  const doc = JSON.parse(readFileSync(files.json, 'utf8'));
  const verdict = (/** @type {string} */ metric, /** @type {string} */ env) =>
    doc.verdicts.find((/** @type {any} */ v) => v.metric === metric && v.environmentKey === env);
  assert.equal(verdict('container.create_ms', 'dind@20.10').status, 'regression');
  assert.equal(verdict('cpu.events_per_second', 'docker').status, 'improvement');
  assert.ok(doc.counts.regression > 0 && doc.counts.improvement > 0);
  assert.match(readFileSync(files.md, 'utf8'), /### Against history: \d+ regression/);
  // `@` is followed by a word joiner in Markdown (src/results/escape.js: no mention, no mailto link).
  assert.match(
    readFileSync(files.pr, 'utf8'),
    /\*\*regression\*\* lifecycle `container.create_ms` on dind@\u206020.10\/debian: median/,
  );
  const bigger = JSON.parse(readFileSync(path.join(files.gab, 'bigger-is-better.json'), 'utf8'));
  const smaller = JSON.parse(readFileSync(path.join(files.gab, 'smaller-is-better.json'), 'utf8'));
  assert.ok(
    bigger.every(
      (/** @type {any} */ e) => typeof e.name === 'string' && typeof e.unit === 'string' && Number.isFinite(e.value),
    ),
  );
  assert.ok(smaller.some((/** @type {any} */ e) => e.name === 'lifecycle container.create_ms [dind@20.10/debian]'));
  // github-action-benchmark shows `range` verbatim: the `± x` form its own tools write; values without float noise.
  for (const e of [...bigger, ...smaller]) {
    assert.ok(e.range === undefined || /^± \d/.test(e.range), e.range);
    assert.equal(Number(e.value.toPrecision(6)), e.value);
    assert.match(e.extra, /^95% CI /);
  }
  // without --fail-on-regression the same finding exits 0
  assert.equal((await compare({ results: slow, history: hist })).exitCode, 0);
});

test('in GitHub Actions: the report goes to the job summary and each regression becomes an annotation', async () => {
  const { dir, hist } = await history(6);
  const slow = variant(dir, { id: 'ci-slow', startedAt: '2026-11-02T00:00:00Z', scale: 2.5 });
  const summary = path.join(dir, 'summary.md');
  writeFileSync(summary, '');
  // @actions/core writes the summary to $GITHUB_STEP_SUMMARY and annotations as workflow commands on stdout
  const saved = process.env.GITHUB_STEP_SUMMARY;
  const write = process.stdout.write;
  let stdout = '';
  process.env.GITHUB_STEP_SUMMARY = summary;
  process.stdout.write = (/** @type {any} */ chunk) => ((stdout += String(chunk)), true);
  try {
    const r = await compareCommand({
      results: slow,
      history: hist,
      gate: 'lifecycle/*,sysbench/*',
      githubActions: true,
      print: () => {},
    });
    assert.equal(r.exitCode, 0);
  } finally {
    process.stdout.write = write;
    if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
    else process.env.GITHUB_STEP_SUMMARY = saved;
  }
  const text = readFileSync(summary, 'utf8');
  assert.match(text, /## dind-bench: run ci-slow/);
  // The cost per job first (this run has no start-up metric and no workload: it says so), then the answer
  // (what DinD does against Docker), then the gate against history with its worst, before any heading.
  assert.equal(
    text.split('\n')[0],
    '**Cost per job:** not measured in this run: it comes from a workload (your own job) or from the lifecycle benchmark (the start-up a job pays).',
  );
  const lines = text.split('\n');
  assert.match(lines[2], /: 0 of 1 question decided\./);
  assert.match(lines[4], /^\| question \| answer \| change \\\[interval\\\] \|/);
  assert.match(lines[7], /^\| CPU \| inconclusive \| /);
  const against = lines.findIndex((l) => l.startsWith('**Against history:**'));
  assert.ok(
    against > 7 && against < lines.indexOf('## dind-bench: run ci-slow'),
    'after the answer, before any heading',
  );
  assert.match(
    lines[against],
    /^\*\*Against history:\*\* Regression in \d+ of \d+ gated metrics; the worst: \S+ \S+ on \S+ \+\d+\.\d%/,
  );
  assert.match(
    stdout,
    /::warning title=dind-bench regression%3A lifecycle container.create_ms on dind@20.10\/debian::median .* worse/,
  );
});

test('the pull request comment opens with the answer and its magnitude, then the links', async () => {
  const { dir, hist } = await history(6);
  const slow = variant(dir, { id: 'pr-slow', startedAt: '2026-11-02T00:00:00Z', scale: 2.5 });
  const comment = path.join(dir, 'pr.md');
  const env = {
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'o/r',
    GITHUB_RUN_ID: '42',
    DIND_BENCH_SITE_URL: 'https://o.github.io/r/',
  };
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    await compareCommand({
      results: slow,
      history: hist,
      gate: 'lifecycle/*,sysbench/*',
      prComment: comment,
      print: () => {},
    });
  } finally {
    for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k];
  }
  const lines = readFileSync(comment, 'utf8').split('\n');
  assert.match(lines[0], /^\*\*Cost per job:\*\* not measured in this run/);
  assert.match(lines[7], /^\| CPU \| inconclusive \| [+-][\d.,]+% \\\[/);
  const against = lines.findIndex((l) => l.startsWith('**Against history:**'));
  assert.match(
    lines[against],
    /^\*\*Against history:\*\* Regression in \d+ of \d+ gated metrics; the worst: .* \+\d+\.\d%/,
  );
  assert.equal(
    lines[against + 2],
    "[full report (this run's artifacts)](https://github.com/o/r/actions/runs/42) · [history site](https://o.github.io/r/)",
  );
  // Without a regression the first line is still an answer with a magnitude: the run's own sentence.
  const same = path.join(dir, 'pr-same.md');
  await compareCommand({
    results: variant(dir, { id: 'pr-same', startedAt: '2026-11-03T00:00:00Z' }),
    history: hist,
    prComment: same,
    print: () => {},
  });
  const sameLines = readFileSync(same, 'utf8').split('\n');
  assert.match(sameLines[7], /^\| CPU \| inconclusive \| .* \| – \| \\~[\d,]+ a side \|$/);
  assert.match(
    sameLines.find((l) => l.startsWith('**Against history:**')) ?? '',
    /^\*\*Against history:\*\* (Inconclusive|Equivalent)/,
  );
});

test('bad input: another schema version, a unit that changed, a missing file; nothing is written', async () => {
  const dir = tmpDir('compare-bad');
  // Every call below asks for every output under out/: a refused input must leave none behind.
  const out = path.join(dir, 'out');
  const outputs = {
    markdown: path.join(out, 'report.md'),
    json: path.join(out, 'verdicts.json'),
    prComment: path.join(out, 'pr.md'),
    exportGab: path.join(out, 'gab'),
  };
  const v2 = path.join(dir, 'v2.json');
  writeFileSync(v2, JSON.stringify({ ...fixture(), schemaVersion: 2 }));
  const r = cli(['compare', v2, '--markdown', outputs.markdown, '--json', outputs.json]);
  assert.equal(r.status, 1);
  assert.match(
    r.stderr,
    /v2\.json: results schemaVersion 2; this dind-bench compares schemaVersion 1 only \(the file is newer: upgrade dind-bench\)/,
  );

  const { hist } = await history(1);
  const other = fixture();
  other.run.id = 'unit-changed';
  other.cells.find(
    (/** @type {any} */ c) => c.environmentKey === 'docker' && c.benchmark === 'lifecycle',
  ).metrics[0].unit = 's';
  const file = path.join(dir, 'unit.json');
  writeFileSync(file, JSON.stringify(other));
  await assert.rejects(
    compare({ results: file, history: hist, ...outputs }),
    /series lifecycle\/container.create_ms on docker\/debian \(.*\): this run has unit "s", lower is better; the history has unit "ms"/,
  );

  const missing = path.join(dir, 'nope.json');
  await assert.rejects(compare({ results: missing, ...outputs }), (e) => {
    assert.ok(e instanceof CompareInputError);
    assert.equal(
      e.message,
      `${missing}: cannot read the results file: no such file; pass the results.json that \`dind-bench run --out DIR\` wrote`,
    );
    return true;
  });
  const empty = path.join(dir, 'empty.json');
  writeFileSync(empty, '');
  await assert.rejects(compare({ results: empty, ...outputs }), {
    message: `${empty}: the results file is empty; pass the results.json that \`dind-bench run --out DIR\` wrote`,
  });
  assert.ok(!existsSync(out), 'no report, verdicts, comment or export for a refused input');
});

test("the run's own report.md shows DinD vs Docker per metric with interval, p-value and effect size", async () => {
  const { runMarkdown } = await import('../helpers/reading.js');
  const md = runMarkdown(fixture());
  assert.match(md, /\| container\.create_ms \(ms\) \| – \| 8\.63 \| 12\.3 \| \+43% ±44 described \|/);
  assert.match(md, /\| container\.stop_ms \(ms\) \| 0\.427 \| 98\.6 \| 97\.0 \| -1\.6% ±21 described \|/);
});
