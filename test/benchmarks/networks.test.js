// Which networks a client-server benchmark measures: quick the environment's first (the bridge in a
// container environment, host in native), standard every one, and an override can ask for either.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { networksOf } from '../../src/benchmarks/benchmark.js';
import { BENCHMARKS } from '../../src/benchmarks/index.js';
import { paramsFor } from '../../src/run/params.js';

/** @typedef {import('../../src/engine/services.js').NetworkMode} NetworkMode */
const container = { networkModes: /** @type {NetworkMode[]} */ (['bridge', 'host']) };
const native = { networkModes: /** @type {NetworkMode[]} */ (['host']) };

test('networksOf: the first N networks the environment offers, all of them without a count', () => {
  assert.deepEqual(networksOf(container, 1), ['bridge']);
  assert.deepEqual(networksOf(container, 2), ['bridge', 'host']);
  assert.deepEqual(networksOf(container, undefined), ['bridge', 'host']);
  assert.deepEqual(networksOf(native, 1), ['host']);
  assert.deepEqual(networksOf(native, 2), ['host']);
  // 0 or a fraction from a --config file still measures one network, never none
  assert.deepEqual(networksOf(container, 0), ['bridge']);
  assert.deepEqual(networksOf(container, 1.7), ['bridge']);
});

test('quick measures the bridge only, standard both networks, a --config override either', () => {
  for (const name of ['iperf3', 'redis', 'pgbench']) {
    assert.ok(name in BENCHMARKS, name);
    const quick = /** @type {{networks: number}} */ (paramsFor(name, 'quick'));
    const standard = /** @type {{networks: number}} */ (paramsFor(name, 'standard'));
    assert.deepEqual(networksOf(container, quick.networks), ['bridge'], `${name} quick`);
    assert.deepEqual(networksOf(container, standard.networks), ['bridge', 'host'], `${name} standard`);
    const both = /** @type {{networks: number}} */ (paramsFor(name, 'quick', { [name]: { networks: 2 } }));
    assert.deepEqual(networksOf(container, both.networks), ['bridge', 'host'], `${name} quick, overridden`);
  }
});
