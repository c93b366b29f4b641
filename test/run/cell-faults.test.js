// Faults inside a cell cost what they touched, no more. On the real engine, one fault a test:
// - a benchmark's container SIGKILLed from the host, as the OOM killer does (exit 137): in docker killed
//   once (the iteration runs once more and is measured), in DinD killed twice (that iteration is recorded
//   as failed), and every other iteration of both cells measured;
// - the inner engine's data disk full (the DinD volume on a small tmpfs of the test's, under an engine of
//   its own, filled from the host mid-run): the cells that need the space fail naming the disk, every
//   other cell is measured;
// - the run's registry SIGKILLed while a workload's job pulls from it: the job's cells fail naming the
//   registry, the other benchmark's cells are measured.
// Each asserts that results.json validates and that nothing the run made is left on the engine.
// npm run test:e2e: whole runs with a fault inside a cell (a container killed, a disk filled, a registry killed)
// npm test: alone: it fills an inner engine's disk and kills containers mid-run; it counts unlabelled objects
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { engineAt } from '../../src/engine/client.js';
import { HOST_DIR_LABEL, OWNER_LABEL } from '../../src/engine/resources.js';
import { benchImage, dindImage } from '../../src/images/catalog.js';
import { validateResults } from '../../src/results/schema.js';
import { engineOrSkip, ensureImages, nothingAdded, onEngine, snapshot } from '../helpers/engine.js';
import { copyImages, ownEngineUnavailable, startOwnEngine } from '../helpers/own-engine.js';
import { NOTHING, streamCli, settled, stepsIn } from '../helpers/run-cli.js';
import { tmpDir } from '../history/helpers.js';

const EXAMPLES = new URL('../../examples/workloads/', import.meta.url).pathname;
const asRoot = process.getuid?.() === 0;

/** The results in DIR, validated. @param {string} dir */
const resultsIn = (dir) => validateResults(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')), dir);

/** @param {any} results @param {string} key benchmark/environmentKey */
const cellOf = (results, key) => {
  const c = results.cells.find((/** @type {any} */ x) => `${x.benchmark}/${x.environmentKey}` === key);
  assert.ok(c, `a cell ${key}`);
  return c;
};

/** Every metric of the cell has `n` samples. @param {any} cell @param {number} n */
function assertSamples(cell, n) {
  assert.ok(cell.metrics.length > 0, `${cell.benchmark}/${cell.environmentKey} has metrics`);
  for (const m of cell.metrics)
    assert.equal(m.samples.length, n, `${cell.benchmark}/${cell.environmentKey} ${m.metric}`);
}

/** The owner label filter of this test's runs, and more labels. @param {string[]} more */
const ours = (...more) => ({ label: [`${OWNER_LABEL}=${process.env.DIND_BENCH_OWNER}`, ...more] });

/**
 * Calls `fn` every `ms` until stop() (never two at once): a watcher that acts on the engine mid-run.
 * @param {() => Promise<void>} fn @param {number} ms
 */
function every(fn, ms) {
  let busy = false;
  /** @type {unknown} */
  let error = null;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    fn()
      .catch((e) => (error ??= e))
      .finally(() => (busy = false));
  }, ms);
  return {
    stop: () => {
      clearInterval(timer);
      if (error) throw error;
    },
  };
}

