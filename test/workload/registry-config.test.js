// A team registry's trust in the workload file (issue 43, item 3): its CA by file or variable, checked at
// load (inside the root, set, a real certificate), or plain HTTP; and what the run makes of them (a certs.d
// folder each inner engine's kind reads, the insecure list). No engine needed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadWorkload } from '../../src/workload/load.js';
import { certsFolder, trustOf } from '../../src/workload/registry-trust.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-registry-config-'));
after(() => rmSync(work, { recursive: true, force: true }));
process.env.REG_CONFIG_TEST_USER = 'u';
process.env.REG_CONFIG_TEST_PASSWORD = 'p';

const made = spawnSync(
  'openssl',
  ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
    '-subj',
    '/CN=t',
    '-keyout',
    path.join(work, 'k'),
    '-out',
    path.join(work, 'ca.pem'),
  ]),
  { encoding: 'utf8' },
);
const PEM = made.status === 0 ? readFileSync(path.join(work, 'ca.pem'), 'utf8') : '';

/** A workload with one registry given `extra` lines; a CA file beside it. @param {string[]} extra */
function job(extra) {
  const dir = mkdtempSync(path.join(work, 'job-'));
  writeFileSync(path.join(dir, 'ca.crt'), PEM);
  writeFileSync(path.join(dir, 'bad.crt'), 'not a certificate\n');
  const file = path.join(dir, 'workload.yml');
  writeFileSync(
    file,
    [
      'version: 1',
      'name: job',
      'registries:',
      '  - address: registry.example.internal:5443',
      '    username: { env: REG_CONFIG_TEST_USER }',
      '    password: { env: REG_CONFIG_TEST_PASSWORD }',
      ...extra.map((l) => `    ${l}`),
      'steps: [{name: s, run: "true"}]',
      '',
    ].join('\n'),
  );
  return file;
}

test('a CA by file or by variable loads and becomes a certs.d folder; plain HTTP joins the insecure list', async () => {
  assert.ok(PEM, made.stderr);
  const byFile = await loadWorkload(job(['ca: { file: ca.crt }']));
  process.env.REG_CONFIG_TEST_CA = PEM;
  const byVar = await loadWorkload(job(['ca: { env: REG_CONFIG_TEST_CA }']));
  for (const w of [byFile, byVar]) {
    const trust = await trustOf(w);
    assert.deepEqual(trust.insecure, []);
    const certs = await certsFolder(trust.cas);
    try {
      const crt = path.join(certs.dir, 'registry.example.internal:5443', 'ca.crt');
      assert.equal(readFileSync(crt, 'utf8'), PEM);
      // Read by an inner engine's own user (rootless dockerd, podman): public certificates, world-readable.
      assert.equal(statSync(certs.dir).mode & 0o777, 0o755);
      assert.equal(statSync(crt).mode & 0o777, 0o644);
    } finally {
      await certs.remove();
    }
  }
  const plain = await loadWorkload(job(['insecure: true']));
  assert.deepEqual((await trustOf(plain)).insecure, ['registry.example.internal:5443']);
});

test('a CA that is missing, outside the root, not a certificate, unset, or beside insecure is refused naming the field', async () => {
  delete process.env.REG_CONFIG_TEST_CA_UNSET;
  for (const [extra, says] of /** @type {[string[], RegExp][]} */ ([
    [['ca: { file: nope.crt }'], /field \/registries\/0\/ca\/file: nope\.crt is not a file inside the workload's root/],
    [
      ['ca: { file: ../../../etc/ssl/certs/ca-certificates.crt }'],
      /field \/registries\/0\/ca\/file: .* not a file inside the workload's root/,
    ],
    [['ca: { file: bad.crt }'], /field \/registries\/0\/ca: not a PEM certificate/],
    [
      ['ca: { env: REG_CONFIG_TEST_CA_UNSET }'],
      /field \/registries\/0\/ca\/env: the environment variable REG_CONFIG_TEST_CA_UNSET is not set/,
    ],
    [
      ['ca: { file: ca.crt }', 'insecure: true'],
      /field \/registries\/0\/ca: a registry on plain HTTP .* give one or the other/,
    ],
    [['ca: { file: ca.crt, env: X }'], /field \/registries\/0\/ca: must NOT have more than 1 properties/],
  ]))
    await assert.rejects(loadWorkload(job(extra)), says, extra.join(' '));
});

test('a CA bundle holding a private key is refused naming the file or variable; the run writes certificates only', async () => {
  assert.ok(PEM, made.stderr);
  const key = readFileSync(path.join(work, 'k'), 'utf8');
  assert.match(key, /-----BEGIN PRIVATE KEY-----/);
  const file = job(['ca: { file: bundle.pem }']);
  writeFileSync(path.join(path.dirname(file), 'bundle.pem'), `${PEM}${key}`);
  await assert.rejects(
    loadWorkload(file),
    /workload\.yml: field \/registries\/0\/ca\/file: bundle\.pem holds a private key \(-----BEGIN … PRIVATE KEY-----\): a CA bundle is the registry's CA certificates only.*Take the key out \(keep only the -----BEGIN CERTIFICATE----- blocks\) and replace the key/,
  );
  // An older key format and an OpenSSH key are keys too.
  for (const block of [
    '-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----\n',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\n',
  ]) {
    writeFileSync(path.join(path.dirname(file), 'bundle.pem'), `${block}${PEM}`);
    await assert.rejects(loadWorkload(file), /ca\/file: bundle\.pem holds a private key/);
  }
  process.env.REG_CONFIG_TEST_CA_KEY = `${PEM}${key}`;
  await assert.rejects(
    loadWorkload(job(['ca: { env: REG_CONFIG_TEST_CA_KEY }'])),
    /field \/registries\/0\/ca\/env: the variable REG_CONFIG_TEST_CA_KEY holds a private key.*whoever reads the secret/,
  );
  // What reaches the inner engines is the certificates, whatever else the file held when the run read it.
  const certs = await certsFolder([
    { address: 'registry.example.internal:5443', pem: `# team CA\n${PEM}${key}junk\n` },
  ]);
  try {
    const written = readFileSync(path.join(certs.dir, 'registry.example.internal:5443', 'ca.crt'), 'utf8');
    assert.equal(written, PEM);
    assert.doesNotMatch(written, /PRIVATE KEY|junk|team CA/);
  } finally {
    await certs.remove();
  }
});
