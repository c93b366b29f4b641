// iperf3 throughput in three settings: loopback inside one container (the study's setting), from a
// client container to a server container across the environment's bridge (for DinD: the inner
// bridge), and over host networking. Request-response latency with sockperf ping-pong (iperf3 has no
// such test), and an MTU probe: a full-size don't-fragment packet must cross the bridge.
import { parseIperf3 } from '../parsers/iperf3.js';
import { parsePingMtu } from '../parsers/ping-mtu.js';
import { parseSockperf } from '../parsers/sockperf.js';
import { listeningProbe, networksOf, plannedNetworks, runSteps, withService } from './benchmark.js';

/**
 * @typedef {{seconds: number, omitSeconds: number, intervalSeconds: number, affinity: string, streams: number,
 *   zerocopy: boolean, loopback: boolean, latencySeconds: number, mtuPings: number, networks: number,
 *   readyTimeoutMs: number}} Iperf3Params
 *   loopback: the study's loopback test too; latencySeconds: 0 runs no latency test;
 *   intervalSeconds: iperf3's `-i` (its per-interval reports; from three counted intervals on, their median is the
 *   metric `*.throughput_interval_median`);
 *   affinity: iperf3's `-A` ("" none; "0,1": the client on CPU 0, the server on CPU 1);
 *   streams: iperf3's `-P` (parallel TCP streams of one client, their sum the throughput);
 *   zerocopy: iperf3's `-Z` (the client sends with sendfile, not a copy from its own buffer)
 */

