// seed.yml works with the caller the README and docs/use-in-your-repository.md show, as written (issue 36):
// GitHub refuses a dispatch with an input the dispatched workflow does not declare ("Unexpected inputs
// provided"), and that caller declares none. Its step's script runs here under bash as the runner runs it,
// with a stand-in `gh` on PATH that answers as GitHub does: it refuses any input the caller's
// workflow_dispatch does not declare (read from the README's own YAML block), lists one more run after
// each dispatch, and reports each watched run a success.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';

const ROOT = new URL('../..', import.meta.url).pathname;
const read = (/** @type {string} */ rel) => readFileSync(path.join(ROOT, rel), 'utf8');
const tmp = mkdtempSync(path.join(tmpdir(), 'dind-bench-seed-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The caller workflow a doc shows (the YAML block with the dind-bench job) and the file it says it is. @param {string} rel */
function docCaller(rel) {
  const block = read(rel)
    .split('```yaml')
    .slice(1)
    .map((b) => b.split('```')[0])
    .find((b) => parse(b)?.jobs?.['dind-bench']);
  assert.ok(block, `${rel} shows a caller`);
  // The file the block says it is (seed.yml dispatches bench.yml by name), bench.yml when it says none.
  const file = /^# \.github\/workflows\/([\w.-]+\.ya?ml) in your repository/m.exec(block)?.[1] ?? 'bench.yml';
  return { file, workflow: parse(block) };
}

/** The names a workflow's dispatch declares. @param {any} workflow @returns {string[]} */
const declared = (workflow) => Object.keys(workflow.on?.workflow_dispatch?.inputs ?? {});

/**
 * Runs seed.yml's script with RUNS runs against a stand-in gh for a workflow that declares `inputs`.
 * @param {string[]} inputs @param {string} runs
 */
function seed(inputs, runs) {
  const dir = mkdtempSync(path.join(tmp, 'run-'));
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  const stub = (/** @type {string} */ name, /** @type {string} */ body) => {
    writeFileSync(path.join(bin, name), `#!/usr/bin/env bash\nset -euo pipefail\nS=${JSON.stringify(dir)}\n${body}`);
    chmodSync(path.join(bin, name), 0o755);
  };
  writeFileSync(path.join(dir, 'runs'), '100');
  // gh workflow run FILE [-R R] [--ref REF] [-f|-F|--field|--raw-field NAME=VALUE]...; gh run list ...;
  // gh run watch ID ...
  stub(
    'gh',
    `echo "gh $*" >> "$S/calls"
case "$1 $2" in
  "workflow run")
    file=$3; shift 3; bad=()
    while [ $# -gt 0 ]; do
      case "$1" in
        -f|-F|--field|--raw-field) name=\${2%%=*}; shift
          if ! grep -qxF "$name" "$S/declared"; then bad+=("\\"$name\\""); fi ;;
        --json) bad+=('"(stdin)"') ;;
        -R|--ref) shift ;;
      esac
      shift
    done
    if [ \${#bad[@]} -gt 0 ]; then
      echo "could not create workflow dispatch event: HTTP 422: Unexpected inputs provided: [$(IFS=,; echo "\${bad[*]}")]" >&2
      exit 1
    fi
    echo "dispatched $file" >> "$S/calls"
    echo $(( $(cat "$S/runs") + 1 )) > "$S/runs" ;;
  "run list") cat "$S/runs" ;;
  "run watch") exit 0 ;;
  *) echo "gh stand-in: unexpected $*" >&2; exit 2 ;;
esac
`,
  );
  stub('sleep', 'exit 0\n');
  writeFileSync(path.join(dir, 'declared'), inputs.map((i) => `${i}\n`).join(''));
  writeFileSync(path.join(dir, 'calls'), '');
  // The dispatching step (the job opens with the hosted-only one: workflows.test.js).
  const step = parse(read('.github/workflows/seed.yml')).jobs.seed.steps.find((/** @type {any} */ s) => s.env?.RUNS);
  writeFileSync(path.join(dir, 'seed.sh'), step.run);
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', path.join(dir, 'seed.sh')], {
    encoding: 'utf8',
    env: { PATH: `${bin}:${process.env.PATH}`, RUNS: runs, GITHUB_REPOSITORY: 'owner/app', REF: 'main' },
  });
  const calls = readFileSync(path.join(dir, 'calls'), 'utf8').split('\n').filter(Boolean);
  return { status: r.status, out: r.stdout + r.stderr, calls };
}

test("seed.yml seeds the README's caller as written: each run dispatched with only inputs the caller declares", () => {
  for (const rel of ['README.md', 'docs/use-in-your-repository.md']) {
    const { file, workflow } = docCaller(rel);
    const r = seed(declared(workflow), '3');
    assert.equal(r.status, 0, `${rel}\n${r.out}`);
    // Three runs, one after another, each of the workflow file the caller is.
    assert.deepEqual(
      r.calls.filter((c) => c.startsWith('dispatched')),
      [`dispatched ${file}`, `dispatched ${file}`, `dispatched ${file}`],
      rel,
    );
    assert.equal(r.calls.filter((c) => c.startsWith('gh run watch')).length, 3, rel);
    assert.match(r.out, /seed run 3 of 3: https:\/\/github\.com\/owner\/app\/actions\/runs\/103/);
  }
});

test("seed.yml's dispatch fits every caller the project ships: the example consumer's and dind-bench's own bench.yml", () => {
  for (const rel of ['examples/consumer/.github/workflows/bench.yml', '.github/workflows/bench.yml']) {
    const r = seed(declared(parse(read(rel))), '1');
    assert.equal(r.status, 0, `${rel}\n${r.out}`);
    assert.deepEqual(
      r.calls.filter((c) => c.startsWith('dispatched')),
      ['dispatched bench.yml'],
      rel,
    );
  }
});

test('seed.yml refuses a number of runs outside 1 to 10 before dispatching anything', () => {
  for (const runs of ['0', '11', '5; echo x', '']) {
    const r = seed([], runs);
    assert.equal(r.status, 1, runs);
    assert.match(r.out, /runs must be a whole number from 1 to 10/);
    assert.deepEqual(r.calls, [], runs);
  }
});
