// `dind-bench merge SHARD... --out DIR`: the shards of a sharded run (see `workflow matrix --max-minutes`)
// into one results.json that `compare` and `publish` read like any other run.
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
      'results.json files, or folders searched for them (e.g. the downloaded artifacts of the shard jobs)',
    )
    .requiredOption(
      '--out <dir>',
      'folder for the merged results.json, report.md and raw/ (must not hold a results.json yet)',
    )
    .action(async (shards, opts) => {
      const { mergeCommand } = await import('../../results/merge.js');
      await mergeCommand({ shards, out: opts.out, log });
    });
}
