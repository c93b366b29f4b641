// `site build`: the static site = the pages in site/, the chart libraries from node_modules (copied in,
// so the built site needs no CDN and works on GitHub Pages and offline), and the history's data.
import { existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARCHIVE_DIR, LOCK_FILE } from '../history/layout.js';
import { openHistory } from '../history/store.js';

const SITE_SRC = fileURLToPath(new URL('../../site/', import.meta.url));
const SITE_MARKER = '.dind-bench-site';
const require = createRequire(import.meta.url);

/** What the page loads from npm, as [package file, name in vendor/]; UMD builds, loaded by <script>. */
export const VENDOR = [
  ['chart.js/dist/chart.umd.min.js', 'chart.umd.min.js'],
  ['chartjs-adapter-date-fns/dist/chartjs-adapter-date-fns.bundle.min.js', 'chartjs-adapter-date-fns.bundle.min.js'],
  ['hammerjs/hammer.min.js', 'hammer.min.js'],
  ['chartjs-plugin-zoom/dist/chartjs-plugin-zoom.min.js', 'chartjs-plugin-zoom.min.js'],
  ['chartjs-plugin-annotation/dist/chartjs-plugin-annotation.min.js', 'chartjs-plugin-annotation.min.js'],
];

/**
 * Builds the site into `out`. With `out` equal to the history folder (a gh-pages branch that holds both),
 * the pages are added next to the data and nothing is copied.
 * @param {{ history: string, out: string }} opts
 * @returns {Promise<{ out: string, dataRoot: string, files: number }>}
 */
export async function buildSite({ history, out }) {
  await openHistory(history); // refuses a missing, foreign or corrupt history before anything is written
  const inPlace = path.resolve(history) === path.resolve(out);
  await checkOut(out, inPlace);
  await fs.mkdir(out, { recursive: true });
  const dataRoot = inPlace ? './' : 'data/';
  let files = 0;
  for (const rel of await listFiles(SITE_SRC)) {
    const to = path.join(out, rel);
    await fs.mkdir(path.dirname(to), { recursive: true });
    if (rel === 'index.html') {
      const html = await fs.readFile(path.join(SITE_SRC, rel), 'utf8');
      await fs.writeFile(to, html.replace('%DATA_ROOT%', dataRoot));
    } else await fs.copyFile(path.join(SITE_SRC, rel), to);
    files++;
  }
  await fs.mkdir(path.join(out, 'vendor'), { recursive: true });
  for (const [from, name] of VENDOR) {
    await fs.copyFile(packageFile(from), path.join(out, 'vendor', name));
    files++;
  }
  if (!inPlace) {
    const data = path.join(out, 'data');
    await fs.rm(data, { recursive: true, force: true });
    // The archive is kept in the history but not served: the site shows the retained months.
    await fs.cp(history, data, {
      recursive: true,
      filter: (src) => {
        const base = path.basename(src);
        return base !== LOCK_FILE && !base.endsWith('.tmp') && path.relative(history, src) !== ARCHIVE_DIR && base !== '.git';
      },
    });
  }
  await fs.writeFile(path.join(out, SITE_MARKER), `built ${new Date().toISOString()} from ${path.resolve(history)}\n`);
  // GitHub Pages runs Jekyll unless told not to; Jekyll would hide folders starting with "_" and slow deploys.
  await fs.writeFile(path.join(out, '.nojekyll'), '');
  return { out, dataRoot, files };
}

/** Refuses to write into a folder that is neither empty, nor a previous build, nor the history itself. */
async function checkOut(/** @type {string} */ out, /** @type {boolean} */ inPlace) {
  if (inPlace) return;
  const entries = /** @type {string[]} */ (await fs.readdir(out).catch(() => []));
  if (entries.length && !entries.includes(SITE_MARKER)) {
    throw new Error(`${out}: not empty and not a dind-bench site (no ${SITE_MARKER}); nothing was written. Build into a new folder`);
  }
}

/**
 * The file `pkg/sub/path` inside the installed package. Not require.resolve: packages' "exports" maps
 * hide their browser builds from Node's resolver, though the files are there.
 * @param {string} spec
 */
function packageFile(spec) {
  const [pkg, ...rest] = spec.split('/');
  for (const dir of require.resolve.paths(pkg) ?? []) {
    const file = path.join(dir, pkg, ...rest);
    if (existsSync(file)) return file;
  }
  throw new Error(`${spec}: not installed; run \`npm ci\` in the dind-bench folder`);
}

/** @param {string} dir @returns {Promise<string[]>} */
async function listFiles(dir, prefix = '') {
  const out = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out;
}
