// Disk traffic and space of an engine's data-root while a workload runs, seen from the host.
//
// Why from the host: on cgroup v1 (still common on runners) a container's blkio counters miss buffered
// writes, which the kernel flushes later on behalf of no cgroup, so they cannot say what `docker build`
// wrote. The block device's own counters and the filesystem's free space can, for the filesystem that
// holds the data-root (for DinD: the outer engine's data-root, where the inner one's volume or layer
// lives). Both are host-wide: anything else writing to that disk at the same time is counted too, so
// measure on a quiet runner. (The engine's own `docker system df` would be exact, but Engine 20.10
// cannot limit it to images: it sizes every container's layer, seconds for a vfs DinD, at each call.)
import { execFile } from 'node:child_process';
import { readFile, stat, statfs } from 'node:fs/promises';
import { promisify } from 'node:util';

const SECTOR_BYTES = 512; // /sys/block/*/stat counts 512-byte sectors whatever the device's block size

/** Flushes dirty pages to disk, so a device counter read afterwards includes what was written before. */
export const syncDisks = () => promisify(execFile)('sync').then(() => undefined);

/**
 * The /sys stat file of the block device holding `path`, or null when there is none (an overlay or tmpfs
 * root, e.g. a runner that itself runs in a container).
 * @param {string} path
 */
export async function blockDeviceStatFile(path) {
  const { dev } = await stat(path);
  // Linux dev_t: major in bits 8-19, minor in bits 0-7 and 20-31 (the bits of majors above 4095, at 32+,
  // are not read: no block device driver here uses one).
  const major = Number((BigInt(dev) >> 8n) & 0xfffn);
  const minor = Number((BigInt(dev) & 0xffn) | ((BigInt(dev) >> 12n) & 0xfff00n));
  if (major === 0) return null;
  const file = `/sys/dev/block/${major}:${minor}/stat`;
  return (await readFile(file, 'utf8').then(
    () => true,
    () => false,
  ))
    ? file
    : null;
}

/** Bytes written to a block device so far, from its stat file (7th field: sectors written). @param {string} file */
export async function deviceWrittenBytes(file) {
  const fields = (await readFile(file, 'utf8')).trim().split(/\s+/).map(Number);
  if (fields.length < 7 || !Number.isFinite(fields[6]))
    throw new Error(`${file}: unexpected format: ${fields.join(' ')}`);
  return fields[6] * SECTOR_BYTES;
}

/** Bytes in use on the filesystem holding `path`. @param {string} path */
export async function filesystemUsedBytes(path) {
  const s = await statfs(path);
  return (s.blocks - s.bfree) * s.bsize;
}

/**
 * Watches the filesystem holding `path` while `fn` runs: bytes the device received (after a sync on
 * both sides) and the peak growth of used space (sampled every `intervalMs`; statfs costs microseconds,
 * so sampling does not slow the workload). `written_bytes` is null without a block device.
 * @template T
 * @param {string} path @param {() => Promise<T>} fn @param {{intervalMs?: number}} [opts]
 * @returns {Promise<{result: T, written_bytes: number | null, peak_growth_bytes: number, left_bytes: number}>}
 *   left_bytes: used space after `fn` minus before: what the workload left on disk
 */
export async function watchDisk(path, fn, { intervalMs = 100 } = {}) {
  const device = await blockDeviceStatFile(path);
  await syncDisks();
  const written0 = device ? await deviceWrittenBytes(device) : 0;
  const used0 = await filesystemUsedBytes(path);
  let peak = used0;
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(async () => {
      peak = Math.max(peak, await filesystemUsedBytes(path).catch(() => peak));
    });
  }, intervalMs);
  let result;
  try {
    result = await fn();
  } finally {
    clearInterval(timer);
    await sampling;
  }
  const used1 = await filesystemUsedBytes(path);
  peak = Math.max(peak, used1);
  await syncDisks();
  const written_bytes = device ? (await deviceWrittenBytes(device)) - written0 : null;
  return { result, written_bytes, peak_growth_bytes: Math.max(0, peak - used0), left_bytes: used1 - used0 };
}
