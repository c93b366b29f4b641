// Register once: a benchmark is its module in src/benchmarks/ and its name in src/benchmarks/names.js;
// nothing else in the code lists it.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BENCHMARKS } from '../../src/benchmarks/index.js';
import { BENCHMARK_NAMES, NOT_BENCHMARKS } from '../../src/benchmarks/names.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDER = path.join(ROOT, 'src/benchmarks');

test('every module of src/benchmarks/ is a listed benchmark, and every listed name has its module', () => {
  const modules = readdirSync(FOLDER)
    .filter((f) => f.endsWith('.js') && !NOT_BENCHMARKS.includes(f))
    .map((f) => f.slice(0, -3))
    .sort();
  assert.deepEqual(
    modules,
    [...BENCHMARK_NAMES].sort(),
    'a module without its name in names.js, or a name without a module',
  );
  for (const name of BENCHMARK_NAMES) assert.equal(BENCHMARKS[name].name, name);
});

test("docs/contributing.md's 'How to add a benchmark' names what the code needs: the module, names.js, the image matrix, fixtures", () => {
  const guide = readFileSync(path.join(ROOT, 'docs/contributing.md'), 'utf8');
  const section = guide.slice(
    guide.indexOf('## How to add a benchmark'),
    guide.indexOf('## How to add an environment'),
  );
  for (const part of [
    'src/benchmarks/<name>.js',
    'src/benchmarks/names.js',
    'src/model/decisions.js',
    'images/docker-bake.hcl',
    'test/fixtures/',
  ])
    assert.ok(section.includes(part), `docs/contributing.md's "How to add a benchmark" names ${part}`);
});

test('a throwaway benchmark in a copy of the project: its module and its name register it', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-register-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const part of ['bin', 'src', 'schema', 'images', 'package.json'])
    cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(
    path.join(dir, 'src/benchmarks/noop.js'),
    `/** @type {import('./benchmark.js').Benchmark<{seconds: number}>} */
export const noop = {
  name: 'noop',
  image: 'lifecycle',
  description: 'a throwaway benchmark that measures nothing',
  params: { quick: { seconds: 4 } },
  estimateSeconds: (p) => p.seconds,
  async measure() {
    return [{ metric: 'nothing_ms', unit: 'ms', better: 'lower', value: 1 }];
  },
};
`,
  );
  const names = path.join(dir, 'src/benchmarks/names.js');
  writeFileSync(names, readFileSync(names, 'utf8').replace('\n];', "\n  'noop',\n];"));
  // Without its question it is refused when the suite loads it, naming where to add it.
  const refused = runCli(['plan', '--bench', 'noop', '--env', 'docker', '--iterations', '2'], {
    bin: path.join(dir, 'bin/dind-bench.js'),
  });
  assert.notEqual(refused.status, 0);
  assert.match(
    refused.stderr,
    /src\/benchmarks\/noop\.js has no decision metric: add it to DECISIONS in src\/model\/decisions\.js/,
  );
  const decisions = path.join(dir, 'src/model/decisions.js');
  writeFileSync(
    decisions,
    readFileSync(decisions, 'utf8').replace(
      '  isolation: {',
      "  noop: { metrics: ['nothing_ms'], resource: 'CPU' },\n  isolation: {",
    ),
  );
  const help = runCli(['run', '--help'], { bin: path.join(dir, 'bin/dind-bench.js') });
  assert.match(help.stdout.replace(/\s+/g, ' '), /, noop\)/, 'run --help offers it');
  const plan = runCli(['plan', '--bench', 'noop', '--env', 'docker', '--iterations', '2'], {
    bin: path.join(dir, 'bin/dind-bench.js'),
  });
  assert.equal(plan.status, 0, plan.stderr);
  assert.match(plan.stdout + plan.stderr, /noop\s+\{"seconds":4\}\s+4\s+2\b/, 'plan estimates it from its parameters');
});

test('every registered benchmark keeps the contract: description, quick parameters, an estimate, an image the bake file builds', async () => {
  const { bakeMatrix } = await import('../../src/images/matrix.js');
  const { images } = await bakeMatrix();
  for (const [name, bench] of Object.entries(BENCHMARKS)) {
    assert.ok(bench.description.length > 20, `${name}: a description`);
    assert.ok(bench.params.quick, `${name}: quick parameters (every profile falls back to them)`);
    assert.equal(typeof bench.estimateSeconds, 'function', `${name}: estimateSeconds, for dind-bench plan`);
    const s = /** @type {(p: unknown) => number} */ (bench.estimateSeconds)(bench.params.quick);
    assert.ok(Number.isFinite(s) && s > 0, `${name}: a positive estimate for its quick parameters (${s})`);
    assert.ok(images.includes(bench.image), `${name}: its image ${bench.image} is in images/docker-bake.hcl`);
  }
});
