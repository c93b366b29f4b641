// When the merge job cannot redact a merged run (issue 52), nothing unredacted stays as an artifact: its
// redaction step removes the merged results and the shards it read (under act: the shard jobs' shared
// folder), the results upload runs only after a redaction that succeeded, and the discard job replaces each
// shard's upload, by the name the bench job gave it, with a note, holding no write permission. Checked on
// bench.yml and the generated reusable-bench.yml; the step's script is run as the runner runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { fixture, tmpDir } from '../history/helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const FILES = ['.github/workflows/bench.yml', '.github/workflows/reusable-bench.yml'];
const workflow = (/** @type {string} */ rel) => parse(readFileSync(path.join(ROOT, rel), 'utf8'));
const REDACT_STEP = "Leave out the runner's identity";

/** The step of `job` named `name`, or using an action starting with `uses`. @param {any} job */
const stepOf = (job, /** @type {{ name?: string, uses?: string }} */ { name, uses }) =>
  job.steps.find((/** @type {any} */ s) => (name ? s.name === name : String(s.uses).startsWith(String(uses))));

test('the results upload follows only a redaction that succeeded; on failure the discard job replaces every shard upload', () => {
  for (const rel of FILES) {
    const { jobs } = workflow(rel);
    const redact = stepOf(jobs.merge, { name: REDACT_STEP });
    assert.equal(redact.id, 'redact', rel);
    assert.equal(redact.if, '${{ !cancelled() }}', `${rel}: it runs after a merge that left runs out too`);
    assert.equal(jobs.merge.outputs.redacted, '${{ steps.redact.outcome }}', rel);
    const upload = stepOf(jobs.merge, { uses: 'actions/upload-artifact@' });
    assert.equal(upload.if, "${{ !cancelled() && !env.ACT && steps.redact.outcome == 'success' }}", rel);
    assert.equal(upload.with.name, 'results${{ env.ARTIFACT_SUFFIX }}', rel);
    const discard = jobs.discard;
    assert.ok(discard, `${rel}: a discard job`);
    assert.ok([discard.needs].flat().includes('merge') && [discard.needs].flat().includes('prepare'), rel);
    assert.equal(discard.if, "${{ !cancelled() && needs.merge.outputs.redacted == 'failure' }}", rel);
    // Each shard the bench job uploaded, by the same name: the bench job's matrix, the bench job's name.
    assert.equal(discard.strategy.matrix, jobs.bench.strategy.matrix, rel);
    const shardUpload = stepOf(jobs.bench, { uses: 'actions/upload-artifact@' });
    const replace = stepOf(discard, { uses: 'actions/upload-artifact@' });
    assert.equal(replace.with.name, shardUpload.with.name, rel);
    assert.equal(replace.with.overwrite, true, `${rel}: the old upload is deleted before the note is uploaded`);
    assert.equal(replace.with.path, '${{ steps.note.outputs.dir }}', rel);
    // overwrite deletes with the job's own artifact token: the job holds no write permission.
    assert.deepEqual(
      Object.entries(discard.permissions ?? {}).filter(([, v]) => v !== 'read'),
      [],
      `${rel}: discard holds no write token`,
    );
    assert.equal(discard['runs-on'], jobs.merge['runs-on'], `${rel}: GitHub-hosted, as merge`);
  }
});

/** Runs a workflow step's script as the runner does (bash -e -o pipefail). @param {any} s @param {Record<string, string>} env */
function step(s, env) {
  return spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', s.run], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DIND_BENCH_SUITE: ROOT, ...env },
  });
}

/** A merge job's folders: results with two merged runs (the second's results.json `second`), and the shards. */
function folders(/** @type {string} */ second) {
  const root = tmpDir('redaction-failure');
  const results = path.join(root, 'results');
  const shards = path.join(root, 'shards');
  for (const group of ['group-1', 'group-2']) mkdirSync(path.join(results, group), { recursive: true });
  writeFileSync(path.join(results, 'group-1', 'results.json'), JSON.stringify(fixture()));
  writeFileSync(path.join(results, 'group-2', 'results.json'), second);
  mkdirSync(path.join(shards, 'shard-job-1'), { recursive: true });
  cpSync(path.join(results, 'group-1'), path.join(shards, 'shard-job-1'), { recursive: true });
  return { results, shards };
}

test('a merged run that cannot be redacted: the merged results and the shards are removed and the step fails', () => {
  const redact = stepOf(workflow('.github/workflows/bench.yml').jobs.merge, { name: REDACT_STEP });
  const bad = folders('{"not": "a results file"');
  const r = step(redact, { RESULTS: bad.results, SHARDS: bad.shards, REDACT: 'all' });
  assert.notEqual(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /::error title=dind-bench redact::a merged run could not be redacted \(see above\)/);
  assert.equal(existsSync(bad.results), false, 'the merged results are gone');
  assert.equal(existsSync(bad.shards), false, 'the shards read (under act, the shared folder) are gone');
  // The control: both runs redacted, everything stays for the upload.
  const good = folders(JSON.stringify(fixture()));
  const ok = step(redact, { RESULTS: good.results, SHARDS: good.shards, REDACT: 'all' });
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.ok(existsSync(path.join(good.results, 'group-2', 'results.json')) && existsSync(good.shards));
});

test("the discard job's note step writes the note it uploads, and says which shard's upload it replaces", () => {
  const note = stepOf(workflow('.github/workflows/bench.yml').jobs.discard, {
    name: "A note in place of the shard's results",
  });
  const temp = tmpDir('discard-note');
  const output = path.join(temp, 'output');
  writeFileSync(output, '');
  const r = step(note, { RUNNER_TEMP: temp, GITHUB_OUTPUT: output, JOB_ID: 'linux-x64-1' });
  assert.equal(r.status, 0, r.stderr);
  const dir = readFileSync(output, 'utf8').match(/^dir=(.*)$/m)?.[1];
  assert.equal(dir, path.join(temp, 'discarded'));
  assert.match(readFileSync(path.join(String(dir), 'REMOVED.txt'), 'utf8'), /could not redact this run's results/);
  assert.match(r.stdout, /::warning title=dind-bench linux-x64-1::this shard's upload is replaced/);
});
