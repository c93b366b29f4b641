// actions/publish/history-branch.sh against real git remotes on this machine: a bare repository on
// disk, and a loopback HTTP server that refuses every credential. Only a push refused because the
// branch moved is a race (exit 10, retried); authentication, network and server-side refusals fail
// loudly (12), and a fetch that cannot read the remote (11) is never taken for "no history yet".
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { tmpDir } from '../history/helpers.js';

const SCRIPT = new URL('../../actions/publish/history-branch.sh', import.meta.url).pathname;

/**
 * Runs the script asynchronously (the HTTP server below lives in this process).
 * @param {'fetch' | 'push'} cmd @param {Record<string, string>} env
 * @returns {Promise<{code: number, stdout: string, stderr: string}>}
 */
function branch(cmd, env) {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [SCRIPT, cmd],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, BRANCH: 'bench-history', TOKEN: 't0ken', ...env } },
      (e, stdout, stderr) => resolve({ code: e ? Number(/** @type {any} */ (e).code) : 0, stdout, stderr }),
    );
  });
}

/** A bare repository at SERVER/acme/app.git, as the script builds the URL from GITHUB_SERVER_URL. */
function bareRemote() {
  const root = tmpDir('git-remote');
  const repo = path.join(root, 'acme', 'app.git');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', repo]);
  return { env: { GITHUB_SERVER_URL: `file://${root}`, GITHUB_REPOSITORY: 'acme/app' }, repo };
}

/** @param {string} dir @param {string} name */
const addFile = (dir, name) => {
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), `${name}\n`);
};

test('first fetch: no branch yet; push creates it; a second checkout sees it', async () => {
  const { env } = bareRemote();
  const a = path.join(tmpDir('hist'), 'a');
  const first = await branch('fetch', { ...env, HISTORY: a });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /branch bench-history does not exist yet/);
  addFile(a, 'index.json');
  const pushed = await branch('push', { ...env, HISTORY: a });
  assert.equal(pushed.code, 0, pushed.stderr);
  assert.match(pushed.stdout, /pushed [0-9a-f]+ to bench-history/);
  const b = path.join(tmpDir('hist'), 'b');
  const again = await branch('fetch', { ...env, HISTORY: b });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /bench-history at [0-9a-f]+/);
});

test('two publishers from the same commit: the second push is a race (10), and retrying after a fetch works', async () => {
  const { env } = bareRemote();
  const seed = path.join(tmpDir('hist'), 'seed');
  await branch('fetch', { ...env, HISTORY: seed });
  addFile(seed, 'index.json');
  assert.equal((await branch('push', { ...env, HISTORY: seed })).code, 0);
  const a = path.join(tmpDir('hist'), 'a');
  const b = path.join(tmpDir('hist'), 'b');
  await branch('fetch', { ...env, HISTORY: a });
  await branch('fetch', { ...env, HISTORY: b });
  addFile(a, 'run-a.json');
  addFile(b, 'run-b.json');
  assert.equal((await branch('push', { ...env, HISTORY: a })).code, 0);
  const raced = await branch('push', { ...env, HISTORY: b });
  assert.equal(raced.code, 10, raced.stdout + raced.stderr);
  assert.match(raced.stdout, /moved .* \(a race\)/);
  await branch('fetch', { ...env, HISTORY: b });
  addFile(b, 'run-b.json');
  assert.equal((await branch('push', { ...env, HISTORY: b })).code, 0);
});

test("a push the server refuses (a hook, a protected branch) is not a race: 12 with git's message", async () => {
  const { env, repo } = bareRemote();
  const hook = path.join(repo, 'hooks', 'pre-receive');
  writeFileSync(hook, '#!/bin/sh\necho "protected branch: pushes need a review" >&2\nexit 1\n');
  chmodSync(hook, 0o755);
  const a = path.join(tmpDir('hist'), 'a');
  await branch('fetch', { ...env, HISTORY: a });
  addFile(a, 'index.json');
  const r = await branch('push', { ...env, HISTORY: a });
  assert.equal(r.code, 12, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /::error title=dind-bench history::history: push to bench-history .* failed, and not because the branch moved/,
  );
  assert.match(r.stderr, /protected branch: pushes need a review/);
});

