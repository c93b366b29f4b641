// `dind-bench merge SHARD... --out DIR`: the shards of a sharded run (see `workflow matrix --max-minutes`)
// into one results.json that `compare` and `publish` read like any other run. With `--matrix`, every group
// of the job matrix at once, as the workflow's merge job does (see mergeGroups in src/results/merge.js).
import { log } from '../log.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  cli
    .command('merge')
    .description(
      'merge the results of shard jobs (same hardware, suite version and profile; disjoint cells) into one run',
    )
    .argument(
      '<shards...>',
      'results.json files, or folders searched for them (e.g. the downloaded artifacts of the shard jobs); ' +
        'with --matrix, the one folder holding shard-<job id>/ of every job (see --shard-prefix)',
    )
    .requiredOption(
      '--out <dir>',
      'folder for the merged results.json, report.md and raw/ (must not hold a results.json yet); ' +
        'with --matrix, for one such folder per group',
    )
    .option(
      '--matrix <json>',
      'the job matrix (`workflow matrix` output): merge each group of shard jobs into OUT/<group>/; ' +
        'exits 3 when a group was left out (a shard missing or partial) and the others written',
    )
    .option(
      '--shard-prefix <prefix>',
      "with --matrix, the start of each job's folder name before its job id: the workflow's shard artifact " +
        'names (shard.<suffix>. for a call given an artifact-suffix)',
      'shard-',
    )
    .action(async (shards, opts) => {
      const { mergeCommand, mergeGroups, MergeError } = await import('../../results/merge.js');
      if (!opts.matrix) {
        await mergeCommand({ shards, out: opts.out, log });
        return;
      }
      if (shards.length !== 1)
        throw new Error(`with --matrix, give one folder: the one holding ${opts.shardPrefix}<job id>/`);
      let matrix;
      try {
        matrix = JSON.parse(opts.matrix);
      } catch (e) {
        throw new Error(
          `--matrix is not JSON (${/** @type {Error} */ (e).message}): pass the \`workflow matrix\` output`,
        );
      }
      const r = await mergeGroups({ matrix, shardsDir: shards[0], out: opts.out, log, prefix: opts.shardPrefix });
      if (r.merged.length === 0)
        throw new MergeError(`no run of the matrix could be merged (${r.skipped.length} left out)`);
      log(`merge: ${r.merged.length} run(s) written to ${opts.out}, ${r.skipped.length} left out`);
      // 3 when some runs of the matrix were left out and the others written (as `run` exits on failed cells).
      if (r.skipped.length)
        process.exitCode = (await import('../../reading/gate.js')).exitCodeOf({ stopped: 'shards left out' }, 'merge');
    });
}
