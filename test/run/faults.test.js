// Faults on the real engine, one at a time, in a run of lifecycle and sysbench in docker and DinD: the
// runner's engine restarted mid-run (an engine of the test's own, stopped and started by its PID), the DinD inner
// engine killed from the host by its PID, the run SIGKILLed and resumed, and the disk under --out filled.
// Each test asserts: the run ends by itself, results.json validates, the failure is named, nothing
// labelled by the run is left, and every cell is measured in the end (within the run or by --resume).
// npm run test:e2e: whole runs faulted mid-way (an engine restarted, a disk filled, a run killed and resumed)
// npm test: alone: it restarts an engine and fills the disk under --out mid-run
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { validateResults } from '../../src/results/schema.js';
import { OWNER_LABEL } from '../../src/engine/resources.js';
import { benchImage, dindImage } from '../../src/images/catalog.js';
import { engineOrSkip, ensureImages, onEngine, snapshot } from '../helpers/engine.js';
import { copyImages, ownEngineUnavailable, startOwnEngine } from '../helpers/own-engine.js';
import { NOTHING, runCli, settled, stepsIn, streamCli } from '../helpers/run-cli.js';
import { tmpDir } from '../history/helpers.js';

const RUN = [
  'run',
  '--profile',
  'tiny',
  '--bench',
  'lifecycle,sysbench',
  '--env',
  'docker,dind',
  '--distro',
  'debian',
  '--engine',
  '20.10',
  '--iterations',
  '3',
  '--no-build',
];
const CELLS = [
  'lifecycle/dind@20.10/debian',
  'lifecycle/docker/debian',
  'sysbench/dind@20.10/debian',
  'sysbench/docker/debian',
];
const asRoot = process.getuid?.() === 0;

/** The results in DIR, validated. @param {string} dir */
const resultsIn = (dir) => validateResults(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')), dir);

/** Every planned cell measured: ok, with 3 samples of each metric. @param {any} results */
function assertAllMeasured(results) {
  assert.equal(results.run.state, 'finished');
  assert.equal(results.run.complete, true);
  const cells = results.cells.map((/** @type {any} */ c) => `${c.benchmark}/${c.environmentKey}/${c.distro}`).sort();
  assert.deepEqual(cells, CELLS);
  for (const c of results.cells) {
    assert.equal(c.status, 'ok', `${c.benchmark}/${c.environmentKey}: ${c.reason}`);
    for (const m of c.metrics) assert.equal(m.samples.length, 3, `${c.benchmark}/${c.environmentKey} ${m.metric}`);
  }
}

test(
  "the runner's engine restarted mid-run: the run waits, sets its environments up again and measures every cell",
  { timeout: 900_000 },
  async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    // The engine the test run uses is not ours to restart: the run's runner engine here is one of the
    // test's own, with the images the run needs copied in from the test run's engine.
    const why = ownEngineUnavailable();
    if (why) {
      if (process.env.CI) throw new Error(`CI=true but ${why}`);
      t.skip(why);
      return;
    }
    await ensureImages(outer);
    const own = await startOwnEngine();
    t.after(own.stop);
    await copyImages(outer, own.docker, [
      benchImage('lifecycle', 'debian'),
      benchImage('sysbench', 'debian'),
      dindImage('20.10'),
    ]);
    const before = await snapshot(own.docker);
    const out = path.join(tmpDir('fault-restart'), 'out');
    const WAITING = /the runner's engine does not answer \/_ping; waiting up to 180 s/;
    /** @type {() => void} */
    let sawWaiting = () => {};
    const waiting = new Promise((resolve) => (sawWaiting = () => resolve(true)));
    /** @type {Promise<void> | null} */
    let restart = null;
    const r = await streamCli([...RUN, '--out', out], {
      env: { DIND_BENCH_ENGINE_WAIT_S: '180', DOCKER_HOST: `unix://${own.socket}` },
      onLine: (line, lines) => {
        if (WAITING.test(line)) sawWaiting();
        if (restart || stepsIn(lines) !== 5) return;
        // Down until the run says it waits (a small engine is back within a second, before the run's next
        // call would notice), then started again: the same data-root, so the same images.
        restart = (async () => {
          await own.kill('SIGTERM');
          await Promise.race([waiting, new Promise((resolve) => setTimeout(resolve, 120_000, false))]);
          await own.start();
        })();
      },
    });
    await restart;
    assert.ok(restart, 'the engine was restarted mid-run');
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.ok(
      r.lines.some((l) => WAITING.test(l)),
      r.lines.join('\n'),
    );
    const results = resultsIn(out);
    assertAllMeasured(results);
    const events = results.run.engineEvents ?? [];
    assert.ok(
      events.some((e) => e.engine === 'runner' && e.outcome === 'came back'),
      JSON.stringify(events),
    );
    assert.deepEqual(await settled(own.docker), NOTHING, 'nothing labelled by the run is left');
    // Containers and volumes only: a restarted engine makes its own default networks again, with new ids
    // (the run's own networks are labelled, and checked just above).
    const { containers, volumes } = await snapshot(own.docker);
    assert.deepEqual(
      { containers, volumes },
      { containers: before.containers, volumes: before.volumes },
      'nor anything half-made, unlabelled, while the engine went down',
    );
  },
);

