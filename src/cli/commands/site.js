// `dind-bench site build` and `dind-bench site preview`: the static history site.
import { InvalidArgumentError } from 'commander';
import { log } from '../log.js';

/** @param {string} v */
function port(v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError(`expected a port between 0 and 65535, got ${JSON.stringify(v)}`);
  return n;
}

/** @param {import('commander').Command} cli */
export function register(cli) {
  const site = cli.command('site').description('the static history site (Chart.js, no CDN): build it, preview it');
  site
    .command('build')
    .description('build the static site from site/ and a history folder')
    .requiredOption('--history <dir>', 'the history folder written by `dind-bench publish`')
    .requiredOption('--out <dir>', 'where to write the site (new, a previous build, or the history folder itself)')
    .action(async (opts) => {
      const { buildSite } = await import('../../site/build.js');
      const r = await buildSite({ history: opts.history, out: opts.out });
      log(
        `site: built ${opts.out} (${r.files} files, data from ${r.dataRoot === './' ? 'the same folder' : `${opts.out}/data`})`,
      );
      process.stdout.write(`${opts.out}/index.html\n`);
    });
  site
    .command('preview')
    .description('serve a built site on 127.0.0.1 and print its URL (Ctrl-C stops it)')
    .argument('<sitedir>', 'a folder written by `site build`')
    .option('--port <n>', 'port on 127.0.0.1 (0 = any free port)', port, 8000)
    .action(async (dir, opts) => {
      const { serveSite } = await import('../../site/serve.js');
      const { url, close } = await serveSite(dir, { port: opts.port });
      process.stdout.write(`${url}\n`);
      log(`site: serving ${dir} on ${url} (Ctrl-C stops)`);
      await new Promise((resolve) => {
        const stop = () => close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
