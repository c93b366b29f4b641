// The run's start says what a workload's images leave to the runner with what the runner's real engine holds
// (issue 55, item 5): an undeclared compose image it holds (docker's jobs use that copy) and one it does not.
// Only reads the engine (an image inspect): nothing is created.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { withWorkload } from '../../src/run/workload.js';
import { engineOrSkip } from '../helpers/engine.js';

const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-image-notes-engine-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A name no engine has. */
const NONE = `dind-bench-test-none-${process.pid}/image:1`;

test("the run's start asks the real engine what it holds", async (t) => {
  const outer = await engineOrSkip(t);
  if (!outer) return;
  // Held: the suite's own image the run builds first; not held: a name no engine has.
  const dir = mkdtempSync(path.join(work, 'e-'));
  writeFileSync(
    path.join(dir, 'compose.yml'),
    `services:\n  a:\n    image: dind-bench/lifecycle:debian\n  b:\n    image: ${NONE}\n`,
  );
  const file = path.join(dir, 'workload.yml');
  writeFileSync(file, 'version: 1\nname: held\ncompose: { file: compose.yml }\n');
  const hasSuite = await outer
    .getImage('dind-bench/lifecycle:debian')
    .inspect()
    .then(
      () => true,
      () => false,
    );
  if (!hasSuite) return t.skip('dind-bench/lifecycle:debian is not built on this engine');
  /** @type {string[]} */
  const said = [];
  const job = await withWorkload(file, [], { docker: outer, log: (l) => said.push(l) });
  assert.deepEqual(
    said,
    job.notes.map((n) => `workload: ${n}`),
    'said before anything runs',
  );
  assert.match(job.notes.find((n) => n.includes('service a ')) ?? '', /the runner's engine holds it/);
  assert.match(job.notes.find((n) => n.includes('service b ')) ?? '', /the runner's engine does not hold it either/);
});
