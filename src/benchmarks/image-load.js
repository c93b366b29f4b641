// Image load and save on the environment's engine (docker: the runner's; DinD: the inner one), the
// registry-less way images reach a CI engine (`docker save | docker load`, cache restore steps). The
// reference image is made fresh for every iteration: one layer of files with new random bytes, so no
// layer is already in the engine and the load really unpacks everything (loading an image the engine
// has is a no-op and would measure nothing). Pull is not measured here: there is no registry on this
// machine, and dind-bench never reaches outside it.
import { randomBytes, createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import tar from 'tar-stream';
import { since } from '../engine/timing.js';

/**
 * A docker-archive (the `docker save` format) of a one-layer image: `files` files of `fileKib` KiB of
 * random bytes under /data. tar-stream writes the tar: the format is standard, no need to hand-roll it.
 * @param {{tag: string, files: number, fileKib: number, labels: Record<string, string>}} opts
 * @returns {Promise<Buffer>}
 */
export async function referenceArchive({ tag, files, fileKib, labels }) {
  const layer = await packTar([
    { name: 'data/', type: 'directory' },
    ...Array.from({ length: files }, (_, i) => ({ name: `data/f${String(i).padStart(5, '0')}.bin`, body: randomBytes(fileKib * 1024) })),
  ]);
  const diffId = `sha256:${createHash('sha256').update(layer).digest('hex')}`;
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
  const manifest = Buffer.from(JSON.stringify([{ Config: configName, RepoTags: [tag], Layers: ['layer/layer.tar'] }]));
  return packTar([
    { name: 'layer/', type: 'directory' },
    { name: 'layer/layer.tar', body: layer },
    { name: configName, body: config },
    { name: 'manifest.json', body: manifest },
  ]);
}

/** @param {{name: string, type?: 'directory', body?: Buffer}[]} entries @returns {Promise<Buffer>} */
function packTar(entries) {
  const pack = /** @type {any} */ (tar).pack(); // tar-stream ships no type declarations
  /** @type {Buffer[]} */
  const chunks = [];
  pack.on('data', (/** @type {Buffer} */ c) => chunks.push(c));
  /** @type {Promise<void>} */
  const done = new Promise((resolve, reject) => (pack.on('end', () => resolve()), pack.on('error', reject)));
  for (const e of entries) {
    if (e.type === 'directory') pack.entry({ name: e.name, type: 'directory', mode: 0o755 });
    else pack.entry({ name: e.name, mode: 0o644 }, e.body);
  }
  pack.finalize();
  return done.then(() => Buffer.concat(chunks));
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
    stream.on('end', () => (/"error"/.test(text) ? reject(new Error(text.split('\n')[0].slice(0, 500))) : resolve(bytes)));
    stream.on('error', reject);
  });
}

/** @type {import('./benchmark.js').Benchmark} */
export const imageLoad = {
  name: 'image-load',
  image: 'lifecycle',
  description: 'load (docker load) and save (docker save) of a fresh one-layer image on the environment\'s engine; no registry here, so no pull',
  params: {
    quick: { files: 64, fileKib: 512 },
    standard: { files: 512, fileKib: 512 },
  },
  unavailableIn: {
    native: 'native has no engine to load images into',
  },

  async measure(env, ctx) {
    const { files, fileKib } = /** @type {{files: number, fileKib: number}} */ (ctx.params);
    const { docker, tracker } = env.engineApi();
    const tag = `dind-bench-work/image-load:${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const archive = await referenceArchive({ tag, files, fileKib, labels: tracker.labels });
    const mib = archive.length / (1024 * 1024);
    let step = 'load';
    try {
      const t0 = performance.now();
      const body = new PassThrough();
      body.end(archive);
      const answer = await drain(await docker.loadImage(body, { quiet: true }));
      const load_ms = since(t0);
      const id = (await docker.getImage(tag).inspect()).Id;
      tracker.add('image', id, docker);
      step = 'save';
      const s0 = performance.now();
      const saved = await drain(/** @type {NodeJS.ReadableStream} */ (/** @type {unknown} */ (await docker.getImage(tag).get())));
      const save_ms = since(s0);
      await ctx.saveRaw('load', `archive ${archive.length} bytes (${files} files x ${fileKib} KiB), image ${id}\nload answer: ${answer} bytes\nsaved ${saved} bytes\n`);
      return [
        { metric: 'load_ms', unit: 'ms', better: 'lower', value: load_ms },
        { metric: 'load_mib_per_s', unit: 'MiB/s', better: 'higher', value: Math.round((mib / (load_ms / 1000)) * 100) / 100 },
        { metric: 'save_ms', unit: 'ms', better: 'lower', value: save_ms },
      ];
    } catch (e) {
      throw Object.assign(/** @type {Error} */ (e), { step });
    } finally {
      await docker.getImage(tag).remove({ force: true }).catch(() => {});
      for (const i of tracker.items.filter((x) => x.kind === 'image' && x.docker === docker)) tracker.forget(i.id);
    }
  },
};
