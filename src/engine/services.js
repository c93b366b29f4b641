// Long-running servers (iperf3, redis-server, postgres) in containers, and the networks their clients
// reach them over. Used unchanged for the runner's engine (`docker`) and inner engines (`dind`,
// `dind-vfs`): on an inner engine the network is the INNER engine's, so traffic crosses the inner
// bridge, and "host" networking is the outer DinD container's namespace.
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { roundMs as round, since } from './timing.js';

/**
 * @typedef {'bridge' | 'host'} NetworkMode
 * @typedef {{
 *   name: string, image: string, network: NetworkMode, ports?: number, user?: string,
 *   cmd: (at: {bind: string, ports: number[]}) => string[],
 *   readiness: (at: {ports: number[]}) => string[],
 *   readyTimeoutMs: number,
 * }} ServiceSpec
 *   cmd: the server's command, given the address to bind and the ports chosen for it.
 *   readiness: a probe command run where the server runs (inside its container, or on the host for
 *   `native`), polled until it exits 0: the server answers, no sleep stands in for readiness.
 * @typedef {{
 *   name: string, network: NetworkMode, host: string, ports: number[], port: number, ready_ms: number,
 *   logTail: (lines?: number) => Promise<string>, stop: () => Promise<void>,
 * }} Service
 *   host and ports: where clients started with `run({network})` reach the server.
 */

export class ServiceNotReadyError extends Error {}

/**
 * Ports for a server. Chosen free on the host (the namespace of `native` and of `docker` host
 * networking) so concurrent runs on one machine do not collide; in a bridge or a DinD namespace
 * they are free anyway.
 * @param {number} n
 */
export async function freePorts(n) {
  const ports = [];
  while (ports.length < n) {
    const port = await new Promise((resolve, reject) => {
      const s = createServer();
      s.on('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const p = /** @type {import('node:net').AddressInfo} */ (s.address()).port;
        s.close(() => resolve(p));
      });
    });
    if (!ports.includes(port)) ports.push(port);
  }
  return ports;
}

/**
 * The user-defined bridge network of one environment on one engine, created on first use and tracked.
 * A user-defined network (not the default bridge) so the run owns it and removes it afterwards.
 * @param {import('dockerode')} docker
 * @param {import('./resources.js').ResourceTracker} tracker
 */
export async function createBridge(docker, tracker) {
  const name = `dind-bench-${tracker.runId.slice(-12)}-${Math.random().toString(36).slice(2, 8)}`.replace(
    /[^a-zA-Z0-9_.-]/g,
    '-',
  );
  const net = await tracker.creating(
    docker.createNetwork({ Name: name, Driver: 'bridge', CheckDuplicate: true, Labels: tracker.labels }),
  );
  tracker.add('network', net.id, docker);
  return {
    name,
    remove: async () => {
      await docker
        .getNetwork(net.id)
        .remove()
        .catch((e) => {
          if (/** @type {{statusCode?: number}} */ (e).statusCode !== 404) throw e;
        });
      tracker.forget(net.id);
    },
  };
}

/**
 * Starts a server container and waits until its readiness probe passes.
 * @param {import('dockerode')} docker
 * @param {ServiceSpec} spec
 * @param {{tracker: import('./resources.js').ResourceTracker, networkName: string, where: string}} ctx
 *   networkName: the bridge network for `network: 'bridge'`; where: the environment, for messages
 * @returns {Promise<Service>}
 */
export async function startServiceContainer(docker, spec, { tracker, networkName, where }) {
  const ports = await freePorts(spec.ports ?? 1);
  const bridge = spec.network === 'bridge';
  const t0 = performance.now();
  const container = await tracker.creating(
    docker.createContainer({
      Image: spec.image,
      Cmd: spec.cmd({ bind: bridge ? '0.0.0.0' : '127.0.0.1', ports }),
      User: spec.user,
      Labels: { ...tracker.labels, 'dind-bench.role': 'service', 'dind-bench.service': spec.name },
      HostConfig: { NetworkMode: bridge ? networkName : 'host' },
    }),
  );
  tracker.add('container', container.id, docker);
  const logTail = async (lines = 15) => {
    try {
      const buf = /** @type {Buffer} */ (
        /** @type {unknown} */ (await container.logs({ stdout: true, stderr: true, tail: lines }))
      );
      return demuxed(buf);
    } catch {
      return '';
    }
  };
  // Killed, not stopped: a benchmark server keeps nothing worth a graceful shutdown, and some (sockperf
  // as PID 1) ignore SIGTERM, which would cost the stop timeout on every iteration.
  const stop = async () => {
    await container.remove({ force: true, v: true }).catch((e) => {
      if (/** @type {{statusCode?: number}} */ (e).statusCode !== 404) throw e;
    });
    tracker.forget(container.id);
  };
  /** @type {string | undefined} */
  let host;
  try {
    await container.start();
    const info = await container.inspect();
    host = bridge ? info.NetworkSettings.Networks[networkName]?.IPAddress : '127.0.0.1';
    if (!host) throw new Error(`${spec.name} got no address on network ${networkName}`);
  } catch (e) {
    await stop().catch(() => {});
    throw e;
  }
  return readyService(spec, ports, where, {
    host,
    t0,
    stop,
    logTail,
    probe: (cmd) => execExitCode(docker, container, cmd),
    exited: async () => {
      const s = (await container.inspect()).State;
      return s.Running ? null : s.ExitCode;
    },
  });
}

