// fio parser over real output (test/fixtures/fio: fio 3.33 in the Debian stress-io image, the five jobs
// on the container layer and on a volume, 32 MB, 300 ms each) and over malformed output.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseFio } from '../../src/parsers/fio.js';
import { ParseError } from '../../src/parsers/parse-error.js';

const text = readFileSync(new URL('../fixtures/fio/layer-volume-32m.json', import.meta.url), 'utf8');
const JOBS = ['seqwrite', 'seqread', 'randread', 'randwrite', 'randrw'];

describe('fio parser', () => {
  test('IOPS, MiB/s and p99 per job and location, from the JSON fields', () => {
    const metrics = parseFio(text, ['layer', 'volume'], JOBS);
    assert.equal(metrics.length, 2 * 5 * 3);
    const get = (/** @type {string} */ name) => metrics.find((m) => m.metric === name);
    // volume randrw (70/30, both directions count): read.iops 1920.265781 + write.iops 764.119601.
    assert.equal(get('volume.randrw.iops')?.value, 2684.39);
    // p99 is the slower direction's: read 3883008 ns, write 1613824 ns.
    assert.equal(get('volume.randrw.clat_p99_ms')?.value, 3.883);
    // layer seqread: read.bw_bytes 550415308 B/s.
    assert.equal(get('layer.seqread.mib_per_s')?.value, 524.92);
    for (const m of metrics) assert.equal(m.better, m.metric.endsWith('_ms') ? 'lower' : 'higher', m.metric);
  });

  test('a missing job is named', () => {
    assert.throws(() => parseFio(text, ['layer'], [...JOBS, 'trim']), /layer: no job "trim"/);
  });

  test("a job that failed carries fio's error number", () => {
    const doc = JSON.parse(text);
    doc.layer.jobs[1].error = 5;
    assert.throws(
      () => parseFio(JSON.stringify(doc), ['layer', 'volume'], JOBS),
      /layer: job "seqread" failed with error 5/,
    );
  });

  test('text before the JSON (a warning fio printed to stdout) is the offending line', () => {
    const broken = `fio: this platform does not support O_DIRECT\n${text}`;
    assert.throws(
      () => parseFio(broken, ['layer', 'volume'], JOBS),
      (e) => e instanceof ParseError && e.at?.lineNumber === 1 && /O_DIRECT/.test(e.at.line),
    );
  });

  test('empty output', () => {
    assert.throws(() => parseFio('', ['layer'], JOBS), ParseError);
  });
});
