#!/usr/bin/env node
// `npm run bench:decisions`: decisions per runner-minute of the quick profile, before and after issue 45,
// on the same machine in one run. "Before" is the suite at an earlier commit (--before, default the last
// commit before the decision rule), checked out into a temporary worktree and run with its own quick profile
// and read by its own `compare --json`; "after" is this checkout. For each: the run's wall time (images
// built beforehand, not timed), how many comparisons it judged (gave an outcome) and how many of those it
// decided (regression, improvement or equivalent), and the upgrade question's outcome.
//   decisions per runner-minute = decided / (wall time / 60)
// Usage: npm run bench:decisions -- [--before dfce56a] [--only after|before] [--out bench/results/decisions-per-minute.md]
// Needs a running engine with the images built, and a quiet machine: the load average is printed before
// and after each run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runWithProgress } from './run-progress.js';

const ROOT = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    before: { type: 'string', default: 'dfce56a' },
    only: { type: 'string' },
    out: { type: 'string', default: path.join(ROOT, 'bench/results/decisions-per-minute.md') },
  },
});

/**
 * One quick run of the suite at `root`, read by that suite's own compare.
 * @param {string} label @param {string} root
 */
async function measure(label, root) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `dind-bench-dpm-${label}-`));
  try {
    const bin = path.join(root, 'bin/dind-bench.js');
    const loadBefore = os.loadavg()[0];
    const run = await runWithProgress(['run', '--profile', 'quick', '--out', dir], [], bin);
    const loadAfter = os.loadavg()[0];
    const json = path.join(dir, 'compare.json');
    spawnSync(process.execPath, [bin, 'compare', path.join(dir, 'results.json'), '--json', json], { stdio: 'ignore' });
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    const comparisons = /** @type {any[]} */ (doc.comparisons ?? []);
    // Judged: given an outcome (before: every comparison; after: the decisions, the rest described).
    const judged = comparisons.filter((c) => c.outcome !== null && c.outcome !== undefined && c.described !== true);
    const decided = judged.filter((c) => c.outcome !== 'inconclusive');
    const upgrade = comparisons.find((c) => c.kind === 'engine-line' && c.metric === 'startup.without_image_ms');
    const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
    return {
      label,
      status: run.status,
      wallS: run.wall,
      cells: results.cells.filter((/** @type {any} */ c) => c.status === 'ok').length,
      judged: judged.length,
      decided: decided.length,
      upgrade: upgrade ? upgrade.outcome : 'not asked',
      perMinute: decided.length / (run.wall / 60),
      loadBefore,
      loadAfter,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A worktree of the suite at `ref`, with this checkout's node_modules (a superset of its dependencies). @param {string} ref */
function worktreeAt(ref) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-before-'));
  execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  if (!existsSync(path.join(dir, 'node_modules')))
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return {
    dir,
    remove: () => execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' }),
  };
}

const rows = [];
if (values.only !== 'before') rows.push(await measure('after', ROOT));
if (values.only !== 'after') {
  const wt = worktreeAt(values.before);
  try {
    rows.push(await measure(`before (${values.before})`, wt.dir));
  } finally {
    wt.remove();
  }
}
const lines = [
  '# Decisions per runner-minute of the quick profile (issue 45)',
  '',
  `\`npm run bench:decisions\`, ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores; each run read by its own \`compare --json\`. Images built beforehand (not timed).`,
  '',
  '| run | wall time | cells | judged | decided | decided share | upgrade start-up | decisions per runner-minute | load average before / after |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.wallS.toFixed(1)} s | ${r.cells} | ${r.judged} | ${r.decided} | ${r.judged ? ((100 * r.decided) / r.judged).toFixed(0) : 0}% | ${r.upgrade} | ${r.perMinute.toFixed(2)} | ${r.loadBefore.toFixed(1)} / ${r.loadAfter.toFixed(1)} |`,
  ),
  '',
];
writeFileSync(values.out, lines.join('\n'));
process.stdout.write(lines.join('\n'));