test(
  'the DinD inner engine killed from the host by its PID: the environment is re-created once, every cell measured',
  { timeout: 900_000 },
  async (t) => {
    const setup = await onEngine(t);
    if (!setup) return;
    const { outer } = setup;
    const out = path.join(tmpDir('fault-inner'), 'out');
    /** @type {Promise<number> | null} */
    let kill = null;
    const r = await streamCli([...RUN, '--out', out], {
      onLine: (_, lines) => {
        if (kill || stepsIn(lines) !== 5) return;
        kill = (async () => {
          const filters = { label: [`${OWNER_LABEL}=${process.env.DIND_BENCH_OWNER}`, 'dind-bench.role=dind'] };
          const [dind] = await outer.listContainers({ filters });
          assert.ok(dind, 'the run has a DinD container');
          const top = await outer.getContainer(dind.Id).top({ ps_args: '-eo pid,comm' });
          const row = top.Processes.find((p) => p[1] === 'dockerd');
          assert.ok(row, `an inner dockerd in ${JSON.stringify(top.Processes)}`);
          process.kill(Number(row[0]), 'SIGKILL');
          return Number(row[0]);
        })();
      },
    });
    assert.ok(await kill, 'the inner engine was killed mid-run');
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.ok(
      r.lines.some((l) => /re-creating dind@20\.10 \(once per run\)/.test(l)),
      r.lines.join('\n'),
    );
    const results = resultsIn(out);
    assertAllMeasured(results);
    const events = results.run.engineEvents ?? [];
    assert.ok(
      events.some((e) => e.engine === 'environment' && e.environment === 'dind@20.10' && e.outcome === 're-created'),
      JSON.stringify(events),
    );
    assert.deepEqual(await settled(outer), NOTHING, 'nothing labelled by the run is left');
    await setup.leftAsFound('nor anything half-made, unlabelled, while an engine went down');
  },
);

test(
  'SIGKILL mid-run, then --resume: what the killed run left is removed and every cell measured',
  { timeout: 900_000 },
  async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    await ensureImages(outer);
    const out = path.join(tmpDir('fault-kill'), 'out');
    const killed = await streamCli([...RUN, '--out', out], {
      onLine: (_, lines, child) => stepsIn(lines) === 5 && child.kill('SIGKILL'),
    });
    assert.equal(killed.signal, 'SIGKILL');
    const partial = resultsIn(out);
    assert.equal(partial.run.state, 'running', 'killed outright: the last state written');
    // A second run in the same folder while the lock's owner is gone takes the lock over.
    const resumed = await streamCli(['run', '--resume', out]);
    assert.equal(resumed.code, 0, resumed.lines.join('\n'));
    assert.ok(
      resumed.lines.some((l) => /taking over a stale lock \(pid \d+ is gone\)/.test(l)),
      resumed.lines.join('\n'),
    );
    assertAllMeasured(resultsIn(out));
    assert.deepEqual(await settled(outer), NOTHING, 'nothing labelled by either attempt is left');
  },
);

test(
  'the disk under --out fills mid-run: the run ends naming ENOSPC, and --resume measures every cell once there is room',
  { timeout: 900_000, skip: asRoot ? false : 'mounting a tmpfs needs root (as .ci/run has)' },
  async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    await ensureImages(outer);
    const mount = path.join(tmpDir('fault-full'), 'fs');
    mkdirSync(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
    t.after(() => execFileSync('umount', [mount]));
    const out = path.join(mount, 'out');
    const filler = path.join(mount, 'filler');
    const free = () =>
      Number(execFileSync('df', ['--output=avail', '-B1', mount], { encoding: 'utf8' }).split('\n')[1]);
    /** @type {boolean} */
    let filled = false;
    const r = await streamCli([...RUN, '--out', out], {
      onLine: (_, lines) => {
        if (filled || stepsIn(lines) !== 3) return;
        filled = true;
        // The run writes too, between df and this write: a filler that meets ENOSPC itself has done its job.
        try {
          writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 4096)));
        } catch (e) {
          if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'ENOSPC') throw e;
        }
      },
    });
    assert.ok(filled);
    assert.notEqual(r.code, 0, 'the run does not end as if nothing happened');
    assert.ok(
      r.lines.some((l) => /ENOSPC/.test(l)),
      r.lines.join('\n'),
    );
    const partial = resultsIn(out);
    assert.notEqual(partial.run.complete, true);
    assert.deepEqual(await settled(outer), NOTHING, 'nothing labelled by the run is left');
    rmSync(filler);
    const resumed = await streamCli(['run', '--resume', out]);
    assert.equal(resumed.code, 0, resumed.lines.join('\n'));
    assertAllMeasured(resultsIn(out));
    assert.deepEqual(await settled(outer), NOTHING);
  },
);

test(
  'two runs never share an --out folder: the second is refused naming the first',
  { timeout: 300_000 },
  async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    await ensureImages(outer);
    const out = path.join(tmpDir('fault-lock'), 'out');
    /** @type {ReturnType<typeof runCli> | null} */
    let second = null;
    const first = await streamCli(
      [
        'run',
        '--profile',
        'tiny',
        '--bench',
        'lifecycle',
        '--env',
        'docker',
        '--iterations',
        '2',
        '--no-build',
        '--out',
        out,
      ],
      {
        onLine: (_, lines) => {
          if (second || stepsIn(lines) !== 1) return;
          second = runCli([...RUN, '--out', out]);
        },
      },
    );
    assert.equal(first.code, 0, first.lines.join('\n'));
    const s = /** @type {any} */ (second);
    assert.ok(s, 'a second run started while the first ran');
    assert.equal(s.status, 1, s.stderr);
    assert.match(s.stderr, /is in use by another dind-bench run \(pid \d+ on \S+, since /);
    assert.ok(!existsSync(path.join(out, '.dind-bench.lock')), 'the lock goes with the run');
    assert.equal(resultsIn(out).run.complete, true, 'the first run is untouched by the second');
  },
);
