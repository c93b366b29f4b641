// A workload at the README's path, .github/dind-bench/workload.yml, builds the repository it is in (issue
// 43, item 4), on the real engine: its root is the repository, so `context: ../..` is the repository's
// top, which the run copies; a step runs in the file's folder of that copy; the engine is left as found.
// npm test: alone: it compares every image name and ID on the engine before and after
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { imageState, onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-repository-root-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('.github/dind-bench/workload.yml builds the repository it is in', async (t) => {
  const setup = await onEngine(t);
  if (!setup) return;
  const { outer } = setup;
  const images = await imageState(outer);
  const repo = path.join(work, 'repo');
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(path.join(repo, '.github', 'dind-bench'), { recursive: true });
  writeFileSync(path.join(repo, 'go.mod'), 'module example.com/app\n');
  writeFileSync(path.join(repo, 'Dockerfile'), 'FROM dind-bench/lifecycle:debian\nCOPY go.mod /src/go.mod\n');
  const file = path.join(repo, '.github', 'dind-bench', 'workload.yml');
  writeFileSync(
    file,
    [
      'version: 1',
      'name: repo-build',
      'builds:',
      '  - { name: app, context: ../.., tag: dind-bench-test/repo-build:ci }',
      'steps:',
      '  - name: where',
      '    run: test -f ../../go.mod && test -f workload.yml && docker run --rm dind-bench-test/repo-build:ci test -f /src/go.mod',
      '',
    ].join('\n'),
  );
  const out = path.join(work, 'out');
  const r = runCli(['run', '--workload', file, '--env', 'docker', '--iterations', '1', '--out', out], {
    timeout: 400_000,
  });
  assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
  const cell = results.cells.find((/** @type {any} */ c) => c.benchmark === 'workload.repo-build');
  assert.equal(cell?.status, 'ok', cell?.reason);
  assert.ok(cell.metrics.some((/** @type {any} */ m) => m.metric === 'build.app_ms'));
  assert.deepEqual(await imageState(outer), images, "the runner's image names and IDs are as found");
  await setup.leftAsFound();
});
