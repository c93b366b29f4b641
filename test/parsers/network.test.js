// Parsers of the network benchmarks over real output (test/fixtures/<tool>/, captured from the tools in
// the dind-bench/network:debian image: iperf3 3.12, sockperf 3.7, iputils ping, redis-benchmark 7.0,
// pgbench 15) and over malformed output: every failure names the offending line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseIperf3 } from '../../src/parsers/iperf3.js';
import { ParseError } from '../../src/parsers/parse-error.js';
import { parsePgbench } from '../../src/parsers/pgbench.js';
import { parsePingMtu } from '../../src/parsers/ping-mtu.js';
import { parseRedisBenchmark, parseRedisBenchmarkRuns } from '../../src/parsers/redis-benchmark.js';
import { parseSockperf } from '../../src/parsers/sockperf.js';

const fixture = (/** @type {string} */ path) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

describe('iperf3 --json', () => {
  test('loopback: receiver throughput in Mbit/s and the sender retransmits', () => {
    const r = parseIperf3(fixture('iperf3/loopback.json'));
    assert.equal(r.throughput_mbps, 1022558762.1113195 / 1e6);
    assert.equal(r.retransmits, 9);
    assert.equal(r.bytes_received > 0, true);
  });
  test('across the inner DinD bridge', () => {
    const r = parseIperf3(fixture('iperf3/bridge-dind.json'));
    assert.ok(r.throughput_mbps > 0);
    assert.equal(typeof r.retransmits, 'number');
  });
  test('with -O 1 (the slow start omitted): the throughput is of the counted seconds only', () => {
    // Captured with `iperf3 -c SERVER -t 2 -O 1 --json` across a bridge on this project's machine, loaded.
    const text = fixture('iperf3/bridge-omit-1s.json');
    const doc = JSON.parse(text);
    assert.equal(doc.start.test_start.omit, 1);
    assert.equal(doc.intervals[0].sum.omitted, true);
    const r = parseIperf3(text);
    assert.equal(r.throughput_mbps, doc.end.sum_received.bits_per_second / 1e6);
    // The end sums cover the 2 counted seconds, not the omitted one before them.
    assert.ok(Math.abs(doc.end.sum_received.seconds - 2) < 0.05, `${doc.end.sum_received.seconds}`);
    assert.equal(r.retransmits, 455);
  });
  test('the median of the counted intervals leaves the omitted ramp out', () => {
    const text = fixture('iperf3/bridge-omit-1s.json');
    const doc = JSON.parse(text);
    const counted = doc.intervals.filter((/** @type {any} */ i) => !i.sum.omitted);
    assert.equal(counted.length, 2);
    const r = parseIperf3(text);
    assert.equal(r.intervals, 2);
    // two counted intervals: their mean; the omitted first second (4.4 Gbit/s) is not among them
    assert.equal(r.interval_median_mbps, (counted[0].sum.bits_per_second + counted[1].sum.bits_per_second) / 2 / 1e6);
  });
  test('no interval reports (-i 0): no median, the end total still read', () => {
    const doc = JSON.parse(fixture('iperf3/bridge-omit-1s.json'));
    const r = parseIperf3(JSON.stringify({ ...doc, intervals: [] }));
    assert.equal(r.interval_median_mbps, null);
    assert.equal(r.intervals, 0);
    assert.ok(r.throughput_mbps > 0);
  });
  test('an interval without a rate is refused, naming it', () => {
    const doc = JSON.parse(fixture('iperf3/bridge-omit-1s.json'));
    doc.intervals[2].sum.bits_per_second = 'fast';
    assert.throws(() => parseIperf3(JSON.stringify(doc)), /interval 3 has no sum.bits_per_second/);
    assert.throws(() => parseIperf3(JSON.stringify({ ...doc, intervals: {} })), /"intervals" is not a list/);
  });
  test('iperf3 own error (it exits 0 with "error" in the JSON): refused with its words', () => {
    assert.throws(
      () => parseIperf3(fixture('iperf3/error-connection-refused.json')),
      /iperf3 reported an error: unable to connect to server: Connection refused/,
    );
  });
  test('not JSON: the first line is named', () => {
    assert.throws(
      () => parseIperf3('\niperf3: error - unable to connect to server\n'),
      (e) => e instanceof ParseError && e.at?.lineNumber === 2 && /unable to connect/.test(e.message),
    );
  });
});

describe('sockperf ping-pong', () => {
  for (const name of ['ping-pong-bridge-dind', 'ping-pong-host-native']) {
    test(`${name}: percentiles in order, as printed`, () => {
      const text = fixture(`sockperf/${name}.txt`);
      const r = parseSockperf(text);
      const printed = (/** @type {string} */ p) =>
        Number(/** @type {RegExpMatchArray} */ (text.match(new RegExp(`percentile ${p} =\\s*([\\d.]+)`)))[1]);
      assert.equal(r.p50_us, printed('50.000'));
      assert.equal(r.p99_us, printed('99.000'));
      assert.equal(r.p999_us, printed('99.900'));
      assert.ok(r.p50_us <= r.p90_us && r.p90_us <= r.p99_us && r.p99_us <= r.p999_us && r.p999_us <= r.max_us);
      assert.ok(r.observations > 0 && r.avg_us > 0);
    });
  }
  test('a run that never got a reply is refused, naming the first line', () => {
    const text = fixture('sockperf/ping-pong-host-native.txt')
      .split('\n')
      .filter((l) => !/percentile|observation|avg-latency/.test(l))
      .join('\n');
    assert.throws(
      () => parseSockperf(text),
      (e) => e instanceof ParseError && /avg-latency/.test(e.message) && e.at?.lineNumber === 1,
    );
  });
});

