// The image names a `docker save` archive gives when it is loaded: `docker load` points every tag in its
// manifest.json (RepoTags) at the image it loads, whatever name the workload gave the image. A run claims
// each of them before the load (../engine/image-names.js), so that on a runner's engine every name the load
// re-points is put back at the run's end, not only the one the workload names.
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';

/** A manifest.json larger than this is no docker save manifest (one entry per image, a few tags each). */
const MAX_MANIFEST_BYTES = 1024 ** 2;
/** The tags read from one archive: more than any real one has. */
const MAX_TAGS = 1_000;

/**
 * The RepoTags of the archive at `file` (uncompressed or gzip, as `docker load` reads it); [] when it has
 * no manifest.json (an OCI layout without one names nothing Docker would tag). Throws when the archive is
 * not a tar, or its manifest is not one, in words that name the file.
 * @param {string} file @returns {Promise<string[]>}
 */
export async function archiveTags(file) {
  const gzip = await isGzip(file);
  const extract = tar.extract();
  /** @type {Buffer | null} */
  let manifest = null;
  extract.on('entry', (header, stream, next) => {
    const name = header.name.replace(/^\.\//, '');
    if (name !== 'manifest.json' || header.type !== 'file' || (header.size ?? 0) > MAX_MANIFEST_BYTES) {
      stream.on('end', next);
      stream.resume();
      return;
    }
    /** @type {Buffer[]} */
    const parts = [];
    stream.on('data', (b) => parts.push(/** @type {Buffer} */ (b)));
    stream.on('end', () => {
      manifest = Buffer.concat(parts);
      next();
    });
  });
  const source = createReadStream(file);
  await (gzip ? pipeline(source, createGunzip(), extract) : pipeline(source, extract)).catch((e) => {
    throw new Error(`${file} is not a docker save archive (a tar file, or one compressed with gzip): ${e.message}`);
  });
  if (!manifest) return [];
  /** @type {unknown} */
  let doc;
  try {
    doc = JSON.parse(/** @type {Buffer} */ (manifest).toString('utf8'));
  } catch {
    throw new Error(`${file}: its manifest.json is not JSON, so it is no docker save archive`);
  }
  if (!Array.isArray(doc)) throw new Error(`${file}: its manifest.json is not a list of images`);
  const tags = doc.flatMap((entry) => (Array.isArray(entry?.RepoTags) ? entry.RepoTags : []));
  return [...new Set(tags.filter((t) => typeof t === 'string' && t.length <= 300))].slice(0, MAX_TAGS);
}

/** @param {string} file */
async function isGzip(file) {
  const stream = createReadStream(file, { start: 0, end: 1 });
  /** @type {Buffer[]} */
  const parts = [];
  for await (const b of stream) parts.push(b);
  const head = Buffer.concat(parts);
  return head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
}
