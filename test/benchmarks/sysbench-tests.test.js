// sysbench's `tests` parameter (src/benchmarks/sysbench.js): the quick profile runs the cpu test alone (its
// decision), standard all four; a config's list is checked before any container starts, and the plan's
// estimate counts only the tests that run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sysbench, testsOf } from '../../src/benchmarks/sysbench.js';

test('the tests a step runs: all four by default, in their own order, the quick profile the cpu test alone', () => {
  assert.deepEqual(testsOf(sysbench.params.standard), ['cpu', 'threads', 'memory', 'fileio']);
  assert.deepEqual(testsOf(sysbench.params.quick), ['cpu']);
  assert.deepEqual(testsOf(sysbench.params.tiny), ['cpu', 'threads', 'memory', 'fileio']);
  assert.deepEqual(testsOf({ seconds: 1, threads: 2, fileTotalSize: '16M', tests: ' fileio, cpu ' }), [
    'cpu',
    'fileio',
  ]);
});

test('an unknown or empty test list is refused, naming what is allowed', () => {
  for (const tests of ['gpu', 'cpu,,memory', ''])
    assert.throws(
      () => testsOf({ seconds: 1, threads: 2, fileTotalSize: '16M', tests }),
      /sysbench tests .*cpu, threads, memory, fileio/,
    );
});

test("the estimate counts only the tests that run, and fileio's files only when it runs", () => {
  const base = { seconds: 2, threads: 2, fileTotalSize: '1G' };
  assert.equal(sysbench.estimateSeconds?.({ ...base, tests: 'cpu' }), 3);
  assert.ok((sysbench.estimateSeconds?.({ ...base }) ?? 0) > 4 * 2 + 1 + 2);
});
