// npm test's split (scripts/test-files.js, scripts/test.js): a file that imports the engine helpers runs in
// the engine part, two at a time, or alone on the engine when it says why; every other one in the first
// part, side by side; `--no-engine` runs the first part only and says what it left out; a failure in any
// part fails the exit code; the options it does not know are refused, naming those it knows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  aloneBecause,
  e2eBecause,
  forCommand,
  needsEngine,
  parseTestArgs,
  slowestFirst,
  splitByEngine,
  testFiles,
  unreached,
} from '../../scripts/test-files.js';
import { tmpDir } from '../history/helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = path.join(ROOT, 'scripts/test.js');
// Written in pieces: this file's own text must not import the engine helpers, or it would be an engine file.
const ENGINE = ['..', 'helpers', 'engine.js'].join('/');
const OWN_ENGINE = ['..', 'helpers', 'own-engine.js'].join('/');

test('a file that imports the engine helpers, statically or not, needs the engine; others do not', () => {
  assert.equal(needsEngine(`import { engineOrSkip } from '${ENGINE}';`), true);
  assert.equal(needsEngine(`const { engineOrSkip } = await import('${ENGINE}');`), true);
  assert.equal(needsEngine(`import { startOwnEngine } from '${OWN_ENGINE}';`), true);
  assert.equal(needsEngine("import { launch } from '../helpers/browser.js';"), false);
  assert.equal(needsEngine("import { engineAt } from '../../src/engine/client.js';"), false);
  assert.equal(needsEngine(`import '${ENGINE}';`), true);
  assert.equal(needsEngine('// see helpers/engine.js'), false);
});

test('every test of the project that asks for an engine is in the engine part; helpers are not test files', () => {
  const files = testFiles([path.join(ROOT, 'test')]);
  assert.ok(files.length > 100, `${files.length} test files`);
  assert.ok(
    files.every((f) => f.endsWith('.test.js')),
    'only *.test.js',
  );
  assert.ok(!files.some((f) => f.includes(`${path.sep}helpers${path.sep}`)));
  const { free, beside, alone } = splitByEngine(files);
  const engine = [...beside, ...alone];
  assert.ok(engine.length >= 20 && free.length >= 60, `${engine.length} engine, ${free.length} free`);
  assert.ok(beside.length >= 10 && alone.length >= 5, `${beside.length} beside, ${alone.length} alone`);
  for (const f of free) {
    const text = readFileSync(f, 'utf8');
    for (const helper of ['engineOrSkip', 'startOwnEngine', 'ensureImages'])
      assert.ok(
        !text.includes(`${helper}(`),
        `${path.relative(ROOT, f)} calls ${helper} but is not in the engine part`,
      );
  }
  assert.ok(
    engine.some((f) => f.endsWith('images/rootfs-cache.test.js')),
    'a dynamic import counts',
  );
});

test('an engine file runs alone on the engine when a line of its own says so, and why', () => {
  const engineFile = (/** @type {string} */ more) => `import { engineOrSkip } from '${ENGINE}';\n${more}\n`;
  const why = 'it restarts an engine of its own';
  assert.equal(aloneBecause(engineFile(`// npm test: alone: ${why}`)), why);
  assert.equal(aloneBecause(engineFile('// npm test: alone: short')), null, 'a reason of ten characters at least');
  assert.equal(aloneBecause(engineFile(`const s = '// npm test: alone: ${why}';`)), null, 'a comment line of its own');
  assert.equal(aloneBecause(engineFile('// runs alone')), null);
  const texts = /** @type {Record<string, string>} */ ({
    'a.test.js': engineFile(`// npm test: alone: ${why}`),
    'b.test.js': engineFile(''),
    'c.test.js': `// npm test: alone: ${why}\n`,
  });
  assert.deepEqual(
    splitByEngine(Object.keys(texts), (f) => texts[f]),
    { free: ['c.test.js'], beside: ['b.test.js'], alone: ['a.test.js'] },
    'an engine file with the line is alone, one without it beside the others, a file with no engine free',
  );
});

