// `dind-bench workload init --from WORKFLOW --job ID [--out FILE] [--force]`: a team's own GitHub Actions
// job drafted into a workload file (../../workload/from-workflow.js), checked as a workload before it is
// written. The terminal says what was carried, what was not and what to do about each, the variables the
// run needs, and the next command: `plan --workload`, which checks the draft with no engine.
import path from 'node:path';
import { logText } from '../../text/escape.js';
import { log } from '../log.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  const workload = cli.command('workload').description('your own CI job as a workload (docs/workloads.md)');
  workload
    .command('init')
    .description(
      'draft a workload file from a job of a GitHub Actions workflow: its run steps, services, container image, docker builds, pulls, logins and compose commands, its timeout, and the secrets it needs by name',
    )
    .requiredOption('--from <workflow>', 'the workflow file, e.g. .github/workflows/ci.yml')
    .requiredOption('--job <id>', 'the job: its key under jobs:')
    .option(
      '--out <file>',
      "the workload file to write, inside the workflow's repository (default: .github/dind-bench/<job>.yml there); the services' compose file is written beside it",
    )
    .option('--force', 'overwrite the workload file (and its compose file) when it exists')
    .action(async (opts) => {
      const { draftFromWorkflow } = await import('../../workload/from-workflow.js');
      const r = await draftFromWorkflow({ from: opts.from, job: opts.job, out: opts.out, force: Boolean(opts.force) });
      for (const line of summaryOf(r, opts)) log(line);
    });
}

/**
 * @param {import('../../workload/from-workflow.js').Drafted} r @param {{ from: string, job: string }} opts
 * @returns {string[]}
 */
export function summaryOf(r, opts) {
  const shown = (/** @type {string} */ f) => logText(path.relative(process.cwd(), f) || f);
  const c = r.counts;
  const parts = [
    count(c.steps, 'step'),
    count(c.images, 'image'),
    count(c.builds, 'build'),
    count(c.registries, 'registry login', 'registry logins'),
    ...(r.compose ? [`a compose stack of ${count(c.services, 'service')} (${shown(r.compose)})`] : []),
  ];
  const lines = [`drafted ${shown(r.file)} from ${logText(opts.from)}, job ${logText(opts.job)}: ${parts.join(', ')}`];
  if (r.notes.length) {
    lines.push(`not carried (${r.notes.length}; each is a comment in the file where it stood):`);
    for (const n of r.notes) lines.push(`  - ${logText(n.text)}`, `    what to do: ${logText(n.todo)}`);
  } else lines.push('everything the job does is carried');
  if (r.needs.length) {
    lines.push('the run needs these environment variables set (plan and run refuse without them):');
    for (const [name, what] of r.needs) lines.push(`  ${name}: ${logText(what)}`);
  }
  lines.push(`check it with no engine: dind-bench plan --workload ${shown(r.file)}`);
  return lines;
}

/** @param {number} n @param {string} one @param {string} [many] */
const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