/** A process's status fields. @param {string | number} pid */
function status(pid) {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The host PID of the process that is `nsPid` in the PID namespace of the container whose init is host PID
 * `init` (a DinD container: the inner engine reports its containers' PIDs as it sees them): among the host's
 * processes whose second NSpid is nsPid, the one descending from `init`.
 * @param {number} init @param {number} nsPid
 */
function hostPidIn(init, nsPid) {
  const parent = (/** @type {number} */ pid) => Number(/^PPid:\s+(\d+)/m.exec(status(pid))?.[1] ?? 0);
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    const ns = /^NSpid:\s+(.+)$/m.exec(status(entry))?.[1].trim().split(/\s+/).map(Number);
    if (!ns || ns[1] !== nsPid) continue;
    for (let p = Number(entry); p > 1; p = parent(p)) if (p === init) return Number(entry);
  }
  return null;
}

test(
  'a benchmark container SIGKILLed from the host (exit 137): run once more; killed again, that iteration is lost; every other iteration measured',
  { timeout: 900_000, skip: asRoot ? false : 'killing a container process from the host needs root (as .ci/run has)' },
  async (t) => {
    const setup = await onEngine(t);
    if (!setup) return;
    const { outer } = setup;
    const out = path.join(tmpDir('fault-oom'), 'out');
    /** Kills still to make per environment, from the second round on. */
    const toKill = { docker: 1, dind: 2 };
    /** @type {Set<string>} containers already killed */
    const killed = new Set();
    let armed = false;
    const watcher = every(async () => {
      if (!armed) return;
      if (toKill.docker > 0) {
        for (const c of await outer.listContainers({ filters: ours() })) {
          if (c.Labels['dind-bench.role'] || killed.has(c.Id)) continue;
          const pid = (await outer.getContainer(c.Id).inspect()).State.Pid;
          if (!pid) continue;
          killed.add(c.Id);
          toKill.docker--;
          process.kill(pid, 'SIGKILL');
        }
      }
      if (toKill.dind > 0) {
        const [dind] = await outer.listContainers({ filters: ours('dind-bench.role=dind') });
        if (!dind) return;
        const init = (await outer.getContainer(dind.Id).inspect()).State.Pid;
        const inner = engineAt(path.join(dind.Labels[HOST_DIR_LABEL], 'docker.sock'));
        for (const c of await inner.listContainers({ filters: ours() })) {
          if (killed.has(c.Id)) continue;
          const nsPid = (await inner.getContainer(c.Id).inspect()).State.Pid;
          const pid = nsPid ? hostPidIn(init, nsPid) : null;
          if (!pid) continue;
          killed.add(c.Id);
          toKill.dind--;
          process.kill(pid, 'SIGKILL');
        }
      }
    }, 50);
    const r = await streamCli(
      [
        ...['run', '--profile', 'tiny', '--bench', 'sysbench', '--env', 'docker,dind', '--distro', 'debian'],
        ...['--engine', '20.10', '--iterations', '3', '--no-build', '--out', out],
      ],
      { onLine: (_, lines) => (armed ||= stepsIn(lines) >= 2) },
    );
    watcher.stop();
    assert.deepEqual(toKill, { docker: 0, dind: 0 }, `every kill was made:\n${r.lines.join('\n')}`);
    assert.equal(r.code, 0, r.lines.join('\n'));
    const log = r.lines.join('\n');
    assert.match(
      log,
      /sysbench\/docker\/debian #2: killed \(exit 137: SIGKILL, as the OOM killer sends\); running it once more/,
    );
    assert.match(
      log,
      /sysbench\/dind@20\.10\/debian #2: killed again \(exit 137\); recorded as this iteration's failure/,
    );
    const results = resultsIn(out);
    assert.equal(results.run.complete, true);
    const docker = cellOf(results, 'sysbench/docker');
    assert.equal(docker.status, 'ok', docker.reason);
    assertSamples(docker, 3);
    assert.deepEqual(
      docker.killed.map((/** @type {any} */ k) => [k.iteration, k.outcome]),
      [['#2', 'measured']],
    );
    assert.match(docker.killed[0].reason, /exited 137/);
    const dind = cellOf(results, 'sysbench/dind@20.10');
    assert.equal(dind.status, 'ok', dind.reason);
    assertSamples(dind, 2);
    assert.deepEqual(
      dind.killed.map((/** @type {any} */ k) => [k.iteration, k.outcome]),
      [['#2', 'killed again']],
    );
    assert.deepEqual(await settled(outer), NOTHING, 'nothing labelled by the run is left');
    await setup.nothingLeft('no containers, volumes or networks left, unlabelled or labelled');
  },
);

test(
  "the inner engine's data disk fills mid-run: the cells that need the space fail naming the disk, every other cell is measured",
  { timeout: 900_000 },
  async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    // The inner engine's volume must sit on a small filesystem: an engine of the test's own keeps its
    // volumes on a tmpfs of the test's (filling the shared engine's disk would fill the machine's).
    const why = ownEngineUnavailable();
    if (why) {
      if (process.env.CI) throw new Error(`CI=true but ${why}`);
      t.skip(why);
      return;
    }
    await ensureImages(outer);
    let volumes = '';
    const own = await startOwnEngine({
      prepare: (dataRoot) => {
        volumes = path.join(dataRoot, 'volumes');
        // The data-root a mount point of its own first: dockerd otherwise bind-mounts it onto itself
        // (to make it private), and that bind leaves the tmpfs below it behind.
        execFileSync('mount', ['--bind', dataRoot, dataRoot]);
        mkdirSync(volumes);
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1g', 'tmpfs', volumes]);
      },
    });
    t.after(own.stop);
    await copyImages(outer, own.docker, [
      benchImage('lifecycle', 'debian'),
      benchImage('sysbench', 'debian'),
      dindImage('20.10'),
    ]);
    const before = await snapshot(own.docker);
    const out = path.join(tmpDir('fault-inner-disk'), 'out');
    /** @type {Promise<string> | null} */
    let fill = null;
    const r = await streamCli(
      [
        ...['run', '--profile', 'tiny', '--bench', 'lifecycle,sysbench', '--env', 'docker,dind', '--distro', 'debian'],
        ...['--engine', '20.10', '--iterations', '3', '--no-build', '--out', out],
      ],
      {
        env: { DOCKER_HOST: `unix://${own.socket}` },
        onLine: (_, lines) => {
          if (fill || stepsIn(lines) !== 4) return;
          // After lifecycle's second round: the disk of the inner engine's /var/lib/docker (its volume) filled
          // from the host but for 4 MiB: room for a container's small layer, not for an image or sysbench's
          // 16 MiB of fileio files.
          fill = (async () => {
            const s = statfsSync(volumes);
            // Only ever the test's own small tmpfs, never a disk of the machine's.
            if (s.blocks * s.bsize > 2 ** 30) throw new Error(`${volumes} is not the test's 1 GiB tmpfs`);
            // Beside the volumes (the engine takes only folders there for volumes): the run writes too, in
            // the meantime, so a filler that meets ENOSPC itself has done its job.
            try {
              writeFileSync(path.join(volumes, 'filler'), Buffer.alloc(Math.max(0, s.bavail * s.bsize - 4 * 2 ** 20)));
            } catch (e) {
              if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'ENOSPC') throw e;
            }
            return volumes;
          })();
          fill.catch(() => {}); // awaited below, after the run
        },
      },
    );
    const mountpoint = await /** @type {Promise<string> | null} */ (fill);
    assert.ok(mountpoint, `the disk was filled mid-run:\n${r.lines.join('\n')}`);
    for (const l of r.lines.filter((x) => /FAILED/.test(x))) t.diagnostic(l);
    assert.equal(r.code, 3, `exit 3: a cell failed\n${r.lines.join('\n')}`);
    const results = resultsIn(out);
    // Each DinD iteration needs room on that disk: lifecycle loads an image into a fresh inner engine,
    // sysbench writes its fileio files (and sysbench's prepare loses its own words: the disk is named).
    for (const key of ['lifecycle/dind@20.10', 'sysbench/dind@20.10']) {
      const c = cellOf(results, key);
      assert.equal(c.status, 'failed', key);
      assert.match(
        c.reason,
        new RegExp(
          `\\((no space left|its disk nearly full): the data-root of dind@20\\.10's engine \\(${mountpoint}\\S* on the host\\) has [\\d.]+ MiB free of 1024\\.0 MiB now\\)`,
        ),
        key,
      );
    }
    assert.match(cellOf(results, 'lifecycle/dind@20.10').reason, /no space left on device/);
    for (const key of ['lifecycle/docker', 'sysbench/docker']) {
      const c = cellOf(results, key);
      assert.equal(c.status, 'ok', `${key}: ${c.reason}`);
      assertSamples(c, 3);
    }
    assert.deepEqual(await settled(own.docker), NOTHING, 'nothing labelled by the run is left');
    await nothingAdded(own.docker, before, 'no containers, volumes or networks left, unlabelled or labelled');
  },
);

