// Storage probe parser over real output (test/fixtures/storage: the probe in the Debian stress-io image
// on overlay2, and natively on the host) and over malformed output.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ParseError } from '../../src/parsers/parse-error.js';
import { parseStorageProbe } from '../../src/parsers/storage.js';

const fixture = (/** @type {string} */ name) =>
  readFileSync(new URL(`../fixtures/storage/${name}`, import.meta.url), 'utf8');

describe('storage probe parser', () => {
  // The fixtures' fields (copyUp.layer 523.9786980000645 and metadata.volume.rename 16378.083873486077 in
  // docker-overlay2.json; 10.300097000254027 and 9775.873437633922 in native.json) as the parser reports them.
  for (const [name, layerMs, renamePerS] of /** @type {[string, number, number][]} */ ([
    ['docker-overlay2.json', 523.979, 16378.1],
    ['native.json', 10.3, 9775.9],
  ])) {
    test(`${name}: copy-up ms and metadata ops/s for layer and volume`, () => {
      const metrics = parseStorageProbe(fixture(name));
      assert.equal(metrics.length, 2 + 2 * 4);
      const get = (/** @type {string} */ n) => metrics.find((m) => m.metric === n);
      assert.deepEqual(get('copy_up.layer_ms'), {
        metric: 'copy_up.layer_ms',
        unit: 'ms',
        better: 'lower',
        value: layerMs,
      });
      assert.deepEqual(get('metadata.volume.rename_per_s'), {
        metric: 'metadata.volume.rename_per_s',
        unit: 'ops/s',
        better: 'higher',
        value: renamePerS,
      });
    });
  }
  test('overlay2: the parsed copy-up on the layer costs far more than on the volume (a copy-up happened)', () => {
    const metrics = parseStorageProbe(fixture('docker-overlay2.json'));
    const ms = (/** @type {string} */ n) => /** @type {number} */ (metrics.find((m) => m.metric === n)?.value);
    assert.ok(
      ms('copy_up.layer_ms') > 10 * ms('copy_up.volume_ms'),
      `layer ${ms('copy_up.layer_ms')} ms, volume ${ms('copy_up.volume_ms')} ms`,
    );
  });
  test('a Python traceback instead of JSON is the offending line', () => {
    assert.throws(
      () => parseStorageProbe('Traceback (most recent call last):\n  File "<string>", line 5\nKeyError: \'SCRATCH\'\n'),
      (e) => e instanceof ParseError && e.at?.line === 'Traceback (most recent call last):',
    );
  });
  test('a missing field is named', () => {
    const doc = JSON.parse(fixture('native.json'));
    delete doc.metadata.layer.stat;
    assert.throws(() => parseStorageProbe(JSON.stringify(doc)), /metadata\.layer\.stat/);
  });
});
