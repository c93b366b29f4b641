// stress-ng cpu, vm, io and hdd stressors, as the study ran `stress` (standard profile: 100 s each):
// throughput per stressor from stress-ng's YAML metrics, and the time from the environment's start call
// until the workload is burning CPU (the study saw DinD delay the start of work by up to 20 s).
//
// Both sides of that span are read from the kernel's wall clock, which host and containers share: the
// environment records when it asked for the start (RunResult.timings.start_epoch_ms: just before the
// container start call, or the spawn for native), and stress-ng's own timestamped log says when its
// first cpu worker started. So native, docker and DinD measure the same span: start request -> working.
import { parseStressNgStart, parseStressNgYaml } from '../parsers/stress-ng.js';
import { runStep } from './benchmark.js';

/** @typedef {{seconds: number, workers: number, vmBytes: string, hddBytes: string}} StressNgParams */

export const STRESSORS = ['cpu', 'vm', 'io', 'hdd'];

/** @type {import('./benchmark.js').Benchmark<StressNgParams>} */
export const stressNg = {
  name: 'stress-ng',
  image: 'stress-ng',
  description: 'stress-ng cpu, vm, io, hdd: bogo ops/s per stressor, and start request -> workload burning CPU',
  params: {
    // workers 0 = one per online CPU, as stress-ng itself defines it.
    quick: { seconds: 1, workers: 0, vmBytes: '64M', hddBytes: '16M' },
    standard: { seconds: 100, workers: 0, vmBytes: '256M', hddBytes: '1G' },
  },
  estimateSeconds: (p) => STRESSORS.length * (p.seconds + 0.3) + 0.5,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { native: 4.16, docker: 4.42, dind: 4.38, 'dind-vfs': 9.4 },

  async measure(env, ctx) {
    const p = ctx.params;
    const extra = { cpu: '', vm: `--vm-bytes ${p.vmBytes}`, io: '', hdd: `--hdd-bytes ${p.hddBytes}` };
    // One container runs the stressors one after another; cpu first, so its start is the workload's.
    // The YAML goes to a file, then stdout (stress-ng cannot open /dev/stdout when it is a socket, as
    // under Node's spawn); the timestamped log (UTC) goes to stderr.
    const script = STRESSORS.map(
      (s) =>
        `stress-ng --${s} ${p.workers} ${extra[/** @type {keyof typeof extra} */ (s)]} --timeout ${p.seconds}s ` +
        `--metrics-brief --timestamp -v --yaml "$y" && cat "$y"`,
    ).join(' && ');
    const result = await runStep(env, ctx, 'stressors', [
      'env',
      'TZ=UTC',
      'sh',
      '-c',
      `y=$(mktemp) && ${script}; s=$?; rm -f "$y"; exit $s`,
    ]);
    const started = parseStressNgStart(result.stderr, 'cpu', result.timings.start_epoch_ms);
    return [
      ...parseStressNgYaml(result.stdout, STRESSORS),
      {
        metric: 'start_to_work_ms',
        unit: 'ms',
        better: 'lower',
        value: Math.round(started - result.timings.start_epoch_ms),
      },
    ];
  },
};
