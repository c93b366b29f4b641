// The start-up timeline: parsing dockerd's own log (real logs of Engine 20.10 and 26.1 as fixtures) and
// the entrypoint's marks, laying marks on one axis, and, on the real engine, phases that add up within
// 5% to a stopwatch this test holds itself (from the call that asks for the start to the first output,
// on the host's clock, apart from every mark) for Docker and for DinD, with TLS material made at start
// when asked.
// npm test: alone: start-up phases must add up within 5% to a stopwatch; a neighbour's load stretches the gaps
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { ResourceTracker } from '../../src/engine/resources.js';
import {
  CONTAINER_TIMELINE,
  DAEMON_LOG_MARKS,
  DIND_TIMELINE,
  buildTimeline,
  parseDaemonLog,
  parseEntrypointMarks,
} from '../../src/engine/startup.js';
import { demuxLog } from '../../src/environments/dind-daemon.js';
import { createEnvironment } from '../../src/environments/index.js';
import { benchImage } from '../../src/images/catalog.js';
import { onEngine } from '../helpers/engine.js';

const fixture = (/** @type {string} */ name) =>
  readFile(new URL(`../fixtures/dockerd/${name}`, import.meta.url), 'utf8');

for (const engine of ['20.10', '26.1']) {
  test(`dockerd ${engine}'s log gives every phase mark, in order, to the nanosecond`, async () => {
    const marks = parseDaemonLog(await fixture(`engine-${engine}.log`));
    assert.deepEqual(
      Object.keys(marks),
      DAEMON_LOG_MARKS.map(([m]) => m),
    );
    const times = Object.values(marks);
    for (let i = 1; i < times.length; i++) assert.ok(times[i] >= times[i - 1], `${Object.keys(marks)[i]} out of order`);
    // Sub-millisecond digits survive (Date.parse alone would drop them).
    assert.ok(times.some((t) => t % 1 !== 0));
  });
}

test('a dockerd log: seconds-only stamps, foreign and repeated lines do not place a mark', () => {
  const log = [
    'time="2026-11-23T10:45:02Z" level=info msg="Starting up"',
    'garbage msg="Loading containers: start."',
    'time="2026-11-23T10:45:02.500000000Z" level=info msg="Starting up"',
    'time="2026-11-23T10:45:02.750Z" level=info msg="Loading containers: start."',
    'time="2026-11-23T10:45:03.000Z" level=info msg="Loading containers: start."',
  ].join('\n');
  assert.deepEqual(parseDaemonLog(log), {
    daemon_logging: Date.parse('2026-11-23T10:45:02.500Z'),
    containers_loading: Date.parse('2026-11-23T10:45:02.750Z'),
  });
});

test('entrypoint marks: nanoseconds to milliseconds exactly, unknown names and malformed lines ignored', () => {
  const marks = parseEntrypointMarks(
    'entrypoint_begin 1795430702035307800\nbogus 1795430702035307800\ntls_done 12\nexec_daemon 1795430702036414447\n',
  );
  assert.deepEqual(marks, { entrypoint_begin: 1795430702035.307, exec_daemon: 1795430702036.414 });
});

test('buildTimeline: phases between consecutive marks, repeated phases added, missing and clamped marks named', () => {
  const spec = /** @type {[string, string | null][]} */ ([
    ['begin', null],
    ['a', 'one'],
    ['b', 'two'],
    ['c', 'one'],
    ['d', 'three'],
  ]);
  const t = buildTimeline(spec, { begin: 100, a: 110, b: 105, c: 130, d: 131 }, 31);
  assert.deepEqual(t.phases, [
    { phase: 'one', ms: 30 },
    { phase: 'two', ms: 0 },
    { phase: 'three', ms: 1 },
  ]);
  assert.deepEqual(t.clamped, ['b']);
  assert.equal(t.sum_ms, 31);
  const gap = buildTimeline(spec, { begin: 0, a: 10, d: 40 }, 40, ['b']);
  assert.deepEqual(gap.missing, ['c']);
  assert.deepEqual(gap.phases, [
    { phase: 'one', ms: 10 },
    { phase: 'three', ms: 30 },
  ]);
  assert.throws(() => buildTimeline(spec, { a: 1 }, 1), /no "begin" mark/);
});

test('demuxLog: the text of multiplexed log frames, a truncated last frame cut', () => {
  const frame = (/** @type {number} */ stream, /** @type {string} */ text) => {
    const head = Buffer.alloc(8);
    head[0] = stream;
    head.writeUInt32BE(Buffer.byteLength(text), 4);
    return Buffer.concat([head, Buffer.from(text)]);
  };
  const buf = Buffer.concat([frame(2, 'one\n'), frame(1, 'two\n'), frame(2, 'three\n').subarray(0, 11)]);
  assert.equal(demuxLog(buf), 'one\ntwo\nthr');
});

