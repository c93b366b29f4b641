// The pull-request comment: merged from the jobs' comments and capped below GitHub's 65,536-character
// limit (full reports go first, then lines), always with the link to the full report; and the compare
// action's script, whose annotation level follows its fail-on-regression input.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compareCommand } from '../../src/compare/command.js';
import { CommentInputError, GITHUB_COMMENT_LIMIT, mergeComments } from '../../src/compare/comment.js';
import { publishRun } from '../../src/history/append.js';
import { runCompareAll } from '../helpers/compare-all.js';
import { tmpDir, variant } from '../history/helpers.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const URL_ = 'https://github.com/acme/app/actions/runs/42';

/** A history of 6 nights and a run 2.5x slower: real comments with regressions, ~tens of KB each. */
async function setup() {
  const dir = tmpDir('comment');
  const hist = path.join(dir, 'history');
  for (let i = 0; i < 6; i++) {
    await publishRun(
      hist,
      variant(dir, {
        id: `night-${i}`,
        startedAt: new Date(Date.UTC(2026, 9, 1 + i)).toISOString(),
        scale: 1 + 0.01 * Math.sin(i),
      }),
    );
  }
  const slow = variant(dir, { id: 'slow', startedAt: '2026-11-02T00:00:00Z', scale: 2.5 });
  return { dir, hist, slow };
}

