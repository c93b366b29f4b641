// The docker commands of a drafted `run:` step (./draft-steps.js) that the workload carries as its own parts
// (./workflow-docker.js reads them): a pull is one of its images, a build one of its builds, a login one
// of its registries, a compose command its stack (and a compose run or exec its test). Each line carried
// leaves the step's script; a line that cannot be carried stays in it, with a note saying why.
import { addBuild, addImage, addRegistry, composeFileOf } from './draft-parts.js';
import { dockerCommandOf } from './workflow-docker.js';
import { continuesOnNext, linesSeparable, logicalLines } from './workflow-shell.js';

/** @typedef {import('./draft-parts.js').Draft} Draft */

/**
 * The script less the docker commands the workload carries as its own parts.
 * @param {Draft} d @param {string} script @param {string} cwd @param {Record<string, string>} env
 * @param {string} label @param {(text: string, todo: string) => void} note @param {(p: string) => boolean} exists
 */
export function carryDockerLines(d, script, cwd, env, label, note, exists) {
  if (!linesSeparable(script)) {
    if (/\bdocker(-compose)?\s+(build|buildx|pull|compose|login|push|up|run)\b/.test(script))
      note(
        'its docker commands stay in the step as written (the script has control flow or a heredoc)',
        "move the builds, pulls and compose commands to lines of their own to time them as the workload's parts",
      );
    return script;
  }
  const kept = [];
  let joined = false;
  for (const line of logicalLines(script)) {
    // A line an operator joins to the one before it is part of that command list: it stays.
    const cmd = joined ? null : dockerCommandOf(line.text, env);
    joined = continuesOnNext(line.text);
    if (cmd === null) {
      bakeNote(line.text, note);
      kept.push(line.raw);
    } else if ('unparsed' in cmd) {
      note(
        `\`${line.text.trim().slice(0, 120)}\` stays in the step: ${cmd.unparsed}`,
        "write it as a plain docker command to time it as the workload's part",
      );
      kept.push(line.raw);
    } else if (joined || !carryCommand(d, cmd, cwd, label, note, exists)) kept.push(line.raw);
  }
  return kept.join('\n');
}

/**
 * `docker buildx bake` stays in its step, timed as the step: its targets are in a bake file (HCL or JSON)
 * the draft does not read, so they are not the workload's builds (each timed, cold and warm).
 * @param {string} line @param {(text: string, todo: string) => void} note
 */
function bakeNote(line, note) {
  if (!/\bdocker\s+(buildx\s+)?bake\b/.test(line)) return;
  note(
    `\`${line.trim().slice(0, 120)}\` stays in the step: the targets of a bake file are not the workload's builds`,
    "write each target the job needs under builds: (its context, dockerfile, target, args and tag from the bake file) to time it as the workload's build, and take the bake line out",
  );
  if (/type=gha\b/.test(line))
    note(
      "its cache type=gha is GitHub's cache service, which a workload run has not (the build fails or runs uncached)",
      "take the --set of the cache out: a persistent runner keeps its engine's build cache (runner.persist)",
    );
}

/**
 * @param {Draft} d @param {import('./workflow-docker.js').DockerCommand} cmd @param {string} cwd @param {string} label
 * @param {(text: string, todo: string) => void} note @param {(p: string) => boolean} exists
 * @returns {boolean} carried (the line leaves the step)
 */
function carryCommand(d, cmd, cwd, label, note, exists) {
  const where = label;
  for (const lost of cmd.lost)
    note(`from \`docker ${cmd.kind}\`: ${lost}`, "check that the job's time does not depend on it, or do it in a step");
  if (cmd.kind === 'pull') return addImage(d, cmd.image, where, ['images']);
  if (cmd.kind === 'push') {
    note(
      `docker push ${cmd.image}: the workload does not push`,
      'to time a push, push to $DIND_BENCH_REGISTRY in a step with registries: true',
    );
    return true;
  }
  if (cmd.kind === 'build') return addBuild(d, cmd, cwd, where, ['builds']);
  if (cmd.kind === 'login') return carryLogin(d, cmd, where);
  return carryCompose(d, cmd, cwd, note, exists);
}

/** @param {Draft} d @param {import('./workflow-docker.js').LoginCommand} cmd @param {string} where */
function carryLogin(d, cmd, where) {
  const vars = {
    username: cmd.username ?? 'DIND_BENCH_REGISTRY_USERNAME',
    password: cmd.password ?? 'DIND_BENCH_REGISTRY_PASSWORD',
  };
  if (!cmd.username || !cmd.password)
    d.notes.push({
      at: ['registries'],
      text: `${where}: the login to ${cmd.registry} gives its ${!cmd.username ? 'user name' : 'password'} other than by a variable`,
      todo: `set ${!cmd.username ? vars.username : vars.password} to it where dind-bench runs`,
    });
  return addRegistry(d, cmd.registry, vars, where, ['registries']);
}

/**
 * @param {Draft} d @param {import('./workflow-docker.js').ComposeCommand} cmd @param {string} cwd
 * @param {(text: string, todo: string) => void} note @param {(p: string) => boolean} exists
 */
function carryCompose(d, cmd, cwd, note, exists) {
  if (!['up', 'run', 'exec', 'down', 'build', 'pull'].includes(cmd.sub)) return false;
  const file = composeFileOf(d, cmd.files, cwd, exists);
  if (file === null) {
    note(`docker compose ${cmd.sub}: no compose file found in its folder`, 'give the compose file with -f');
    return false;
  }
  if (d.composeFile !== null && d.composeFile !== file) {
    note(`a second compose file (${file})`, 'a workload takes one compose stack');
    return false;
  }
  if (d.composeFile === null) {
    // The job's own stack is the workload's; its services: (drafted into a file of their own) are named.
    if (d.workload.compose)
      note(
        `its compose file ${file} and the job's services: a workload takes one compose stack, so the draft keeps ${file}`,
        `add the job's services to ${file}`,
      );
    // Said once, where the stack is first named (its later commands give the same files).
    if (cmd.files.length > 1)
      note(
        `compose files after the first (${cmd.files.slice(1).join(', ')}): the draft's stack is ${file} alone`,
        'a workload takes one compose file: merge the others into it (docker compose -f … -f … config gives the merged file)',
      );
    d.composeFile = file;
    d.workload.compose = { file };
  }
  const compose = /** @type {import('./load.js').WorkloadCompose} */ (d.workload.compose);
  if (cmd.sub !== 'run' && cmd.sub !== 'exec') return true;
  // The workload runs one command in its stack, and its steps after the stack is down: a command left in
  // a step would fail there. The last one the job runs is its test (an earlier one readies the stack:
  // a migration, a seed); each other is named.
  if (compose.test)
    note(
      `the compose ${compose.test.service} ${(compose.test.command ?? []).join(' ')} ran in the stack before this one; the workload runs one command in its stack, the last the job runs (${cmd.service})`,
      "make the earlier one part of its service's start (an entrypoint that migrates first) or of the test's command",
    );
  const command = cmd.command ?? [];
  if (
    !/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/.test(cmd.service ?? '') ||
    command.length > 50 ||
    command.some((c) => c.length > 1000)
  ) {
    note(
      `the compose test ${cmd.service} is not a service name and command the workload takes`,
      'write compose.test: {service, command} by hand',
    );
    return false;
  }
  compose.test = { service: /** @type {string} */ (cmd.service), command };
  return true;
}