test(
  "the run's registry SIGKILLed while a job pulls from it: the job's cells fail naming it, the other cells are measured",
  { timeout: 900_000, skip: asRoot ? false : 'killing a container process from the host needs root (as .ci/run has)' },
  async (t) => {
    const setup = await onEngine(t);
    if (!setup) return;
    const { outer } = setup;
    const out = path.join(tmpDir('fault-registry'), 'out');
    /** @type {string | null} the pull that was under way */
    let pulling = null;
    const watcher = every(async () => {
      if (pulling) return;
      const [registry] = await outer.listContainers({ filters: ours('dind-bench.role=registry') });
      if (!registry) return;
      const info = await outer.getContainer(registry.Id).inspect();
      const port = info.NetworkSettings.Ports?.['5000/tcp']?.[0]?.HostPort;
      const ip = Object.values(info.NetworkSettings.Networks ?? {})[0]?.IPAddress;
      const addresses = [`127.0.0.1:${port}/`, `${ip}:5000/`];
      for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
        let argv;
        try {
          argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        } catch {
          continue;
        }
        if (!argv.includes('pull') || !argv.some((a) => addresses.some((x) => a.startsWith(x)))) continue;
        pulling = argv.join(' ');
        process.kill(info.State.Pid, 'SIGKILL');
        return;
      }
    }, 20);
    const r = await streamCli([
      ...['run', '--profile', 'tiny', '--workload', path.join(EXAMPLES, 'script', 'workload.yml'), '--bench'],
      ...['lifecycle', '--env', 'docker,dind', '--engine', '20.10', '--iterations', '2', '--no-build', '--out', out],
    ]);
    watcher.stop();
    assert.ok(pulling, `the registry was killed mid-pull:\n${r.lines.join('\n')}`);
    t.diagnostic(`killed during: ${pulling}`);
    for (const l of r.lines.filter((x) => /FAILED/.test(x))) t.diagnostic(l);
    assert.equal(r.code, 3, `exit 3: cells failed\n${r.lines.join('\n')}`);
    const results = resultsIn(out);
    for (const key of ['workload.script/docker', 'workload.script/dind@20.10']) {
      const c = cellOf(results, key);
      assert.equal(c.status, 'failed', key);
      assert.match(c.reason, /\(the run's registry \([0-9a-f]{12}\) is not running: killed \(exit 137: SIGKILL/, key);
    }
    for (const key of ['lifecycle/docker', 'lifecycle/dind@20.10']) {
      const c = cellOf(results, key);
      assert.equal(c.status, 'ok', `${key}: ${c.reason}`);
      assertSamples(c, 2);
    }
    assert.deepEqual(await settled(outer), NOTHING, 'nothing labelled by the run is left');
    await setup.nothingLeft('no containers, volumes or networks left, unlabelled or labelled');
  },
);
