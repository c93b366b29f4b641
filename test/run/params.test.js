// Per-benchmark parameter overrides from a config file (`run --config FILE`), and the `plan` estimate.
// The CLI cases run the real command; none needs an engine (the config is checked before anything starts).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fio } from '../../src/benchmarks/fio.js';
import { ConfigError, paramsFor, validateParamOverrides } from '../../src/run/params.js';
import { estimateRun } from '../../src/run/estimate.js';
import { makePlan } from '../../src/run/plan.js';
import { runCli } from '../helpers/run-cli.js';

const cli = (/** @type {string[]} */ ...args) => runCli(args);
const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-params-'));
const file = (/** @type {string} */ name, /** @type {string} */ text) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('parameter overrides', () => {
  test('valid overrides replace only the named parameters', () => {
    const o = validateParamOverrides({ fio: { size: '64M' }, 'stress-ng': { seconds: 5 } }, 'c.json');
    assert.deepEqual(paramsFor('fio', 'quick', o), { ...fio.params.quick, size: '64M' });
    assert.equal(paramsFor('fio', 'quick', o).seconds, 0.2);
    assert.deepEqual(paramsFor('stress-ng', 'standard', o), {
      seconds: 5,
      workers: 0,
      vmBytes: '256M',
      hddBytes: '1G',
    });
    assert.deepEqual(paramsFor('iozone', 'quick', o), { fileSize: '64m', recordSize: '64k', direct: true, repeats: 1 });
  });
  const bad = [
    { doc: { fioo: {} }, message: /c\.json: unknown benchmark "fioo"; valid: .*fio.*storage/ },
    {
      doc: { fio: { sise: '1G' } },
      message: /c\.json: "fio\.sise" is not a parameter of fio; valid: size \(string\), seconds \(number\)/,
    },
    {
      doc: { fio: { seconds: '5' } },
      message: /c\.json: "fio\.seconds" must be a non-negative number like 0\.2, got "5"/,
    },
    { doc: { iozone: { fileSize: 1024 } }, message: /"iozone\.fileSize" must be a string like "64m", got 1024/ },
    { doc: { fio: 'big' }, message: /"fio" must be an object of parameters; valid for fio: size/ },
    { doc: [], message: /expected an object of benchmark names/ },
    {
      doc: { iozone: { x: 1 } },
      message:
        /"iozone\.x" is not a parameter of iozone; valid: fileSize \(string\), recordSize \(string\), direct \(boolean\)/,
    },
  ];
  for (const b of bad) {
    test(`refuses ${JSON.stringify(b.doc)}`, () => {
      assert.throws(
        () => validateParamOverrides(b.doc, 'c.json'),
        (e) => e instanceof ConfigError && b.message.test(e.message),
      );
    });
  }
});

describe('run --config and plan (real CLI)', () => {
  test('a wrong key fails before anything runs, naming the file, the key and the choices', () => {
    const f = file('typo.json', '{"stress-ng": {"second": 5}}');
    const r = cli('run', '--out', path.join(dir, 'never'), '--config', f);
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      new RegExp(`${f.replace(/[.]/g, '\\.')}: "stress-ng\\.second" is not a parameter of stress-ng; valid: seconds`),
    );
  });
  test('a file that is not JSON: its kind, path, line and column, and what to do', () => {
    const f = file('broken.json', '{"fio": {"size": "64M",}}');
    const r = cli('run', '--out', path.join(dir, 'never'), '--config', f);
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `${f.replace(/[.]/g, '\\.')}: the parameter config is not valid JSON at line 1, column 24 \\(.*\\); fix it, or leave out --config`,
      ),
    );
  });
  test('a missing file', () => {
    const f = path.join(dir, 'nope.json');
    const r = cli('plan', '--config', f);
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `${f.replace(/[.]/g, '\\.')}: cannot read the parameter config: no such file; fix it, or leave out --config`,
      ),
    );
  });
  test('plan --profile standard lists every benchmark with its parameters and an estimate, and follows --config', () => {
    const r = cli('plan', '--profile', 'standard');
    assert.equal(r.status, 0, r.stderr);
    for (const b of ['lifecycle', 'sysbench', 'stress-ng', 'iozone', 'fio', 'storage'])
      assert.match(r.stderr, new RegExp(`^${b}\\s`, 'm'));
    assert.match(r.stderr, /"seconds":100/);
    const f = file('short.json', '{"stress-ng": {"seconds": 5}}');
    const r2 = cli('plan', '--profile', 'standard', '--bench', 'stress-ng', '--config', f);
    assert.match(r2.stderr, /"seconds":5/);
  });
});

describe('estimate', () => {
  test('scales with iterations and parameters', () => {
    const plan = (/** @type {number} */ iterations) =>
      makePlan({
        benchmarks: ['stress-ng'],
        environments: ['docker', 'dind'],
        distros: ['debian'],
        engines: ['20.10'],
        iterations,
        warmup: 1,
      });
    const a = estimateRun({ plan: plan(1), profile: 'standard' });
    const b = estimateRun({ plan: plan(3), profile: 'standard' });
    assert.equal(a.benchmarks[0].steps, 4);
    assert.equal(b.benchmarks[0].steps, 8);
    assert.ok(b.benchmarks[0].totalS > 1.9 * a.benchmarks[0].totalS);
    const short = estimateRun({ plan: plan(1), profile: 'standard', paramOverrides: { 'stress-ng': { seconds: 10 } } });
    assert.ok(short.benchmarks[0].totalS < a.benchmarks[0].totalS / 5);
  });

  test('podman starts an engine and loads images at setup, as DinD does, though it has no Engine line', () => {
    const setup = (/** @type {string[]} */ environments) =>
      estimateRun({
        plan: makePlan({
          benchmarks: ['lifecycle'],
          environments,
          distros: ['debian'],
          engines: ['20.10'],
          iterations: 1,
          warmup: 0,
        }),
        profile: 'quick',
      }).setupS;
    assert.equal(setup(['docker']), 0);
    assert.ok(setup(['docker', 'podman']) > 0);
    assert.equal(setup(['docker', 'podman']), setup(['docker', 'dind']));
  });
});
