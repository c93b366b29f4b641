// A build secret (issue 43, item 3), on the real engine: given to the build as `--secret id=ID,env=VAR`
// from a variable the workload names, it reaches the Dockerfile's RUN --mount=type=secret, and is nowhere
// else: in no process's command line while the run goes, in no output, results, raw file, published history
// or site.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const BIN = new URL('../../bin/dind-bench.js', import.meta.url).pathname;
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-build-secret-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Every file under `dir`. @param {string} dir @returns {string[]} */
const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => statSync(f).size < 64 * 2 ** 20);

/** The command lines of every process now that hold `text`. @param {string} text */
function inArgv(text) {
  const out = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes(text)) out.push(`${pid} ${cmd.replaceAll('\0', ' ')}`);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

test('a build secret reaches the build and nothing else: argv, output, results, raw, history, site', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const secret = `tok-${randomBytes(16).toString('hex')}`;
  const dir = mkdtempSync(path.join(work, 'job-'));
  mkdirSync(path.join(dir, 'app'));
  writeFileSync(
    path.join(dir, 'app', 'Dockerfile'),
    [
      'FROM dind-bench/lifecycle:debian',
      // The secret is there, of the length given: it reached the build (without being written anywhere).
      `RUN --mount=type=secret,id=token test "$(wc -c < /run/secrets/token)" -eq ${secret.length}`,
      '',
    ].join('\n'),
  );
  const file = path.join(dir, 'workload.yml');
  writeFileSync(
    file,
    [
      'version: 1',
      'name: secret-build',
      'builds:',
      '  - name: app',
      '    context: app',
      '    secrets: [{ id: token, env: BUILD_SECRET_TEST_TOKEN }]',
      '',
    ].join('\n'),
  );
  const out = path.join(work, 'out');
  const child = spawn(
    process.execPath,
    [BIN, 'run', '--workload', file, '--env', 'docker', '--iterations', '1', '--out', out],
    { env: { ...process.env, BUILD_SECRET_TEST_TOKEN: secret } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => (stderr += b));
  /** @type {string[]} */
  const seen = [];
  const poll = setInterval(() => seen.push(...inArgv(secret)), 25);
  const status = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(poll);
  assert.equal(status, 0, `${stdout.slice(-3000)}\n${stderr.slice(-3000)}`);
  assert.deepEqual(seen, [], 'no command line held the secret');
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
  const cell = results.cells.find((/** @type {any} */ c) => c.benchmark === 'workload.secret-build');
  assert.equal(cell?.status, 'ok', cell?.reason);
  const history = path.join(work, 'history');
  const site = path.join(work, 'site');
  const published = runCli(['publish', path.join(out, 'results.json'), '--history', history]);
  assert.equal(published.status, 0, published.stderr);
  const built = runCli(['site', 'build', '--history', history, '--out', site]);
  assert.equal(built.status, 0, built.stderr);
  const files = [...filesUnder(out), ...filesUnder(history), ...filesUnder(site)];
  assert.ok(
    files.some((f) => /build-app/.test(f)),
    'the build wrote its raw output',
  );
  for (const [what, text] of [
    ['stdout', stdout],
    ['stderr', stderr],
    ...files.map((f) => [f, readFileSync(f).toString('latin1')]),
  ])
    assert.ok(!text.includes(secret), `the secret in ${what}`);
  await setup.leftAsFound();
});
