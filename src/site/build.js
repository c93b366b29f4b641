// `site build`: the static site = the pages in site/, the chart libraries from node_modules (copied in,
// so the built site needs no CDN and works on GitHub Pages and offline), and the history's data.
import { createHash } from 'node:crypto';
import { constants, existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistoryError, LINK_PROBLEM } from '../history/files.js';
import { JOURNAL_DIR } from '../history/journal.js';
import { ARCHIVE_DIR, LOCK_FILE } from '../history/layout.js';
import { openHistory } from '../history/store.js';

const SITE_SRC = fileURLToPath(new URL('../../site/', import.meta.url));
/** The results model: the page imports it as #model/ (site/index.html's import map), the reports as ../model/. */
const MODEL_SRC = fileURLToPath(new URL('../model/', import.meta.url));
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
  if (existsSync(path.join(history, JOURNAL_DIR))) {
    throw new HistoryError(
      path.join(history, JOURNAL_DIR),
      'a publish is running or was interrupted; publish again (the same run will do) to complete it, then build. Nothing was written',
    );
  }
  // Every file the site would take from the history, listed (and links refused) before anything is written.
  const dataFiles = await historyFiles(history);
  const inPlace = path.resolve(history) === path.resolve(out);
  if (inPlace) await refuseForeignFiles(history);
  const page = await fs.readFile(path.join(SITE_SRC, 'index.html'), 'utf8');
  checkPolicy(page);
  await checkOut(out, inPlace);
  await fs.mkdir(out, { recursive: true });
  const dataRoot = inPlace ? './' : 'data/';
  let files = 0;
  for (const rel of await listFiles(SITE_SRC)) {
    const to = path.join(out, rel);
    await fs.mkdir(path.dirname(to), { recursive: true });
    if (rel === 'index.html') {
      await fs.writeFile(to, page.replace('%DATA_ROOT%', dataRoot));
    } else await fs.copyFile(path.join(SITE_SRC, rel), to);
    files++;
  }
  await fs.mkdir(path.join(out, 'model'), { recursive: true });
  for (const name of await modelFiles()) {
    await fs.copyFile(path.join(MODEL_SRC, name), path.join(out, 'model', name));
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
    for (const rel of dataFiles) {
      await fs.mkdir(path.dirname(path.join(data, rel)), { recursive: true });
      // COPYFILE_EXCL: a file already there (only possible if someone raced us) is never overwritten.
      await fs.copyFile(path.join(history, rel), path.join(data, rel), constants.COPYFILE_EXCL);
    }
  }
  await fs.writeFile(path.join(out, SITE_MARKER), `built ${new Date().toISOString()} from ${path.resolve(history)}\n`);
  // GitHub Pages runs Jekyll unless told not to; Jekyll would hide folders starting with "_" and slow deploys.
  await fs.writeFile(path.join(out, '.nojekyll'), '');
  return { out, dataRoot, files };
}

/**
 * The page's Content-Security-Policy (a meta http-equiv in site/index.html): its script-src, which allows
 * the site's own files and each inline script by its hash only (the import map).
 * @param {string} html @returns {{ scriptSrc: string[], inline: string[] }} inline: each inline script's hash
 */
export function pagePolicy(html) {
  const policy = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/)?.[1] ?? '';
  const scriptSrc =
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([name]) => name === 'script-src')
      ?.slice(1) ?? [];
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
  );
  return { scriptSrc, inline };
}

/**
 * Refuses a page whose policy would block its own import map (an edit of either without the other): the
 * site would load no module, and only a browser would tell.
 * @param {string} html
 */
export function checkPolicy(html) {
  const { scriptSrc, inline } = pagePolicy(html);
  const missing = inline.filter((h) => !scriptSrc.includes(h));
  if (!scriptSrc.length || missing.length)
    throw new Error(
      `site/index.html: its Content-Security-Policy ${scriptSrc.length ? `lacks the hash of an inline script (${missing.join(', ')}): add it to script-src` : 'has no script-src'}; nothing was built`,
    );
}

/** The results model's modules the page imports (model/ of the site). */
const modelFiles = async () => (await fs.readdir(MODEL_SRC)).filter((n) => n.endsWith('.js'));

/** Refuses to write into a folder that is neither empty, nor a previous build, nor the history itself. */
async function checkOut(/** @type {string} */ out, /** @type {boolean} */ inPlace) {
  if (inPlace) return;
  const entries = /** @type {string[]} */ (await fs.readdir(out).catch(() => []));
  if (entries.length && !entries.includes(SITE_MARKER)) {
    throw new Error(
      `${out}: not empty and not a dind-bench site (no ${SITE_MARKER}); nothing was written. Build into a new folder`,
    );
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

/**
 * The history's files the site serves: plain files only. Hidden entries (.git, the lock, a publish's
 * staging), temp files of older versions and archive/ are left out (the site shows the retained months); a symbolic link anywhere is
 * refused, never copied or followed (a Pages upload would dereference it and publish what it points to).
 * @param {string} root @returns {Promise<string[]>}
 */
export async function historyFiles(root, prefix = '') {
  const out = [];
  for (const e of await fs.readdir(path.join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.name.startsWith('.') || e.name.endsWith('.tmp') || rel === ARCHIVE_DIR) continue;
    if (e.isSymbolicLink()) throw new HistoryError(path.join(root, rel), `${LINK_PROBLEM}. The site was not built`);
    if (e.isDirectory()) out.push(...(await historyFiles(root, rel)));
    // Only what the layout names: every data file of a history is JSON. Anything else planted on the
    // history branch (an HTML page, a script) would be served from the site's origin: never copied.
    else if (e.isFile() && rel.endsWith('.json')) out.push(rel);
    else if (e.isFile()) continue;
    else
      throw new HistoryError(
        path.join(root, rel),
        'is neither a file nor a folder (a device, socket or pipe); the site was not built. Remove it',
      );
  }
  return out;
}

/**
 * A site built in the history's own folder publishes everything in it: refused while the folder holds a
 * file that is neither data (JSON) nor one of the site's own, before anything is written, naming the file.
 * The site's own are the files the build writes, by name: its pages, and in vendor/ and model/ only the
 * libraries and model modules it copies there (anything else in those folders would be served too).
 * @param {string} history
 */
async function refuseForeignFiles(history) {
  const own = new Set([
    ...(await listFiles(SITE_SRC)),
    ...(await modelFiles()).map((name) => path.join('model', name)),
    ...VENDOR.map(([, name]) => path.join('vendor', name)),
    SITE_MARKER,
    '.nojekyll',
    LOCK_FILE,
  ]);
  for (const rel of await listFiles(history)) {
    const top = rel.split(path.sep)[0];
    if (rel.endsWith('.json') || own.has(rel) || top === '.git') continue;
    throw new HistoryError(
      path.join(history, rel),
      'is not a file of the history or of the site, and a site built in the history folder would publish it; nothing was written. Remove it, or build into another folder (--out)',
    );
  }
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
