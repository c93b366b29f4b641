// The docker commands of a workflow's `run:` line that a workload carries as its own parts
// (./from-workflow.js): `docker build` / `docker buildx build` (a build, its secrets from
// `--secret id=…,env=…`), `docker pull` (an image), `docker compose` up / run / exec / down (the stack and
// its test), `docker login` (a registry, its credentials by variable name) and `docker push` (which the
// workload does not do). Each option is either carried, known and of no weight to the job's time, or named
// as not carried; an option not known here leaves the line in its step, as written.
import { resolveWord, simpleWords, twoCommandPipe, variableOf } from './workflow-shell.js';

/**
 * @typedef {{ kind: 'build', context: string, dockerfile?: string, target?: string, args: Record<string, string>,
 *   tags: string[], secrets: { id: string, env: string }[], lost: string[] }} BuildCommand
 * @typedef {{ kind: 'pull', image: string, lost: string[] }} PullCommand
 * @typedef {{ kind: 'push', image: string, lost: string[] }} PushCommand
 * @typedef {{ kind: 'compose', files: string[], sub: string, service?: string, command?: string[], lost: string[] }} ComposeCommand
 * @typedef {{ kind: 'login', registry: string, username: string | null, password: string | null, lost: string[] }} LoginCommand
 *   username, password: the variable each is read from (null: not from a variable)
 * @typedef {BuildCommand | PullCommand | PushCommand | ComposeCommand | LoginCommand} DockerCommand
 * @typedef {{ unparsed: string }} Unparsed a docker command the draft leaves in its step, and why
 */

/** `docker build` options of no weight to what the job measures, taken and dropped. */
const BUILD_IGNORED = new Set(
  '--label --progress --iidfile --metadata-file --provenance --sbom --attest --annotation --load --pull --no-cache -q --quiet --rm --force-rm --compress'.split(
    ' ',
  ),
);
const BUILD_VALUED = new Set(
  '-t --tag -f --file --target --build-arg --secret --platform --cache-from --cache-to --label --progress --output -o --ssh --build-context --network --iidfile --metadata-file --provenance --sbom --attest --add-host --shm-size --ulimit --builder --annotation --allow --no-cache-filter'.split(
    ' ',
  ),
);
const COMPOSE_GLOBAL_VALUED = new Set(
  '-f --file -p --project-name --project-directory --env-file --profile --progress --ansi --parallel'.split(' '),
);
const RUN_VALUED = new Set(
  '-e --env --entrypoint -w --workdir -u --user --name -v --volume -p --publish -l --label --pull --cap-add --cap-drop --index'.split(
    ' ',
  ),
);

/** A docker command of the kinds carried, anywhere in a line. */
const CARRIED =
  /\bdocker\s+(build|buildx\s+build|image\s+(build|pull|push)|pull|push|login|compose)\b|\bdocker-compose\s/;

/**
 * The docker command a line is, or null when it is none the workload carries.
 * @param {string} line the logical line @param {Record<string, string>} env literal variables the line sees
 * @returns {DockerCommand | Unparsed | null}
 */
export function dockerCommandOf(line, env) {
  const pipe = twoCommandPipe(line);
  if (pipe && isDocker(pipe[1], 'login')) return loginOf(stripSudo(pipe[1]), pipe[0]);
  const words = simpleWords(line);
  if (!words)
    return CARRIED.test(line) ? { unparsed: 'a docker command inside a list, a redirection or a substitution' } : null;
  const w = stripSudo(words);
  if (w[0] === 'docker-compose') return composeOf(w.slice(1));
  if (w[0] !== 'docker') return null;
  const [a, b] = w.slice(1);
  if (a === 'build' || (a === 'buildx' && b === 'build') || (a === 'image' && b === 'build'))
    return buildOf(w.slice(a === 'build' ? 2 : 3), env);
  if (a === 'pull' || (a === 'image' && b === 'pull')) return imageOf('pull', w.slice(a === 'pull' ? 2 : 3), env);
  if (a === 'push' || (a === 'image' && b === 'push')) return imageOf('push', w.slice(a === 'push' ? 2 : 3), env);
  if (a === 'compose') return composeOf(w.slice(2));
  if (a === 'login') return loginOf(w, null);
  return null;
}

