// The `any` count of src/: only the word in JSDoc type expressions counts, and the real src/ stays under
// its ceiling (the check CI runs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { countAny } from '../../scripts/count-any.js';

const SCRIPT = new URL('../../scripts/count-any.js', import.meta.url).pathname;

test('counts `any` in JSDoc type expressions only, nested braces and multi-line typedefs included', () => {
  const text = [
    '/** @param {any} a @param {Record<string, any[]>} b many things, any of them */',
    '/**',
    ' * @typedef {{',
    ' *   x: any, y: { z: Map<string, any> },',
    ' *   kind: \'any\' | "any",',
    ' * }} T',
    ' * See {@link any}; prose says any.',
    ' */',
    'const any = /** @type {any} */ (1); // {any} in a line comment',
    "const s = '/** @type {number} */';",
  ].join('\n');
  assert.equal(countAny(text), 5);
});

test('the real src/ is within its ceiling', () => {
  const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ *\d+ {2}in all \(ceiling \d+\)$/m);
});
