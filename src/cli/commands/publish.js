// `dind-bench publish DIR/results.json --history HISTDIR`: append one run to a history folder.
import { positiveInt } from '../options.js';
import { logText } from '../../text/escape.js';
import { log } from '../log.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  cli
    .command('publish')
    .description(
      'append a run (results.json) to a history folder (created when new), append-only and sharded per series and month',
    )
    .argument('<results>', 'a results.json written by `dind-bench run`')
    .requiredOption('--history <dir>', 'the history folder (the content of the gh-pages branch)')
    .option(
      '--retain-months <n>',
      'after publishing, move shards older than this many months (1 to 1200) to archive/ (never deleted)',
      positiveInt,
    )
    .option(
      '--redact <list>',
      'leave out of the history what a public site should not show: hostnames, emails, labels (comma-separated), all, or none (the publish action and the workflow leave out all unless told none)',
    )
    .action(async (results, opts) => {
      const [{ publishRun }, { archiveOldShards, checkKeepMonths }, { parseRedact }] = await Promise.all([
        import('../../history/append.js'),
        import('../../history/retention.js'),
        import('../../history/redact.js'),
      ]);
      const redact = opts.redact === undefined ? [] : parseRedact(opts.redact);
      // Checked before publishing: a retention that cannot run must not leave a half-done command.
      if (opts.retainMonths !== undefined) checkKeepMonths(opts.retainMonths, '--retain-months');
      const started = performance.now();
      const r = await publishRun(opts.history, results, { redact });
      const ms = Math.round(performance.now() - started);
      // The run id comes from the results file: escaped, so it cannot break the line (logText).
      const [id, dir] = [logText(r.runId), logText(opts.history)];
      if (r.duplicate) log(`publish: run ${id} is already in ${dir}; nothing changed`);
      else log(`publish: run ${id}: ${r.points} points in ${r.series} series added to ${dir} (${ms} ms)`);
      if (opts.retainMonths) {
        const moved = await archiveOldShards(opts.history, { keepMonths: opts.retainMonths });
        if (moved) log(`publish: ${moved} shard(s) older than ${opts.retainMonths} months moved to ${dir}/archive/`);
      }
    });
}
