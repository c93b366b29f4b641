// What a failed command of a job says: the cell's reason on its first line (the exit status or the limit
// it reached, and the line that says why), then the bounded tail of its output. The run's secrets are
// scrubbed first (../redact/secrets.js): a line cut through a secret would keep a part no rule recognizes.
import { scrubSecrets } from '../redact/secrets.js';

/** @typedef {import('../engine/cli.js').CliResult} CliResult */

/**
 * What a command of the job came to: null for a success, else the error that fails the job. A command that
 * exited 0 but left a process running (a step's `server &`) is no success: the run ended that process, so
 * what the step started did not run to its end, and on a runner it would have outlived the job.
 * @param {string} step @param {string} command @param {CliResult} result
 * @param {string} [limit] the limit it ran under, named when it reached it ("the step limit of 20m (timeout.step)")
 */
export function stepError(step, command, result, limit) {
  if (result.timedOut) return failed(step, command, result, limit ?? 'its time limit');
  if (result.exitCode !== 0) return failed(step, command, result);
  if (!result.leftRunning.length) return null;
  const r = scrubbed(result);
  const n = r.leftRunning.length;
  const shown = r.leftRunning.slice(0, 3).join('; ') + (n > 3 ? `; and ${n - 3} more` : '');
  return Object.assign(
    new Error(
      `step ${step}: \`${scrubSecrets(command).slice(0, 300)}\` exited 0 but left ${n} process${n === 1 ? '' : 'es'} running (${shown}), ended by the run. ` +
        "A step's processes end with it: wait for background work in the step (`wait`), or stop what it started before it ends",
    ),
    { step },
  );
}

/** What a failed command's message keeps of its output: the last lines of stderr and of stdout, each line and all bounded (the raw output has it whole). */
export const TAIL_LINES = 10;
export const MAX_LINE = 500;

/**
 * A failed command in the job's own words: its exit status (or the limit it reached) and the line that says
 * why on the first line (a cell's reason), then the last lines of its stderr, then of its stdout: the
 * docker CLI, compose and a step's own tools say why on stderr, after progress lines on stdout.
 * @param {string} step @param {string} command @param {CliResult} result
 * @param {string} [limit] the limit it reached, when it was ended for it
 */
export function failed(step, command, result, limit) {
  const r = scrubbed(result);
  // The docker CLI and compose say why at the end, after progress lines and before usage hints: the last
  // line that names an error, else the last line.
  const lines = (r.stderr.trim() || r.stdout.trim()).split('\n').filter((l) => l.trim() && !/^\(killed: /.test(l));
  const first =
    [...lines].reverse().find((l) => /error|fail|fatal|denied|not found/i.test(l)) ?? lines.at(-1) ?? '(no output)';
  // A step may print anything: lines of megabytes would not fit in the results (a text field holds 64 KiB),
  // so each line is cut, and the message says so and where the whole output is.
  let cut = false;
  const bounded = (/** @type {string} */ line) => {
    if (line.length <= MAX_LINE) return line;
    cut = true;
    return `${line.slice(0, MAX_LINE)}… (${line.length - MAX_LINE} more characters)`;
  };
  const last = (/** @type {string} */ name, /** @type {string} */ text) => {
    const all = text.trimEnd().split('\n');
    if (!text.trim()) return [];
    const kept = all.slice(-TAIL_LINES).map(bounded);
    const of =
      all.length > kept.length
        ? `last ${kept.length} of ${all.length} lines`
        : `${kept.length} line${kept.length === 1 ? '' : 's'}`;
    return [`--- ${name} (${of}) ---`, ...kept];
  };
  const tail = [...last('stderr', r.stderr), ...last('stdout', r.stdout)];
  const said = bounded(first.trim());
  const note = cut
    ? `\n(output cut: lines longer than ${MAX_LINE} characters; the whole output is in the run's raw/ folder)`
    : '';
  const how = limit
    ? `did not end within ${limit}, so the run ended it (exit ${r.exitCode}); its last words: ${said}`
    : `exited ${r.exitCode}: ${said}`;
  return Object.assign(
    new Error(
      `step ${step}: \`${scrubSecrets(command).slice(0, 300)}\` ${how}\n${tail.join('\n') || '(no output)'}${note}`,
    ),
    { step },
  );
}

/**
 * A command's output and the processes it left, without the run's secrets: scrubbed before any cut.
 * @param {CliResult} r @returns {CliResult}
 */
const scrubbed = (r) => ({
  ...r,
  stdout: scrubSecrets(r.stdout),
  stderr: scrubSecrets(r.stderr),
  leftRunning: r.leftRunning.map((l) => scrubSecrets(l)),
});
