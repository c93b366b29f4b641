// A real registry that a run starts itself, on the runner's engine, so a workload's jobs really pull
// over HTTP without leaving this machine: the distribution registry from Debian's docker-registry
// package, in the image `dind-bench/registry:<distro>` (images/docker-bake.hcl). Seeded with images
// from the runner's engine by a real `docker push`.
//
// Reached two ways: the runner's engine pulls from 127.0.0.1:PORT (published on loopback only; engines
// trust a loopback registry over plain HTTP by default), an inner DinD engine from the registry's
// address on a network of the run's own (`network`: the outer DinD containers that pull from it are
// connected to it; nothing else on the runner engine's default bridge reaches it), which the inner daemon
// is told to trust (`--insecure-registry`). With `proxyOf`, the registry is a pull-through cache of
// another one: the registry mirror teams put in front of DinD.
//
// Closed by default: every request needs a credential (htpasswd, bcrypt), one made for the run and never
// written anywhere but the run's own DOCKER_CONFIG (docker login --password-stdin), plus those a workload
// gives for a registry this one stands in for; deleting is disabled.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import bcrypt from 'bcryptjs';
import { dockerCli, dockerLogin } from './cli.js';
import { socketOf } from './client.js';

const PORT = 5000;
/**
 * bcrypt's cost for the htpasswd entries. The registry checks the hash on every request of every pull, so a
 * high cost would be paid inside the measured pull times; the run's own password is 32 random bytes, which no
 * cost protects further, and the hashes live only in the registry container of a run on the runner itself.
 */
const BCRYPT_COST = 5;

/**
 * @typedef {{ username: string, password: string }} RegistryUser
 * @typedef {{
 *   hostAddress: string, bridgeAddress: string, network: string, containerId: string, image: string,
 *   credential: RegistryUser, users: RegistryUser[],
 *   seed: (localImage: string, repoTag: string) => Promise<string>,
 *   stop: () => Promise<void>,
 * }} Registry
 *   hostAddress: "127.0.0.1:PORT", for the runner's engine; bridgeAddress: "IP:5000", for containers (and
 *   inner engines) on `network`, the run's own network it sits on; credential: the run's own; users: every
 *   credential it accepts; seed: push an image of the runner's engine into it as repoTag ("team/app:1"),
 *   returning the manifest's digest the registry serves for it.
 */

/**
 * Starts a registry container on a network of the run's own and waits until it answers /v2/.
 * @param {{ docker: import('dockerode'), tracker: import('./resources.js').ResourceTracker, image: string,
 *   cliConfigDir?: string, proxyOf?: Registry, users?: RegistryUser[], readyTimeoutMs?: number }} opts
 *   cliConfigDir: a DOCKER_CONFIG folder (./cli.js cliConfig) for the pushes of seed(); users: credentials
 *   it accepts besides the run's own (a workload's, for the registry it stands in for). A mirror (proxyOf)
 *   sits on its origin's network, accepts the origin's credentials and pulls from it with the run's own.
 * @returns {Promise<Registry>}
 */
