// `dind-bench redact DIR --redact all`: a run's folder (results.json, report.md, report.html, raw/) without
// the runner's identity, in place, before it is uploaded or shown (the workflow's bench and merge jobs).
import { logText } from '../../text/escape.js';
import { log } from '../log.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  cli
    .command('redact')
    .description(
      "leave the runner's identity out of a run's folder, in place: results.json redacted as publish --redact does, and its host names, runner names and labels replaced in every other text file",
    )
    .argument('<dir>', 'a folder `dind-bench run --out` or `merge --out` wrote')
    .requiredOption(
      '--redact <list>',
      'what to leave out: hostnames, emails, labels (comma-separated), all, or none (changes nothing)',
    )
    .action(async (dir, opts) => {
      const [{ parseRedact }, { redactFolder }] = await Promise.all([
        import('../../history/redact.js'),
        import('../../history/redact-folder.js'),
      ]);
      const what = parseRedact(opts.redact);
      const r = await redactFolder(dir, what);
      log(
        what.length
          ? `redact: ${logText(dir)}: ${what.join(', ')} left out (${r.names} names replaced in ${r.files} files)`
          : `redact: ${logText(dir)}: none asked, nothing changed`,
      );
    });
}
