// Every command's exit code comes from one function, exitCodeOf (src/reading/gate.js): from the Reading
// where the command has one, else from why it has none. The commands only call it: no module of src/ sets
// an exit code of its own but the CLI's usage errors (commander's) and a signal's (130/143).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  EXIT_CELLS_FAILED,
  EXIT_ENGINE_LOST,
  EXIT_LESS_THAN_ASKED,
  EXIT_OVER_BUDGET,
  exitCodeOf,
} from '../../src/reading/gate.js';

const gate = (/** @type {number} */ exitCode) => ({ exitCode });

test('run: failed cells first (3), then cells left out for the budget (6), else 0', () => {
  assert.equal(exitCodeOf({ gate: gate(4), complete: false, leftOutCells: 2 }, 'run'), EXIT_CELLS_FAILED);
  assert.equal(exitCodeOf({ gate: gate(4), complete: true, leftOutCells: 2 }, 'run'), EXIT_LESS_THAN_ASKED);
  assert.equal(exitCodeOf({ gate: gate(4), complete: true, leftOutCells: 0 }, 'run'), 0);
});

test("compare: as its gate decided, whatever the run's cells", () => {
  for (const code of [0, 4, 8])
    assert.equal(exitCodeOf({ gate: gate(code), complete: false, leftOutCells: 1 }, 'compare'), code);
});

test('a command with no Reading exits on why it has none', () => {
  assert.equal(exitCodeOf({ stopped: 'engine lost' }, 'run'), EXIT_ENGINE_LOST);
  assert.equal(exitCodeOf({ stopped: 'over budget' }, 'run'), EXIT_OVER_BUDGET);
  assert.equal(exitCodeOf({ stopped: 'does not fit' }, 'plan'), EXIT_OVER_BUDGET);
  assert.equal(exitCodeOf({ stopped: 'shards left out' }, 'merge'), EXIT_CELLS_FAILED);
  assert.equal(exitCodeOf({ stopped: 'checks failed' }, 'doctor'), 1);
});

test('no command of src/cli sets an exit code but from exitCodeOf or a Reading-built result', () => {
  const dir = new URL('../../src/cli/commands/', import.meta.url).pathname;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.matchAll(/process\.exitCode\s*=\s*([^;]+);/g))
      assert.match(m[1], /exitCodeOf\(|\bexitCode\b/, `${f}: process.exitCode = ${m[1]}: decide it with exitCodeOf`);
  }
});
