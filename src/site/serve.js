// A static file server for previewing a built site on this machine (and for the browser tests).
// Node's http module is enough: a preview needs GET of files, content types and nothing else, and a
// dependency for that would be more code to trust than these lines.
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = /** @type {Record<string, string>} */ ({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
});

/**
 * Serves `root` on 127.0.0.1 (never on other interfaces). Port 0 picks a free one.
 * @param {string} root @param {{ port?: number }} [opts]
 * @returns {Promise<{ url: string, server: http.Server, close: () => Promise<void> }>}
 */
export async function serveSite(root, { port = 0 } = {}) {
  const base = path.resolve(root);
  await fs.access(path.join(base, 'index.html')).catch(() => {
    throw new Error(
      `${root}: no index.html; build the site first with \`dind-bench site build --history HISTDIR --out ${root}\``,
    );
  });
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let rel = decodeURIComponent(url.pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(base, rel);
    if (!file.startsWith(base + path.sep) || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(403).end();
      return;
    }
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${rel}\n`);
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${addr.port}/`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