test('a file that says so is left to npm run test:e2e; npm test runs every other', () => {
  const why = 'whole quick runs, killed and resumed';
  const texts = /** @type {Record<string, string>} */ ({
    'a.test.js': `// a scenario\n// npm run test:e2e: ${why}\nimport '${ENGINE}';\n`,
    'b.test.js': `import '${ENGINE}';\n`,
    'c.test.js': `const s = '// npm run test:e2e: ${why}';\n`,
  });
  assert.equal(e2eBecause(texts['a.test.js']), why);
  assert.equal(e2eBecause('// npm run test:e2e: long'), null, 'a reason of ten characters at least');
  const files = Object.keys(texts);
  assert.deepEqual(
    forCommand(files, true, (f) => texts[f]),
    ['a.test.js'],
  );
  assert.deepEqual(
    forCommand(files, false, (f) => texts[f]),
    ['b.test.js', 'c.test.js'],
  );
});

test("npm test's files reach every module of src/ that runs, without those left to npm run test:e2e", () => {
  const files = forCommand(testFiles([path.join(ROOT, 'test')]), false);
  assert.deepEqual(unreached(files, ROOT), [], 'modules no file of npm test imports or runs, even through others');
  const e2e = forCommand(testFiles([path.join(ROOT, 'test')]), true);
  assert.ok(e2e.length <= 8, `${e2e.length} files left to npm run test:e2e: the long scenarios only`);
});

test('reach: through imports, dynamic imports by name and scripts run by path; not through comments or types', () => {
  const dir = tmpDir('reach');
  const write = (/** @type {string} */ rel, /** @type {string} */ text) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  write('src/a.js', "import { b } from './b.js';\nexport const a = b;\n");
  write('src/b.js', 'export const b = 1;\n');
  write('src/plugins/index.js', 'export const all = (n) => import(`./${n}.js`);\n');
  write('src/plugins/one.js', 'export {};\nexport const one = 1;\n');
  write('src/cli.js', "import './plugins/index.js';\n");
  write('src/types.js', '/** @typedef {number} N */\n\nexport {};\n');
  write('src/lonely.js', "/** @type {import('./b.js').b} */\nexport const x = 1;\n");
  write('src/only-in-a-comment.js', 'export const y = 1;\n');
  write(
    'test/t.test.js',
    [
      "import { a } from '../src/a.js';",
      "const BIN = new URL('../src/cli.js', import.meta.url).pathname;",
      "// import '../src/only-in-a-comment.js';",
      "/** @type {import('../src/lonely.js').x} */",
    ].join('\n'),
  );
  assert.deepEqual(unreached([path.join(dir, 'test/t.test.js')], dir), ['src/lonely.js', 'src/only-in-a-comment.js']);
});

test('files without a time start first, then the slowest', () => {
  assert.deepEqual(slowestFirst(['a', 'b', 'c', 'd', 'e'], { a: 1, b: 30, d: 5, e: 5 }), ['c', 'b', 'd', 'e', 'a']);
  assert.deepEqual(slowestFirst(['x'], {}), ['x']);
});

test('options: the ones npm test knows, checked; files and folders that exist; anything else refused', () => {
  const here = { cores: 2, tty: false };
  const o = parseTestArgs(['--no-engine', '--test-name-pattern=verdict', 'test/stats'], { ...here });
  assert.deepEqual(o, {
    paths: ['test/stats'],
    noEngine: true,
    e2e: false,
    namePatterns: ['verdict'],
    only: false,
    reporter: 'tap',
    concurrency: 2,
    timeout: null,
  });
  assert.equal(parseTestArgs([], { cores: 2, tty: true }).reporter, 'spec');
  assert.equal(parseTestArgs(['--test-concurrency=1', '--test-reporter=dot'], here).concurrency, 1);
  assert.equal(parseTestArgs(['--test-timeout=60000'], here).timeout, 60000);
  assert.equal(parseTestArgs(['--e2e'], here).e2e, true);
  for (const [args, says] of /** @type {[string[], RegExp][]} */ ([
    [['--test-concurrency=0'], /--test-concurrency=0: a whole number from 1 to 64/],
    [['--test-concurrency=2; rm'], /a whole number/],
    [['--test-reporter=junit'], /not an option of npm test; it knows --no-engine/],
    [['--experimental-test-coverage'], /not an option of npm test/],
    [['--test-name-pattern'], /not an option of npm test/],
    [['test/no-such-folder'], /test\/no-such-folder: no such test file or folder/],
  ]))
    assert.throws(() => parseTestArgs(args, here), says, args.join(' '));
});