describe('MTU probe (ping -M do)', () => {
  test('a full-size packet crossed the bridge', () => {
    assert.deepEqual(parsePingMtu(fixture('ping/mtu-pass.txt')), { mtu: 1500, transmitted: 3, received: 3 });
  });
  test("a packet over the path MTU: ping's own complaint is the offending line", () => {
    // Real ping output for a payload one byte over the path MTU (the probe's mtu= line states its size).
    assert.throws(
      () => parsePingMtu(fixture('ping/mtu-too-long.txt')),
      (e) =>
        e instanceof ParseError &&
        e.at?.line === 'ping: local error: message too long, mtu=1500' &&
        /1501-byte packet/.test(e.message),
    );
  });
  test('lost replies fail the probe with the summary line', () => {
    const text =
      'mtu=1500\nPING 10.0.0.2\n\n--- 10.0.0.2 ping statistics ---\n3 packets transmitted, 1 received, 66% packet loss, time 400ms\nexit=1\n';
    assert.throws(
      () => parsePingMtu(text),
      (e) => e instanceof ParseError && /only 1 of 3 full-size/.test(e.message) && e.at?.lineNumber === 5,
    );
  });
});

describe('redis-benchmark --csv', () => {
  test('SET and GET: rps and p50/p95/p99 as printed', () => {
    const rows = parseRedisBenchmark(fixture('redis-benchmark/set-get.csv'));
    assert.deepEqual(
      rows.map((r) => r.test),
      ['SET', 'GET'],
    );
    assert.deepEqual(rows[0], {
      test: 'SET',
      rps: 26990.55,
      avg_ms: 0.538,
      p50_ms: 0.239,
      p95_ms: 2.343,
      p99_ms: 4.535,
      max_ms: 12.303,
    });
  });
  test("no server to talk to: the tool's first line is named", () => {
    assert.throws(
      () => parseRedisBenchmark(fixture('redis-benchmark/connection-refused.txt')),
      (e) => e instanceof ParseError && e.at?.line.startsWith('Could not connect to Redis') === true,
    );
  });
  test('a row that is not numbers', () => {
    const text = fixture('redis-benchmark/set-get.csv').replace('"26990.55"', '"n/a"');
    assert.throws(
      () => parseRedisBenchmark(text),
      (e) => e instanceof ParseError && e.at?.lineNumber === 2,
    );
  });
  test('several runs one after another (repeats): each run its rows; a bad row named by its line in the whole output', () => {
    const one = fixture('redis-benchmark/set-get.csv');
    const text = one + one.replace('"26990.55"', '"31000.00"') + one.replace('"26990.55"', '"24000.00"');
    const runs = parseRedisBenchmarkRuns(text);
    assert.deepEqual(
      runs.map((rows) => rows.map((r) => [r.test, r.rps])),
      [
        [
          ['SET', 26990.55],
          ['GET', 49875.31],
        ],
        [
          ['SET', 31000],
          ['GET', 49875.31],
        ],
        [
          ['SET', 24000],
          ['GET', 49875.31],
        ],
      ],
    );
    assert.deepEqual(parseRedisBenchmarkRuns(one), [parseRedisBenchmark(one)]);
    assert.throws(
      () => parseRedisBenchmarkRuns(one + one.replace('"49875.31"', '"n/a"')),
      (e) => e instanceof ParseError && e.at?.lineNumber === 6,
    );
  });
});

describe('pgbench with its per-transaction log', () => {
  test('tps and average as printed; percentiles from the 1051 logged transactions', () => {
    const r = parsePgbench(fixture('pgbench/bridge-dind.txt'));
    assert.equal(r.tps, 543.127754);
    assert.equal(r.latency_avg_ms, 7.365);
    assert.equal(r.transactions, 1051);
    assert.equal(r.failed, 0);
    assert.ok(r.p50_ms > 0 && r.p50_ms <= r.p95_ms && r.p95_ms <= r.p99_ms);
    // The log's own mean agrees with pgbench's printed average (to within its rounding and warm-up).
    const lat = fixture('pgbench/bridge-dind.txt')
      .split('--- per-transaction log ---\n')[1]
      .trim()
      .split('\n')
      .map((l) => Number(l.split(' ')[2]) / 1000);
    const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
    assert.ok(Math.abs(mean - r.latency_avg_ms) / r.latency_avg_ms < 0.1, `log mean ${mean} vs ${r.latency_avg_ms}`);
  });
  test('a truncated log is refused (its count must match the summary)', () => {
    const text = fixture('pgbench/bridge-dind.txt').split('\n').slice(0, -100).join('\n');
    assert.throws(() => parsePgbench(text), /the log has \d+ transactions but the summary says 1051/);
  });
  test('a garbled log line is named', () => {
    const text = fixture('pgbench/bridge-dind.txt').replace('\n0 2 1899 0 1795280226 998291\n', '\n0 2 oops\n');
    assert.throws(
      () => parsePgbench(text),
      (e) => e instanceof ParseError && e.at?.line === '0 2 oops',
    );
  });
  test("pgbench's own error is the offending line", () => {
    const text = 'pgbench: error: connection to server at "172.19.0.2", port 5432 failed: Connection refused\n';
    assert.throws(
      () => parsePgbench(text),
      (e) => e instanceof ParseError && e.at?.lineNumber === 1,
    );
  });
});