/** @type {import('./benchmark.js').Benchmark<Iperf3Params>} */
export const iperf3 = {
  name: 'iperf3',
  image: 'iperf3',
  description: 'TCP throughput (loopback, bridge, host network), request-response latency (sockperf) and an MTU probe',
  params: {
    // networks: how many of the environment's networks (networksOf in ./benchmark.js). Quick measures the
    // bridge only: sockperf's client spends ~2 s of its own before every test, so each network costs
    // ~4.5 s plus two containers, and 5 quick iterations of every benchmark must fit 15 minutes.
    // omitSeconds: iperf3's own `-O`, the first second (TCP slow start, the window still growing) is run but
    // not counted: one second with nothing omitted timed its own ramp (docs/noise.md). 2 counted seconds
    // after it: 2 s more per sample than the 1 s before.
    // loopback, latencySeconds: quick measures what it decides, the bridge's throughput, and the MTU probe (0.6 s:
    // the trap that stalls a DinD job's pulls); the loopback test (3 s) and sockperf (1 s and ~2 s of its own)
    // are described metrics a first answer does not need, and they made the network the dearest question
    // of the quick run, the first its budget left out (docs/noise.md).
    quick: {
      seconds: 2,
      omitSeconds: 1,
      intervalSeconds: 1,
      affinity: '',
      streams: 1,
      zerocopy: false,
      loopback: false,
      latencySeconds: 0,
      mtuPings: 3,
      networks: 1,
      readyTimeoutMs: 30_000,
    },
    standard: {
      seconds: 10,
      omitSeconds: 0,
      intervalSeconds: 1,
      affinity: '',
      streams: 1,
      zerocopy: false,
      loopback: true,
      latencySeconds: 10,
      mtuPings: 10,
      networks: 2,
      readyTimeoutMs: 60_000,
    },
  },
  // Loopback + each network's throughput and latency run (sockperf adds ~2 s of its own to each), the
  // MTU pings, and ~1.5 s per server start. Standard, measured: 58 s per step.
  estimateSeconds: (p) => {
    const n = plannedNetworks(p.networks);
    const throughput = p.seconds + (p.omitSeconds ?? 0);
    const latency = p.latencySeconds > 0 ? p.latencySeconds + 2 : 0;
    return (p.loopback ? throughput : 0) + n * (throughput + latency + 1.5) + 0.2 * p.mtuPings;
  },
  // One quick-profile step, measured per environment (src/run/estimate.js says where from). Without the
  // loopback and latency tests (2026-12-07): bench:noise before and after back to back, at load 8.5-9, took
  // 11.9 -> 5.4 s (docker) and 12.1 -> 5.6 s (dind); the quiet step was 10.7 s (docs/noise.md). From the
  // quiet step, the loaded ratio gives 4.9 s, the loaded difference 4.2 s: 4.5 here, and each run's first
  // iteration re-plans from its own (src/run/replan.js).
  quickStepS: { native: 3.6, docker: 4.5, dind: 4.5, 'dind-vfs': 7.6 },

  async measure(env, ctx) {
    const p = ctx.params;
    const flags = clientFlags(p);
    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [];
    const throughput = (/** @type {string} */ where, /** @type {string} */ stdout) => {
      const r = parseIperf3(stdout);
      metrics.push({ metric: `${where}.throughput`, unit: 'Mbit/s', better: 'higher', value: r.throughput_mbps });
      // A median of fewer than three intervals is their mean, the end total again: not a metric of its own.
      if (r.interval_median_mbps !== null && r.intervals >= 3)
        metrics.push({
          metric: `${where}.throughput_interval_median`,
          unit: 'Mbit/s',
          better: 'higher',
          value: r.interval_median_mbps,
        });
      if (r.retransmits !== null)
        metrics.push({ metric: `${where}.retransmits`, unit: 'count', better: 'lower', value: r.retransmits });
    };

    // Loopback: server and client in one container (or one host, for native), as the study ran it. It
    // runs in the first network's client container (the bridge's own namespace; native: the host).
    // The port is picked at random so concurrent native runs on one machine do not collide.
    const port = 20000 + Math.floor(Math.random() * 20000);
    const loopback =
      `iperf3 -s -1 -B 127.0.0.1 -p ${port} >/dev/null 2>&1 & ` +
      // No readiness signal from a background iperf3: retry the client briefly until it connects.
      // (iperf3 3.12 exits 0 with an "error" in its JSON when the connection is refused.)
      `i=0; until iperf3 -c 127.0.0.1 -p ${port} ${flags} --json >loop.json 2>&1 && ! grep -q 'Connection refused' loop.json; do ` +
      `i=$((i+1)); if [ $i -ge 50 ]; then cat loop.json; exit 1; fi; sleep 0.1; done; cat loop.json; rm -f loop.json`;

    for (const [n, network] of networksOf(env, p.networks).entries()) {
      const spec = {
        name: 'iperf3+sockperf',
        image: ctx.image,
        network,
        ports: 2,
        // Both servers in one container: one start per network instead of two.
        cmd: (/** @type {{bind: string, ports: number[]}} */ { bind, ports }) => [
          'sh',
          '-c',
          `iperf3 -s -B ${bind} -p ${ports[0]} & exec sockperf server --tcp -i ${bind} -p ${ports[1]}`,
        ],
        readiness: (/** @type {{ports: number[]}} */ { ports }) => listeningProbe(ports),
        readyTimeoutMs: p.readyTimeoutMs,
      };
      await withService(env, spec, async (server) => {
        // Every client step of this network in one container (see runSteps): throughput, latency and,
        // across the bridge, the MTU probe: a payload that fills the interface MTU, don't-fragment, must
        // arrive, or large transfers across this bridge would stall. ping's exit code stays in the text
        // for the parser to judge.
        const steps = [
          ...(n === 0 && p.loopback ? [{ step: 'loopback', sh: loopback }] : []),
          {
            step: `${network}-throughput`,
            sh: `iperf3 -c ${server.host} -p ${server.ports[0]} ${flags} --json`,
          },
          ...(p.latencySeconds > 0
            ? [
                {
                  step: `${network}-latency`,
                  sh: `sockperf ping-pong --tcp -i ${server.host} -p ${server.ports[1]} -t ${p.latencySeconds}`,
                },
              ]
            : []),
          ...(network === 'bridge' && p.mtuPings > 0
            ? [
                {
                  step: 'bridge-mtu',
                  sh: `mtu=$(cat /sys/class/net/eth0/mtu) && echo "mtu=$mtu" && ping -M do -s $((mtu - 28)) -c ${p.mtuPings} -i 0.2 -W 2 ${server.host} 2>&1; echo "exit=$?"`,
                },
              ]
            : []),
        ];
        const out = await runSteps(env, ctx, steps, { network });
        if (n === 0 && p.loopback) throughput('loopback', out.loopback);
        throughput(network, out[`${network}-throughput`]);
        if (p.latencySeconds > 0) latencyMetrics(metrics, network, out[`${network}-latency`]);
        if (network === 'bridge' && p.mtuPings > 0)
          metrics.push({
            metric: 'bridge.path_mtu',
            unit: 'bytes',
            better: 'higher',
            value: parsePingMtu(out['bridge-mtu']).mtu,
          });
      });
    }
    return metrics;
  },
};

