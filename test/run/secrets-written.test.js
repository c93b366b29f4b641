// Where a run writes a secret it was given (issue 52, item 1), each writer called as the run calls it, no
// engine: a failed step's message (scrubbed before its lines are cut), a cell's reason and log tail, each
// checkpoint, the final results.json with report.md and report.html, and a merge of shards.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { forgetSecrets, knowCredential, knowSecret } from '../../src/redact/secrets.js';
import { mergeCommand } from '../../src/results/merge.js';
import { markFailed } from '../../src/run/cells.js';
import { Checkpoint } from '../../src/run/checkpoint.js';
import { writeOutputs } from '../../src/run/outputs.js';
import { MAX_LINE, failed } from '../../src/workload/failure.js';
import { fixture, tmpDir } from '../history/helpers.js';

afterEach(forgetSecrets);

/** A secret whose every part is its own: its first characters are found nowhere else. */
const secret = () => `Zq7Kp${randomBytes(12).toString('hex')}`;
const b64 = (/** @type {string} */ s) => Buffer.from(s).toString('base64');

/** A pending cell as the run holds it. @returns {import('../../src/run/cells.js').CellResult} */
const pendingCell = () => ({
  benchmark: 'workload.job',
  environment: 'docker',
  environmentKey: 'docker',
  distro: 'debian',
  engine: null,
  image: null,
  status: 'pending',
  metrics: [],
  raw: [],
});

test("a failed step's message: a secret across a line's cut is scrubbed before the cut, in its reason and its tail", () => {
  const pw = secret();
  knowSecret(pw, {});
  // The secret straddles the line's bound: cut first, its first half would stay, which no rule recognizes.
  const long = `${'x'.repeat(MAX_LINE - 5)}${pw} and more`;
  const e = failed('step-leak', `echo ${pw}`, {
    exitCode: 1,
    stdout: `${long}\n`,
    stderr: `error: denied for ${b64(pw)}\n`,
    ms: 1,
    timedOut: false,
    leftRunning: [`sleep ${pw}`],
  });
  assert.ok(!e.message.includes('Zq7Kp'), e.message);
  assert.match(e.message, /^step step-leak: `echo \*\*\*` exited 1: error: denied for \*\*\*$/m);
  const cell = pendingCell();
  markFailed(cell, e, '#1', undefined, { stepTimeoutMs: 1000 });
  assert.equal(cell.status, 'failed');
  assert.ok(!`${cell.reason}${cell.logTail}`.includes('Zq7Kp'));
  assert.match(cell.logTail ?? '', /x{10}\*\*\* a… \(7 more characters\)/);
});

test("a cell's reason and log tail are scrubbed before they are bounded: any error, any secret the run knows", () => {
  const pw = secret();
  knowCredential('ci-user', pw, {});
  const cell = pendingCell();
  // The reason's line is cut at 4,096 characters: the secret across that cut.
  const e = new Error(`${'y'.repeat(4090)}${pw}\nauth ${b64(`ci-user:${pw}`)}\n-----BEGIN PRIVATE KEY-----\nMIIEv`);
  markFailed(cell, e, '#2', 'build-app', { stepTimeoutMs: 1000 });
  const text = `${cell.reason}\n${cell.logTail}`;
  assert.ok(!text.includes('Zq7Kp') && !text.includes(b64(`ci-user:${pw}`).slice(0, 12)), text.slice(-300));
  assert.ok(!text.includes('MIIEv'), 'the key block, cut before its end');
});

/** The fixture run with `pw` in a failed cell's text, as a tool would have printed it. @param {string} pw */
function runWith(pw) {
  const r = fixture();
  Object.assign(r.cells[0], {
    status: 'failed',
    reason: `lifecycle in native: step x: exited 1: https://ci-user:${pw}@registry.example/`,
    logTail: `password ${pw}\nbase64 ${b64(pw)}`,
  });
  return r;
}

/** Every file's text under `dir`. @param {string} dir */
const allText = (dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => !f.endsWith('/') && path.extname(f))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');

test('every checkpoint and the final results.json, report.md and report.html are written without the secret', async () => {
  const pw = secret();
  knowSecret(pw, {});
  const dir = tmpDir('secrets-written');
  const file = path.join(dir, 'results.json');
  const doc = runWith(pw);
  const checkpoint = new Checkpoint(file, () => structuredClone(doc));
  await checkpoint.save({ environments: doc.environments, cells: doc.cells });
  const partial = readFileSync(file, 'utf8');
  assert.ok(partial.includes('https://***@registry.example/') && !partial.includes('Zq7Kp'), 'the checkpoint');
  await writeOutputs(dir, file, runWith(pw));
  const written = allText(dir);
  assert.ok(['report.md', 'report.html'].every((f) => readdirSync(dir).includes(f)));
  assert.ok(!written.includes('Zq7Kp') && !written.includes(b64(pw).slice(0, 12)));
  assert.match(JSON.parse(readFileSync(file, 'utf8')).cells[0].logTail, /^password \*\*\*\nbase64 \*\*\*$/);
});

test("a merge writes no secret's shape its shards hold (the merging process knows none of their values)", async () => {
  const dir = tmpDir('secrets-merge');
  const shards = path.join(dir, 'shards');
  for (const [i, bench] of ['lifecycle', 'sysbench'].entries()) {
    const r = fixture();
    r.run.id = `shard-${i}`;
    r.cells = r.cells.filter((/** @type {any} */ c) => c.benchmark === bench);
    for (const c of r.cells) c.reason = `${bench}: pulled from https://ci-user:p4ss-word@registry.example/`;
    mkdirSync(path.join(shards, `shard-${i}`), { recursive: true });
    writeFileSync(path.join(shards, `shard-${i}`, 'results.json'), JSON.stringify(r));
  }
  const out = path.join(dir, 'merged');
  await mergeCommand({ shards: [shards], out, log: () => {} });
  const merged = allText(out);
  assert.ok(merged.includes('https://***@registry.example/'));
  assert.ok(!merged.includes('p4ss-word'));
});
