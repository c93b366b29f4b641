// `dind-bench --help` must start in about the time of bare node: the command modules load their work in
// their actions. Timing is measured by bench/cli-startup.js (a loaded machine makes a timing test flaky);
// this test checks the cause instead: which modules `--help` loads, recorded by a module resolve hook.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCHMARK_NAMES as REGISTERED_BENCHMARKS } from '../../src/benchmarks/index.js';
import {
  DEFAULT_ENVIRONMENTS as REGISTERED_DEFAULTS,
  ENVIRONMENT_NAMES as REGISTERED_ENVIRONMENTS,
  hasEngineLines as registeredHasEngineLines,
} from '../../src/environments/index.js';
import { LAYOUTS as REGISTERED_LAYOUTS } from '../../src/workflow/job-matrix.js';
import { BENCHMARK_NAMES, DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES, hasEngineLines } from '../../src/cli/names.js';
import { runCli } from '../helpers/run-cli.js';

// Registers a resolve hook that prints every module URL the program loads to stderr.
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  'export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write("LOADED " + r.url + "\\\\n"); return r; }'));
`)}`;

/** @param {string[]} args */
function loadedBy(args) {
  const r = runCli(args, { nodeArgs: ['--import', HOOK] });
  return { status: r.status, stdout: r.stdout, loaded: [...r.stderr.matchAll(/^LOADED (.*)$/gm)].map((m) => m[1]) };
}

test("the names the CLI parses without loading the registries are the registries' names", () => {
  assert.deepEqual(BENCHMARK_NAMES, REGISTERED_BENCHMARKS);
  assert.deepEqual(ENVIRONMENT_NAMES, REGISTERED_ENVIRONMENTS);
  assert.deepEqual(DEFAULT_ENVIRONMENTS, REGISTERED_DEFAULTS);
  for (const n of ENVIRONMENT_NAMES) assert.equal(hasEngineLines(n), registeredHasEngineLines(n));
  assert.deepEqual(['separate', 'interleaved', 'both'], REGISTERED_LAYOUTS);
});

for (const args of [['--help'], ['run', '--help'], ['compare', '--help'], ['publish', '--help']]) {
  test(`dind-bench ${args.join(' ')} loads no engine client, benchmark, history or report module`, () => {
    const r = loadedBy(args);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^Usage: dind-bench/);
    assert.ok(
      r.loaded.some((u) => u.endsWith('/src/cli/main.js')),
      'the hook saw the program load',
    );
    // The environments' and benchmarks' names come from their one lists, which import nothing; no other
    // environment or benchmark module loads.
    assert.ok(r.loaded.some((u) => u.endsWith('/src/environments/names.js')));
    assert.ok(r.loaded.some((u) => u.endsWith('/src/benchmarks/names.js')));
    const heavy = r.loaded.filter((u) =>
      /node_modules\/(dockerode|@actions|ajv|simple-statistics|yaml|tar-stream)\/|\/src\/(engine|benchmarks\/(?!names\.js$)|environments\/(?!names\.js$)|history|compare|results|site)\b/.test(
        u,
      ),
    );
    assert.deepEqual(heavy, []);
  });
}
