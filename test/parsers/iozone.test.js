// IOzone parser over real output (test/fixtures/iozone: IOzone 3.489 in the Debian stress-io image,
// 16 MB file, 4 KB records) and over malformed output.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseIozone } from '../../src/parsers/iozone.js';
import { ParseError } from '../../src/parsers/parse-error.js';

const fixture = (/** @type {string} */ name) =>
  readFileSync(new URL(`../fixtures/iozone/${name}`, import.meta.url), 'utf8');
const mib = (/** @type {number} */ kBps) => Math.round((kBps / 1024) * 100) / 100;

describe('IOzone parser', () => {
  test('write, rewrite, read, reread in MiB/s from the kBytes/sec row', () => {
    const metrics = parseIozone(fixture('write-read-16m-4k.txt'));
    assert.deepEqual(
      metrics.map((m) => [m.metric, m.value]),
      [
        ['write_mib_per_s', mib(259383)],
        ['rewrite_mib_per_s', mib(551889)],
        ['read_mib_per_s', mib(834421)],
        ['reread_mib_per_s', mib(1096882)],
      ],
    );
    for (const m of metrics) {
      assert.equal(m.unit, 'MiB/s');
      assert.equal(m.better, 'higher');
    }
  });

  test("quick's direct I/O run (-I, 64 KiB records, 64 MiB): the same table, O_DIRECT in the banner", () => {
    // Captured on this project's 2-core machine from the iozone image, in the container's own layer.
    const text = fixture('write-read-64m-64k-direct.txt');
    assert.match(text, /O_DIRECT feature enabled/);
    assert.deepEqual(
      parseIozone(text).map((m) => [m.metric, m.value]),
      [
        ['write_mib_per_s', mib(138150)],
        ['rewrite_mib_per_s', mib(172527)],
        ['read_mib_per_s', mib(373201)],
        ['reread_mib_per_s', mib(586106)],
      ],
    );
  });

  test('a run that could not open its file: the empty result row is the offending line', () => {
    assert.throws(
      () => parseIozone(fixture('cannot-open.txt')),
      (e) => e instanceof ParseError && /"write" column/.test(e.message) && e.at?.line.trim() === '16384       4',
    );
  });

  test('not IOzone at all (a shell that could not find it)', () => {
    assert.throws(
      () => parseIozone('sh: 1: iozone: not found\n'),
      (e) => e instanceof ParseError && e.at?.lineNumber === 1,
    );
  });

  test('a truncated run: banner but no table', () => {
    const text = fixture('write-read-16m-4k.txt').split('\n').slice(0, 27).join('\n');
    assert.throws(() => parseIozone(text), /no result table/);
  });
});
