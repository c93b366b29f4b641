// A run's folder as it is uploaded (an artifact) or shown (a job summary), without the runner's identity:
// results.json redacted (./redact.js) and every other text file of the folder (report.md, report.html,
// raw/ logs) with the strings that named the runner (identities, in any case) replaced, e-mail addresses
// when asked, and whatever is shaped like a secret (a URL's userinfo, a key block). The publish path redacts the
// history the same way; this is for what leaves the runner before it: the shard and results artifacts,
// the comparison report and the summaries written from them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { RESULTS_ADVICE, readJsonFile } from '../results/read-json.js';
import { validateResults } from '../results/schema.js';
import { writeDurable, writeJsonAtomic } from './files.js';
import { identities, publicArgs, redact, scrubFile } from './redact.js';

/** Most files and bytes per file scrubbed: a run's folder holds a few reports and raw logs. */
const MAX_FILES = 20_000;
const MAX_FILE_BYTES = 64 * 2 ** 20;

/**
 * Redacts `dir`'s results.json and scrubs its other text files, in place. Links and special files are
 * neither followed nor changed (the untrusted-results check refuses them before any reader). Returns what
 * was done, for the log.
 * @param {string} dir @param {import('./redact.js').Redactable[]} what
 * @returns {Promise<{ names: number, files: number }>}
 */
export async function redactFolder(dir, what) {
  const file = path.join(dir, 'results.json');
  const doc = validateResults(
    await readJsonFile(file, { what: 'results file', advice: RESULTS_ADVICE, noFollow: true }),
    file,
  );
  if (!what.length) return { names: 0, files: 0 };
  const names = identities(doc, what);
  await writeJsonAtomic(file, publicArgs(redact(doc, what)));
  let files = 0;
  const walk = async (/** @type {string} */ d) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      // JSON beside results.json is data a later step reads back (raw tool output, checkpoints): its
      // identity fields are not ours to rewrite by text, which could change a value it holds.
      else if (e.isFile() && p !== file && !p.endsWith('.json')) {
        if (++files > MAX_FILES) throw new Error(`${dir}: more than ${MAX_FILES} files; not a run's folder`);
        const st = await fs.stat(p);
        if (st.size > MAX_FILE_BYTES) continue;
        const buf = await fs.readFile(p);
        if (buf.includes(0)) continue; // binary: no text of ours
        const text = buf.toString('utf8');
        const clean = scrubFile(text, names, what);
        if (clean !== text) {
          const tmp = `${p}.${process.pid}.redact.tmp`;
          await writeDurable(tmp, clean);
          await fs.rename(tmp, p);
        }
      }
    }
  };
  await walk(dir);
  return { names: names.length, files };
}
