// A team's registries trusted by the job's inner engines (issue 43, item 3), on the real engine: a registry
// with a CA of its own (TLS, a certificate for its name on a network the test made) and one on plain HTTP,
// both containers the test started, reached by fresh job engines of dind, dind-rootless and podman: a push
// and a pull back each, the CA given as the run gives it (a certs.d folder, ../../src/workload/registry-trust.js)
// and the plain-HTTP one as an insecure registry. Without the CA, the TLS registry is refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import tar from 'tar-stream';
import { cliConfig, dockerCli } from '../../src/engine/cli.js';
import { ResourceTracker } from '../../src/engine/resources.js';
import { createEnvironment } from '../../src/environments/index.js';
import { benchImage } from '../../src/images/catalog.js';
import { certsFolder } from '../../src/workload/registry-trust.js';
import { onEngine } from '../helpers/engine.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-registry-trust-'));
after(() => rmSync(work, { recursive: true, force: true }));

const TLS_NAME = 'team-registry.test';
const TLS = `${TLS_NAME}:5443`;
const PLAIN = 'plain-registry.test:5000';

/** A CA and a server certificate for TLS_NAME signed by it (EC keys: quick to make). */
function certificates() {
  const sh = (/** @type {string} */ script) => {
    const r = spawnSync('sh', ['-c', script], { cwd: work, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };
  sh(
    'openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=team-ca ' +
      '-keyout ca.key -out ca.crt 2>/dev/null',
  );
  sh(
    `openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=${TLS_NAME} -keyout tls.key -out tls.csr 2>/dev/null && ` +
      `printf 'subjectAltName=DNS:${TLS_NAME}\\n' > ext && ` +
      'openssl x509 -req -in tls.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile ext -out tls.crt 2>/dev/null',
  );
  const read = (/** @type {string} */ f) => readFileSync(path.join(work, f), 'utf8');
  return { ca: read('ca.crt'), cert: read('tls.crt'), key: read('tls.key') };
}

/**
 * A registry container on `network` under `alias`: plain HTTP, or TLS with `tls`; no authentication (what is
 * tested is trust, the closed registry has its own tests). @param {import('dockerode')} outer
 * @param {ResourceTracker} tracker @param {string} network @param {string} alias @param {number} port
 * @param {{ cert: string, key: string } | null} tls
 */
async function registry(outer, tracker, network, alias, port, tls) {
  const config = [
    'version: 0.1',
    'log: {level: warn}',
    'storage: {filesystem: {rootdirectory: /tmp/store}}',
    tls ? `http: {addr: ":${port}", tls: {certificate: /tmp/tls.crt, key: /tmp/tls.key}}` : `http: {addr: ":${port}"}`,
  ].join('\n');
  const container = await outer.createContainer({
    Image: benchImage('registry', 'debian'),
    Cmd: [
      'sh',
      '-c',
      'printf "%s\\n" "$CONFIG" > /tmp/r.yml && printf "%s\\n" "$CERT" > /tmp/tls.crt && printf "%s\\n" "$KEY" > /tmp/tls.key ' +
        '&& exec docker-registry serve /tmp/r.yml',
    ],
    Env: [`CONFIG=${config}`, `CERT=${tls?.cert ?? ''}`, `KEY=${tls?.key ?? ''}`],
    Labels: tracker.labels,
    HostConfig: { NetworkMode: network },
    NetworkingConfig: { EndpointsConfig: { [network]: { Aliases: [alias] } } },
  });
  tracker.add('container', container.id, outer);
  await container.start();
}

/** A tiny image of its own (FROM scratch), saved: what each engine pushes. @param {import('dockerode')} outer */
async function tinyArchive(outer) {
  const tag = `dind-bench-trust-${process.pid}:1`;
  const pack = tar.pack();
  pack.entry({ name: 'Dockerfile' }, 'FROM scratch\nCOPY f /f\n');
  pack.entry({ name: 'f' }, `trust ${Date.now()}\n`);
  pack.finalize();
  const stream = await outer.buildImage(/** @type {any} */ (pack), { t: tag });
  await new Promise((resolve, reject) =>
    outer.modem.followProgress(stream, (err, out) => (err ? reject(err) : resolve(out))),
  );
  const file = path.join(work, 'tiny.tar');
  const r = spawnSync('docker', ['save', '--output', file, tag], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  await outer.getImage(tag).remove();
  return { file, tag };
}

test('a registry with its own CA and one on plain HTTP are reached from dind, dind-rootless and podman job engines', async (t) => {
  const setup = await onEngine(t, { engines: ['20.10', '26.1'], podman: ['4.3'] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`registry-trust-test-${process.pid}`);
  const config = await cliConfig();
  const { ca, cert, key } = certificates();
  const certs = await certsFolder([{ address: TLS, pem: ca }]);
  const network = `dind-bench-trust-${process.pid}`;
  const net = await outer.createNetwork({ Name: network, Labels: tracker.labels });
  try {
    await registry(outer, tracker, network, TLS_NAME, 5443, { cert, key });
    await registry(outer, tracker, network, 'plain-registry.test', 5000, null);
    const { file, tag } = await tinyArchive(outer);
    for (const [kind, line] of /** @type {[string, string | null][]} */ ([
      ['dind', '20.10'],
      ['dind-rootless', '26.1'],
      ['podman', null],
    ])) {
      const env = createEnvironment(kind, outer, line);
      try {
        await env.setup({ tracker, images: [] });
        const cli = async (/** @type {string} */ socket, /** @type {string[]} */ args) =>
          dockerCli({ socket, args, timeoutMs: 120_000, config: config.dir });
        const job = await env.jobEngine?.({
          insecureRegistries: [PLAIN],
          networks: [network],
          registryCerts: certs.dir,
        });
        assert.ok(job && job.fresh, kind);
        try {
          const loaded = await cli(job.socket, ['load', '--input', file]);
          assert.equal(loaded.exitCode, 0, `${kind}: ${loaded.stderr}`);
          for (const address of [TLS, PLAIN]) {
            const ref = `${address}/team/${kind}:1`;
            for (const args of [
              ['tag', tag, ref],
              ['push', ref],
              ['rmi', ref],
              ['pull', ref],
            ]) {
              const r = await cli(job.socket, args);
              assert.equal(r.exitCode, 0, `${kind}: docker ${args.join(' ')}: ${r.stderr}`);
            }
          }
        } finally {
          await job.close();
        }
        if (kind === 'dind') {
          // The control: without the CA the same registry is refused, so the CA is what made it trusted.
          const bare = await env.jobEngine?.({ networks: [network] });
          assert.ok(bare);
          try {
            const r = await cli(bare.socket, ['pull', `${TLS}/team/dind:1`]);
            assert.notEqual(r.exitCode, 0, 'a pull without the CA');
            assert.match(r.stderr, /x509|certificate/i);
          } finally {
            await bare.close();
          }
        }
      } finally {
        await env.teardown();
      }
    }
  } finally {
    await tracker.cleanup(outer);
    await net.remove().catch(() => {});
    await certs.remove();
    await config.remove();
  }
  await setup.leftAsFound();
});
