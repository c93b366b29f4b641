// `dind-bench history import-gab` / `export-gab`: github-action-benchmark's data.js in and out.
import { log } from '../log.js';

const gab = () => import('../../history/gab.js');

/** @param {import('commander').Command} cli */
export function register(cli) {
  const history = cli.command('history').description("a history folder and github-action-benchmark's data.js");
  history
    .command('import-gab')
    .description(
      'import a github-action-benchmark data.js (window.BENCHMARK_DATA) into a history; re-importing skips what is there',
    )
    .argument('<datajs>', 'the data.js file (e.g. dev/bench/data.js of a gh-pages branch)')
    .requiredOption('--history <dir>', 'the history folder (created when new)')
    .action(async (file, opts) => {
      const { importGab } = await gab();
      const r = await importGab(opts.history, file);
      log(
        `history: ${r.added} run(s) imported from ${file} into ${opts.history}${r.skipped ? `, ${r.skipped} already there` : ''}`,
      );
    });
  history
    .command('export-gab')
    .description("write the history as a github-action-benchmark data.js, to keep that action's page")
    .requiredOption('--history <dir>', 'the history folder')
    .requiredOption('--out <file>', 'where to write data.js (replaced if it exists: it is derived data)')
    .option('--repo-url <url>', 'the repository URL, for commit links in that page', '')
    .action(async (opts) => {
      const [{ exportGab, formatDataJs }, { promises: fs }, { default: path }] = await Promise.all([
        gab(),
        import('node:fs'),
        import('node:path'),
      ]);
      const data = await exportGab(opts.history, { repoUrl: opts.repoUrl });
      await fs.mkdir(path.dirname(path.resolve(opts.out)), { recursive: true });
      await fs.writeFile(opts.out, formatDataJs(data));
      const runs = Object.values(data.entries).reduce((n, e) => n + e.length, 0);
      log(`history: ${Object.keys(data.entries).length} suite(s), ${runs} entries written to ${opts.out}`);
    });
}
