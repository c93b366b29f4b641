// A workload's compose stack as its job runs it (up until healthy, the test, down), and what a failure
// of it says: the plugin missing, or health checks the engine never ran.
import path from 'node:path';
import { ms } from './clock.js';
import { COMPOSE_MISSING } from './preflight.js';

/** @typedef {import('../parsers/parse-error.js').Metric} Metric */
/** @typedef {import('../environments/environment.js').JobEngine} JobEngine */
/** @typedef {import('./shared.js').Shared} Shared */

/**
 * The compose plugin missing: say so first, with the fix (the runner's provisioning step, as doctor says),
 * then what the CLI said (Docker 28: "docker: unknown command: docker compose"; older: "'compose' is not a
 * docker command").
 * @param {Error} e @returns {never}
 */
export function noCompose(e) {
  if (/'compose' is not a docker command|unknown command:? "?(docker )?compose\b/i.test(e.message))
    throw Object.assign(new Error(`step compose-up: ${COMPOSE_MISSING} The CLI said: ${e.message}`), {
      step: 'compose-up',
    });
  throw e;
}

/**
 * A failed `compose up --wait`, with the services whose health check never ran: an engine that does not
 * run health checks (Podman 4.3 without systemd) leaves them `starting` with no result, and the wait ends
 * only at the step's timeout, which alone would not say why. Other failures are returned as they are.
 * @param {Error} e @param {import('dockerode')} docker @param {string} project
 */
export async function withHealthChecks(e, docker, project) {
  const listed = await docker
    .listContainers({ all: true, filters: { label: [`com.docker.compose.project=${project}`] } })
    .catch(() => []);
  /** @type {string[]} */
  const never = [];
  for (const c of listed.slice(0, 50)) {
    const state = await docker
      .getContainer(c.Id)
      .inspect()
      .then((i) => i.State)
      .catch(() => null);
    const health = /** @type {{Status?: string, Log?: unknown[] | null} | undefined} */ (state?.Health);
    if (health?.Status === 'starting' && !health.Log?.length)
      never.push(c.Labels?.['com.docker.compose.service'] ?? c.Names?.[0] ?? c.Id.slice(0, 12));
  }
  if (!never.length) return e;
  const names = never.map((n) => JSON.stringify(String(n).slice(0, 64))).join(', ');
  const note =
    `the health check of ${names} never ran (still "starting", no result): this engine did not run health checks ` +
    '(Podman without systemd schedules none), so the wait could not end';
  // On the first line: a failed cell's reason is the error's first line.
  const [first, ...rest] = e.message.split('\n');
  e.message = [`${first}; ${note}`, ...rest].join('\n');
  return e;
}

/**
 * The compose stack: up until healthy, the test, down; down also when up or the test failed.
 * @param {import('./load.js').WorkloadCompose} c @param {Shared} s
 * @param {(step: string, args: string[]) => Promise<number>} cli @param {JobEngine} engine
 * @returns {Promise<Metric[]>}
 */
export async function compose(c, s, cli, engine) {
  const project = `dind-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const base = ['compose', '--project-name', project, '--file', path.join(s.dir, c.file)];
  /** @type {Metric[]} */
  const m = [];
  let down = false;
  try {
    const up = cli('compose-up', [...base, 'up', '--detach', '--wait'])
      .catch(noCompose)
      .catch(async (e) => {
        throw await withHealthChecks(e, engine.docker, project);
      });
    m.push(ms('compose.up_ms', await up));
    if (c.test)
      m.push(
        ms(
          'compose.test_ms',
          await cli('compose-test', [...base, 'run', '--rm', c.test.service, ...(c.test.command ?? [])]),
        ),
      );
    down = true;
    m.push(ms('compose.down_ms', await cli('compose-down', [...base, 'down', '--volumes', '--remove-orphans'])));
  } finally {
    if (!down) await cli('compose-down', [...base, 'down', '--volumes', '--remove-orphans']).catch(() => {});
  }
  return m;
}
