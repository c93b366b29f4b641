// The label proxy a workload's steps reach the engine through (src/engine/label-proxy.js), against a
// stand-in engine on a unix socket: create calls of containers, volumes and networks get the labels (the
// caller's own kept), everything else passes byte for byte, streamed bodies and upgraded connections too.
// No engine needed; test/workload/step-objects.test.js runs it against the real one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { labelProxy, withLabels } from '../../src/engine/label-proxy.js';

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-lp-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const LABELS = { 'dind-bench.run': 'run-1', 'dind-bench.workload-step': 'serve' };

/** A stand-in engine: answers each request with what it received; an upgrade echoes raw bytes. */
async function fakeEngine() {
  const socket = path.join(dir, `engine-${Math.random().toString(36).slice(2, 8)}.sock`);
  const server = http.createServer((req, res) => {
    /** @type {Buffer[]} */
    const body = [];
    req.on('data', (b) => body.push(b));
    req.on('end', () => {
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(body).toString() }));
    });
  });
  /** @type {import('node:stream').Duplex[]} */
  const upgraded = [];
  server.on('upgrade', (req, sock) => {
    upgraded.push(sock);
    sock.write('HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n');
    sock.on('data', (b) => sock.write(`echo:${b}`));
  });
  await new Promise((resolve) => server.listen(socket, () => resolve(undefined)));
  const close = () => {
    for (const s of upgraded) s.destroy();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { socket, close };
}

/** @param {string} socket @param {string} method @param {string} url @param {string | Buffer | null} [body] @param {boolean} [chunked] */
function call(socket, method, url, body = null, chunked = false) {
  return new Promise((resolve, reject) => {
    const headers =
      body === null || chunked ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };
    const req = http.request({ socketPath: socket, method, path: url, headers }, (res) => {
      let text = '';
      res.on('data', (b) => (text += b));
      res.on('end', () => resolve({ status: res.statusCode, doc: JSON.parse(text) }));
    });
    req.on('error', reject);
    if (chunked && body !== null) {
      const b = Buffer.from(body);
      req.write(b.subarray(0, 10));
      setTimeout(() => req.end(b.subarray(10)), 20);
    } else req.end(body ?? undefined);
  });
}

test('create calls get the run and step labels, the caller’s own kept; other calls pass unchanged', async () => {
  const engine = await fakeEngine();
  const proxy = await labelProxy({ engineSocket: engine.socket, labels: LABELS });
  try {
    for (const url of [
      '/v1.41/containers/create?name=db',
      '/containers/create',
      '/v1.41/volumes/create',
      '/v1.41/networks/create',
    ]) {
      const r = /** @type {any} */ (
        await call(proxy.socket, 'POST', url, JSON.stringify({ Image: 'x', Labels: { team: 'a' } }))
      );
      assert.equal(r.status, 201);
      assert.equal(r.doc.url, url);
      assert.deepEqual(JSON.parse(r.doc.body), { Image: 'x', Labels: { team: 'a', ...LABELS } }, url);
    }
    // A body sent in chunks (as a build context is) reaches the engine whole, and only create calls change.
    const tar = 'a'.repeat(100_000);
    let r = /** @type {any} */ (await call(proxy.socket, 'POST', '/v1.41/build?t=x', tar, true));
    assert.equal(r.doc.body, tar);
    const exec = JSON.stringify({ Cmd: ['true'], Labels: null });
    r = await call(proxy.socket, 'POST', '/v1.41/containers/db/exec', exec);
    assert.equal(r.doc.body, exec, 'an exec is not a create');
    r = await call(proxy.socket, 'GET', '/v1.41/containers/json?all=1');
    assert.equal(r.doc.method, 'GET');
  } finally {
    await proxy.close();
    await engine.close();
  }
});

test('an upgraded connection (attach, exec start, BuildKit session) is piped both ways', async () => {
  const engine = await fakeEngine();
  const proxy = await labelProxy({ engineSocket: engine.socket, labels: LABELS });
  try {
    const echoed = await new Promise((resolve, reject) => {
      const req = http.request({
        socketPath: proxy.socket,
        method: 'POST',
        path: '/v1.41/containers/db/attach?stream=1&stdin=1',
        headers: { Connection: 'Upgrade', Upgrade: 'tcp' },
      });
      req.on('upgrade', (res, sock) => {
        assert.equal(res.statusCode, 101);
        sock.once('data', (b) => {
          resolve(String(b));
          sock.destroy();
        });
        sock.write('hello');
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(echoed, 'echo:hello');
  } finally {
    await proxy.close();
    await engine.close();
  }
});

test('withLabels: ours win on a clash; a body that is not a JSON object goes on as it is', () => {
  const out = JSON.parse(String(withLabels(Buffer.from('{"Labels":{"dind-bench.run":"forged","k":"v"}}'), LABELS)));
  assert.deepEqual(out.Labels, { 'dind-bench.run': 'run-1', k: 'v', 'dind-bench.workload-step': 'serve' });
  assert.deepEqual(JSON.parse(String(withLabels(Buffer.from(''), LABELS))), { Labels: LABELS });
  for (const body of ['not json', '[1]', 'null']) assert.equal(String(withLabels(Buffer.from(body), LABELS)), body);
});
