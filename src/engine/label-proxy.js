// A socket in front of an engine's that puts labels on every container, volume and network created
// through it: a workload's steps run their `docker` commands against it (DOCKER_HOST), so what they make on
// the runner's engine is labelled with the run and the step, found by its labels when the job ends, and
// removed (src/workload/steps.js; the run's sweep, src/engine/resources.js, finds what a Ctrl-C left).
// Everything else passes as it is: requests and responses are streamed, and upgraded connections (attach,
// exec, BuildKit's session) are piped both ways once the request is forwarded.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The create calls whose body gets the labels: POST [/vX.Y]/containers|volumes|networks/create. */
const CREATE = /^(\/v[\d.]+)?\/(containers|volumes|networks)\/create(\?|$)/;
/** A create call's body is JSON of a few KiB; anything larger is passed on as it is, unread. */
const MAX_CREATE_BODY = 4 * 2 ** 20;

/**
 * @typedef {{ socket: string, close: () => Promise<void> }} LabelProxy
 *   socket: the path to give a client as DOCKER_HOST (unix://...)
 */

/**
 * Listens on a fresh unix socket and forwards to `engineSocket`, adding `labels` to what is created.
 * @param {{ engineSocket: string, labels: Record<string, string> }} opts
 * @returns {Promise<LabelProxy>}
 */
export async function labelProxy({ engineSocket, labels }) {
  // A unix socket path is at most 107 bytes: a long TMPDIR falls back to /tmp.
  const base = os.tmpdir().length > 60 ? '/tmp' : os.tmpdir();
  const dir = await mkdtemp(path.join(base, 'dind-bench-lp-'));
  const socket = path.join(dir, 'docker.sock');
  // Upstream connections are kept alive (and ended with the proxy): on `Connection: close` the engine closes
  // as soon as it has answered, and a request whose body was streamed ends with one more (empty) write,
  // which then fails (EPIPE) although the answer came.
  const agent = new http.Agent({ keepAlive: true });
  /** @type {Set<import('node:stream').Duplex>} */
  const open = new Set();
  const track = (/** @type {import('node:stream').Duplex} */ s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  };

  const server = http.createServer((req, res) => {
    const headers = { ...req.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    const upstream = http.request(
      { socketPath: engineSocket, agent, method: req.method, path: req.url, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        // Headers at once: a client may wait for them before it goes on (`docker run` waits on /wait).
        res.flushHeaders();
        up.pipe(res);
      },
    );
    upstream.on('error', (e) => {
      // After the answer began, the client sees it cut; before, the error as the engine's would be.
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: `dind-bench label proxy: ${e.message}` }));
    });
    if (req.method === 'POST' && CREATE.test(req.url ?? '')) {
      /** @type {Buffer[]} */
      const chunks = [];
      let size = 0;
      req.on('data', (/** @type {Buffer} */ b) => {
        size += b.length;
        if (size <= MAX_CREATE_BODY) chunks.push(b);
      });
      req.on('end', () => {
        const body = size <= MAX_CREATE_BODY ? withLabels(Buffer.concat(chunks), labels) : null;
        if (!body) {
          upstream.destroy(new Error('a create request larger than any real one'));
          return;
        }
        upstream.removeHeader('transfer-encoding');
        upstream.setHeader('content-length', body.length);
        upstream.end(body);
      });
    } else req.pipe(upstream);
  });

  // Attach, exec and BuildKit's session upgrade their connection: forward the request, then pipe raw bytes.
  server.on('upgrade', (req, client, head) => {
    track(client);
    const up = net.connect(engineSocket);
    track(up);
    const end = () => {
      client.destroy();
      up.destroy();
    };
    up.on('error', end);
    client.on('error', end);
    up.on('connect', () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      client.pipe(up);
      up.pipe(client);
    });
  });
  server.on('connection', track);

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve(undefined));
  });
  return {
    socket,
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      agent.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A create call's JSON body with `labels` added to its Labels (the caller's own labels kept; ours win on
 * a clash). A body that is not a JSON object goes on as it is: the engine answers it.
 * @param {Buffer} body @param {Record<string, string>} labels @returns {Buffer}
 */
export function withLabels(body, labels) {
  let doc;
  try {
    doc = JSON.parse(body.toString('utf8') || '{}');
  } catch {
    return body;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return body;
  const own = doc.Labels && typeof doc.Labels === 'object' && !Array.isArray(doc.Labels) ? doc.Labels : {};
  return Buffer.from(JSON.stringify({ ...doc, Labels: { ...own, ...labels } }));
}
