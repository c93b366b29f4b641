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
      if (!checks.every((c) => c.ok))
        process.exitCode = (await import('../../reading/gate.js')).exitCodeOf({ stopped: 'checks failed' }, 'doctor');
    });
}
