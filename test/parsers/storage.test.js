// Storage probe parser over real output (test/fixtures/storage: the probe in the Debian stress-io image
// on overlay2, and natively on the host) and over malformed output.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ParseError } from '../../src/parsers/parse-error.js';
import { parseStorageProbe } from '../../src/parsers/storage.js';

const fixture = (/** @type {string} */ name) => readFileSync(new URL(`../fixtures/storage/${name}`, import.meta.url), 'utf8');

describe('storage probe parser', () => {
  for (const name of ['docker-overlay2.json', 'native.json']) {
    test(`${name}: copy-up ms and metadata ops/s for layer and volume`, () => {
      const doc = JSON.parse(fixture(name));
      const metrics = parseStorageProbe(fixture(name));
      assert.equal(metrics.length, 2 + 2 * 4);
      const get = (/** @type {string} */ n) => metrics.find((m) => m.metric === n);
      assert.equal(get('copy_up.layer_ms')?.value, Math.round(doc.copyUp.layer * 1000) / 1000);
      assert.equal(get('copy_up.layer_ms')?.better, 'lower');
      assert.equal(get('metadata.volume.rename_per_s')?.value, Math.round(doc.metadata.volume.rename * 10) / 10);
      assert.equal(get('metadata.volume.rename_per_s')?.unit, 'ops/s');
    });
  }
  test('overlay2: the first write to the lower-layer file costs far more than on the volume (a copy-up happened)', () => {
    const doc = JSON.parse(fixture('docker-overlay2.json'));
    assert.equal(doc.lowerFile, '/lower/big.bin');
    assert.ok(doc.copyUp.layer > 10 * doc.copyUp.volume);
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