/**
 * The client's timing and placement flags, each checked before it reaches a shell: `-t`, `-O`, `-i` (iperf3
 * takes 0, no interval reports, or 0.1 to 60 s), `-A` (CPU numbers; "n,m" pins the server too), `-P` (1 to
 * 128 streams, iperf3's own limit) and `-Z`.
 * @param {Pick<Iperf3Params, 'seconds' | 'omitSeconds' | 'intervalSeconds' | 'affinity'> &
 *   Partial<Pick<Iperf3Params, 'streams' | 'zerocopy'>>} p
 */
export function clientFlags(p) {
  const whole = (/** @type {string} */ name, /** @type {unknown} */ v) => {
    if (!(Number.isInteger(v) && /** @type {number} */ (v) >= 0 && /** @type {number} */ (v) <= 3600))
      throw new Error(`iperf3 ${name} ${JSON.stringify(v)}: a whole number of seconds from 0 to 3600`);
    return v;
  };
  if (whole('seconds', p.seconds) === 0) throw new Error('iperf3 seconds 0: at least 1 s must be counted');
  whole('omitSeconds', p.omitSeconds);
  const i = p.intervalSeconds ?? 1;
  if (!(typeof i === 'number' && (i === 0 || (i >= 0.1 && i <= 60))))
    throw new Error(`iperf3 intervalSeconds ${JSON.stringify(i)}: 0 (no interval reports) or 0.1 to 60`);
  const a = p.affinity ?? '';
  if (!(typeof a === 'string' && /^(\d{1,4}(,\d{1,4})?)?$/.test(a)))
    throw new Error(`iperf3 affinity ${JSON.stringify(a)}: "" (none), a CPU number, or "client,server" like "0,1"`);
  const streams = p.streams ?? 1;
  if (!(Number.isInteger(streams) && streams >= 1 && streams <= 128))
    throw new Error(`iperf3 streams ${JSON.stringify(streams)}: a whole number of parallel streams from 1 to 128`);
  const z = p.zerocopy ?? false;
  if (typeof z !== 'boolean') throw new Error(`iperf3 zerocopy ${JSON.stringify(z)}: true or false`);
  return `-t ${p.seconds} -O ${p.omitSeconds} -i ${i}${a ? ` -A ${a}` : ''}${streams > 1 ? ` -P ${streams}` : ''}${z ? ' -Z' : ''}`;
}

/**
 * sockperf's half round trips as metrics of one network.
 * @param {import('./benchmark.js').Metric[]} metrics @param {string} network @param {string} stdout
 */
function latencyMetrics(metrics, network, stdout) {
  const lat = parseSockperf(stdout);
  for (const [k, v] of /** @type {const} */ ([
    ['avg', lat.avg_us],
    ['p50', lat.p50_us],
    ['p99', lat.p99_us],
    ['p99_9', lat.p999_us],
  ])) {
    metrics.push({ metric: `${network}.latency_${k}`, unit: 'us (half round trip)', better: 'lower', value: v });
  }
}
