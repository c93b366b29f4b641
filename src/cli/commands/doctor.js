// `dind-bench doctor`: what this machine can run, each problem with its fix.

/** @param {import('commander').Command} cli */
export function register(cli) {
  cli
    .command('doctor')
    .description('check the engine, cgroups, DinD start mode, buildx and base images; each problem with its fix')
    .option('--json', 'print the checks as JSON')
    .action(async (opts) => {
      const [{ outerEngine }, { doctor, formatChecks }] = await Promise.all([
        import('../../engine/client.js'),
        import('../../doctor.js'),
      ]);
      const checks = await doctor(outerEngine());
      process.stdout.write(opts.json ? JSON.stringify(checks, null, 2) + '\n' : formatChecks(checks) + '\n');
      process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
    });
}
