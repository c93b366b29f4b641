// A command run in a container that is already running (`docker exec`), with its output: for probes that
// look from inside a container a run started for another purpose (DinD's outer container, DooD's job
// container). Bounded in time and in output.
import { withTimeout } from './containers.js';

/** At most this much output is kept: a probe prints a few kilobytes. */
const MAX_OUTPUT = 1 << 20;

/**
 * Runs `cmd` in the running container and returns its exit code and its output (stdout and stderr kept
 * apart), within `timeoutMs`.
 * @param {import('dockerode').Container} container @param {string[]} cmd @param {number} timeoutMs
 * @returns {Promise<{exitCode: number, stdout: string, stderr: string}>}
 */
export async function execText(container, cmd, timeoutMs) {
  const run = async () => {
    const exec = await container.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true, Tty: false });
    const stream = await exec.start({ hijack: true, stdin: false });
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    await new Promise((resolve, reject) => {
      stream.on('data', (/** @type {Buffer} */ b) => {
        if (size < MAX_OUTPUT) chunks.push(b);
        size += b.length;
      });
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', reject);
    });
    const { stdout, stderr } = demux(Buffer.concat(chunks));
    // The stream can end a moment before the engine records the exit code.
    for (let i = 0; i < 100; i++) {
      const { Running, ExitCode } = await exec.inspect();
      if (!Running && ExitCode !== null) return { exitCode: ExitCode, stdout, stderr };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { exitCode: -1, stdout, stderr };
  };
  return withTimeout(
    run(),
    timeoutMs,
    `exec of ${cmd[0]} in container ${container.id.slice(0, 12)} timed out after ${timeoutMs} ms`,
  );
}

/** The two streams of a multiplexed exec stream (8-byte frame headers: stream 1 stdout, 2 stderr). @param {Buffer} buf */
function demux(buf) {
  /** @type {Buffer[][]} */
  const parts = [[], [], []];
  let i = 0;
  while (i + 8 <= buf.length && (buf[i] === 1 || buf[i] === 2) && buf[i + 1] === 0) {
    const len = buf.readUInt32BE(i + 4);
    parts[buf[i]].push(buf.subarray(i + 8, i + 8 + len));
    i += 8 + len;
  }
  if (i === 0) return { stdout: buf.toString('utf8'), stderr: '' };
  return { stdout: Buffer.concat(parts[1]).toString('utf8'), stderr: Buffer.concat(parts[2]).toString('utf8') };
}
