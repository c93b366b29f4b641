// runSteps: several client steps in one container (here: one native process, the same shell script),
// each with its own output, raw file and exit code; a failing step fails like runStep, by name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSteps } from '../../src/benchmarks/benchmark.js';
import { NativeEnvironment } from '../../src/environments/native.js';

async function setup() {
  const env = new NativeEnvironment();
  await env.setup();
  /** @type {Record<string, string>} */
  const raw = {};
  const ctx = {
    image: 'unused',
    timeoutMs: 10_000,
    saveRaw: async (/** @type {string} */ n, /** @type {string} */ t) => void (raw[n] = t),
  };
  return { env, ctx, raw };
}

test('each step gets its own output, stderr included, and its own raw file', async (t) => {
  const { env, ctx, raw } = await setup();
  t.after(() => env.teardown());
  const out = await runSteps(env, ctx, [
    { step: 'one', sh: 'echo first; echo to-stderr >&2' },
    { step: 'two', sh: 'printf "a\\nb\\n"' },
  ]);
  assert.deepEqual(out, { one: 'first\nto-stderr\n', two: 'a\nb\n' });
  assert.deepEqual(raw, out);
});

test('the first failing step fails the call with its name, exit code and first line; its raw output is kept', async (t) => {
  const { env, ctx, raw } = await setup();
  t.after(() => env.teardown());
  await assert.rejects(
    runSteps(env, ctx, [
      { step: 'fine', sh: 'echo ok' },
      { step: 'broken', sh: 'echo "iperf3: error - unable to connect to server"; exit 3' },
      { step: 'later', sh: 'echo never read' },
    ]),
    (/** @type {any} */ e) =>
      e.step === 'broken' && /^step broken: .* exited 3: iperf3: error - unable to connect to server/.test(e.message),
  );
  assert.equal(raw.broken, 'iperf3: error - unable to connect to server\n');
});

test('a script cut short (killed, timed out) names the step that never finished', async (t) => {
  const { env, ctx } = await setup();
  t.after(() => env.teardown());
  await assert.rejects(
    runSteps(env, ctx, [
      { step: 'dies', sh: 'echo partial; kill -9 $$' },
      { step: 'after', sh: 'echo x' },
    ]),
    (/** @type {any} */ e) =>
      e.step === 'dies' &&
      /^step dies: cut short \(the script exited -?\d+ before this step finished\): partial/.test(e.message),
  );
});