test('comments that fit are joined whole, with the link line; over the cap the full reports go first', async () => {
  const { dir, hist, slow } = await setup();
  const pr = path.join(dir, 'pr.md');
  await compareCommand({ results: slow, history: hist, prComment: pr, githubActions: false, print: () => {} });
  const one = readFileSync(pr, 'utf8');
  assert.ok(one.length > 10_000, `a real comment is large (${one.length})`);

  const small = mergeComments([one], { max: GITHUB_COMMENT_LIMIT, reportUrl: URL_ });
  assert.equal(small.truncated, 'no');
  assert.ok(small.body.includes(one.trim()));
  assert.ok(small.body.trimEnd().endsWith(`(${URL_})`));

  // Two jobs' comments are far over the limit (each flags over a hundred metrics of this 2.5x slower run):
  // each keeps its headline and regressions, loses the folded report.
  const four = mergeComments([one, one], { reportUrl: URL_ });
  assert.equal(four.truncated, 'details');
  assert.ok(four.length <= 60_000 && four.body.length === four.length);
  assert.equal(four.body.match(/### dind-bench/g)?.length, 2);
  assert.ok((four.body.match(/\*\*regression\*\*/g)?.length ?? 0) >= 2);
  // Folded reports go largest first until the rest fits: fewer than two are left.
  assert.ok((four.body.match(/<details>/g)?.length ?? 0) < 2);
  assert.match(four.body, /_Full report: in the job summary and the report artifact\._/);
  assert.match(
    four.body,
    /\*\*Full report:\*\* \[job summaries and the report artifact\]\(https:\/\/github\.com\/acme\/app\/actions\/runs\/42\)\n$/,
  );

  // A tiny cap: whole lines, a note of what was left out, still the link; never over the cap.
  for (const max of [1000, 2500, 7000]) {
    const tiny = mergeComments([one, one, one], { max, reportUrl: URL_ });
    assert.equal(tiny.truncated, 'lines');
    assert.ok(tiny.length <= max, `${tiny.length} <= ${max}`);
    assert.match(tiny.body, /more line\(s\) in the full report/);
    assert.ok(tiny.body.includes(URL_));
  }
});

test('the cap and the report URL are checked', () => {
  assert.throws(() => mergeComments(['x'], { max: 70_000 }), CommentInputError);
  assert.throws(() => mergeComments(['x'], { max: 10 }), /from 1000 to 65536/);
  assert.throws(() => mergeComments(['x'], { reportUrl: 'javascript:alert(1)' }), /must be http\(s\)/);
  assert.throws(() => mergeComments(['x'], { reportUrl: 'not a url' }), /is not a URL/);
  const r = mergeComments(['x'], { reportUrl: 'https://example.invalid/a b)(c' });
  assert.match(r.body, /\(https:\/\/example\.invalid\/a%20b%29%28c\)/);
});

test('compare-all.sh: warnings unless fail-on-regression; regression found either way; one capped comment', async () => {
  const { hist, slow } = await setup();
  // Every metric of the run gated (by default a gate judges the run's decision metrics).
  const GATE = 'lifecycle/*,sysbench/*';
  const warn = runCompareAll({ RESULTS: slow, HISTORY: hist, GATE, FAIL_ON_REGRESSION: 'false', COMMENT_MAX: '5000' });
  assert.equal(warn.status, 0, warn.stderr);
  assert.match(warn.stdout, /::warning title=dind-bench regression/);
  assert.doesNotMatch(warn.stdout, /::error/);
  assert.match(warn.output, /^regression=true$/m);
  // The reusable workflow's outputs: one verdict, how many regressed, the worst with its change.
  assert.match(warn.output, /^verdict=regression$/m);
  assert.match(warn.output, /^regressions=[1-9]\d*$/m);
  assert.match(warn.output, /^worst=\S+\u00a0\S+\u00a0on\u00a0\S+\/\S+\u00a0\+\d+\.\d%$/m);
  const comment = readFileSync(path.join(warn.out, 'pr-comment.md'), 'utf8');
  assert.ok(comment.length <= 5000, `${comment.length}`);
  assert.match(comment, /\(https:\/\/github\.com\/acme\/app\/actions\/runs\/42\)/);

  const fail = runCompareAll({ RESULTS: slow, HISTORY: hist, GATE, FAIL_ON_REGRESSION: 'true' });
  assert.equal(fail.status, 0, "the gate is the action's next step, so the summary and comment are still written");
  assert.match(fail.stdout, /::error title=dind-bench regression/);
  assert.match(fail.output, /^regression=true$/m);

  const bad = runCompareAll({ RESULTS: slow, FAIL_ON_REGRESSION: 'yes' });
  assert.equal(bad.status, 2);
  assert.match(bad.stdout, /fail-on-regression must be 'true' or 'false'/);
});

test('compare-all.sh with baseline and candidate: the A/B is the verdict, the outputs and the comment', () => {
  const results = path.join(ROOT, 'test/fixtures/results/quick-debian.json');
  // Gated on container creation (the one metric this 5-a-side run shows worse, +43% [+5%, +92%] by its 95%
  // interval): gated, it is a decision, and its interval at the decision level reaches below +10%, so the
  // gate's outputs say it could not be judged, with the largest change it could not have seen.
  const ab = runCompareAll({
    RESULTS: results,
    BASELINE: 'docker',
    CANDIDATE: 'dind@20.10',
    FAIL_ON_REGRESSION: 'false',
    GATE: 'lifecycle/container.create_ms',
  });
  assert.equal(ab.status, 0, ab.stderr);
  assert.match(ab.output, /^verdict=inconclusive$/m);
  assert.match(ab.output, /^regressions=0$/m);
  assert.match(ab.output, /^inconclusive=1$/m);
  assert.match(ab.output, /^unseen=\d+%$/m);
  const comment = readFileSync(path.join(ab.out, 'pr-comment.md'), 'utf8');
  // (an @ in Markdown carries a word joiner, so a name never pings anyone)
  assert.match(comment, /^\| \*\*dind@\u2060?20\.10 vs docker\*\* \|/m);
  assert.match(comment, /^\| CPU \| inconclusive \| [+-][\d.,]+% /m);
  assert.match(
    comment,
    /\*\*Gate:\*\* Inconclusive: 1 of 1 gated metrics could not be judged \(lifecycle container\.create_ms/,
  );
  // Every metric gated and asked to fail closed: 5 samples a side cannot judge most, and the outputs say
  // how many and the largest change it could not have seen (the action's step then fails, exit 8).
  const blind = runCompareAll({
    RESULTS: results,
    BASELINE: 'docker',
    CANDIDATE: 'dind@20.10',
    FAIL_ON: 'inconclusive',
  });
  assert.equal(blind.status, 0, blind.stderr);
  assert.match(blind.output, /^verdict=inconclusive$/m);
  assert.match(blind.output, /^inconclusive=[1-9]\d*$/m);
  assert.match(blind.output, /^unseen=(\d+%|any)$/m);
  // (an output's words are joined by no-break spaces: one shell word, src/compare/outputs.js)
  assert.match(
    blind.output.replace(/\u00a0/g, ' '),
    /^sentence=Inconclusive: \d+ of \d+ gated metrics could not be judged/m,
  );
  const bad = runCompareAll({ RESULTS: results, BASELINE: 'docker', CANDIDATE: 'dind@20.10', FAIL_ON: 'sometimes' });
  assert.equal(bad.status, 2);
  assert.match(bad.stdout, /fail-on must be empty, 'none', 'regression' or 'inconclusive'/);
  // An A/B is a gate: without fail-on it fails closed (the action's steps read the output fail-on).
  assert.match(blind.output, /^fail-on=inconclusive$/m);
  const byDefault = runCompareAll({ RESULTS: results, BASELINE: 'docker', CANDIDATE: 'dind@20.10' });
  assert.match(byDefault.output, /^fail-on=inconclusive$/m);
  const reportOnly = runCompareAll({ RESULTS: results, BASELINE: 'docker', CANDIDATE: 'dind@20.10', FAIL_ON: 'none' });
  assert.match(reportOnly.output, /^fail-on=none$/m);
  assert.match(reportOnly.output, /^verdict=inconclusive$/m);
  const half = runCompareAll({ RESULTS: results, BASELINE: 'docker', FAIL_ON_REGRESSION: 'false' });
  assert.equal(half.status, 2);
  assert.match(half.stdout, /baseline and candidate go together/);
  const unknown = runCompareAll({
    RESULTS: results,
    BASELINE: 'docker',
    CANDIDATE: 'dind@99',
    FAIL_ON_REGRESSION: 'false',
  });
  assert.notEqual(unknown.status, 0);
});

test('dind-bench comment: merges files, says what it did; a missing part is named', () => {
  const dir = tmpDir('comment-cli');
  const a = path.join(dir, 'a.md');
  writeFileSync(a, '### dind-bench\n\nfine\n');
  const out = path.join(dir, 'out.md');
  const ok = runCli(['comment', a, a, '--out', out, '--report-url', URL_]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stderr, /comment: 2 part\(s\), \d+ characters \(cap 60000\), complete/);
  assert.equal(readFileSync(out, 'utf8').match(/### dind-bench/g)?.length, 2);
  const missing = runCli(['comment', path.join(dir, 'nope.md'), '--out', out]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /nope\.md: no such comment file/);
});

test('a run of two inner Engine lines: the comment says what the later line does to a job, first, once', async () => {
  const dir = tmpDir('comment-engine-lines');
  const file = path.join(dir, 'pr-comment.md');
  await compareCommand({
    results: path.join(ROOT, 'test/fixtures/results/decide-quick-5.json'),
    prComment: file,
    print: () => {},
  });
  // Markdown keeps "@" from mentioning anyone with a word joiner after it.
  const md = readFileSync(file, 'utf8').replaceAll('\u2060', '');
  const pair = md.indexOf('| **dind@26.1 vs dind@20.10** |');
  assert.ok(pair > 0, md);
  assert.match(
    md.slice(pair),
    /^\| \*\*dind@26\.1 vs dind@20\.10\*\* \|.*\n\| start-up \| (regression|improvement|equivalent ±\d+%|inconclusive) \| [+-][\d.]+ s /,
  );
  assert.ok(pair < md.indexOf('### dind-bench'), 'the answer comes before the details');
  assert.equal(
    md.split('| question | answer |').length,
    2,
    'the answer table once: the folded report does not repeat it',
  );
});