/** @param {string[]} w */
const stripSudo = (w) => {
  if (w[0] !== 'sudo') return w;
  let i = 1;
  while (i < w.length && w[i].startsWith('-')) i++;
  return w.slice(i);
};

/** @param {string[]} w @param {string} sub */
const isDocker = (w, sub) => {
  const s = stripSudo(w);
  return s[0] === 'docker' && s[1] === sub;
};

/**
 * Options as `--name value` or `--name=value`, in order, with the positional words.
 * @param {string[]} args @param {Set<string>} valued options that take a value
 * @param {(flag: string) => boolean} known options that take none
 * @returns {{ options: [string, string | null][], positional: string[] } | { unknown: string }}
 */
function optionsOf(args, valued, known, stopAtFirstPositional = false) {
  /** @type {[string, string | null][]} */
  const options = [];
  /** @type {string[]} */
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-') || a === '-' || (stopAtFirstPositional && positional.length)) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if (valued.has(flag)) {
      if (eq > 0) options.push([flag, a.slice(eq + 1)]);
      else if (i + 1 < args.length) options.push([flag, args[++i]]);
      else return { unknown: `${flag} without its value` };
    } else if (known(flag)) options.push([flag, null]);
    else return { unknown: flag };
  }
  return { options, positional };
}

/**
 * @param {string[]} args after `build` @param {Record<string, string>} env
 * @returns {BuildCommand | Unparsed}
 */
function buildOf(args, env) {
  const parsed = optionsOf(args, BUILD_VALUED, (f) => BUILD_IGNORED.has(f) || f === '--push');
  if ('unknown' in parsed) return { unparsed: `the build option ${parsed.unknown} is not known here` };
  if (parsed.positional.length !== 1) return { unparsed: 'a build needs exactly one context' };
  const context = resolveWord(parsed.positional[0], env);
  if (context === null || context === '-' || /:\/\/|^git@/.test(context))
    return { unparsed: 'the build context is not a folder of the repository (stdin, a URL or a variable)' };
  /** @type {BuildCommand} */
  const build = { kind: 'build', context, args: {}, tags: [], secrets: [], lost: [] };
  for (const [flag, raw] of parsed.options) {
    if (raw === null) {
      if (flag === '--push') build.lost.push('--push: the workload does not push what it builds');
      continue;
    }
    const value = resolveWord(raw, env);
    if (value === null && flag !== '--secret') {
      build.lost.push(`${flag} ${raw}: a variable the draft does not know`);
      continue;
    }
    buildOption(build, flag, value ?? raw, env);
  }
  return build;
}

/**
 * @param {BuildCommand} build @param {string} flag @param {string} value @param {Record<string, string>} env
 */
function buildOption(build, flag, value, env) {
  if (flag === '-t' || flag === '--tag') build.tags.push(value);
  else if (flag === '-f' || flag === '--file') build.dockerfile = value;
  else if (flag === '--target') build.target = value;
  else if (flag === '--build-arg') buildArg(build, value, env);
  else if (flag === '--secret') buildSecret(build, value);
  else if (!BUILD_IGNORED.has(flag)) build.lost.push(`${flag} ${value}`);
}

/** @param {BuildCommand} build @param {string} value @param {Record<string, string>} env */
function buildArg(build, value, env) {
  const eq = value.indexOf('=');
  const name = eq < 0 ? value : value.slice(0, eq);
  const v = eq < 0 ? env[name] : value.slice(eq + 1);
  if (v === undefined) build.lost.push(`--build-arg ${name}: its value comes from a variable the draft does not know`);
  else build.args[name] = v;
}

/** `id=ID,env=VAR` is carried; a file secret is not (its file is not the job's). @param {BuildCommand} build @param {string} value */
function buildSecret(build, value) {
  const kv = Object.fromEntries(
    value.split(',').map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
    }),
  );
  const id = kv.id;
  const name = kv.env ?? (kv.src === undefined && kv.source === undefined && kv.type !== 'file' ? id : undefined);
  if (id && name && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) && /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(id))
    build.secrets.push({ id, env: name });
  else
    build.lost.push(
      `--secret ${value}: a workload gives a build secret from an environment variable only (id=ID,env=VAR); put the file's content in a variable`,
    );
}

