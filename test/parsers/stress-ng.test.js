// stress-ng parser over real output (test/fixtures/stress-ng: stress-ng 0.15.06 in the Debian
// stress-io image, cpu/vm/io/hdd for 1 s each) and over malformed output.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ParseError } from '../../src/parsers/parse-error.js';
import { parseStressNgStart, parseStressNgYaml } from '../../src/parsers/stress-ng.js';

const fixture = (/** @type {string} */ name) =>
  readFileSync(new URL(`../fixtures/stress-ng/${name}`, import.meta.url), 'utf8');
const yaml = fixture('cpu-vm-io-hdd.yaml');
const log = fixture('cpu-vm-io-hdd.log');

describe('stress-ng parser, real output', () => {
  test('bogo ops/s per stressor, real time and CPU time, as printed in the YAML', () => {
    const metrics = parseStressNgYaml(yaml, ['cpu', 'vm', 'io', 'hdd']);
    const byName = Object.fromEntries(metrics.map((m) => [m.metric, m]));
    assert.equal(metrics.length, 8);
    assert.equal(byName['cpu.bogo_ops_per_s'].value, 560.13);
    assert.equal(byName['cpu.bogo_ops_per_cpu_s'].value, 1317.58);
    assert.equal(byName['hdd.bogo_ops_per_s'].value, 2165.48);
    for (const m of metrics) {
      assert.equal(m.better, 'higher');
      assert.equal(m.unit, 'bogo-ops/s');
    }
  });

  test('the same figures as the --metrics-brief table in the log', () => {
    const metrics = parseStressNgYaml(yaml, ['cpu', 'vm', 'io', 'hdd']);
    for (const s of ['cpu', 'vm', 'io', 'hdd']) {
      const row = /** @type {string} */ (
        log.split('\n').find((l) => new RegExp(`metrc: \\[\\d+\\] ${s}\\s+\\d`).test(l))
      );
      const cols = row.trim().split(/\s+/);
      assert.equal(metrics.find((m) => m.metric === `${s}.bogo_ops_per_s`)?.value, Number(cols.at(-2)), s);
      assert.equal(metrics.find((m) => m.metric === `${s}.bogo_ops_per_cpu_s`)?.value, Number(cols.at(-1)), s);
    }
  });

  test('the first cpu worker start, from the timestamped log, in the middle of its 10 ms interval', () => {
    const near = Date.parse('2026-11-21T16:43:32.500Z');
    assert.equal(parseStressNgStart(log, 'cpu', near), Date.parse('2026-11-21T16:43:32.925Z'));
    // Near midnight the log may belong to the previous day.
    assert.equal(
      parseStressNgStart(log, 'vm', Date.parse('2026-11-22T00:00:01Z')),
      Date.parse('2026-11-21T16:43:34.075Z'),
    );
  });
});

describe('stress-ng parser, malformed output', () => {
  test('a stressor without metrics names the stressor and the last line', () => {
    assert.throws(
      () => parseStressNgYaml(yaml, ['cpu', 'matrix']),
      (e) => e instanceof ParseError && /no metrics for the matrix stressor/.test(e.message) && e.at?.line === '...',
    );
  });
  test('a non-number metric names its line', () => {
    const broken = yaml.replace('bogo-ops-per-second-real-time: 219.159878', 'bogo-ops-per-second-real-time: n/a');
    assert.throws(
      () => parseStressNgYaml(broken, ['cpu', 'vm']),
      (e) =>
        e instanceof ParseError &&
        /vm: expected a number/.test(e.message) &&
        e.at?.line.trim() === 'bogo-ops-per-second-real-time: n/a',
    );
  });
  test('text that is not YAML', () => {
    assert.throws(
      () => parseStressNgYaml('stress-ng: error: [1] Cannot output YAML data\n  - : [\n', ['cpu']),
      ParseError,
    );
  });
  test('empty output (the tool printed nothing)', () => {
    assert.throws(() => parseStressNgYaml('', ['cpu']), /no metrics for the cpu stressor/);
  });
  test('a log without timestamps says how it must be run', () => {
    const plain = 'stress-ng: debug: [7] cpu: started [7] (instance 0)\n';
    assert.throws(
      () => parseStressNgStart(plain, 'cpu', Date.now()),
      (e) => e instanceof ParseError && e.at?.lineNumber === 1,
    );
    assert.throws(() => parseStressNgStart('sh: 1: stress-ng: not found\n', 'cpu', Date.now()), /--timestamp -v/);
  });
});
