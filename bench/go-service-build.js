// `node bench/go-service-build.js [--repeat N]`: what Go's build cache, kept as a BuildKit cache mount, is
// worth to the go-service example's build (examples/workloads/go-service/service). Each round starts a fresh
// DinD engine (an empty BuildKit, as a DinD job starts), loads the Go image into it from the runner's engine,
// then builds the example three times, each timed:
//   cold:   the first build (the cache mount empty: the standard library without cgo, the driver, the code);
//   warm:   again after a change to the sources (a comment added to internal/orders, which both binaries
//           import): the COPY and the RUN run again, on the cache mount the cold build filled, as a job
//           whose sources changed runs on a builder that built them before. Not --no-cache: the Engine
//           20.10 builder's --no-cache build took nearly the cold build's time (171 s against 200 s, load
//           27), while `go build` on a warm GOCACHE takes seconds;
//   cached: again unchanged (every layer from the cache: the RUN is not run at all).
// Prints each round and the medians, with the load average before and after, so the figures can be read
// against what else ran. Needs the images dind-bench/golang:debian and dind-bench/dind:20.10.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cliConfig, dockerCli } from '../src/engine/cli.js';
import { outerEngine } from '../src/engine/client.js';
import { ResourceTracker } from '../src/engine/resources.js';
import { createEnvironment } from '../src/environments/index.js';
import { benchImage } from '../src/images/catalog.js';

const { values } = parseArgs({ options: { repeat: { type: 'string', default: '3' } } });
const REPEAT = Number(values.repeat);
const SOURCES = new URL('../examples/workloads/go-service/service/', import.meta.url).pathname;
// A copy per round: the warm build changes a source file, never the example's.
const GO_IMAGE = benchImage('golang', 'debian');
// A netrc of the shape the build checks (build.sh); the value is this script's, no real credential.
const NETRC = 'machine modules.team.example login bench password not-a-real-token';
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const outer = outerEngine();
const tracker = new ResourceTracker(`go-service-build-${process.pid}`);
const config = await cliConfig();
tracker.onCleanup(config.remove);
/** @type {Record<'cold' | 'warm' | 'cached', number[]>} */
const times = { cold: [], warm: [], cached: [] };
console.log(`load average ${load()} before; ${REPEAT} round(s), each in a fresh dind@20.10 engine`);
try {
  const env = createEnvironment('dind', outer, '20.10');
  await env.setup({ tracker, images: [] });
  for (let i = 0; i < REPEAT; i++) {
    const engine = await /** @type {NonNullable<typeof env.jobEngine>} */ (env.jobEngine)();
    const context = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-go-service-'));
    cpSync(SOURCES, context, { recursive: true });
    try {
      // The Go image into the fresh engine, untimed: the job's pull is measured by the job, not here.
      execFileSync('sh', ['-c', `docker save ${GO_IMAGE} | docker -H unix://${engine.socket} load --quiet`], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const build = async (/** @type {string[]} */ extra) => {
        const r = await dockerCli({
          socket: engine.socket,
          config: config.dir,
          timeoutMs: 600_000,
          env: { GO_NETRC: NETRC },
          args: [
            ...['buildx', 'build', '--progress=plain', '--load', '--target', 'runtime', '--tag', 'go-service:bench'],
            ...['--build-arg', `GO_IMAGE=${GO_IMAGE}`, '--secret', 'id=netrc,env=GO_NETRC', ...extra, context],
          ],
        });
        if (r.exitCode !== 0) throw new Error(`the build failed (exit ${r.exitCode}):\n${r.stderr.slice(-3000)}`);
        return r.ms;
      };
      const cold = await build([]);
      appendFileSync(path.join(context, 'internal', 'orders', 'orders.go'), `\n// changed for round ${i + 1}\n`);
      const warm = await build([]);
      const cached = await build([]);
      times.cold.push(cold);
      times.warm.push(warm);
      times.cached.push(cached);
      const s = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;
      console.log(`round ${i + 1}: cold ${s(cold)}, warm ${s(warm)}, cached ${s(cached)} (load ${load()})`);
    } finally {
      await engine.close();
      rmSync(context, { recursive: true, force: true });
    }
  }
  await env.teardown();
  const m = (/** @type {number[]} */ xs) => `${(median(xs) / 1000).toFixed(1)} s`;
  console.log(
    `medians of ${REPEAT}: cold ${m(times.cold)}, warm (sources changed, cache mount kept) ${m(times.warm)}, ` +
      `cached ${m(times.cached)}; load average ${load()} after`,
  );
} finally {
  await tracker.cleanup(outer);
}