/**
 * @param {'pull' | 'push'} kind @param {string[]} args @param {Record<string, string>} env
 * @returns {PullCommand | PushCommand | Unparsed}
 */
function imageOf(kind, args, env) {
  const parsed = optionsOf(args, new Set(['--platform']), (f) =>
    ['-q', '--quiet', '-a', '--all-tags', '--disable-content-trust'].includes(f),
  );
  if ('unknown' in parsed) return { unparsed: `the ${kind} option ${parsed.unknown} is not known here` };
  if (parsed.positional.length !== 1) return { unparsed: `docker ${kind} takes one image here` };
  const image = resolveWord(parsed.positional[0], env);
  if (image === null) return { unparsed: `the image ${parsed.positional[0]} is a variable the draft does not know` };
  return {
    kind,
    image,
    lost: parsed.options.filter(([f]) => f !== '-q' && f !== '--quiet').map(([f, v]) => `${f}${v ? ` ${v}` : ''}`),
  };
}

/** @param {string[]} args after `compose` @returns {ComposeCommand | Unparsed} */
function composeOf(args) {
  const parsed = optionsOf(
    args,
    COMPOSE_GLOBAL_VALUED,
    (f) => ['--compatibility', '--dry-run', '--all-resources'].includes(f),
    true,
  );
  if ('unknown' in parsed) return { unparsed: `the compose option ${parsed.unknown} is not known here` };
  const [sub = '', ...rest] = parsed.positional;
  /** @type {ComposeCommand} */
  const c = { kind: 'compose', files: [], sub, lost: [] };
  for (const [flag, value] of parsed.options) {
    if (flag === '-f' || flag === '--file') c.files.push(/** @type {string} */ (value));
    else if (['--project-directory', '--env-file', '--profile'].includes(flag)) c.lost.push(`${flag} ${value}`);
  }
  if (sub === 'run' || sub === 'exec') {
    const o = optionsOf(
      rest,
      RUN_VALUED,
      (f) =>
        /^(--rm|-T|--no-TTY|-d|--detach|--no-deps|--service-ports|--use-aliases|--build|--remove-orphans|-i|--interactive|--quiet-pull|--privileged)$/.test(
          f,
        ),
      true,
    );
    if ('unknown' in o) return { unparsed: `the compose ${sub} option ${o.unknown} is not known here` };
    if (!o.positional.length) return { unparsed: `compose ${sub} without a service` };
    [c.service] = o.positional;
    c.command = o.positional.slice(1);
    for (const [flag, value] of o.options)
      if (value !== null && flag !== '--name') c.lost.push(`${sub} ${flag} ${value}`);
    if (sub === 'exec')
      c.lost.push('exec: the workload runs its test as `docker compose run --rm` (a new container of the service)');
  }
  return c;
}

/**
 * @param {string[]} w the login command's words @param {string[] | null} feed the command piped into it
 * @returns {LoginCommand | Unparsed}
 */
function loginOf(w, feed) {
  const parsed = optionsOf(
    w.slice(2),
    new Set(['-u', '--username', '-p', '--password']),
    (f) => f === '--password-stdin',
  );
  if ('unknown' in parsed) return { unparsed: `the login option ${parsed.unknown} is not known here` };
  if (parsed.positional.length > 1) return { unparsed: 'docker login takes one registry' };
  const option = (/** @type {string[]} */ ...names) => parsed.options.find(([f]) => names.includes(f))?.[1] ?? null;
  const user = option('-u', '--username');
  const pass = option('-p', '--password');
  const fed = feed && ['echo', 'printf'].includes(feed[0]) ? feed.filter((x) => !x.startsWith('-')).slice(1) : [];
  const fromFeed = fed.length === 1 ? variableOf(fed[0]) : null;
  /** @type {string[]} */
  const lost = [];
  return {
    kind: 'login',
    registry: parsed.positional[0] ?? 'docker.io',
    username: user === null ? null : variableOf(user),
    password: pass !== null ? variableOf(pass) : fromFeed,
    lost,
  };
}
