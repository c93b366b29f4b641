// A real registry that a run starts itself, on the runner's engine, so a workload's jobs really pull
// over HTTP without leaving this machine: the distribution registry from Debian's docker-registry
// package, in the image `dind-bench/registry:<distro>` (images/docker-bake.hcl). Seeded with images
// from the runner's engine by a real `docker push`.
//
// Reached two ways: the runner's engine pulls from 127.0.0.1:PORT (published on loopback only; engines
// trust a loopback registry over plain HTTP by default), an inner DinD engine from the registry's
// address on the runner engine's default bridge (the outer DinD container sits on that bridge), which
// the inner daemon is told to trust (`--insecure-registry`). With `proxyOf`, the registry is a
// pull-through cache of another one: the registry mirror teams put in front of DinD.
import http from 'node:http';
import { dockerCli } from './cli.js';
import { socketOf } from './client.js';

const PORT = 5000;

/**
 * @typedef {{
 *   hostAddress: string, bridgeAddress: string, containerId: string, image: string,
 *   seed: (localImage: string, repoTag: string) => Promise<void>,
 *   stop: () => Promise<void>,
 * }} Registry
 *   hostAddress: "127.0.0.1:PORT", for the runner's engine; bridgeAddress: "IP:5000", for containers (and
 *   inner engines) on the runner engine's default bridge; seed: push an image of the runner's engine
 *   into it as repoTag ("team/app:1").
 */

/**
 * Starts a registry container and waits until it answers /v2/.
 * @param {{ docker: import('dockerode'), tracker: import('./resources.js').ResourceTracker, image: string,
 *   cliConfigDir?: string, proxyOf?: Registry, readyTimeoutMs?: number }} opts
 *   cliConfigDir: a DOCKER_CONFIG folder (./cli.js cliConfig) for the pushes of seed()
 * @returns {Promise<Registry>}
 */
export async function startRegistry({ docker, tracker, image, cliConfigDir, proxyOf, readyTimeoutMs = 30_000 }) {
  const config = [
    'version: 0.1',
    'log: {level: warn}',
    'storage: {filesystem: {rootdirectory: /var/lib/docker-registry}, delete: {enabled: true}}',
    `http: {addr: ":${PORT}"}`,
    ...(proxyOf ? [`proxy: {remoteurl: "http://${proxyOf.bridgeAddress}"}`] : []),
  ].join('\n');
  const container = await tracker.creating(
    docker.createContainer({
      Image: image,
      // Its own configuration: the package's default asks for htpasswd authentication. No credential is
      // needed on a registry that lives only on this machine's loopback and the run's own bridge.
      Cmd: [
        'sh',
        '-c',
        'printf "%s\\n" "$REGISTRY_CONFIG" > /tmp/registry.yml && exec docker-registry serve /tmp/registry.yml',
      ],
      Env: [`REGISTRY_CONFIG=${config}`],
      Labels: { ...tracker.labels, 'dind-bench.role': proxyOf ? 'registry-mirror' : 'registry' },
      ExposedPorts: { [`${PORT}/tcp`]: {} },
      HostConfig: { PortBindings: { [`${PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] } },
    }),
  );
  tracker.add('container', container.id, docker);
  await container.start();
  const info = await container.inspect();
  const hostPort = info.NetworkSettings.Ports?.[`${PORT}/tcp`]?.[0]?.HostPort;
  const ip = info.NetworkSettings.Networks?.bridge?.IPAddress;
  if (!hostPort || !ip) throw new Error(`the registry container ${container.id.slice(0, 12)} has no address`);
  const hostAddress = `127.0.0.1:${hostPort}`;
  await waitForRegistry(hostAddress, readyTimeoutMs, container);
  const socket = socketOf(docker);
  return {
    hostAddress,
    bridgeAddress: `${ip}:${PORT}`,
    containerId: container.id,
    image,
    seed: async (localImage, repoTag) => {
      const target = `${hostAddress}/${repoTag}`;
      const cli = (/** @type {string[]} */ args) =>
        dockerCli({ socket, args, timeoutMs: 300_000, config: cliConfigDir ?? '' }).then((r) => {
          if (r.exitCode !== 0)
            throw new Error(`seeding the registry: docker ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.trim()}`);
        });
      await cli(['tag', localImage, target]);
      try {
        await cli(['push', '--quiet', target]);
      } finally {
        await cli(['rmi', target]).catch(() => {});
      }
    },
    stop: async () => {
      await container.remove({ force: true, v: true }).catch(() => {});
      tracker.forget(container.id);
    },
  };
}

/**
 * Polls GET /v2/ until the registry answers 200 (never a sleep standing in for readiness).
 * @param {string} address @param {number} timeoutMs @param {import('dockerode').Container} container
 */
async function waitForRegistry(address, timeoutMs, container) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await answers(address, 2000)) return;
    const state = (await container.inspect()).State;
    if (!state.Running || performance.now() > deadline) {
      const logs = String(await container.logs({ stdout: true, stderr: true, tail: 20 })).trim();
      throw new Error(`the registry did not answer http://${address}/v2/ (${state.Status}): ${logs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One GET http://ADDRESS/v2/ on a connection of its own: true when it answers 200 within timeoutMs.
 * node:http with a timer of our own, not fetch: fetch's AbortSignal.timeout timer is unref'd, and a
 * fetch to the freshly published port that never settled let the event loop run dry mid-wait (the
 * process exited with the registry half-started; seen in CI and once here, not pinned further).
 * @param {string} address "HOST:PORT" @param {number} timeoutMs @returns {Promise<boolean>}
 */
function answers(address, timeoutMs) {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const req = http.get({ host, port: Number(port), path: '/v2/', agent: false }, (res) => {
      clearTimeout(timer);
      res.on('error', () => {}).resume(); // the body is drained and the connection closes by itself
      resolve(res.statusCode === 200);
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(false);
    }, timeoutMs);
    req.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}
