// What only the runner can tell about a workload is checked before anything runs (issue 37, item 6), on the
// real engine: a seed or a present image missing from the runner's engine refuses the run at once (exit 1,
// naming the file, the field and what to do), before its registry, pulls and builds; so does a compose stack
// without the compose plugin.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { findPlugin } from '../../src/engine/cli.js';
import { loadWorkload } from '../../src/workload/load.js';
import { checkOnRunner } from '../../src/workload/preflight.js';
import { engineOrSkip, onEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/run-cli.js';
import path from 'node:path';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-preflight-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A name no engine has. */
const NONE = `dind-bench-test-none-${process.pid}/image:1`;

/** @param {string[]} lines @param {Record<string, string>} [files] */
function workload(lines, files = {}) {
  const dir = mkdtempSync(path.join(work, 'w-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, ['version: 1', 'name: pre', ...lines, ''].join('\n'));
  return file;
}

for (const [what, image, field] of [
  ['a seed', `{ name: team/a:1, source: pull, seed: ${NONE} }`, 'seed'],
  ['a present image', `{ name: ${NONE}, source: present }`, 'name'],
  ['a present stand-in', `{ name: team/a:1, source: present, from: ${NONE} }`, 'from'],
]) {
  test(`${what} missing from the runner's engine refuses the run before anything starts`, async (t) => {
    const setup = await onEngine(t);
    if (!setup) return;
    const file = workload([`images: [${image}]`, 'steps: [{name: s, run: "true"}]']);
    const out = path.join(work, `out-${field}`);
    const t0 = performance.now();
    const r = runCli(['run', '--workload', file, '--env', 'docker', '--iterations', '1', '--out', out], {
      timeout: 300_000,
    });
    const seconds = (performance.now() - t0) / 1000;
    assert.equal(r.status, 1, `exit 1: the run could not start\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
    assert.ok(
      r.stderr.includes(`${file}: field /images/0/${field}: ${NONE} is not an image of the runner's engine`),
      r.stderr,
    );
    assert.match(r.stderr, /build or load it first/);
    assert.ok(!existsSync(path.join(out, 'results.json')), 'nothing ran: no results');
    assert.ok(seconds < 30, `refused at once (${seconds.toFixed(1)} s)`);
    await setup.leftAsFound('the engine is as found');
  });
}

test('a compose stack without the compose plugin is refused up front, saying how to install it', async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  const file = workload(['compose: { file: compose.yml }'], { 'compose.yml': 'services: {db: {image: team/db:1}}\n' });
  const w = await loadWorkload(file);
  await assert.rejects(checkOnRunner(w, { docker: outer, plugin: () => null }), (e) => {
    assert.match(
      String(/** @type {Error} */ (e).message),
      /workload\.yml: field \/compose: the workload's compose stack needs the docker compose v2 plugin, which is not installed .*bash runners\/common\/install-plugins\.sh compose/,
    );
    return true;
  });
  // Where the plugin is installed (the CLI finds it where findPlugin looks), the same workload passes.
  if (findPlugin('docker-compose')) await checkOnRunner(w, { docker: outer });
  // A workload without a compose stack does not need the plugin.
  const plain = await loadWorkload(workload(['steps: [{name: s, run: "true"}]']));
  await checkOnRunner(plain, { docker: outer, plugin: () => null });
});
