// A workload's secrets through the reusable workflow: the caller's one JSON map (the secret
// DIND_BENCH_SECRETS, handed to the run as DIND_BENCH_WORKLOAD_SECRETS) sets only the variables the workload
// names, leaves the environment before any child process starts, and a bad map is refused without
// printing a value. No engine: `plan --workload` loads and checks the workload as the bench job does.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  PASSED_SECRETS,
  adoptPassedSecrets,
  holdPassedSecrets,
  namedVariables,
  secretsMapLines,
} from '../../src/workload/passed-secrets.js';
import { runCli } from '../helpers/run-cli.js';

const fail = (/** @type {string} */ m) => new Error(m);
const NETRC = 'machine proxy.internal login ci password s3cr3t-netrc-value';

test('the map sets the variables the workload names that are not set, and nothing else', async () => {
  const names = namedVariables({
    registries: [{ username: { env: 'REG_USER' }, password: { env: 'REG_PW' }, ca: { env: 'REG_CA' } }],
    builds: [{ secrets: [{ env: 'GO_NETRC' }] }],
  });
  assert.deepEqual(names.sort(), ['GO_NETRC', 'REG_CA', 'REG_PW', 'REG_USER']);
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    [PASSED_SECRETS]: JSON.stringify({ GO_NETRC: NETRC, REG_PW: 'from-the-map', OTHER: 'never-taken' }),
    REG_PW: 'from-env',
  };
  holdPassedSecrets(env);
  assert.equal(env[PASSED_SECRETS], undefined, 'the map left the environment');
  assert.deepEqual(await adoptPassedSecrets(names, fail, env), ['GO_NETRC']);
  assert.equal(env.GO_NETRC, NETRC);
  assert.equal(env.REG_PW, 'from-env', "the run action's own env: wins");
  assert.equal(env.OTHER, undefined, 'a secret the workload does not name is not taken');
});

test('a map that is not a JSON object of strings is refused, naming the secret and never a value', async () => {
  for (const [text, said] of [
    ['{"GO_NETRC": s3cr3t', /DIND_BENCH_SECRETS .*: not JSON$/],
    ['["s3cr3t"]', /: not a JSON object$/],
    ['{"GO_NETRC": {"v": "s3cr3t"}}', /the value of GO_NETRC is not a string/],
    [`{"GO_NETRC": "${'x'.repeat(70_000)}"}`, /more than 65536 bytes/],
  ]) {
    /** @type {NodeJS.ProcessEnv} */
    const env = { [PASSED_SECRETS]: /** @type {string} */ (text) };
    await assert.rejects(
      () => adoptPassedSecrets(['GO_NETRC'], fail, env),
      (/** @type {Error} */ e) => /** @type {RegExp} */ (said).test(e.message) && !e.message.includes('s3cr3t'),
      String(text).slice(0, 40),
    );
  }
});

test('plan --workload: a build secret given in the map plans; without it the refusal says how to pass it', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'passed-secrets-'));
  try {
    const src = new URL('../../examples/workloads/app-build/', import.meta.url).pathname;
    cpSync(src, dir, { recursive: true });
    const file = path.join(dir, 'workload.yml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        '      BASE: team/base:1\n',
        '      BASE: team/base:1\n    secrets: [{ id: netrc, env: GO_NETRC }]\n',
      ),
    );
    const env = { ...process.env, GO_NETRC: '' };
    const args = ['plan', '--workload', file, '--env', 'docker,dind'];
    const refused = runCli(args, { env });
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /GO_NETRC is not set/);
    assert.match(refused.stderr, /DIND_BENCH_SECRETS: '\{"GO_NETRC": \$\{\{ toJSON\(secrets\.YOUR_SECRET\) \}\}\}'/);
    const planned = runCli(args, { env: { ...env, [PASSED_SECRETS]: JSON.stringify({ GO_NETRC: NETRC }) } });
    assert.equal(planned.status, 0, planned.stderr);
    assert.ok(!`${planned.stdout}${planned.stderr}`.includes('s3cr3t'), 'no value printed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a drafted workload's header: the caller's one map of secrets, by name, what the run reads from it", () => {
  const lines = secretsMapLines([
    ['GO_NETRC', 'GO_NETRC'],
    ['REG_PW', 'REGISTRY_TOKEN'],
    // A name from outside that is no variable name is left out, never written into YAML it could break.
    ["X' }}\n- run: id", 'X'],
  ]);
  assert.equal(lines.length, 3);
  assert.match(lines[0], /passes them in its one secret DIND_BENCH_SECRETS, a JSON$/);
  assert.equal(
    lines[2],
    `   DIND_BENCH_SECRETS: '{"GO_NETRC": \${{ toJSON(secrets.GO_NETRC) }}, "REG_PW": \${{ toJSON(secrets.REGISTRY_TOKEN) }}}'`,
  );
  // The line is the map the run reads: as JSON once the expressions are values, it sets exactly these names.
  const json = lines[2]
    .replace(/^ {3}DIND_BENCH_SECRETS: '|'$/g, '')
    .replace(/\$\{\{ toJSON\(secrets\.(\w+)\) \}\}/g, '"v-$1"');
  assert.deepEqual(JSON.parse(json), { GO_NETRC: 'v-GO_NETRC', REG_PW: 'v-REGISTRY_TOKEN' });
});
