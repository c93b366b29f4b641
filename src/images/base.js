// Offline Debian base images: debootstrap from the Debian mirror the host already uses, then
// `docker import` through the API. No registry is needed.
//
// The slimmed root filesystem is kept as a tar in a cache folder (DIND_BENCH_CACHE, else
// ~/.cache/dind-bench), keyed by the suite, the mirror and the slimming recipe: an engine whose images
// were removed (a pruned or re-created data root on a runner that keeps its home) imports it again in
// seconds instead of running debootstrap (about a minute on a 2-core machine).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { debianBaseImage } from './catalog.js';

/**
 * The Debian mirror to debootstrap from: DIND_BENCH_DEBIAN_MIRROR, or the first `URIs:`/`deb` line of
 * the host's apt sources that serves plain Debian (not -security).
 */
export async function debianMirror() {
  if (process.env.DIND_BENCH_DEBIAN_MIRROR) return process.env.DIND_BENCH_DEBIAN_MIRROR;
  const files = ['/etc/apt/sources.list'];
  try {
    for (const f of await readdir('/etc/apt/sources.list.d')) {
      if (f.endsWith('.sources') || f.endsWith('.list')) files.push(path.join('/etc/apt/sources.list.d', f));
    }
  } catch {
    /* no sources.list.d */
  }
  for (const file of files) {
    let text;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const m = line.match(/^\s*(?:URIs:\s*|deb\s+(?:\[[^\]]*\]\s+)?)(\S+\/debian)\/?(\s|$)/);
      if (m) return m[1];
    }
  }
  throw new Error(
    'no Debian mirror found in /etc/apt/sources.list*: set DIND_BENCH_DEBIAN_MIRROR to a Debian mirror URL',
  );
}

