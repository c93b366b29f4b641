// The import-direction check: the real src/ passes; an upward, a sideways and an unplaced import each
// fail, naming the file, the line and the rule.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { checkImports } from '../../scripts/check-imports.js';

const SCRIPT = new URL('../../scripts/check-imports.js', import.meta.url).pathname;
const LAYERS = [['cli'], ['run', 'compare'], ['stats']];

/** A src/ tree from {path: content}. @param {Record<string, string>} files */
function tree(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-imports-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

test('the real src/ imports only downward (the check CI runs)', () => {
  const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /every import in src\/ runs downward/);
});

test('downward and same-folder imports pass; upward, sideways and unplaced ones fail with file and line', async () => {
  const dir = tree({
    'cli/main.js': "import { run } from '../run/run.js';\nimport { x } from './x.js';\n",
    'cli/x.js': 'export const x = 1;\n',
    'run/run.js':
      "import { median } from '../stats/median.js';\n/** @type {import('../compare/c.js').C} */\nexport const run = 1;\n",
    'compare/c.js': "export { median } from '../stats/median.js';\n",
    'stats/median.js': "\n\nimport { main } from '../cli/main.js';\nexport const median = 1;\n",
    'extra/e.js': "import { run } from '../run/run.js';\n",
  });
  try {
    const problems = await checkImports(dir, LAYERS);
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0], /^extra\/e\.js: layer extra is in no row of LAYERS/);
    assert.match(
      problems[1],
      /^run\/run\.js:2: imports \.\.\/compare\/c\.js \(run -> compare, sideways, within one row\)/,
    );
    assert.match(
      problems[2],
      /^stats\/median\.js:3: imports \.\.\/cli\/main\.js \(stats -> cli, upward\); layers import only downward: cli -> run\/compare -> stats$/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