/**
 * A started server's handle once its readiness probe passes (pollReady); when it never does, the server is
 * stopped and the error thrown. The same for a container (above) and a host process
 * (../environments/native-service.js).
 * @param {ServiceSpec} spec @param {number[]} ports @param {string} where
 * @param {Parameters<typeof pollReady>[3] & {host: string, t0: number, stop: () => Promise<void>}} started
 *   t0: when the server was asked to start (its ready_ms counts from there)
 * @returns {Promise<Service>}
 */
export async function readyService(spec, ports, where, { host, t0, stop, ...ops }) {
  try {
    await pollReady(spec, ports, where, ops);
  } catch (e) {
    await stop().catch(() => {});
    throw e;
  }
  const { name, network } = spec;
  return { name, network, host, ports, port: ports[0], ready_ms: round(since(t0)), logTail: ops.logTail, stop };
}

/**
 * Polls the readiness probe until it passes, the server exits, or the timeout passes; the errors name
 * the server and carry its last log lines.
 * @param {ServiceSpec} spec @param {number[]} ports @param {string} where
 * @param {{probe: (cmd: string[]) => Promise<number>, exited: () => Promise<number | null>, logTail: (n?: number) => Promise<string>}} ops
 */
export async function pollReady(spec, ports, where, ops) {
  const t0 = performance.now();
  const cmd = spec.readiness({ ports });
  /** @type {string} */ let lastProbe = '';
  for (;;) {
    const code = await ops.exited();
    if (code !== null) {
      throw new ServiceNotReadyError(
        `server ${spec.name} (${spec.network} network, ${where}) exited with code ${code} before it became ready; its last log lines:\n${await ops.logTail()}`,
      );
    }
    try {
      if ((await ops.probe(cmd)) === 0) return;
      lastProbe = `\`${cmd.join(' ')}\` did not pass`;
    } catch (e) {
      lastProbe = `\`${cmd.join(' ')}\` failed: ${/** @type {Error} */ (e).message}`;
    }
    if (performance.now() - t0 > spec.readyTimeoutMs) {
      throw new ServiceNotReadyError(
        `server ${spec.name} never became ready (${spec.network} network, ${where}): no answer within ${Math.round(spec.readyTimeoutMs / 1000)} s (${lastProbe}); its last log lines:\n${await ops.logTail()}`,
      );
    }
    await delay(50);
  }
}

/**
 * Runs a command in a running container and returns its exit code.
 * @param {import('dockerode')} docker @param {import('dockerode').Container} container @param {string[]} cmd
 */
async function execExitCode(docker, container, cmd) {
  const exec = await container.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  await new Promise((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', resolve);
    stream.resume();
  });
  // The stream can end a moment before the engine records the exit code.
  for (let i = 0; i < 50; i++) {
    const { Running, ExitCode } = await exec.inspect();
    if (!Running && ExitCode !== null) return ExitCode;
    await delay(10);
  }
  return -1;
}

/** Text of a multiplexed log buffer (8-byte frame headers dropped). @param {Buffer} buf */
function demuxed(buf) {
  const parts = [];
  let i = 0;
  while (i + 8 <= buf.length && (buf[i] === 1 || buf[i] === 2) && buf[i + 1] === 0) {
    const len = buf.readUInt32BE(i + 4);
    parts.push(buf.subarray(i + 8, i + 8 + len));
    i += 8 + len;
  }
  return (i === 0 ? buf : Buffer.concat(parts)).toString('utf8');
}
