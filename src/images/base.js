// Offline Debian base images: debootstrap from the Debian mirror the host already uses, then
// `docker import` through the API. No registry is needed.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

/**
 * Builds `dind-bench/base:debian-<suite>` with debootstrap and imports it into the engine.
 * @param {import('dockerode')} docker
 * @param {string} suite e.g. bookworm, trixie
 * @param {(msg: string) => void} log
 */
export async function buildDebianBase(docker, suite, log) {
  const mirror = await debianMirror();
  const dir = await mkdtemp(path.join(tmpdir(), `dind-bench-rootfs-${suite}-`));
  const tag = debianBaseImage(suite);
  try {
    log(`debootstrap --variant=minbase ${suite} (from the host's Debian mirror)`);
    await run('debootstrap', ['--variant=minbase', suite, dir, mirror]);
    await slim(dir);
    log(`importing ${tag}`);
    const [repo, version] = tag.split(':');
    await new Promise((resolve, reject) => {
      const tar = spawn('tar', ['-C', dir, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
      tar.on('error', reject);
      docker.importImage(/** @type {any} */ (tar.stdout), { repo, tag: version }, (err, stream) => {
        if (err || !stream) return reject(err);
        docker.modem.followProgress(stream, (e) => (e ? reject(e) : resolve(undefined)));
      });
    });
    return tag;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