/**
 * A stopwatch of the test's own around one start: started now, stopped by the environment's `onEnd`
 * (the first output, or the first OK /_ping), read on the host's monotonic clock.
 */
function harnessWatch() {
  const t0 = performance.now();
  let t1 = NaN;
  return {
    onEnd: () => {
      if (Number.isNaN(t1)) t1 = performance.now();
    },
    ms: () => t1 - t0,
  };
}

/**
 * @param {import('../../src/engine/startup.js').Timeline} t
 * @param {number} measured the test's own stopwatch of the same start
 * @param {string} what
 */
function assertAddsUp(t, measured, what) {
  assert.deepEqual(t.missing, [], `${what}: missing marks`);
  assert.deepEqual(t.clamped, [], `${what}: marks out of order`);
  for (const p of t.phases) assert.ok(p.ms >= 0, `${what}: ${p.phase} = ${p.ms}`);
  assert.ok(Number.isFinite(measured) && measured > 0, `${what}: the stopwatch was not stopped (${measured})`);
  const sum = t.phases.reduce((a, p) => a + p.ms, 0);
  assert.ok(
    Math.abs(sum - measured) <= 0.05 * measured,
    `${what}: phases add up to ${sum} ms, the test's stopwatch says ${measured} ms`,
  );
  // The environment's own total is a stopwatch too, started after the test's and stopped at the same event.
  assert.ok(t.total_ms <= measured && t.total_ms >= 0.95 * measured, `${what}: total ${t.total_ms} vs ${measured} ms`);
}

const IMAGE = benchImage('lifecycle', 'debian');

test("docker: the first container's phases add up to the test's own stopwatch within 5%", async (t) => {
  const setup = await onEngine(t, { engines: [] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-startup-docker-${process.pid}`);
  const env = /** @type {any} */ (createEnvironment('docker', outer, null));
  try {
    await env.setup({ tracker, images: [IMAGE] });
    const watch = harnessWatch();
    const timeline = await env.startupTimeline({ image: IMAGE, timeoutMs: 60_000, onEnd: watch.onEnd });
    assert.deepEqual(
      timeline.phases.map((/** @type {any} */ p) => p.phase),
      CONTAINER_TIMELINE.slice(1).map(([, p]) => p),
    );
    assertAddsUp(timeline, watch.ms(), 'docker');
  } finally {
    await env.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.leftAsFound();
});

test("dind@20.10: every phase from the call to first output, adding up to the test's stopwatch within 5%; TLS on adds the key material", async (t) => {
  const setup = await onEngine(t, { engines: ['20.10'] });
  if (!setup) return;
  const { outer } = setup;
  const tracker = new ResourceTracker(`test-startup-dind-${process.pid}`);
  const env = /** @type {any} */ (createEnvironment('dind', outer, '20.10'));
  try {
    await env.setup({ tracker, images: [] });
    const watch = harnessWatch();
    const cycle = await env.daemonCycle({ firstContainer: { image: IMAGE, timeoutMs: 120_000 }, onEnd: watch.onEnd });
    const phases = cycle.timeline.phases.map((/** @type {any} */ p) => p.phase);
    const expected = [...new Set(DIND_TIMELINE.slice(1).map(([, p]) => p))].filter((p) => p !== 'tls_material');
    assert.deepEqual(phases, expected);
    assertAddsUp(cycle.timeline, watch.ms(), 'dind');
    // The image load is timed on its own as well: the phase between its marks agrees with it.
    const load = cycle.timeline.phases.find((/** @type {any} */ p) => p.phase === 'image_load').ms;
    assert.ok(
      Math.abs(load - cycle.image_load_ms) < 5,
      `image_load phase ${load} ms vs timer ${cycle.image_load_ms} ms`,
    );

    const tlsWatch = harnessWatch();
    const tls = await env.daemonCycle({ tls: true, onEnd: tlsWatch.onEnd });
    assertAddsUp(tls.timeline, tlsWatch.ms(), 'dind with TLS');
    const material = tls.timeline.phases.find((/** @type {any} */ p) => p.phase === 'tls_material');
    // Three 4096-bit RSA keys: never a matter of milliseconds.
    assert.ok(material && material.ms > 100, `tls_material = ${material?.ms} ms`);
    assert.equal(tls.timeline.phases.at(-1).phase, 'ping_ready');
  } finally {
    await env.teardown();
    assert.deepEqual(await tracker.cleanup(outer), []);
  }
  await setup.leftAsFound();
});
