// The scrub of secrets (issue 52, item 1): each form a known value takes in a tool's output, each shape a
// secret has whatever its value, short values left alone, every string of a document, and the masks
// GitHub Actions is given.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { afterEach, test } from 'node:test';
import {
  MASK,
  MIN_SECRET,
  credentialForms,
  forgetSecrets,
  knowCredential,
  knowSecret,
  knownForms,
  scrubSecrets,
  secretForms,
  withoutSecrets,
} from '../../src/redact/secrets.js';

afterEach(forgetSecrets);

const PW = 'hunter2-Zq9/x+Y';
const b64 = (/** @type {string} */ s) => Buffer.from(s).toString('base64');
const b64url = (/** @type {string} */ s) => Buffer.from(s).toString('base64url');

test('a known value is scrubbed as it is, base64 and base64url encoded, padded or not', () => {
  knowSecret(PW, {});
  for (const form of [PW, b64(PW), b64url(PW), b64(PW).replace(/=+$/, '')]) {
    const out = scrubSecrets(`before ${form} after`);
    assert.equal(out.includes(form), false, form);
    assert.match(out, /^before \*\*\*=* after$/);
  }
});

test("a value inside a longer encoded text is scrubbed at any alignment: `echo $PW | base64`, 'x' + value", () => {
  knowSecret(PW, {});
  for (const wrapped of [`${PW}\n`, `x${PW}`, `xy${PW}z`, `Bearer:${PW}:tail`])
    for (const encode of [b64, b64url]) {
      const out = scrubSecrets(`data ${encode(wrapped)} end`);
      assert.ok(out.includes(MASK), `${JSON.stringify(wrapped)} encoded: ${out}`);
      // What is left is the encoding of what surrounds the value, and a character at each end at most.
      const left = out
        .replace(/^data /, '')
        .replace(/ end$/, '')
        .split(MASK)
        .join('');
      const around = encode(wrapped.replace(PW, '')).replace(/=+$/, '').length;
      assert.ok(left.replace(/=+$/, '').length <= around + 2, `${JSON.stringify(wrapped)}: ${out}`);
    }
});

test("a credential: its password, and `user:password` base64 (a docker config's auth) but not the user alone", () => {
  knowCredential('ci-user', PW, {});
  const config = JSON.stringify({ auths: { 'r.example:5000': { auth: b64(`ci-user:${PW}`) } } });
  // The auth field's shape is scrubbed anyway: the value is what this test checks, so without the key.
  assert.equal(scrubSecrets(`auth=${b64(`ci-user:${PW}`)}`), `auth=${MASK}`);
  assert.equal(scrubSecrets(`basic ${b64url(`ci-user:${PW}`)}`), `basic ${MASK}`);
  assert.equal(scrubSecrets(`login ci-user:${PW} ok`), `login ci-user:${MASK} ok`);
  assert.ok(!scrubSecrets(config).includes(b64(`ci-user:${PW}`)));
  assert.equal(scrubSecrets('user ci-user logged in'), 'user ci-user logged in');
  assert.ok(
    !credentialForms('ci-user', PW).includes(`ci-user:${PW}`),
    'the pair as it is holds the password: that form does',
  );
});

test('values shorter than MIN_SECRET are not scrubbed: they are in every word', () => {
  assert.equal(MIN_SECRET, 4);
  knowSecret('abc', {});
  knowCredential('user', 'xyz', {});
  assert.deepEqual(knownForms(), []);
  assert.equal(scrubSecrets('abc xyz abcdef'), 'abc xyz abcdef');
  knowSecret('abcd', {});
  assert.equal(scrubSecrets('abcd'), MASK);
  // Short values' base64 fragments are not scrubbed on their own (a few characters match any blob).
  assert.ok(secretForms('abcd').every((f) => f.length >= 4));
});

