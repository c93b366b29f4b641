// Shared by the hostile-input tests: small real runs (cut from the real quick run in test/fixtures),
// a reader's view of a history, and file snapshots for "nothing changed".
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openHistory } from '../../src/history/store.js';
import { BIN, fixture } from '../history/helpers.js';

export { BIN, fixture, tmpDir } from '../history/helpers.js';

/**
 * A real run cut to its first `cells` cells (few series, so a test can publish it many times), with
 * `edit` applied, written to `dir/<name>.json`.
 * @param {string} dir @param {string} name @param {{ id?: string, startedAt?: string, cells?: number, edit?: (r: any) => void }} [o]
 */
export function smallRun(dir, name, { id = name, startedAt = '2026-11-10T02:00:00.000Z', cells = 1, edit } = {}) {
  const r = fixture();
  r.run.id = id;
  r.run.startedAt = startedAt;
  r.run.endedAt = new Date(Date.parse(startedAt) + 60_000).toISOString();
  r.cells = r.cells.slice(0, cells);
  edit?.(r);
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(r));
  return file;
}

/**
 * What a reader sees: every series with the run ids of its points, the run count, the newest run per
 * runner. Two histories with the same view read the same everywhere.
 * @param {string} dir
 */
export async function readerView(dir) {
  const h = await openHistory(dir);
  /** @type {Record<string, string[]>} */
  const series = {};
  for (const s of h.listSeries().sort((a, b) => a.key.localeCompare(b.key)))
    series[s.key] = (await h.readSeries(s.key)).map((p) => p.runId);
  const latest = await h.latest();
  const newest = Object.fromEntries(Object.entries(latest.runners).map(([k, v]) => [k, /** @type {any} */ (v).runId]));
  return { runs: h.index.runs, periods: h.index.periods, series, newest };
}

/** Every entry under `dir` (links as links) with a hash of file contents. @param {string} dir */
export function snapshot(dir) {
  /** @type {Record<string, string>} */
  const out = {};
  const walk = (/** @type {string} */ d) => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      const st = lstatSync(p);
      const rel = path.relative(dir, p);
      if (st.isSymbolicLink()) out[rel] = 'link';
      else if (st.isDirectory()) walk(p);
      else out[rel] = createHash('sha1').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/**
 * Runs the CLI; resolves with its exit code, signal, stdout and stderr (never rejects).
 * @param {string[]} args @param {Record<string, string>} [env]
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function cli(args, env = {}) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
