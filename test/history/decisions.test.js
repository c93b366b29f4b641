// The decision metrics of a benchmark (src/history/decisions.js): a definition's own `decisions` list wins,
// else the few the module knows; compare --history marks each verdict with it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decisionMetrics, isDecision } from '../../src/history/decisions.js';
import { compareWithHistory } from '../../src/compare/against-history.js';

test("a benchmark's own decisions list wins; else the known ones; else none", () => {
  assert.deepEqual(decisionMetrics('lifecycle'), ['startup.without_image_ms']);
  assert.deepEqual(decisionMetrics('sysbench'), ['cpu.events_per_second']);
  assert.deepEqual(decisionMetrics('fio'), []);
  const definitions = { fio: { decisions: ['read.iops'] }, lifecycle: { decisions: ['daemon.start_to_ready_ms'] } };
  assert.deepEqual(decisionMetrics('fio', definitions), ['read.iops']);
  assert.equal(isDecision('lifecycle', 'startup.without_image_ms', definitions), false);
  assert.equal(isDecision('lifecycle', 'daemon.start_to_ready_ms', definitions), true);
  // Names from results files are data: an inherited property is no benchmark.
  assert.deepEqual(decisionMetrics('__proto__'), []);
  assert.deepEqual(decisionMetrics('constructor', definitions), []);
});

test('compare --history marks the decision metrics of each verdict', async () => {
  const samples = [10, 11, 10.5, 10.2, 10.8];
  const results = /** @type {any} */ ({
    run: { id: 'r1' },
    host: { fingerprint: 'f' },
    engines: { outer: { version: '20.10.24' } },
    environments: [{ key: 'docker', name: 'docker' }],
    cells: [
      {
        status: 'ok',
        benchmark: 'sysbench',
        environmentKey: 'docker',
        distro: 'debian',
        metrics: [
          { metric: 'cpu.events_per_second', unit: 'events/s', better: 'higher', samples },
          { metric: 'memory.throughput_mib_per_s', unit: 'MiB/s', better: 'higher', samples },
        ],
      },
    ],
  });
  const history = { listSeries: () => [], readSeries: async () => [] };
  const seriesKey = (/** @type {any} */ p) => `${p.benchmark}/${p.metric}`;
  const verdicts = await compareWithHistory(results, history, { seriesKey });
  assert.deepEqual(
    verdicts.map((v) => [v.metric, v.decision, v.status]),
    [
      ['cpu.events_per_second', true, 'baseline'],
      ['memory.throughput_mib_per_s', false, 'baseline'],
    ],
  );
});
