// The thresholds config: defaults, per-metric patterns applied in order, clear errors for bad files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, parseConfig, ruleFor, defaultConfig } from '../../src/compare/config.js';
import { tmpDir } from '../history/helpers.js';
import { DEFAULT_RULE } from '../../src/stats/verdicts.js';

test('defaults, then every matching pattern in file order', () => {
  const c = parseConfig(
    {
      defaults: { alpha: 0.002 },
      metrics: { 'lifecycle/*': { minChange: 0.15 }, 'lifecycle/container.create_ms': { minChange: 0.3 } },
    },
    'x.json',
  );
  assert.deepEqual(ruleFor(c, 'sysbench', 'cpu.events_per_second'), { ...DEFAULT_RULE, alpha: 0.002 });
  assert.equal(ruleFor(c, 'lifecycle', 'container.start_ms').minChange, 0.15);
  assert.equal(ruleFor(c, 'lifecycle', 'container.create_ms').minChange, 0.3);
  assert.deepEqual(ruleFor(defaultConfig(), 'a', 'b'), DEFAULT_RULE);
});

test('a wrong key or value is refused with its path and the allowed keys', () => {
  assert.throws(
    () => parseConfig({ metrics: { 'sysbench/*': { treshold: 0.1 } } }, 'cfg.json'),
    /cfg.json: not a valid compare config:\n {2}\/metrics\/sysbench~1\* must NOT have additional properties \(treshold; allowed: alpha, minChange, minRuns, minSamples, window, threshold\)/,
  );
  // T must be a positive finite fraction: negative, zero and non-numbers are refused with their path.
  assert.throws(() => parseConfig({ defaults: { threshold: -0.1 } }, 'cfg.json'), /\/defaults\/threshold must be > 0/);
  assert.throws(
    () => parseConfig({ metrics: { 'a/b': { threshold: 0 } } }, 'cfg.json'),
    /\/metrics\/a~1b\/threshold must be > 0/,
  );
  assert.throws(
    () => parseConfig({ defaults: { threshold: 'ten' } }, 'cfg.json'),
    /\/defaults\/threshold must be number/,
  );
  assert.throws(() => parseConfig({ defaults: { alpha: 2 } }, 'cfg.json'), /\/defaults\/alpha must be <= 0.5/);
  assert.throws(
    () => parseConfig({ defaults: { minRuns: 10, window: 5 } }, 'cfg.json'),
    /minRuns \(10\) is larger than window \(5\)/,
  );
});

test('a config file that is missing or not JSON is refused naming its kind and path, and what to do', async () => {
  const dir = tmpDir('compare-config');
  const missing = path.join(dir, 'nope.json');
  await assert.rejects(loadConfig(missing), {
    message: `${missing}: cannot read the compare config: no such file; fix it, or leave out --config to use the default thresholds`,
  });
  const bad = path.join(dir, 'bad.json');
  writeFileSync(bad, '{"defaults": {"alpha": 0.01,}}');
  await assert.rejects(loadConfig(bad), (e) => {
    assert.ok(
      /** @type {Error} */ (e).message.startsWith(
        `${bad}: the compare config is not valid JSON at line 1, column 29 (`,
      ),
      /** @type {Error} */ (e).message,
    );
    return true;
  });
  writeFileSync(bad, '{"defaults": {"alpha": 0.02}}');
  assert.equal((await loadConfig(bad)).defaults.alpha, 0.02);
});
