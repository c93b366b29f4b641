// Runs for history tests: the real quick run in test/fixtures (real output of `dind-bench run`) and
// variants of it with another id, start time and optionally scaled samples (a later night's run).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const FIXTURE = new URL('../fixtures/results/quick-debian.json', import.meta.url).pathname;
export const BIN = new URL('../../bin/dind-bench.js', import.meta.url).pathname;

export const tmpDir = (/** @type {string} */ name) => mkdtempSync(path.join(os.tmpdir(), `dind-bench-${name}-`));

/** @returns {any} */
export const fixture = () => JSON.parse(readFileSync(FIXTURE, 'utf8'));

/**
 * Writes a variant of the fixture run into `dir` and returns its path.
 * @param {string} dir @param {{ id: string, startedAt: string, scale?: number, fingerprint?: string, innerEngine?: string }} v
 */
export function variant(dir, { id, startedAt, scale = 1, fingerprint, innerEngine }) {
  const r = fixture();
  r.run.id = id;
  r.run.startedAt = startedAt;
  r.run.endedAt = new Date(Date.parse(startedAt) + 180_000).toISOString();
  if (fingerprint) r.host.fingerprint = fingerprint;
  for (const c of r.cells) for (const m of c.metrics) m.samples = m.samples.map((/** @type {number} */ x) => x * scale);
  if (innerEngine)
    for (const e of r.environments) if (e.facts && e.name.startsWith('dind')) e.facts.engineVersion = innerEngine;
  const file = path.join(dir, `${id}.json`);
  writeFileSync(file, JSON.stringify(r));
  return file;
}
