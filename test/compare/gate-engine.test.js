// The upgrade gate on the real engine: one run interleaves two inner Engine lines (dind@20.10 and
// dind@26.1), a real slowdown is injected into one of them (its outer DinD container throttled to a
// fifth of a core with the engine's own `docker update --cpus`, once it is set up), and
// `compare --baseline dind@20.10 --candidate dind@26.1 --fail-on regression` gives a verdict per metric
// and stops the pipeline with exit 4.
// npm test: alone: a slowdown injected into one Engine line must read as a regression; a neighbour's load too
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { EXIT_REGRESSION } from '../../src/compare/command.js';
import { OWNER_LABEL } from '../../src/engine/resources.js';
import { onEngine } from '../helpers/engine.js';
import { runCli, streamCli } from '../helpers/run-cli.js';
import { tmpDir } from '../history/helpers.js';
import path from 'node:path';

test(
  'a throttled inner engine line is a regression: the A/B gate gives a verdict per metric and exits 4',
  { timeout: 900_000 },
  async (t) => {
    const setup = await onEngine(t, { engines: ['20.10', '26.1'] });
    if (!setup) return;
    const { outer } = setup;
    const dir = tmpDir('gate');
    const out = path.join(dir, 'run');
    /** @type {Promise<void> | null} */
    let throttled = null;
    const r = await streamCli(
      [
        'run',
        '--profile',
        'quick',
        '--bench',
        'sysbench',
        '--env',
        'dind',
        '--engine',
        '20.10,26.1',
        '--distro',
        'debian',
        '--iterations',
        '5',
        '--baseline',
        'dind@20.10',
        '--candidate',
        'dind@26.1',
        '--no-build',
        '--out',
        out,
      ],
      {
        onLine: (line) => {
          if (throttled || !/^ {2}dind@26\.1: engine /.test(line)) return;
          throttled = (async () => {
            const filters = {
              label: [
                `${OWNER_LABEL}=${process.env.DIND_BENCH_OWNER}`,
                'dind-bench.role=dind',
                'dind-bench.engine=26.1',
              ],
            };
            const [dind] = await outer.listContainers({ filters });
            assert.ok(dind, 'the dind@26.1 container');
            await outer.getContainer(dind.Id).update({ NanoCpus: 200_000_000, CpuPeriod: 0, CpuQuota: 0 });
          })();
        },
      },
    );
    await throttled;
    assert.ok(throttled, 'the candidate line was throttled once set up');
    assert.equal(r.code, 0, r.lines.join('\n'));

    const json = path.join(dir, 'ab.json');
    const gate = runCli([
      'compare',
      path.join(out, 'results.json'),
      '--baseline',
      'dind@20.10',
      '--candidate',
      'dind@26.1',
      '--fail-on',
      'regression',
      '--json',
      json,
    ]);
    assert.equal(gate.status, EXIT_REGRESSION, `${gate.stdout}\n${gate.stderr}`);
    // The answer first (sysbench alone measures no time a job pays: no cost line), the pair over its row.
    assert.match(gate.stdout.split('\n')[0], /^Run \S+ \(quick, 5 samples a side\) on \S+: 1 of 1 question decided\./);
    assert.match(
      gate.stdout,
      /^dind@26\.1 vs dind@20\.10:\nCPU +regression +\+[\d.]+% \[\+[\d.]+%, \+[\d.]+%\] +– +–$/m,
    );
    assert.match(gate.stdout, /Gate: Regression in \d+ of \d+ gated metrics; the worst: /);
    const rows = JSON.parse(readFileSync(json, 'utf8')).rows;
    // sysbench's decision metric: the CPU work a job gets per second.
    const cpu = rows.find((/** @type {any} */ x) => x.metric === 'cpu.events_per_second');
    assert.ok(cpu, `a CPU metric among ${rows.map((/** @type {any} */ x) => x.metric).join(', ')}`);
    assert.equal(cpu.outcome, 'regression', JSON.stringify(cpu));
    for (const row of rows)
      assert.ok(['regression', 'improvement', 'equivalent', 'inconclusive', null].includes(row.outcome));
    await setup.leftAsFound();
  },
);