/** Runs a command, rejecting with its stderr tail when it fails. @param {string} cmd @param {string[]} args */
function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(undefined) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.trim()}`)),
    );
  });
}

// What the official slim images leave out too: documentation, manuals, translations, and apt's
// downloaded lists and caches (`apt-get update` in each image fetches fresh lists). Every benchmark
// image starts from this base, and dind-vfs copies an image's whole filesystem at each container
// create, so each megabyte here is paid again and again. The dpkg excludes keep packages installed
// later from bringing those files back.
const SLIM_REMOVE = [
  'usr/share/doc',
  'usr/share/man',
  'usr/share/info',
  'usr/share/locale',
  'var/lib/apt/lists',
  'var/cache/apt',
  'var/cache/debconf/templates.dat-old',
];
const DPKG_EXCLUDES = `# dind-bench slim base: no documentation, manuals or translations in benchmark images
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
`;

/** Strips the debootstrapped tree in `dir` down to what the benchmark tools need. @param {string} dir */
async function slim(dir) {
  // mkdtemp made the root 0700, and the tar carries that mode into the image as `/`. overlay2 hides it
  // (the mount's own root is 0755), but vfs applies it: a non-root user (e.g. postgres) then cannot
  // reach /bin/sh ("executable file not found"), in dind-vfs only.
  await chmod(dir, 0o755);
  for (const rel of SLIM_REMOVE) {
    await rm(path.join(dir, rel), { recursive: true, force: true });
  }
  for (const rel of ['usr/share/doc', 'usr/share/man', 'var/lib/apt/lists/partial', 'var/cache/apt/archives/partial']) {
    await mkdir(path.join(dir, rel), { recursive: true });
  }
  await writeFile(path.join(dir, 'etc/dpkg/dpkg.cfg.d/dind-bench-slim'), DPKG_EXCLUDES);
}

/** Where slimmed root filesystems are kept between runs. */
export const cacheDir = () => process.env.DIND_BENCH_CACHE || path.join(homedir(), '.cache', 'dind-bench');

/**
 * The cached tar of a suite's slimmed root filesystem: named by what makes it (suite, mirror, variant and
 * the slimming recipe), so a changed recipe or mirror never reuses an old one.
 * @param {string} suite @param {string} mirror
 */
export function rootfsCacheFile(suite, mirror) {
  const key = createHash('sha256')
    .update(JSON.stringify({ suite, mirror, variant: 'minbase', SLIM_REMOVE, DPKG_EXCLUDES }))
    .digest('hex')
    .slice(0, 16);
  return path.join(cacheDir(), `rootfs-debian-${suite}-${key}.tar`);
}

/**
 * Builds `dind-bench/base:debian-<suite>` with debootstrap (or from the cached root filesystem of the same
 * recipe) and imports it into the engine.
 * @param {import('dockerode')} docker
 * @param {string} suite e.g. bookworm, trixie
 * @param {(msg: string) => void} log
 * @returns {Promise<{ tag: string, cached: boolean }>}
 */
export async function buildDebianBase(docker, suite, log) {
  const mirror = await debianMirror();
  const tag = debianBaseImage(suite);
  const file = rootfsCacheFile(suite, mirror);
  if (await isRegularFile(file)) {
    log(`importing ${tag} from the cached root filesystem ${file} (debootstrap not needed)`);
    await importTar(docker, tag, createReadStream(file));
    return { tag, cached: true };
  }
  const dir = await mkdtemp(path.join(tmpdir(), `dind-bench-rootfs-${suite}-`));
  try {
    log(`debootstrap --variant=minbase ${suite} (from the host's Debian mirror)`);
    await run('debootstrap', ['--variant=minbase', suite, dir, mirror]);
    await slim(dir);
    const kept = await keepInCache(dir, file, log);
    log(`importing ${tag}`);
    await importTar(docker, tag, kept ? createReadStream(file) : tarOf(dir));
    return { tag, cached: false };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A regular file (not a link, which could point anywhere) at `file`. @param {string} file */
async function isRegularFile(file) {
  try {
    return (await lstat(file)).isFile();
  } catch {
    return false;
  }
}

/** @param {string} dir @returns {NodeJS.ReadableStream} */
function tarOf(dir) {
  const tar = spawn('tar', ['-C', dir, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return /** @type {NodeJS.ReadableStream} */ (tar.stdout);
}

/**
 * Writes the tree's tar into the cache (whole or not at all: a temporary name, then renamed) and removes
 * the suite's tars of other recipes, so the cache holds one per suite. A cache that cannot be written is
 * said and skipped: the build goes on from the tree.
 * @param {string} dir @param {string} file @param {(msg: string) => void} log
 */
async function keepInCache(dir, file, log) {
  const part = `${file}.${process.pid}.part`;
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Only a tar that exited 0 is kept: a truncated one would import a broken base next time.
    const tar = spawn('tar', ['-C', dir, '-c', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve, reject) => {
      tar.on('error', reject);
      tar.on('close', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`tar exited ${code}`))));
    });
    await Promise.all([pipeline(tar.stdout, createWriteStream(part, { mode: 0o600 })), exited]);
    await rename(part, file);
    const prefix = path.basename(file).replace(/-[0-9a-f]{16}\.tar$/, '-');
    for (const f of await readdir(path.dirname(file)))
      if (f.startsWith(prefix) && f !== path.basename(file))
        await rm(path.join(path.dirname(file), f), { force: true });
    return true;
  } catch (e) {
    await rm(part, { force: true });
    log(`the root filesystem is not kept for the next build (${/** @type {Error} */ (e).message})`);
    return false;
  }
}

/**
 * Imports a tar stream as an image.
 * @param {import('dockerode')} docker @param {string} tag @param {NodeJS.ReadableStream} tar
 */
function importTar(docker, tag, tar) {
  const [repo, version] = tag.split(':');
  return new Promise((resolve, reject) => {
    tar.on('error', reject);
    docker.importImage(tar, { repo, tag: version }, (err, stream) => {
      if (err || !stream) return reject(err);
      docker.modem.followProgress(stream, (e) => (e ? reject(e) : resolve(undefined)));
    });
  });
}
