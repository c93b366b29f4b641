// sysbench parser over real output (test/fixtures/sysbench, produced with sysbench 1.0.20 on this
// project's CI machine kind) and over malformed output.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ParseError } from '../../src/parsers/parse-error.js';
import { parseSysbench } from '../../src/parsers/sysbench.js';

const fixture = (/** @type {string} */ name) =>
  readFileSync(new URL(`../fixtures/sysbench/${name}.txt`, import.meta.url), 'utf8');
const value = (/** @type {any[]} */ metrics, /** @type {string} */ name) => {
  const m = metrics.find((x) => x.metric === name);
  assert.ok(m, `metric ${name} present`);
  return m.value;
};

describe('sysbench parser, real output', () => {
  const cases = [
    {
      test: 'cpu',
      expect: { events_total: 2318, events_per_second: 1156.16, latency_avg_ms: 0.86, latency_max_ms: 20.49 },
    },
    {
      test: 'threads',
      expect: { events_total: 157, latency_avg_ms: 28.94, latency_max_ms: 967.23, events_per_second: 68.93 },
    },
    {
      test: 'memory',
      expect: { events_total: 6563129, throughput_mib_per_s: 3197.91, operations_per_second: 3274656.22 },
    },
    {
      test: 'fileio',
      expect: { events_total: 28907, reads_per_s: 3777.45, written_mib_per_s: 39.35, fsyncs_per_s: 8097.72 },
    },
  ];
  for (const { test: name, expect } of cases) {
    test(`${name}: values as printed, with unit and direction`, () => {
      const metrics = parseSysbench(fixture(name), /** @type {any} */ (name));
      for (const [metric, v] of Object.entries(expect)) assert.equal(value(metrics, metric), v, metric);
      for (const m of metrics) {
        assert.ok(['higher', 'lower'].includes(m.better), `${m.metric} has a direction`);
        assert.ok(m.unit.length > 0, `${m.metric} has a unit`);
        assert.equal(m.better, m.metric.startsWith('latency') ? 'lower' : 'higher', m.metric);
      }
    });
    test(`${name}: p99 from the histogram equals sysbench's own 99th percentile line`, () => {
      const text = fixture(name);
      const printed = Number(/** @type {RegExpMatchArray} */ (text.match(/99th percentile:\s+(\S+)/))[1]);
      const p99 = value(parseSysbench(text, /** @type {any} */ (name)), 'latency_p99_ms');
      // sysbench prints two decimals; the histogram bucket has three.
      assert.equal(Math.round(p99 * 100) / 100, printed);
      const metrics = parseSysbench(text, /** @type {any} */ (name));
      assert.ok(value(metrics, 'latency_p50_ms') <= value(metrics, 'latency_p95_ms'));
      assert.ok(value(metrics, 'latency_p95_ms') <= p99);
    });
  }

  test('without --histogram, the one printed percentile is kept', () => {
    const text = fixture('cpu').replace(/Latency histogram[\s\S]*?\n \n/, '');
    const metrics = parseSysbench(text, 'cpu');
    assert.equal(value(metrics, 'latency_p99_ms'), 9.56);
    assert.equal(
      metrics.find((m) => m.metric === 'latency_p50_ms'),
      undefined,
    );
  });
});

describe('sysbench parser, malformed output', () => {
  const cpu = fixture('cpu');
  const cases = [
    { name: 'empty output', text: '', message: /line 1: not sysbench output/ },
    { name: 'another tool', text: 'fio-3.33\n{}', message: /line 1: not sysbench output.*"fio-3.33"/ },
    {
      name: 'truncated before the statistics',
      text: cpu.slice(0, cpu.indexOf('General statistics')),
      message: /missing "total time:" \(cpu test\)/,
    },
    {
      name: 'a value that is not a number',
      text: cpu.replace(/events per second:\s+\S+/, 'events per second:  n/a'),
      message: /line 175: expected a number: " {4}events per second: {2}n\/a"/,
    },
    {
      name: 'a broken histogram row',
      text: cpu.replace(/\n\s+0\.324 \|[^\n]*/, '\n       0.324 |**** garbage'),
      message: /malformed latency histogram row: " {7}0.324 \|\*\*\*\* garbage"/,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.throws(
        () => parseSysbench(c.text, 'cpu'),
        (/** @type {any} */ e) => e instanceof ParseError && c.message.test(e.message),
      );
    });
  }
});
