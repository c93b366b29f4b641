// The thresholds config: defaults, per-metric patterns applied in order, clear errors for bad files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, ruleFor, defaultConfig } from '../../src/compare/config.js';
import { DEFAULT_RULE } from '../../src/compare/verdicts.js';

test('defaults, then every matching pattern in file order', () => {
  const c = parseConfig({ defaults: { alpha: 0.005 }, metrics: { 'lifecycle/*': { minChange: 0.15 }, 'lifecycle/container.create_ms': { minChange: 0.3 } } }, 'x.json');
  assert.deepEqual(ruleFor(c, 'sysbench', 'cpu.events_per_second'), { ...DEFAULT_RULE, alpha: 0.005 });
  assert.equal(ruleFor(c, 'lifecycle', 'container.start_ms').minChange, 0.15);
  assert.equal(ruleFor(c, 'lifecycle', 'container.create_ms').minChange, 0.3);
  assert.deepEqual(ruleFor(defaultConfig(), 'a', 'b'), DEFAULT_RULE);
});

test('a wrong key or value is refused with its path and the allowed keys', () => {
  assert.throws(() => parseConfig({ metrics: { 'sysbench/*': { threshold: 0.1 } } }, 'cfg.json'), /cfg.json: not a valid compare config:\n {2}\/metrics\/sysbench~1\* must NOT have additional properties \(threshold; allowed: alpha, minChange, minRuns, minSamples, window\)/);
  assert.throws(() => parseConfig({ defaults: { alpha: 2 } }, 'cfg.json'), /\/defaults\/alpha must be <= 0.5/);
  assert.throws(() => parseConfig({ defaults: { minRuns: 10, window: 5 } }, 'cfg.json'), /minRuns \(10\) is larger than window \(5\)/);
});
