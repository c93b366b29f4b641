// The mode table through `compare` and report.md, on a real run of isolation and lifecycle in every
// environment that runs here (test/fixtures/results/modes-quick.json, recorded with
// --policy no-privileged,no-runner-engine): the JSON's `modes`, `--modes` alone, a policy given to compare
// winning over the recorded one, and bad policies refused naming what is wrong.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { readRun, runMarkdown } from '../helpers/reading.js';
import { tmpDir } from '../history/helpers.js';
import { runCli } from '../helpers/run-cli.js';

/** @param {any} results */
const modesOf = (results) => readRun(results).modes;

const FIXTURE = new URL('../fixtures/results/modes-quick.json', import.meta.url).pathname;
const run = () => JSON.parse(readFileSync(FIXTURE, 'utf8'));
/** @param {string[]} args */
const cli = (args) => runCli(args);

test('compare --json carries the mode table; --policy wins over the recorded one', () => {
  const json = path.join(tmpDir('modes-json'), 'c.json');
  const r = cli(['compare', FIXTURE, '--json', json, '--policy', 'no-host-root']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(doc.modes.policy, 'no-host-root');
  const envs = doc.modes.rows.map((/** @type {any} */ x) => x.env);
  for (const e of ['docker', 'dood', 'dind@20.10', 'dind-rootless@20.10'])
    assert.ok(envs.includes(e), `${e} in ${envs}`);
  const rootless = doc.modes.rows.find((/** @type {any} */ x) => x.env === 'dind-rootless@20.10');
  assert.equal(rootless.facts.host_root.value, 'no');
  assert.ok(rootless.facts.host_root.evidence.length > 0);
  assert.deepEqual(rootless.policy, { meets: true, why: [] });
  const docker = doc.modes.rows.find((/** @type {any} */ x) => x.env === 'docker');
  assert.deepEqual(docker.policy.why, ['host-root is yes']);
  assert.match(doc.modes.answer, /^The cheapest mode on this runner that meets the policy no-host-root is /);
  assert.match(r.stdout, /Which mode: speed and isolation on /);
});

test('compare --modes prints the table and the answer only; report.md has the same answer', () => {
  const r = cli(['compare', FIXTURE, '--modes']);
  assert.equal(r.status, 0, r.stderr);
  const m = modesOf(run());
  assert.ok(m?.answer);
  const flat = r.stdout.replace(/\s+/g, ' ');
  assert.ok(flat.includes(m.answer.replace(/\s+/g, ' ')), r.stdout);
  assert.doesNotMatch(r.stdout, /How to read|Medians per side/);
  assert.ok(runMarkdown(run()).includes('## Which mode: speed and isolation on'));
});

test('a bad policy is refused naming it and the valid ones; a bad recorded one is ignored, saying so', () => {
  const bad = cli(['compare', FIXTURE, '--policy', 'no-rootful']);
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /unknown key "rootful" in "no-rootful"; valid keys: privileged, runner-engine/);
  const value = cli(['compare', FIXTURE, '--policy', 'host-dev=sometimes']);
  assert.notEqual(value.status, 0);
  assert.match(value.stderr, /value "sometimes" of host-dev is not one of: no, yes/);
  const doc = run();
  doc.run.args.policy = 'no-<b>';
  const file = path.join(tmpDir('modes-bad'), 'results.json');
  writeFileSync(file, JSON.stringify(doc));
  const m = modesOf(doc);
  assert.equal(m?.policy, null);
  assert.match(m?.policyError ?? '', /the policy recorded with the run was ignored: --policy: unknown key "<b>"/);
  assert.equal(cli(['compare', file, '--modes']).status, 0);
});
