// `publish --redact`: what a public site should not show (the runner's host name, e-mail addresses, the
// runner's labels) is in no file of the history, and what is published still validates; without it, it is.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { validateResults } from '../../src/results/schema.js';
import { fixture, tmpDir } from './helpers.js';
import { runCli } from '../helpers/run-cli.js';

const SECRETS = ['secret-host-7', 'dev@example.com', 'ops.lead@corp.example', 'gce-secret-pool'];

/** Every file's text under `dir`. @param {string} dir @returns {string[]} */
function allText(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'utf8'));
}

/** A run carrying each secret where a real one does. */
function runWithSecrets() {
  const r = fixture();
  r.host.hostname = SECRETS[0];
  r.runner.name = SECRETS[0];
  r.runner.labels = ['self-hosted', SECRETS[3]];
  r.caller = {
    repository: 'o/r',
    commit: 'a'.repeat(40),
    author: { name: 'Dev', email: SECRETS[1], username: 'dev' },
    committer: { name: 'Ops', email: SECRETS[2], username: 'ops' },
  };
  r.cells[0].reason = `mail ${SECRETS[2]} for access`;
  const file = path.join(tmpDir('redact-runs'), 'results.json');
  writeFileSync(file, JSON.stringify(r));
  return file;
}

test('publish --redact all: no host name, e-mail or label in any file of the history; what is published validates', () => {
  const file = runWithSecrets();
  const plain = tmpDir('redact-plain');
  let r = runCli(['publish', file, '--history', plain]);
  assert.equal(r.status, 0, r.stderr);
  const everything = allText(plain).join('\n');
  for (const s of SECRETS) assert.ok(everything.includes(s), `without --redact, ${s} is published (the control)`);

  const redacted = tmpDir('redact-history');
  r = runCli(['publish', file, '--history', redacted, '--redact', 'all']);
  assert.equal(r.status, 0, r.stderr);
  const text = allText(redacted);
  for (const s of SECRETS) assert.ok(!text.some((t) => t.includes(s)), `${s} left out`);
  const runs = readdirSync(path.join(redacted, 'runs'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.json'),
  );
  assert.ok(runs.length > 0);
  for (const f of runs) {
    const doc = JSON.parse(readFileSync(path.join(redacted, 'runs', f), 'utf8'));
    if (doc.schemaVersion) validateResults(doc, f);
  }
});

test('publish --redact takes hostnames, emails, labels or all, and refuses anything else before writing', () => {
  const file = runWithSecrets();
  const dir = tmpDir('redact-bad');
  const r = runCli(['publish', file, '--history', dir, '--redact', 'hostnames,passwords']);
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /--redact "hostnames,passwords": one or more of hostnames, emails, labels, or all, or none alone/,
  );
  assert.deepEqual(readdirSync(dir), []);
  const some = tmpDir('redact-some');
  const ok = runCli(['publish', file, '--history', some, '--redact', 'labels']);
  assert.equal(ok.status, 0, ok.stderr);
  const text = allText(some).join('\n');
  assert.ok(!text.includes(SECRETS[3]), 'labels left out');
  assert.ok(text.includes(SECRETS[0]), 'host names kept when not asked');
});

test("publish keeps run.args' file and folder options by their names alone: no absolute path of the runner is published", () => {
  const r = fixture();
  Object.assign(r.run.args, {
    out: '/home/runner/work/_temp/dind-bench/results',
    workload: '/home/runner/_work/acme/app/ci/bench-workload.yml',
    config: '/srv/private/params.json',
    resume: 'C:\\Users\\ops\\run1',
  });
  const file = path.join(tmpDir('args-runs'), 'results.json');
  writeFileSync(file, JSON.stringify(r));
  const history = tmpDir('args-history');
  const p = runCli(['publish', file, '--history', history]);
  assert.equal(p.status, 0, p.stderr);
  const text = allText(history).join('\n');
  for (const s of ['/home/runner', '/srv/private', 'C:\\\\Users']) assert.ok(!text.includes(s), `${s} was published`);
  const runs = readdirSync(path.join(history, 'runs'), { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.json') && !f.endsWith('catalog.json'),
  );
  const doc = JSON.parse(readFileSync(path.join(history, 'runs', runs[0]), 'utf8'));
  assert.deepEqual(
    {
      out: doc.run.args.out,
      workload: doc.run.args.workload,
      config: doc.run.args.config,
      resume: doc.run.args.resume,
    },
    { out: 'results', workload: 'bench-workload.yml', config: 'params.json', resume: 'run1' },
  );
  assert.equal(doc.run.args.profile, r.run.args.profile, 'the other options as they were');
  // The results file itself keeps them (run --resume reads the workload file again from its path).
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).run.args.out, '/home/runner/work/_temp/dind-bench/results');
});

/** The one run document the history in `dir` holds. @param {string} dir @returns {any} */
function publishedRun(dir) {
  const runs = readdirSync(path.join(dir, 'runs'), { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.json') && !f.endsWith('catalog.json'),
  );
  return JSON.parse(readFileSync(path.join(dir, 'runs', runs[0]), 'utf8'));
}

test('publish --redact all: the host and runner names inside any text, in any case; a runner named like an environment renames no series', () => {
  const r = fixture();
  r.host.hostname = SECRETS[0];
  // A runner named like one of the environments: its name goes from free text, not from the series' names.
  r.runner.name = 'native';
  r.cells[0].reason = `step printed ${SECRETS[0].toUpperCase()} on runner NATIVE`;
  r.cells[0].logTail = `hostname: Secret-Host-7\n${SECRETS[0]}`;
  const file = path.join(tmpDir('redact-text-runs'), 'results.json');
  writeFileSync(file, JSON.stringify(r));
  const history = tmpDir('redact-text-history');
  const p = runCli(['publish', file, '--history', history, '--redact', 'all']);
  assert.equal(p.status, 0, p.stderr);
  assert.ok(!allText(history).some((t) => t.toLowerCase().includes(SECRETS[0])), 'the host name in no case');
  const doc = publishedRun(history);
  assert.equal(doc.cells[0].reason, 'step printed redacted on runner redacted');
  assert.equal(doc.cells[0].logTail, 'hostname: redacted\nredacted');
  const keys = (/** @type {any} */ d) => ({
    cells: d.cells.map((/** @type {any} */ c) => [c.benchmark, c.environment, c.environmentKey, c.raw]),
    environments: d.environments.map((/** @type {any} */ e) => [e.key, e.name]),
    env: d.run.args.env,
  });
  assert.deepEqual(keys(doc), keys(r), 'series, raw files and options as they were');
  validateResults(doc, 'published');
});

test("whatever --redact says, what is shaped like a secret is not published: a URL's userinfo, a key block", () => {
  const r = fixture();
  r.cells[0].reason = 'pull https://ci:pw-0x5f3a9@registry.example/v2/ refused';
  r.cells[0].logTail = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN\n-----END PRIVATE KEY-----';
  const file = path.join(tmpDir('redact-shape-runs'), 'results.json');
  writeFileSync(file, JSON.stringify(r));
  const history = tmpDir('redact-shape-history');
  const p = runCli(['publish', file, '--history', history, '--redact', 'none']);
  assert.equal(p.status, 0, p.stderr);
  const text = allText(history).join('\n');
  for (const s of ['pw-0x5f3a9', 'MIIEvQIBADAN']) assert.ok(!text.includes(s), s);
  assert.equal(publishedRun(history).cells[0].reason, 'pull https://***@registry.example/v2/ refused');
});
