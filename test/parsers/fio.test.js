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
  test('IOPS, MiB/s and p99 per job and location, equal to the JSON fields', () => {
    const metrics = parseFio(text, ['layer', 'volume'], JOBS);
    assert.equal(metrics.length, 2 * 5 * 3);
    const doc = JSON.parse(text);
    const randrw = doc.volume.jobs.find((/** @type {any} */ j) => j.jobname === 'randrw');
    const get = (/** @type {string} */ name) => metrics.find((m) => m.metric === name);
    // 70/30: both directions count.
    assert.equal(get('volume.randrw.iops')?.value, Math.round((randrw.read.iops + randrw.write.iops) * 100) / 100);
    const p99 = Math.max(randrw.read.clat_ns.percentile['99.000000'], randrw.write.clat_ns.percentile['99.000000']) / 1e6;
    assert.equal(get('volume.randrw.clat_p99_ms')?.value, Math.round(p99 * 1000) / 1000);
    const seqread = doc.layer.jobs.find((/** @type {any} */ j) => j.jobname === 'seqread');
    assert.equal(get('layer.seqread.mib_per_s')?.value, Math.round((seqread.read.bw_bytes / 2 ** 20) * 100) / 100);
    for (const m of metrics) assert.equal(m.better, m.metric.endsWith('_ms') ? 'lower' : 'higher', m.metric);
  });

  test('a missing job is named', () => {
    assert.throws(() => parseFio(text, ['layer'], [...JOBS, 'trim']), /layer: no job "trim"/);
  });

  test('a job that failed carries fio\'s error number', () => {
    const doc = JSON.parse(text);
    doc.layer.jobs[1].error = 5;
    assert.throws(() => parseFio(JSON.stringify(doc), ['layer', 'volume'], JOBS), /layer: job "seqread" failed with error 5/);
  });

  test('text before the JSON (a warning fio printed to stdout) is the offending line', () => {
    const broken = `fio: this platform does not support O_DIRECT\n${text}`;
    assert.throws(() => parseFio(broken, ['layer', 'volume'], JOBS), (e) => e instanceof ParseError && e.at?.lineNumber === 1 && /O_DIRECT/.test(e.at.line));
  });

  test('empty output', () => {
    assert.throws(() => parseFio('', ['layer'], JOBS), ParseError);
  });
});
