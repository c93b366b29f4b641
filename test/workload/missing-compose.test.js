// A workload's compose stack on a machine without the docker compose plugin (./quickstart leaves it out
// unless it runs a workload): the cell's error says so first and names the fix, whatever words the docker
// CLI uses for a missing plugin. The real CLI is asked, with a config folder that links no plugin; where a
// plugin is installed system-wide it is found anyway, and the words Docker 28 and older CLIs print stand in.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { noCompose } from '../../src/workload/compose-run.js';
import { failed } from '../../src/workload/failure.js';
import { composeCheck } from '../../src/doctor.js';
import { dockerCli } from '../../src/engine/cli.js';

const config = mkdtempSync(path.join(tmpdir(), 'dind-bench-no-plugins-'));
after(() => rmSync(config, { recursive: true, force: true }));

/** The error the compose-up step fails with, after noCompose, for a CLI result. @param {import('../../src/engine/cli.js').CliResult} r */
function composeUpError(r) {
  try {
    noCompose(failed('compose-up', 'docker compose --project-name p --file compose.yml up --detach --wait', r));
  } catch (e) {
    return /** @type {Error & {step?: string}} */ (e);
  }
  assert.fail('noCompose always throws');
}

/** @param {string} stderr @returns {import('../../src/engine/cli.js').CliResult} */
const exited = (stderr, exitCode = 125) => ({ exitCode, stdout: '', stderr, ms: 30, timedOut: false, leftRunning: [] });

const FIX =
  /^step compose-up: the workload's compose stack needs the docker compose v2 plugin, which is not installed \(`docker compose version` fails\)\. Install it with the runner's provisioning step, as root: `bash runners\/common\/install-plugins\.sh compose` \(part of runners\/common\/provision\.sh;/;

test('the docker CLI without the compose plugin: the error says what is missing and how to install it', async () => {
  const real = await dockerCli({
    socket: path.join(config, 'no-engine.sock'),
    args: ['compose', 'version'],
    timeoutMs: 30_000,
    config,
  });
  const cases = [
    exited("docker: unknown command: docker compose\n\nRun 'docker --help' for more information\n"), // Docker 28
    exited("docker: 'compose' is not a docker command.\nSee 'docker --help'\n", 1), // Docker 20.10-24
  ];
  // The CLI on this machine, unless a system-wide plugin answers.
  if (real.exitCode !== 0) cases.push(real);
  for (const r of cases) {
    const e = composeUpError(r);
    assert.match(e.message, FIX, r.stderr);
    assert.equal(e.step, 'compose-up');
    assert.ok(e.message.includes(r.stderr.trim().split('\n')[0]), 'what the CLI said is kept');
    assert.doesNotMatch(
      e.message,
      /\.ci\/install|quickstart/,
      "the runner's step is named, not the project's own scripts",
    );
  }
});

test('any other compose failure keeps its own words', () => {
  const e = composeUpError(exited('service "db" is unhealthy\n', 1));
  assert.match(e.message, /^step compose-up: `docker compose .*` exited 1: service "db" is unhealthy/);
  assert.doesNotMatch(e.message, /plugin/);
});

test("doctor checks the compose plugin, naming the runner's provisioning step as the fix", () => {
  const missing = composeCheck(null);
  assert.equal(missing.ok, false);
  assert.match(
    missing.fix ?? '',
    /^on a runner, as root, the runner's provisioning step that installs it: `bash runners\/common\/install-plugins\.sh compose`/,
  );
  assert.doesNotMatch(missing.fix ?? '', /\.ci\/install|quickstart/);
  assert.deepEqual(composeCheck('2.26.1'), {
    check: 'docker compose',
    ok: true,
    detail: 'docker compose 2.26.1',
    fix: undefined,
  });
});