test('a remote that cannot be read is an error (11), never "no history yet"', async () => {
  const missing = await branch('fetch', {
    GITHUB_SERVER_URL: `file://${tmpDir('none')}`,
    GITHUB_REPOSITORY: 'acme/app',
    HISTORY: path.join(tmpDir('hist'), 'a'),
  });
  assert.equal(missing.code, 11, missing.stdout + missing.stderr);
  assert.doesNotMatch(missing.stdout, /does not exist yet/);
  assert.match(missing.stdout, /cannot read .*acme\/app\.git/);

  // A port nothing listens on (bound and closed again): the network error of a runner that cannot reach the server.
  const closed = await new Promise((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
  const net = await branch('fetch', {
    GITHUB_SERVER_URL: `http://127.0.0.1:${closed}`,
    GITHUB_REPOSITORY: 'acme/app',
    HISTORY: path.join(tmpDir('hist'), 'b'),
  });
  assert.equal(net.code, 11, net.stdout + net.stderr);
  assert.match(net.stderr, /git: .*(Failed to connect|Connection refused|Could not connect)/i);
});

test('a token the server refuses: fetch 11 and push 12, both naming the authentication failure', async () => {
  /** @type {string[]} */
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push(String(req.headers.authorization ?? ''));
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' });
    res.end('bad credentials\n');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  try {
    const env = { GITHUB_SERVER_URL: `http://127.0.0.1:${port}`, GITHUB_REPOSITORY: 'acme/app' };
    const f = await branch('fetch', { ...env, HISTORY: path.join(tmpDir('hist'), 'a') });
    assert.equal(f.code, 11, f.stdout + f.stderr);
    assert.match(f.stderr, /git: .*(Authentication failed|could not read Username)/);
    assert.doesNotMatch(f.stdout, /does not exist yet/);
    assert.ok(
      seen.some((h) => h === `basic ${Buffer.from('x-access-token:t0ken').toString('base64')}`),
      'the token went as a header',
    );
    assert.ok(!(f.stdout + f.stderr).includes('t0ken'), 'the token is not printed');

    // A checkout made from a reachable remote, whose push then meets the refusing server.
    const { env: good } = bareRemote();
    const b = path.join(tmpDir('hist'), 'b');
    await branch('fetch', { ...good, HISTORY: b });
    execFileSync('git', ['-C', b, 'remote', 'set-url', 'origin', `http://127.0.0.1:${port}/acme/app.git`]);
    addFile(b, 'index.json');
    const p = await branch('push', { ...env, HISTORY: b });
    assert.equal(p.code, 12, p.stdout + p.stderr);
    assert.match(p.stderr, /git: .*(Authentication failed|could not read Username)/);
  } finally {
    server.close();
  }
});

test("a publish's staging and lock left in the history are never committed", async () => {
  const { env } = bareRemote();
  const a = path.join(tmpDir('hist'), 'a');
  assert.equal((await branch('fetch', { ...env, HISTORY: a })).code, 0);
  addFile(a, 'index.json');
  addFile(a, '.publish/0123456789ab/0');
  addFile(a, '.publish.lock');
  const pushed = await branch('push', { ...env, HISTORY: a });
  assert.equal(pushed.code, 0, pushed.stderr);
  const b = path.join(tmpDir('hist'), 'b');
  assert.equal((await branch('fetch', { ...env, HISTORY: b })).code, 0);
  assert.ok(existsSync(path.join(b, 'index.json')), 'the data is pushed');
  assert.ok(
    !existsSync(path.join(b, '.publish')) && !existsSync(path.join(b, '.publish.lock')),
    'staging and lock are not',
  );
});

test('a lock the branch carries (tracked) is dropped on fetch and removed from the branch by the next push', async () => {
  const { env, repo } = bareRemote();
  // A branch with a committed lock dated far ahead and a staging folder, as a hand or an old publish left it.
  const seed = path.join(tmpDir('hist'), 'seed');
  execFileSync('git', ['init', '-q', '-b', 'bench-history', seed]);
  addFile(seed, 'index.json');
  writeFileSync(path.join(seed, '.publish.lock'), JSON.stringify({ pid: 1, host: 'x', since: '2999-01-01T00:00:00Z' }));
  addFile(seed, '.publish/0123456789ab/0');
  execFileSync('git', ['-C', seed, 'add', '-A']);
  execFileSync('git', ['-C', seed, '-c', 'user.name=t', '-c', 'user.email=t@localhost', 'commit', '-qm', 'lock']);
  execFileSync('git', ['-C', seed, 'push', '-q', repo, 'HEAD:refs/heads/bench-history']);

  const a = path.join(tmpDir('hist'), 'a');
  const fetched = await branch('fetch', { ...env, HISTORY: a });
  assert.equal(fetched.code, 0, fetched.stderr);
  assert.match(fetched.stdout, /carries a publish lock or staging/);
  assert.ok(!existsSync(path.join(a, '.publish.lock')) && !existsSync(path.join(a, '.publish')), 'dropped on fetch');
  addFile(a, 'index.json');
  writeFileSync(path.join(a, 'index.json'), '{}\n');
  const pushed = await branch('push', { ...env, HISTORY: a });
  assert.equal(pushed.code, 0, pushed.stderr);
  const tree = execFileSync('git', ['--git-dir', repo, 'ls-tree', '-r', '--name-only', 'bench-history'], {
    encoding: 'utf8',
  });
  assert.deepEqual(tree.trim().split('\n'), ['index.json'], 'the branch carries no lock or staging');
});