/**
 * A folder of tests: one that passes; two that import the engine helpers, one of them alone on the engine;
 * one left to npm run test:e2e.
 */
function folder() {
  const dir = path.join(tmpDir('npm-test'), 'test');
  mkdirSync(path.join(dir, 'sub'), { recursive: true });
  writeFileSync(path.join(dir, 'pass.test.js'), "import { test } from 'node:test';\ntest('passes', () => {});\n");
  writeFileSync(
    path.join(dir, 'sub', 'engine.test.js'),
    `import { test } from 'node:test';\nimport '${ENGINE}';\ntest('never here without its helper', () => {});\n`,
  );
  writeFileSync(
    path.join(dir, 'sub', 'alone.test.js'),
    `// npm test: alone: it would restart the engine\nimport { test } from 'node:test';\nimport '${ENGINE}';\ntest('never here either', () => {});\n`,
  );
  writeFileSync(
    path.join(dir, 'e2e.test.js'),
    "// npm run test:e2e: a scenario of minutes\nimport { test } from 'node:test';\ntest('the long one', () => {});\n",
  );
  writeFileSync(path.join(dir, 'helper.js'), 'throw new Error("a helper is not a test file");\n');
  return dir;
}

/** @param {string[]} args */
const npmTest = (args) => {
  // As from a terminal: node's runner refuses to start files from inside a test file's process.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, [SCRIPT, '--test-reporter=tap', ...args], { encoding: 'utf8', env });
};

test('--no-engine runs the files that need no engine and names how many it left out', () => {
  const dir = folder();
  const r = npmTest(['--no-engine', dir]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ok 1 - passes$/m);
  assert.doesNotMatch(r.stdout, /never here|a helper is not a test file/);
  assert.match(r.stderr, /npm test: 1 file without an engine, \d+ at a time: \d+ s/);
  assert.match(r.stderr, /npm test: --no-engine left out 2 files with the engine/);
  assert.doesNotMatch(r.stdout, /the long one/);
  assert.match(r.stderr, /npm test: 1 file of long end-to-end scenarios left to npm run test:e2e/);
});

test('--e2e runs the files left to npm run test:e2e, and only those; a file named runs whatever it says', () => {
  const dir = folder();
  const r = npmTest(['--e2e', dir]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ok 1 - the long one$/m);
  assert.doesNotMatch(r.stdout, /passes|never here/);
  assert.match(r.stderr, /npm run test:e2e: 3 files of npm test left to it/);
  const named = npmTest([path.join(dir, 'e2e.test.js')]);
  assert.equal(named.status, 0, named.stdout + named.stderr);
  assert.match(named.stdout, /^ok 1 - the long one$/m);
});

test('the whole run: the engine parts run after the first, and their failure fails the exit code', () => {
  const dir = folder();
  const r = npmTest([dir]);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^ok 1 - passes$/m);
  assert.match(r.stdout, /^not ok 1 - .*engine\.test\.js$/m, 'the engine file ran, and failed on its missing helper');
  assert.match(r.stdout, /^not ok 1 - .*alone\.test\.js$/m, 'so did the one alone on the engine, after it');
  assert.ok(r.stdout.indexOf('engine.test.js') < r.stdout.indexOf('alone.test.js'), r.stdout);
  assert.match(r.stderr, /npm test: 1 file with the engine, one at a time: \d+ s/);
  assert.match(r.stderr, /npm test: 1 file with the engine, alone on it: \d+ s/);
  // A failing file in the first part fails the run too.
  writeFileSync(
    path.join(dir, 'fail.test.js'),
    "import { test } from 'node:test';\ntest('fails', () => { throw new Error('no'); });\n",
  );
  const both = npmTest(['--no-engine', dir]);
  assert.equal(both.status, 1, both.stdout + both.stderr);
  assert.match(both.stdout, /^not ok \d+ - fails$/m);
});