test('shapes are scrubbed whatever the value: private keys, Authorization, bearer tokens, config fields, URL userinfo', () => {
  const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAA\n-----END OPENSSH PRIVATE KEY-----';
  const cases = [
    [`key:\n${key}\nnext`, `key:\n-----BEGIN OPENSSH PRIVATE KEY----- ${MASK} -----END OPENSSH PRIVATE KEY-----\nnext`],
    // A block cut before its end (a log tail's bound): scrubbed to the end of the text.
    [
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEow',
      `-----BEGIN RSA PRIVATE KEY----- ${MASK} -----END RSA PRIVATE KEY-----`,
    ],
    ['Authorization: Bearer eyJhbGciOi.J9.x', `Authorization: Bearer ${MASK}`],
    ['curl -H "authorization: basic dTpw" url', `curl -H "authorization: basic ${MASK}" url`],
    ['{"Authorization":"Token abc123"}', `{"Authorization":"Token ${MASK}"}`],
    ['Proxy-Authorization: Basic Zm9vOmJhcg==', `Proxy-Authorization: Basic ${MASK}`],
    ['got Bearer ghp_abcdefghijklmnop1234 back', `got Bearer ${MASK} back`],
    ['{"auths":{"r":{"auth":"dTpwYXNz"}}}', `{"auths":{"r":{"auth":"${MASK}"}}}`],
    ['"identitytoken": "abc\\"def"', `"identitytoken": "${MASK}"`],
    ['clone https://u:p4ss@registry.example/v2/ ok', `clone https://${MASK}@registry.example/v2/ ok`],
    ['git https://ghp_token@github.com/o/r.git', `git https://${MASK}@github.com/o/r.git`],
  ];
  for (const [text, want] of cases) assert.equal(scrubSecrets(text), want, text);
});

test('words and ordinary output are left as they are', () => {
  for (const text of [
    'Basic authentication failed for the Bearer token scheme',
    'WWW-Authenticate: Bearer realm="https://auth.example/token",service="registry.example"',
    'pulled docker.io/library/alpine@sha256:0123abcd and dind@20.10; mail me@example.com',
    'http://registry.example:5000/v2/ answered 401',
    'authorization failed: denied',
  ])
    assert.equal(scrubSecrets(text), text);
});

test('withoutSecrets scrubs every string of a document, keys and other values kept', () => {
  knowSecret(PW, {});
  const doc = { cells: [{ reason: `echo ${PW}`, n: 3, ok: true, tail: [`x ${b64(PW)}`] }], [PW.slice(0, 4)]: null };
  assert.deepEqual(withoutSecrets(doc), {
    cells: [{ reason: `echo ${MASK}`, n: 3, ok: true, tail: [`x ${MASK}`] }],
    [PW.slice(0, 4)]: null,
  });
  assert.equal(doc.cells[0].reason, `echo ${PW}`, 'a copy: the document given is unchanged');
});

test("a known value equal to one of the project's names stays in the fields that name series and files; shapes go from them too", () => {
  knowSecret('docker', {});
  const doc = {
    cells: [
      {
        environment: 'docker',
        environmentKey: 'docker',
        raw: ['raw/x/docker/debian/01-a.txt'],
        reason: 'docker failed',
      },
    ],
    run: { args: { env: ['docker'] } },
    images: [{ name: 'https://u:pw@r.example/x' }],
  };
  assert.deepEqual(withoutSecrets(doc), {
    cells: [
      { environment: 'docker', environmentKey: 'docker', raw: ['raw/x/docker/debian/01-a.txt'], reason: '*** failed' },
    ],
    run: { args: { env: ['docker'] } },
    images: [{ name: 'https://***@r.example/x' }],
  });
});

test('in GitHub Actions every form is masked in the log, once; outside it nothing is printed', () => {
  const mod = JSON.stringify(new URL('../../src/redact/secrets.js', import.meta.url).href);
  const run = (/** @type {Record<string, string>} */ env) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { knowCredential, knowSecret } from ${mod};
         knowCredential('ci-user', process.env.P); knowCredential('ci-user', process.env.P); knowSecret('abc');`,
      ],
      { encoding: 'utf8', env: { ...process.env, GITHUB_ACTIONS: '', ...env, P: PW } },
    );
  const inActions = run({ GITHUB_ACTIONS: 'true' });
  assert.equal(inActions.status, 0, inActions.stderr);
  const masks = inActions.stdout.split('\n').filter((l) => l.startsWith('::add-mask::'));
  assert.deepEqual(
    masks.sort(),
    credentialForms('ci-user', PW)
      .map((f) => `::add-mask::${f}`)
      .sort(),
  );
  for (const form of [PW, b64(PW), b64url(PW), b64(`ci-user:${PW}`), b64url(`ci-user:${PW}`)])
    assert.ok(masks.includes(`::add-mask::${form}`), form);
  const outside = run({});
  assert.equal(outside.status, 0, outside.stderr);
  assert.equal(outside.stdout, '');
});
