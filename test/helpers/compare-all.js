// The compare action's script (actions/compare/compare-all.sh) as the action runs it, in a fake Actions
// environment of its own: a fresh folder with its output file and job summary, read back after the run.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tmpDir } from '../history/helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * @param {Record<string, string>} env the action's inputs (RESULTS, HISTORY, BASELINE, FAIL_ON, ...)
 * @returns {Omit<import('node:child_process').SpawnSyncReturns<string>, 'output'> & { dir: string, out: string, output: string, summary: string }}
 *   dir: the folder that holds all of it; out: the script's OUT folder; output: what it wrote to
 *   GITHUB_OUTPUT; summary: its job summary
 */
export function runCompareAll(env) {
  const dir = tmpDir('compare-all');
  const out = path.join(dir, 'out');
  const output = path.join(dir, 'github-output');
  const summary = path.join(dir, 'summary.md');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const r = spawnSync('bash', [path.join(ROOT, 'actions/compare/compare-all.sh')], {
    encoding: 'utf8',
    env: {
      ...process.env,
      SUITE: ROOT,
      OUT: out,
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_RUN_ID: '42',
      GITHUB_SERVER_URL: 'https://github.com',
      ...env,
    },
  });
  return { ...r, dir, out, output: readFileSync(output, 'utf8'), summary: readFileSync(summary, 'utf8') };
}