export async function startRegistry({
  docker,
  tracker,
  image,
  cliConfigDir,
  proxyOf,
  users = [],
  readyTimeoutMs = 30_000,
}) {
  const credential = proxyOf?.credential ?? newCredential();
  const accepted = proxyOf ? proxyOf.users : [credential, ...users];
  const network = proxyOf?.network ?? (await runNetwork(docker, tracker));
  const container = await tracker.creating(
    docker.createContainer({
      Image: image,
      // Its own configuration and password file, from the environment (the file holds bcrypt hashes only).
      Cmd: [
        'sh',
        '-c',
        'printf "%s\\n" "$REGISTRY_CONFIG" > /tmp/registry.yml && printf "%s\\n" "$REGISTRY_HTPASSWD" > /tmp/htpasswd ' +
          '&& exec docker-registry serve /tmp/registry.yml',
      ],
      Env: [`REGISTRY_CONFIG=${registryConfig(proxyOf)}`, `REGISTRY_HTPASSWD=${htpasswd(accepted)}`],
      Labels: { ...tracker.labels, 'dind-bench.role': proxyOf ? 'registry-mirror' : 'registry' },
      ExposedPorts: { [`${PORT}/tcp`]: {} },
      HostConfig: {
        NetworkMode: network,
        PortBindings: { [`${PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] },
      },
    }),
  );
  tracker.add('container', container.id, docker);
  await container.start();
  const info = await container.inspect();
  const hostPort = info.NetworkSettings.Ports?.[`${PORT}/tcp`]?.[0]?.HostPort;
  const ip = info.NetworkSettings.Networks?.[network]?.IPAddress;
  if (!hostPort || !ip) throw new Error(`the registry container ${container.id.slice(0, 12)} has no address`);
  const hostAddress = `127.0.0.1:${hostPort}`;
  await waitForRegistry(hostAddress, readyTimeoutMs, container);
  const socket = socketOf(docker);
  let loggedIn = false;
  return {
    hostAddress,
    bridgeAddress: `${ip}:${PORT}`,
    network,
    containerId: container.id,
    image,
    credential,
    users: accepted,
    seed: async (localImage, repoTag) => {
      const target = `${hostAddress}/${repoTag}`;
      const config = cliConfigDir ?? '';
      const cli = (/** @type {string[]} */ args) =>
        dockerCli({ socket, args, timeoutMs: 300_000, config }).then((r) => {
          if (r.exitCode !== 0)
            throw new Error(`seeding the registry: docker ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.trim()}`);
        });
      if (!loggedIn) {
        const r = await dockerLogin({ socket, config, address: hostAddress, ...credential, timeoutMs: 60_000 });
        if (r.exitCode !== 0)
          throw new Error(`seeding the registry: docker login ${hostAddress} failed: ${r.stderr.trim()}`);
        loggedIn = true;
      }
      await cli(['tag', localImage, target]);
      try {
        await cli(['push', '--quiet', target]);
        return await pushedDigest(docker, target);
      } finally {
        await cli(['rmi', target]).catch(() => {});
      }
    },
    stop: async () => {
      await container.remove({ force: true, v: true }).catch(() => {});
      tracker.forget(container.id);
      if (!proxyOf)
        await docker
          .getNetwork(network)
          .remove()
          .then(() => tracker.forget(network))
          .catch(() => {});
    },
  };
}

/** A credential for one run: a random user name and 32 random bytes. @returns {RegistryUser} */
function newCredential() {
  return { username: `dind-bench-${randomBytes(4).toString('hex')}`, password: randomBytes(32).toString('base64url') };
}

/** The registry's htpasswd file: one bcrypt hash per user. @param {RegistryUser[]} users */
const htpasswd = (users) => users.map((u) => `${u.username}:${bcrypt.hashSync(u.password, BCRYPT_COST)}`).join('\n');

/**
 * The registry's configuration: filesystem storage, deleting disabled, htpasswd authentication; a mirror
 * pulls from its origin with the run's credential.
 * @param {Registry | undefined} proxyOf
 */
function registryConfig(proxyOf) {
  return [
    'version: 0.1',
    'log: {level: warn}',
    'storage: {filesystem: {rootdirectory: /var/lib/docker-registry}, delete: {enabled: false}}',
    `http: {addr: ":${PORT}"}`,
    'auth: {htpasswd: {realm: dind-bench, path: /tmp/htpasswd}}',
    // The origin's credential in the remote's address: the registry's own proxy credentials are looked up by
    // a token realm's URL, which basic authentication does not give, while Go's HTTP client sends an
    // address's user and password as basic authentication on every request. URL-safe: hex and base64url.
    ...(proxyOf
      ? [
          `proxy: {remoteurl: "http://${proxyOf.credential.username}:${proxyOf.credential.password}@${proxyOf.bridgeAddress}"}`,
        ]
      : []),
  ].join('\n');
}

/**
 * A bridge network of the run's own for its registries: the DinD engines that pull from them join it, so
 * no other container on the runner engine's default bridge reaches them.
 * @param {import('dockerode')} docker @param {import('./resources.js').ResourceTracker} tracker
 */
async function runNetwork(docker, tracker) {
  const name = `dind-bench-registry-${randomBytes(6).toString('hex')}`;
  await tracker.creating(docker.createNetwork({ Name: name, Driver: 'bridge', Labels: tracker.labels }));
  tracker.add('network', name, docker);
  return name;
}

/**
 * The digest the registry serves for what was just pushed, from the engine's record of the push.
 * @param {import('dockerode')} docker @param {string} target "HOST:PORT/repo:tag"
 */
async function pushedDigest(docker, target) {
  const repo = target.slice(0, target.lastIndexOf(':'));
  const { RepoDigests = [] } = await docker.getImage(target).inspect();
  const found = RepoDigests.find((d) => d.startsWith(`${repo}@`));
  if (!found) throw new Error(`seeding the registry: the engine recorded no digest for ${target}`);
  return found.slice(repo.length + 1);
}

/**
 * Polls GET /v2/ until the registry answers (200, or 401 asking for its credential; never a sleep standing
 * in for readiness).
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
 * One GET http://ADDRESS/v2/ on a connection of its own: true when it answers 200 or 401 within timeoutMs.
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
      resolve(res.statusCode === 200 || res.statusCode === 401);
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
