// Calibration: before the budget is decided, a probe of about a second times this machine, and the plan's
// estimates (./estimate.js: each benchmark's quickStepS, measured on this project's quiet 2-core machine)
// are scaled by how much slower or faster it ran here than there. Why an in-process probe and not a step of
// the plan: a step needs its environment set up first, and what the budget decides at plan time is which
// environments to set up at all (a DinD environment's start and image loads are the dearest part of a cell
// left out); the probe needs nothing and costs about a second. It does what makes a run slower on a shared
// or throttled runner: CPU work on one thread (a step is one container's work at a time, and what slows it
// is a core it cannot get: on two threads the probe read a run pinned to one core as 1.89x slower while its
// steps ran at about 1x, and left out cells the budget could hold, docs/planning.md; with one core busy
// beside a run its steps ran 1.0-1.6x, docs/noise.md), then writes with fsync (what a disk load beside the run slows: container layers, image
// loads). The probe is a coarse guide: time-bound tools (sysbench, iperf3) do not run faster on a faster
// machine, so the factor is bounded, and each cell's own first iteration replaces its estimate (./replan.js).
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * The probe's time on the machine the estimates were measured on (this project's 2-core machine), estimated
 * from its parts at their fastest there (`npm run bench:calibration`: the machine was never quiet while it
 * was measured; docs/planning.md "Calibration and the re-plan").
 */
export const REFERENCE_PROBE_MS = 650;
/** Threads the probe's CPU part runs on: one, as a step's own work mostly does (see above). */
export const PROBE_THREADS = 1;
/**
 * SHA-256 rounds over 64 KiB each thread does (about 0.5 s on a free core of the reference machine), and
 * the MiB the disk part writes (fsync after each; about 0.1 s there).
 */
export const CPU_ROUNDS = 13_000;
export const DISK_MIB = 32;
/**
 * The factor's bounds: below 0.75 the time-bound tools would make a faster machine's plan too short to hold;
 * above 4 a burst during the probe is the likelier cause, and the first iterations re-plan anyway.
 */
export const FACTOR_MIN = 0.75;
export const FACTOR_MAX = 4;

/**
 * @typedef {{ cpuMs: number, diskMs: number, probeMs: number }} Probe
 * @typedef {{ probeMs: number, referenceMs: number, factor: number }} Calibration
 *   factor: this machine's estimate for a step over the reference's (the plan's estimates times it)
 */

/**
 * How this machine compares with the reference: the probe's time over the reference's, bounded
 * (FACTOR_MIN, FACTOR_MAX), to two decimals.
 * @param {number} probeMs @param {number} [referenceMs] @returns {Calibration}
 */
export function calibrationOf(probeMs, referenceMs = REFERENCE_PROBE_MS) {
  if (!(probeMs > 0) || !(referenceMs > 0)) return { probeMs: Math.max(0, probeMs || 0), referenceMs, factor: 1 };
  const factor = Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, probeMs / referenceMs));
  return { probeMs: Math.round(probeMs), referenceMs, factor: Math.round(factor * 100) / 100 };
}

/**
 * A plan's estimates on this machine: each step's and the set-up's times the factor.
 * @template {{ steps: number[], setupS: number }} E @param {E} estimates @param {number} factor @returns {E}
 */
export function calibrated(estimates, factor) {
  return { ...estimates, steps: estimates.steps.map((s) => s * factor), setupS: estimates.setupS * factor };
}

/** Probes a run takes at most: the fastest counts (see fastestProbe). */
export const PROBES = 3;

/**
 * The fastest of up to `n` probes, in ms: one probe is one moment, and a burst then (an image build just
 * finished, a neighbour's spike) scaled a quiet machine's plan by 1.24 and left its network question out
 * (a quick run, 2026-12-07, load 0.0: the probe took 805 ms where ten in a row took 608-724). The fastest
 * of a few is the machine's capacity under its steady load, which is what the estimates should follow.
 * It stops at the first probe no slower than the reference: a faster one would only make the plan bolder.
 * @param {string} dir @param {number} [n]
 * @param {(dir: string) => Promise<Probe>} [probe] the probe (probeMachine; a test may time another)
 * @returns {Promise<number>}
 */
export async function fastestProbe(dir, n = PROBES, probe = probeMachine) {
  let best = Infinity;
  for (let i = 0; i < n && best > REFERENCE_PROBE_MS; i++) best = Math.min(best, (await probe(dir)).probeMs);
  return best;
}

/**
 * Times the probe: the CPU part on PROBE_THREADS threads at once, then the disk part in a folder of its own
 * under `dir` (removed after). It never takes much longer than `limitMs`: past it the factor is at its
 * bound whatever the rest would take, so the threads are stopped and the writes end there (probeMs is then
 * at least limitMs).
 * @param {string} dir @param {number} [limitMs] @returns {Promise<Probe>}
 */
export async function probeMachine(dir, limitMs = REFERENCE_PROBE_MS * FACTOR_MAX) {
  const t0 = performance.now();
  const deadline = t0 + limitMs;
  const workers = Array.from({ length: PROBE_THREADS }, () => cpuThread(CPU_ROUNDS));
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  // An unbounded probe (bench:calibration times each part whole) has no timer: setTimeout would take
  // Infinity as 1 ms.
  const late = new Promise((resolve) => {
    if (Number.isFinite(limitMs)) timer = setTimeout(resolve, limitMs);
  });
  await Promise.race([Promise.all(workers.map((w) => w.done)), late]);
  clearTimeout(timer);
  await Promise.all(workers.map((w) => w.worker.terminate()));
  const t1 = performance.now();
  await diskWrites(dir, DISK_MIB, deadline);
  const t2 = performance.now();
  return { cpuMs: Math.round(t1 - t0), diskMs: Math.round(t2 - t1), probeMs: Math.round(t2 - t0) };
}

/** The worker's work: chained SHA-256 over 64 KiB, so no round can be skipped. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const block = Buffer.alloc(65536, 7);
let h = Buffer.alloc(32);
for (let i = 0; i < workerData; i++) h = createHash('sha256').update(h).update(block).digest();
parentPort.postMessage(h.toString('hex'));
`;

/** @param {number} rounds @returns {{ worker: Worker, done: Promise<unknown> }} */
function cpuThread(rounds) {
  const worker = new Worker(WORKER, { eval: true, workerData: rounds });
  const done = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { worker, done };
}

/** @param {string} dir @param {number} mib @param {number} deadline performance.now() past which it stops */
async function diskWrites(dir, mib, deadline) {
  const own = await mkdtemp(path.join(dir, '.calibration-'));
  try {
    const f = await open(path.join(own, 'probe'), 'w');
    try {
      // Each MiB differs (a hash of its index), so no layer below can tell writes apart.
      for (let i = 0; i < mib && performance.now() < deadline; i++) {
        const seed = createHash('sha256').update(String(i)).digest();
        await f.write(Buffer.alloc(1 << 20, seed));
        await f.datasync();
      }
    } finally {
      await f.close();
    }
  } finally {
    await rm(own, { recursive: true, force: true });
  }
}
