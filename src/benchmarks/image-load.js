// Image load and save on the environment's engine (docker: the runner's; DinD: the inner one), the
// registry-less way images reach a CI engine (`docker save | docker load`, cache restore steps). The
// reference image is made fresh for every iteration: one layer of files with new random bytes, so no
// layer is already in the engine and the load really unpacks everything (loading an image the engine
// has is a no-op and would measure nothing). Pull is not measured here: there is no registry on this
// machine, and dind-bench never reaches outside it.
import { randomBytes, createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { since } from '../engine/timing.js';
import { capability } from '../environments/environment.js';

/**
 * Writes a docker-archive (the `docker save` format) of a one-layer image to `file`: `files` files of
 * `fileKib` KiB of random bytes under /data. tar-stream writes the tar: the format is standard, no need
 * to hand-roll it. Streamed through a temporary layer file, one file's bytes in memory at a time: the
 * harness must stay small (bench/quick-run.js checks its peak RSS) whatever the archive's size.
 * @param {string} file
 * @param {{tag: string, files: number, fileKib: number, labels: Record<string, string>}} opts
 * @returns {Promise<number>} the archive's size in bytes
 */
export async function writeReferenceArchive(file, { tag, files, fileKib, labels }) {
  const layerFile = `${file}.layer.tar`;
  try {
    const hash = createHash('sha256');
    const layer = tar.pack();
    layer.on('data', (c) => hash.update(/** @type {Buffer} */ (c))); // a pack's chunks are Buffers
    const layerWritten = pipeline(layer, createWriteStream(layerFile));
    await entry(layer, { name: 'data/', type: 'directory', mode: 0o755 });
    for (let i = 0; i < files; i++)
      await entry(layer, { name: `data/f${String(i).padStart(5, '0')}.bin`, mode: 0o644 }, randomBytes(fileKib * 1024));
    layer.finalize();
    await layerWritten;
    const diffId = `sha256:${hash.digest('hex')}`;
    const config = Buffer.from(
      JSON.stringify({
        architecture: 'amd64',
        os: 'linux',
        created: new Date().toISOString(),
        config: { Labels: labels, Cmd: ['/bin/true'] },
        rootfs: { type: 'layers', diff_ids: [diffId] },
        history: [{ created: new Date().toISOString(), created_by: 'dind-bench image-load reference layer' }],
      }),
    );
    const configName = `${createHash('sha256').update(config).digest('hex')}.json`;
    const manifest = Buffer.from(
      JSON.stringify([{ Config: configName, RepoTags: [tag], Layers: ['layer/layer.tar'] }]),
    );
    const archive = tar.pack();
    const archiveWritten = pipeline(archive, createWriteStream(file));
    await entry(archive, { name: 'layer/', type: 'directory', mode: 0o755 });
    const { size } = await stat(layerFile);
    await new Promise((resolve, reject) => {
      const sink = archive.entry({ name: 'layer/layer.tar', mode: 0o644, size }, (e) =>
        e ? reject(e) : resolve(undefined),
      );
      pipeline(createReadStream(layerFile), sink).catch(reject);
    });
    await entry(archive, { name: configName, mode: 0o644 }, config);
    await entry(archive, { name: 'manifest.json', mode: 0o644 }, manifest);
    archive.finalize();
    await archiveWritten;
    return (await stat(file)).size;
  } finally {
    await rm(layerFile, { force: true });
  }
}

/**
 * Adds one entry to a tar-stream pack and waits until the pack has taken it.
 * @param {import('tar-stream').Pack} pack @param {Parameters<import('tar-stream').Pack['entry']>[0]} header
 * @param {Buffer} [body]
 */
function entry(pack, header, body) {
  return new Promise((resolve, reject) => {
    const done = (/** @type {Error | null | undefined} */ e) => (e ? reject(e) : resolve(undefined));
    if (body) pack.entry(header, body, done);
    else pack.entry(header, done);
  });
}

/** Reads an engine's streamed answer to the end, failing on an error in it. @param {NodeJS.ReadableStream} stream */
function drain(stream) {
  return new Promise((resolve, reject) => {
    let text = '';
    let bytes = 0;
    stream.on('data', (d) => {
      bytes += d.length;
      if (text.length < 4096) text += d;
    });
    stream.on('end', () =>
      /"error"/.test(text) ? reject(new Error(text.split('\n')[0].slice(0, 500))) : resolve(bytes),
    );
    stream.on('error', reject);
  });
}

/** @typedef {{files: number, fileKib: number}} ImageLoadParams */
/** @type {import('./benchmark.js').Benchmark<ImageLoadParams>} */
export const imageLoad = {
  name: 'image-load',
  image: 'lifecycle',
  description:
    "load (docker load) and save (docker save) of a fresh one-layer image on the environment's engine; no registry here, so no pull",
  params: {
    quick: { files: 64, fileKib: 512 },
    standard: { files: 512, fileKib: 512 },
  },
  // Writing the archive, then load and save at ~100 MiB/s each (measured here: 5.6 s per step for 256 MiB).
  estimateSeconds: (p) => (2 * (p.files * p.fileKib)) / 1024 / 100 + 0.5,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { docker: 0.54, dind: 0.54, 'dind-vfs': 0.52 },
  unavailableIn: {
    native: 'native has no engine to load images into',
  },

  async measure(env, ctx) {
    const { files, fileKib } = ctx.params;
    const { docker, tracker } = capability(env, 'engineApi')();
    const tag = `dind-bench-work/image-load:${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const dir = await mkdtemp(path.join(tmpdir(), 'dind-bench-image-load-'));
    const archive = path.join(dir, 'image.tar');
    let step = 'prepare';
    try {
      const bytes = await writeReferenceArchive(archive, { tag, files, fileKib, labels: tracker.labels });
      const mib = bytes / (1024 * 1024);
      step = 'load';
      const t0 = performance.now();
      const answer = await drain(await docker.loadImage(createReadStream(archive), { quiet: true }));
      const load_ms = since(t0);
      const id = (await docker.getImage(tag).inspect()).Id;
      tracker.add('image', id, docker);
      step = 'save';
      const s0 = performance.now();
      const saved = await drain(
        /** @type {NodeJS.ReadableStream} */ (/** @type {unknown} */ (await docker.getImage(tag).get())),
      );
      const save_ms = since(s0);
      await ctx.saveRaw(
        'load',
        `archive ${bytes} bytes (${files} files x ${fileKib} KiB), image ${id}\nload answer: ${answer} bytes\nsaved ${saved} bytes\n`,
      );
      return [
        { metric: 'load_ms', unit: 'ms', better: 'lower', value: load_ms },
        {
          metric: 'load_mib_per_s',
          unit: 'MiB/s',
          better: 'higher',
          value: Math.round((mib / (load_ms / 1000)) * 100) / 100,
        },
        { metric: 'save_ms', unit: 'ms', better: 'lower', value: save_ms },
      ];
    } catch (e) {
      throw Object.assign(/** @type {Error} */ (e), { step });
    } finally {
      await rm(dir, { recursive: true, force: true });
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => {});
      for (const i of tracker.items.filter((x) => x.kind === 'image' && x.docker === docker)) tracker.forget(i.id);
    }
  },
};
