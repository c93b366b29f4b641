// The `dind-bench` command line: one module per subcommand under ./commands/ parses and validates its
// options, then hands plain, checked values to the code that does the work.
import { Command } from 'commander';
import { COMMANDS } from './commands/index.js';
import { log } from './log.js';
import { holdPassedSecrets } from '../workload/passed-secrets.js';

export function program() {
  const cli = new Command('dind-bench')
    .description(
      'What does Docker-in-Docker cost compared with plain Docker, on this machine? Measured, with raw samples and provenance.',
    )
    .showHelpAfterError('(add --help for usage)')
    // The suite's own version and ref: what a caller pins (`@v1`) and what results record as `suite`.
    .option('-V, --version', "print the suite's version, ref and commit")
    .exitOverride();
  for (const register of COMMANDS) register(cli);
  return cli;
}

/** @param {string[]} argv */
export async function main(argv) {
  // A workload's secrets passed by the reusable workflow leave the environment before any child process starts.
  holdPassedSecrets();
  // --version is answered before commander parses anything; provenance.js (git, package.json) loads only here.
  if (argv[2] === '--version' || argv[2] === '-V') {
    const { versionLine } = await import('../results/provenance.js');
    process.stdout.write(`${versionLine()}\n`);
    return;
  }
  const cli = program();
  try {
    await cli.parseAsync(argv);
  } catch (e) {
    const err = /** @type {{exitCode?: unknown, code?: string, message?: string} | null} */ (e);
    if (err && typeof err.exitCode === 'number' && err.code?.startsWith('commander.')) {
      // commander has printed the message (and help where asked); --help and --version exit 0.
      process.exitCode = err.exitCode;
      return;
    }
    log(`dind-bench: ${err?.message ?? err}`);
    process.exitCode = 1;
  }
}
