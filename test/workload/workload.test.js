// Workloads on the real engine: every shipped example as one job in docker and in DinD (pulls from the
// registry the run starts, BuildKit builds, a compose stack, CLI steps), a failing step that fails its
// cell with the tool's own words while the run goes on, and the registry pulled from by the runner's engine
// and by an inner engine, directly and through a pull-through mirror. The engine is left as found.
// npm run test:e2e: every shipped example run whole as a job in docker and in DinD (about 170 s); it also
// compares every image name and ID on the engine before and after, so it runs alone there
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { cliConfig, dockerCli, dockerLogin, storeLogin } from '../../src/engine/cli.js';
import { startRegistry } from '../../src/engine/registry.js';
import { ResourceTracker } from '../../src/engine/resources.js';
import { createEnvironment } from '../../src/environments/index.js';
import { benchImage } from '../../src/images/catalog.js';
import { validateResults } from '../../src/results/schema.js';
import { imageState, onEngine, the } from '../helpers/engine.js';
import { packagedPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const EXAMPLES = new URL('../../examples/workloads/', import.meta.url).pathname;
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-workload-engine-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** @param {string} file @param {string} out @param {string[]} [extra] */
function runWorkload(file, out, extra = []) {
  return runCli(['run', '--workload', file, '--env', 'docker,dind', '--iterations', '1', '--out', out, ...extra], {
    timeout: 540_000,
    env: { ...process.env, ...SECRETS },
  });
}

/** What the go-service example names: its registry's credential and the module proxy's netrc (a build secret). */
const SECRETS = {
  DIND_BENCH_REGISTRY_USERNAME: 'ci',
  DIND_BENCH_REGISTRY_PASSWORD: 'a-password-for-the-test',
  GO_NETRC: 'machine modules.team.example login ci password a-token-for-the-test',
};

for (const [example, phases] of /** @type {[string, string[]][]} */ ([
  ['script', ['image.team_tools_1.pull_ms', 'step.containers_ms', 'step.volume_ms']],
  ['app-build', ['image.team_base_1.pull_ms', 'build.app_ms', 'build.app.cold_ms', 'build.app.warm_ms']],
  ['compose-db', ['image.team_postgres_16.pull_ms', 'compose.up_ms', 'compose.test_ms', 'compose.down_ms']],
  // Real Go code built in Debian's Go image (a cache mount, the netrc secret), its integration test in the stack.
  [
    'go-service',
    ['image.registry.internal_5000_team_golang_1.19.pull_ms', 'image.postgres_16.pull_ms', 'build.api_ms'],
  ],
])) {
  test(`the ${example} example runs as a job in docker and in DinD; the report opens with its cost; nothing left`, async (t) => {
    const setup = await onEngine(t);
    if (!setup) return;
    const { outer } = setup;
    // Every image name and ID (a job's build that a later build under its tag left untagged counts).
    const images = await imageState(outer);
    const out = path.join(work, example);
    const r = runWorkload(path.join(EXAMPLES, example, 'workload.yml'), out);
    assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
    const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
    const cells = results.cells.filter((/** @type {any} */ c) => c.benchmark === `workload.${example}`);
    assert.deepEqual(
      cells.map((/** @type {any} */ c) => [c.environmentKey, c.status]),
      [
        ['docker', 'ok'],
        ['dind@20.10', 'ok'],
      ],
    );
    for (const cell of cells) {
      const names = cell.metrics.map((/** @type {any} */ m) => m.metric);
      for (const p of ['engine.ready_ms', ...phases, 'job.total_ms'])
        assert.ok(names.includes(p), `${cell.environmentKey}: ${p} in ${names}`);
      const total = the(
        cell.metrics.find((/** @type {any} */ m) => m.metric === 'job.total_ms'),
        'job.total_ms',
      ).samples[0];
      assert.ok(total > 0, `${cell.environmentKey}: a job takes time`);
    }
    // A fresh DinD engine has to pull its images, a persistent runner's engine has them: measured, not assumed.
    const dindCell = the(
      cells.find((/** @type {any} */ c) => c.environmentKey === 'dind@20.10'),
      'the dind cell',
    );
    const pull = the(
      dindCell.metrics.find((/** @type {any} */ m) => /^image\..*\.pull_ms$/.test(m.metric)),
      'a pull',
    ).samples[0];
    assert.ok(pull > 0);
    if (example === 'app-build')
      assert.ok(
        dindCell.metrics.some((/** @type {any} */ m) => m.metric === 'build.app.cache_import_ms'),
        'DinD measures a cache import',
      );
    if (example === 'compose-db') {
      // The stack came up with the distribution's packaged compose (.ci/install.sh installs it), not a
      // plugin in ~/.docker that shadows it: the compose version each environment recorded is the package's.
      const compose = packagedPlugin('compose');
      if (process.env.CI) assert.ok(compose, 'CI=true but no package installed docker compose (.ci/install.sh does)');
      const builders = results.environments.filter((/** @type {any} */ e) => e.facts?.builder);
      assert.equal(builders.length, 2, 'docker and dind record their builder');
      for (const env of compose ? builders : []) {
        const used = String(env.facts?.builder?.compose).replace(/^v/, '');
        assert.ok(
          compose?.version.replace(/^\d+:/, '').startsWith(used),
          `${env.key}: compose ${used}, package ${compose?.version}`,
        );
      }
    }
    if (example === 'go-service') {
      // In each environment the Go build compiled (vet, the API, the test binary) and the integration test
      // passed against the API and its database; the netrc the build read is in no file the run wrote.
      const written = readdirSync(out, { recursive: true, encoding: 'utf8' })
        .map((f) => path.join(out, f))
        .filter((f) => statSync(f).isFile())
        .map((f) => readFileSync(f, 'utf8'));
      const raw = written.join('\n');
      const token = 'a-token-for-the-test';
      assert.ok(SECRETS.GO_NETRC.endsWith(token) && !raw.includes(token), 'the netrc is in no file of the run');
      assert.match(raw, /--- PASS: TestSummaryComesFromTheDatabase/);
      assert.match(raw, /50000 orders, 125002500000 cents, from the API as in the database/);
    }
    const report = readFileSync(path.join(out, 'report.md'), 'utf8');
    // The answer table's row for the job, under its pair: the answer, seconds with the interval and percent,
    // dollars per 1,000 jobs; the job's cost table below it.
    const lines = report.split('\n');
    const pair = lines.indexOf('| **dind@\u206020.10 vs docker** |  |  |  |  |');
    const job = lines.slice(pair).find((l) => l.startsWith('| job |'));
    assert.match(
      String(job),
      // (one sample a side: no interval yet, the row says what would decide it)
      /^\| job \| (regression|improvement|equivalent ±\d+%|inconclusive) \| [+-][0-9.,]+ s (\\\[[^\]]*\\\] )?\([+-][\d,.]+%\) \| [+-]\\\$[\d.,]+ \|/,
    );
    assert.ok(report.includes(`## workload.${example} (debian): cost per job, `), 'the cost table');
    assert.match(r.stdout + r.stderr, /^job +(regression|improvement|equivalent ±\d+%|inconclusive) +[+-][0-9.,]+ s /m);
    await setup.leftAsFound();
    // Another run on this engine (a shared machine) names images at its own registry's port meanwhile: left
    // out, but for this run's.
    const ports = new Set(
      readdirSync(path.join(out, 'raw'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.txt'))
        .flatMap((f) => [...readFileSync(path.join(out, 'raw', f), 'utf8').matchAll(/127\.0\.0\.1:(\d+)\//g)])
        .map((m) => m[1]),
    );
    const ours = (/** @type {{ names: string[], ids: string[] }} */ state) => ({
      ...state,
      names: state.names.filter((n) => !/^127\.0\.0\.1:(\d+)\//.test(n) || ports.has(n.split(/[:/]/)[1])),
    });
    assert.deepEqual(ours(await imageState(outer)), ours(images), "the runner's image names and IDs are as found");
  });
}

test("a failing step fails its cell with the tool's own words; the other environment runs; nothing left", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const dir = mkdtempSync(path.join(work, 'failing-'));
  const file = path.join(dir, 'workload.yml');
  writeFileSync(
    file,
    [
      'version: 1',
      'name: failing',
      'images:',
      '  - name: team/tools:1',
      '    source: present',
      '    from: dind-bench/lifecycle:debian',
      'steps:',
      '  - name: ok',
      '    run: docker run --rm --network none team/tools:1 true',
      '  - name: broken',
      '    run: "echo compiling; echo \'error: no-such-compiler: not found\' >&2; exit 3"',
      '',
    ].join('\n'),
  );
  const out = path.join(work, 'failing-out');
  const r = runWorkload(file, out);
  assert.equal(r.status, 3, 'exit 3: cells failed');
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  for (const cell of results.cells.filter((/** @type {any} */ c) => c.benchmark === 'workload.failing')) {
    assert.equal(cell.status, 'failed');
    assert.match(cell.reason ?? '', /step step-broken: .* exited 3: error: no-such-compiler: not found/);
  }
  await setup.leftAsFound();
});

test("the registry: the runner engine pulls from it on loopback, an inner engine over the run's network, and through a mirror", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`registry-test-${process.pid}`);
  const config = await cliConfig();
  const env = createEnvironment('dind', outer, '20.10');
  try {
    const image = benchImage('registry', 'debian');
    const origin = await startRegistry({ docker: outer, tracker, image, cliConfigDir: config.dir });
    await origin.seed(benchImage('lifecycle', 'debian'), 'team/seeded:1');
    const mirror = await startRegistry({ docker: outer, tracker, image, cliConfigDir: config.dir, proxyOf: origin });
    /** Logs the engine behind `socket` in to `address` with the run's credential (the registries are closed). */
    const login = async (/** @type {string} */ socket, /** @type {string} */ address) => {
      const r = await dockerLogin({ socket, config: config.dir, address, ...origin.credential, timeoutMs: 60_000 });
      assert.equal(r.exitCode, 0, r.stderr);
    };
    // The runner's engine, on loopback.
    await login('/var/run/docker.sock', origin.hostAddress);
    const host = await dockerCli({
      socket: '/var/run/docker.sock',
      args: ['pull', `${origin.hostAddress}/team/seeded:1`],
      timeoutMs: 120_000,
      config: config.dir,
    });
    assert.equal(host.exitCode, 0, host.stderr);
    await outer.getImage(`${origin.hostAddress}/team/seeded:1`).remove();
    // An inner engine, fresh and empty, over the runner engine's bridge; then another through the mirror.
    await env.setup({ tracker, images: [] });
    for (const [via, address] of [
      ['origin', origin.bridgeAddress],
      ['mirror', mirror.bridgeAddress],
    ]) {
      const job = await env.jobEngine?.({ insecureRegistries: [address], networks: [origin.network] });
      assert.ok(job);
      try {
        await login(job.socket, address);
        const pulled = await dockerCli({
          socket: job.socket,
          args: ['pull', `${address}/team/seeded:1`],
          timeoutMs: 120_000,
          config: config.dir,
        });
        assert.equal(pulled.exitCode, 0, `${via}: ${pulled.stderr}`);
        assert.match(pulled.stdout, /Downloaded newer image|Pull complete/, `${via}: a real pull into an empty engine`);
      } finally {
        await job.close();
      }
    }
  } finally {
    await env.teardown();
    await tracker.cleanup(outer);
    await config.remove();
  }
  await setup.leftAsFound();
});

test("dind-mirror: fresh inner engines pull through a mirror in front of the run's registry; nothing left", async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const out = path.join(work, 'mirror');
  const r = runCli(
    [
      'run',
      '--workload',
      path.join(EXAMPLES, 'script', 'workload.yml'),
      '--env',
      'dind,dind-mirror',
      '--iterations',
      '1',
      '--out',
      out,
    ],
    { timeout: 540_000 },
  );
  assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'results.json');
  assert.deepEqual(
    results.cells.map((/** @type {any} */ c) => [c.environmentKey, c.status]),
    [
      ['dind@20.10', 'ok'],
      ['dind-mirror@20.10', 'ok'],
    ],
  );
  /** The registry address a cell's job pulled from, read from its raw output. @param {string} env */
  const pulledFrom = (env) => {
    const text = readFileSync(
      path.join(out, 'raw', 'workload.script', env, 'debian', '01-pull-team_tools_1.txt'),
      'utf8',
    );
    return /docker pull --quiet ([0-9.]+:5000)\//.exec(text)?.[1];
  };
  const origin = pulledFrom('dind@20.10');
  const mirror = pulledFrom('dind-mirror@20.10');
  assert.ok(origin && mirror && origin !== mirror, `dind pulled from ${origin}, dind-mirror from ${mirror}`);
  await setup.leftAsFound();
});

test("podman: a fresh job engine pulls from the run's registry over the bridge, trusted through registries.conf; nothing left", async (t) => {
  const setup = await onEngine(t, { engines: [], podman: ['4.3'] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`registry-podman-test-${process.pid}`);
  const config = await cliConfig();
  const env = createEnvironment('podman', outer, null);
  try {
    const image = benchImage('registry', 'debian');
    const origin = await startRegistry({ docker: outer, tracker, image, cliConfigDir: config.dir });
    await origin.seed(benchImage('lifecycle', 'debian'), 'team/seeded:1');
    await env.setup({ tracker, images: [] });
    const address = await env.registryAddress?.(origin);
    assert.ok(address);
    // On the registry's own network, as every engine that pulls from it; logged in, as the registry is closed.
    const job = await env.jobEngine?.({ insecureRegistries: [address], networks: [origin.network] });
    assert.ok(job && job.fresh && job.builder === 'Buildah');
    try {
      // Podman's /auth would try HTTPS: the credential is stored for the CLI to send with the pull, as the run does.
      await storeLogin({ config: config.dir, address, ...origin.credential });
      // Plain HTTP is refused unless the registry is trusted: the entrypoint's registries.conf entry did it.
      const pulled = await dockerCli({
        socket: job.socket,
        args: ['pull', `${address}/team/seeded:1`],
        timeoutMs: 120_000,
        config: config.dir,
      });
      assert.equal(pulled.exitCode, 0, pulled.stderr);
      const images = await job.docker.listImages();
      assert.ok(
        images.some((i) => (i.RepoTags ?? []).some((tag) => tag.endsWith('team/seeded:1'))),
        JSON.stringify(images.map((i) => i.RepoTags)),
      );
    } finally {
      await job.close();
    }
  } finally {
    await env.teardown();
    await tracker.cleanup(outer);
    await config.remove();
  }
  await setup.leftAsFound();
});
