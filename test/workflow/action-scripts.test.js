// The shell the composite actions run, on real inputs: untrusted results are bounded before use, the
// pull request comment is found by author AND marker (the jq filter of actions/compare, run by jq), the
// doctor's findings become errors only where the run cannot go on, and the github-action-benchmark input
// is one file per direction with the job in each name. No engine needed.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';

const ROOT = new URL('../..', import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), 'dind-bench-action-scripts-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** @param {string} script @param {Record<string, string>} env */
function run(script, env) {
  const r = spawnSync('bash', [path.join(ROOT, script)], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('untrusted results: a normal folder passes; links, special files and oversized files are refused', () => {
  const dir = path.join(tmp, 'results');
  mkdirSync(path.join(dir, 'job-a'), { recursive: true });
  writeFileSync(path.join(dir, 'job-a', 'results.json'), JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }));
  let r = run('actions/setup/untrusted-results.sh', { RESULTS: dir });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /within the bounds/);

  r = run('actions/setup/untrusted-results.sh', { RESULTS: dir, MAX_RESULTS_MIB: '1' });
  assert.equal(r.status, 1);
  assert.match(r.out, /::error title=dind-bench untrusted results::a results.json is over 1048576 bytes/);
  assert.match(r.out, /\(MAX_RESULTS_MIB\): job-a\/results.json$/m);

  r = run('actions/setup/untrusted-results.sh', { RESULTS: dir, MAX_TOTAL_MIB: '1' });
  assert.equal(r.status, 1);
  assert.match(r.out, /over the bound of 1048576 \(MAX_TOTAL_MIB\)/);

  symlinkSync('/etc/passwd', path.join(dir, 'job-a', 'raw.txt'));
  r = run('actions/setup/untrusted-results.sh', { RESULTS: dir });
  assert.equal(r.status, 1);
  assert.match(r.out, /links or special files in the results folder \(first: job-a\/raw.txt\)/);
  rmSync(path.join(dir, 'job-a', 'raw.txt'));

  for (let i = 0; i < 4; i++) writeFileSync(path.join(dir, `f${i}`), '');
  r = run('actions/setup/untrusted-results.sh', { RESULTS: dir, MAX_FILES: '3' });
  assert.equal(r.status, 1);
  assert.match(r.out, /more than 3 files/);

  symlinkSync(dir, path.join(tmp, 'results-link'));
  r = run('actions/setup/untrusted-results.sh', { RESULTS: path.join(tmp, 'results-link') });
  assert.equal(r.status, 1);
  assert.match(r.out, /is a symbolic link/);
});

test('the pull request comment is found by its author and its marker, never by the marker alone', () => {
  const action = parse(readFileSync(path.join(ROOT, 'actions/compare/action.yml'), 'utf8'));
  const step = action.runs.steps.find((/** @type {any} */ s) => s.name === 'Pull request comment');
  assert.equal(step.env.AUTHOR, '${{ inputs.comment-author }}');
  assert.match(step.run, /actions\/compare\/pr-comment\.sh/);
  const marker = '<!-- dind-bench comparison -->';
  const comments = [
    { id: 1, user: { login: 'mallory' }, body: `${marker}\nforged: click here` },
    { id: 2, user: { login: 'github-actions[bot]' }, body: 'another bot comment without the marker' },
    { id: 3, user: { login: 'github-actions[bot]' }, body: `${marker}\nthe real one` },
  ];
  // A stand-in `gh`: the listing is answered from `comments` through the script's own --jq filter (real
  // jq), and every write is recorded.
  const bin = mkdtempSync(path.join(tmp, 'gh-'));
  const calls = path.join(bin, 'calls');
  writeFileSync(path.join(bin, 'comments.json'), JSON.stringify(comments));
  writeFileSync(
    path.join(bin, 'gh'),
    [
      '#!/usr/bin/env bash',
      'if [ "$2" = --paginate ]; then jq -r "$5" "$(dirname "$0")/comments.json"; exit; fi',
      `printf '%s\\n' "$*" >> ${JSON.stringify(calls)}`,
    ].join('\n'),
  );
  chmodSync(path.join(bin, 'gh'), 0o755);
  const body = path.join(bin, 'pr-comment.md');
  writeFileSync(body, 'dind@20.10 is 38% slower than docker on lifecycle container.create_ms');
  const post = (/** @type {string} */ author, /** @type {string} */ pr = '12') => {
    writeFileSync(calls, '');
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      GH_TOKEN: 't',
      PR_NUMBER: pr,
      AUTHOR: author,
      COMMENT: body,
      GITHUB_REPOSITORY: 'o/r',
    };
    const r = spawnSync('bash', [path.join(ROOT, 'actions/compare/pr-comment.sh')], { env, encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}`, calls: readFileSync(calls, 'utf8') };
  };
  let r = post(action.inputs['comment-author'].default);
  assert.equal(r.status, 0, r.out);
  assert.match(
    r.calls,
    /^api -X PATCH repos\/o\/r\/issues\/comments\/3 -f body=<!-- dind-bench comparison -->\n/,
    'the default author: the workflow token',
  );
  r = post('mallory');
  assert.match(
    r.calls,
    /^api -X PATCH repos\/o\/r\/issues\/comments\/1 /,
    'the author input decides whose comment is edited',
  );
  r = post('nobody');
  assert.match(
    r.calls,
    /^api -X POST repos\/o\/r\/issues\/12\/comments /,
    'no comment of that author: a new one is posted',
  );
  r = post('nobody', '12; rm -rf /');
  assert.equal(r.status, 1);
  assert.match(r.out, /pr-number must be a pull request number/);
  assert.equal(r.calls, '');
});

test('a comment from another job is posted only when it is the file that job wrote (COMMENT_SHA256), and bounded', () => {
  const bin = mkdtempSync(path.join(tmp, 'gh-digest-'));
  const calls = path.join(bin, 'calls');
  writeFileSync(
    path.join(bin, 'gh'),
    [
      '#!/usr/bin/env bash',
      'if [ "$2" = --paginate ]; then exit 0; fi',
      `printf '%s\\n' "$*" >> ${JSON.stringify(calls)}`,
    ].join('\n'),
  );
  chmodSync(path.join(bin, 'gh'), 0o755);
  const body = path.join(bin, 'pr-comment.md');
  const sha = (/** @type {string} */ f) => execFileSync('sha256sum', [f], { encoding: 'utf8' }).split(' ')[0];
  /** @param {Record<string, string>} extra */
  const post = (extra) => {
    writeFileSync(calls, '');
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      GH_TOKEN: 't',
      PR_NUMBER: '12',
      AUTHOR: 'github-actions[bot]',
      COMMENT: body,
      GITHUB_REPOSITORY: 'o/r',
      ...extra,
    };
    const r = spawnSync('bash', [path.join(ROOT, 'actions/compare/pr-comment.sh')], { env, encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}`, calls: readFileSync(calls, 'utf8') };
  };
  writeFileSync(body, 'dind@20.10 is 38% slower than docker on lifecycle container.create_ms');
  const written = sha(body);
  let r = post({ COMMENT_SHA256: written });
  assert.equal(r.status, 0, r.out);
  assert.match(
    r.calls,
    /^api -X POST repos\/o\/r\/issues\/12\/comments -f body=<!-- dind-bench comparison -->\ndind@20\.10/,
  );

  // Another job's artifact of the same name: not the report's file, never posted.
  writeFileSync(body, '![x](https://attacker.example/pixel) @everyone $(id)');
  r = post({ COMMENT_SHA256: written });
  assert.equal(r.status, 1);
  assert.match(r.out, /::error title=dind-bench comment::the comment at .* is not the one the report job wrote/);
  assert.equal(r.calls, '');
  // No digest from the report job (it did not write one): refused, not posted unchecked.
  r = post({ COMMENT_SHA256: '' });
  assert.equal(r.status, 1);
  assert.match(r.out, /no digest/);
  assert.equal(r.calls, '');

  // Bounded: over GitHub's 65,536 characters is refused, whoever wrote it.
  writeFileSync(body, 'x'.repeat(65_537));
  r = post({ COMMENT_SHA256: sha(body) });
  assert.equal(r.status, 1);
  assert.match(r.out, /longer than 65536 characters/);
  assert.equal(r.calls, '');
  // Characters, not bytes: 30,000 three-byte characters are 90,000 bytes and a comment GitHub takes.
  writeFileSync(body, '\u2060'.repeat(30_000));
  r = post({ COMMENT_SHA256: sha(body) });
  assert.equal(r.status, 0, r.out);

  // A link where the comment should be is not followed.
  rmSync(body);
  symlinkSync('/etc/passwd', body);
  r = post({ COMMENT_SHA256: sha('/etc/passwd') });
  assert.equal(r.status, 1);
  assert.match(r.out, /no comment body at/);
  assert.equal(r.calls, '');
});

/** A suite folder whose `dind-bench doctor --json` prints the given checks. @param {object[]} checks */
function fakeSuite(checks) {
  const suite = mkdtempSync(path.join(tmp, 'suite-'));
  mkdirSync(path.join(suite, 'bin'));
  const bin = path.join(suite, 'bin', 'dind-bench.js');
  const printed = JSON.stringify(JSON.stringify(checks));
  writeFileSync(bin, `#!/usr/bin/env node\nprocess.stdout.write(${printed});\nprocess.exit(1);\n`);
  chmodSync(bin, 0o755);
  return suite;
}

test('doctor: what stops the run is an error, the rest a warning with its fix; data cannot inject commands', () => {
  const checks = [
    { check: 'engine reachable', ok: true, detail: 'answers\n::add-mask::from-an-ok-line' },
    { check: 'docker buildx', ok: false, detail: 'not installed', fix: 'install buildx' },
    { check: 'native tools', ok: false, detail: 'sysbench missing\n::stop-commands::x', fix: 'install sysbench' },
  ];
  let r = run('actions/setup/doctor.sh', { DIND_BENCH_SUITE: fakeSuite(checks), STAGE: 'before-images' });
  assert.equal(r.status, 1, r.out);
  const before = '^::(error|warning) title=dind-bench doctor \\(before-images\\)::';
  assert.match(r.out, new RegExp(`${before}docker buildx: not installed \\(fix: install buildx\\)$`, 'm'));
  assert.match(r.out, /^::error title=dind-bench doctor \(before-images\)::docker buildx/m);
  const escaped = 'native tools: sysbench missing%0A::stop-commands::x \\(fix: install sysbench\\)$';
  assert.match(r.out, new RegExp(`${before}${escaped}`, 'm'));
  assert.match(r.out, /^::warning title=dind-bench doctor \(before-images\)::native tools/m);
  assert.doesNotMatch(r.out, /^::stop-commands/m);
  assert.match(r.out, /^ok {4}engine reachable: answers ::add-mask::from-an-ok-line$/m, 'an ok line stays one line');
  assert.doesNotMatch(r.out, /^::add-mask/m);

  r = run('actions/setup/doctor.sh', { DIND_BENCH_SUITE: fakeSuite(checks), STAGE: 'after-images' });
  assert.equal(r.status, 0, 'after the images, a missing buildx no longer stops the run');
  assert.match(r.out, /^::warning title=dind-bench doctor \(after-images\)::docker buildx/m);

  const unreachable = fakeSuite([{ check: 'engine reachable', ok: false, detail: 'nothing answers', fix: 'start it' }]);
  r = run('actions/setup/doctor.sh', { DIND_BENCH_SUITE: unreachable, STAGE: 'after-images' });
  assert.equal(r.status, 1);
  assert.match(r.out, /^::error title=dind-bench doctor \(after-images\)::engine reachable: nothing answers/m);
  assert.match(r.out, /nothing answers \(fix: start it\)$/m);
});

test('build-images: an image name or reason from this machine cannot start a workflow command', () => {
  const action = parse(readFileSync(path.join(ROOT, 'actions/build-images/action.yml'), 'utf8'));
  const script = action.runs.steps.find((/** @type {any} */ s) => s.id === 'build').run;
  const suite = mkdtempSync(path.join(tmp, 'images-suite-'));
  mkdirSync(path.join(suite, 'bin'));
  const printed = JSON.stringify({
    built: ['dind-bench/lifecycle:debian\n::add-mask::built'],
    unavailable: { 'dind-bench/x:alpine': 'offline 100%\n::stop-commands::y' },
  });
  writeFileSync(path.join(suite, 'bin', 'dind-bench.js'), `process.stdout.write(${JSON.stringify(printed)});\n`);
  const outputs = path.join(suite, 'outputs');
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd: suite,
    env: {
      PATH: process.env.PATH,
      DISTROS: 'debian',
      ENGINES: '20.10',
      BENCHMARKS: '',
      PULL: 'false',
      GITHUB_OUTPUT: outputs,
    },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^built dind-bench\/lifecycle:debian ::add-mask::built$/m);
  assert.match(
    r.stdout,
    /^::warning title=image unavailable::dind-bench\/x:alpine: offline 100%25%0A::stop-commands::y$/m,
  );
  assert.doesNotMatch(r.stdout, /^::(add-mask|stop-commands)/m);
});

test('github-action-benchmark input: one file per direction, each name led by its job', () => {
  const results = path.join(tmp, 'gab-results');
  for (const job of ['gce-docker', 'gce-dind']) {
    mkdirSync(path.join(results, job), { recursive: true });
    copyFileSync(path.join(ROOT, 'test/fixtures/results/quick-debian.json'), path.join(results, job, 'results.json'));
  }
  const out = path.join(tmp, 'gab-out');
  const outputs = path.join(tmp, 'gab-outputs');
  const env = { DIND_BENCH_SUITE: ROOT, RESULTS: results, OUT: out, GITHUB_OUTPUT: outputs };
  const r = run('actions/publish/gab-input.sh', env);
  assert.equal(r.status, 0, r.out);
  for (const kind of ['smaller', 'bigger']) {
    const entries = JSON.parse(readFileSync(path.join(out, `${kind}-is-better.json`), 'utf8'));
    assert.ok(entries.length > 0);
    const jobs = new Set(entries.map((/** @type {{name: string}} */ e) => e.name.split(': ')[0]));
    assert.deepEqual([...jobs].sort(), ['gce-dind', 'gce-docker']);
    const names = new Set(entries.map((/** @type {{name: string}} */ e) => e.name));
    assert.equal(names.size, entries.length, 'no two series share a name');
    for (const e of entries) assert.equal(typeof e.value, 'number');
  }
  const expected = `smaller=${out}/smaller-is-better.json\nbigger=${out}/bigger-is-better.json\n`;
  assert.equal(readFileSync(outputs, 'utf8'), expected);
});

/** A minimal suite folder suite.sh accepts: package files without dependencies and an executable bin. */
function minimalSuite(/** @type {string} */ dir) {
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'dind-bench', version: '0.1.0' }));
  const lock = { name: 'dind-bench', version: '0.1.0', lockfileVersion: 3, requires: true, packages: { '': {} } };
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock));
  writeFileSync(path.join(dir, 'bin', 'dind-bench.js'), '#!/usr/bin/env node\n');
  chmodSync(path.join(dir, 'bin', 'dind-bench.js'), 0o755);
  return dir;
}

/** Runs suite.sh on `suite` and returns what it put in GITHUB_ENV. @param {string} suite @param {string} ref */
function suiteEnv(suite, ref) {
  const envFile = path.join(mkdtempSync(path.join(tmp, 'env-')), 'env');
  writeFileSync(envFile, '');
  const r = run('actions/setup/suite.sh', { SUITE: suite, SUITE_REF: ref, GITHUB_ENV: envFile });
  assert.equal(r.status, 0, r.out);
  return Object.fromEntries(
    readFileSync(envFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

test("suite.sh: the suite's own commit from its checkout, else from a SHA ref, never the caller's", () => {
  const git = (/** @type {string} */ dir, /** @type {string[]} */ args) =>
    execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
  const commitAll = (/** @type {string} */ dir) => {
    git(dir, ['init', '-q']);
    git(dir, ['add', '-A']);
    git(dir, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'x']);
    return git(dir, ['rev-parse', 'HEAD']);
  };
  const sha = 'a'.repeat(40);

  // bench.yml: the suite is the top of its own checkout; its HEAD wins over the ref.
  const own = minimalSuite(mkdtempSync(path.join(tmp, 'own-')));
  const head = commitAll(own);
  assert.equal(suiteEnv(own, sha).DIND_BENCH_SUITE_COMMIT, head);
  assert.equal(suiteEnv(own, 'v1').DIND_BENCH_SUITE_REF, 'v1');

  // Called by reference (an archive, no .git): the ref when it is a commit SHA, else nothing.
  const remote = minimalSuite(mkdtempSync(path.join(tmp, 'remote-')));
  assert.equal(suiteEnv(remote, sha).DIND_BENCH_SUITE_COMMIT, sha);
  assert.equal(suiteEnv(remote, 'v1').DIND_BENCH_SUITE_COMMIT, '');
  assert.equal(suiteEnv(remote, 'A'.repeat(40)).DIND_BENCH_SUITE_COMMIT, '', 'a SHA is lower-case hex');

  // A copy of the suite inside the caller's checkout: the caller's HEAD is not the suite's commit.
  const caller = mkdtempSync(path.join(tmp, 'caller-'));
  const vendored = minimalSuite(path.join(caller, 'vendor', 'dind-bench'));
  const callerHead = commitAll(caller);
  const vendoredEnv = suiteEnv(vendored, 'v1');
  assert.notEqual(vendoredEnv.DIND_BENCH_SUITE_COMMIT, callerHead);
  assert.equal(vendoredEnv.DIND_BENCH_SUITE_COMMIT, '');
  assert.equal(suiteEnv(vendored, sha).DIND_BENCH_SUITE_COMMIT, sha);
});

test('provenance records DIND_BENCH_SUITE_COMMIT as suite.commit, and refuses a malformed one', () => {
  const probe = `import('${path.join(ROOT, 'src/results/provenance.js')}').then((p) => console.log(JSON.stringify(p.suiteFactsSync())))`;
  const facts = (/** @type {string} */ commit) =>
    spawnSync(process.execPath, ['-e', probe], {
      env: { PATH: process.env.PATH, DIND_BENCH_SUITE_COMMIT: commit },
      encoding: 'utf8',
    });
  const sha = 'b'.repeat(40);
  const ok = facts(sha);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).commit, sha);
  const bad = facts('not-a-commit');
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /DIND_BENCH_SUITE_COMMIT="not-a-commit" is not valid/);
});

test("run action: resume 'true' continues a partial results.json or one with failed cells, keeps a complete one, else runs afresh", () => {
  const action = parse(readFileSync(path.join(ROOT, 'actions/run/action.yml'), 'utf8'));
  const script = action.runs.steps.find((/** @type {any} */ s) => s.id === 'run').run;
  // A suite whose dind-bench only records how it was called.
  const suite = mkdtempSync(path.join(tmp, 'run-suite-'));
  mkdirSync(path.join(suite, 'bin'));
  const calls = path.join(suite, 'calls');
  writeFileSync(
    path.join(suite, 'bin', 'dind-bench.js'),
    `require('fs').appendFileSync(${JSON.stringify(calls)}, process.argv.slice(2).join(' ') + '\\n');\n`,
  );
  const step = (/** @type {string} */ out, /** @type {string} */ resume) => {
    const outputs = path.join(out, '..', `${path.basename(out)}.outputs`);
    writeFileSync(calls, '');
    writeFileSync(outputs, '');
    const env = {
      PATH: process.env.PATH,
      SUITE: suite,
      PROFILE: 'tiny',
      ENVIRONMENTS: 'docker',
      DISTROS: 'debian',
      ENGINES: '20.10',
      OUT: out,
      RESUME: resume,
      FAIL_ON_FAILED_CELLS: 'false',
      GITHUB_OUTPUT: outputs,
      GITHUB_STEP_SUMMARY: path.join(tmp, 'summary'),
    };
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { env, encoding: 'utf8' });
    const all = readFileSync(calls, 'utf8').split('\n').filter(Boolean);
    return {
      status: r.status,
      out: `${r.stdout}${r.stderr}`,
      // The measuring calls; the redaction that follows each (the runner's identity out of the folder
      // before the summary shows it) apart.
      calls: all
        .filter((c) => !c.startsWith('redact '))
        .map((c) => `${c}\n`)
        .join(''),
      redacts: all.filter((c) => c.startsWith('redact ')),
      outputs: readFileSync(outputs, 'utf8'),
    };
  };
  const withResults = (/** @type {string} */ name, /** @type {object} */ run) => {
    const dir = path.join(mkdtempSync(path.join(tmp, 'run-out-')), name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ run }));
    writeFileSync(path.join(dir, 'report.md'), '# report\n');
    return dir;
  };

  const fresh = step(path.join(mkdtempSync(path.join(tmp, 'run-out-')), 'fresh'), 'true');
  assert.equal(fresh.status, 0, fresh.out);
  assert.match(fresh.calls, /^run --profile tiny --env docker --distro debian --engine 20\.10 --out \S+fresh$/m);

  const partial = withResults('partial', { state: 'interrupted', complete: false });
  let r = step(partial, 'true');
  assert.equal(r.status, 0, r.out);
  assert.equal(r.calls, `run --resume ${partial}\n`);
  assert.deepEqual(r.redacts, [`redact ${partial} --redact all`], 'redact defaults to all');
  assert.match(r.outputs, /^exit-code=0$/m);

  r = step(withResults('done', { state: 'finished', complete: true }), 'true');
  assert.equal(r.status, 0, r.out);
  assert.equal(r.calls, '', 'a finished run is not measured again');
  assert.match(r.out, /holds a finished run of an earlier attempt: kept as it is/);
  assert.match(r.outputs, /^results=.*done\/results\.json$/m);

  // A re-run of a job whose run finished with failed cells tries those cells again.
  const failed = withResults('failed-cells', { state: 'finished', complete: false });
  r = step(failed, 'true');
  assert.equal(r.status, 0, r.out);
  assert.equal(r.calls, `run --resume ${failed}\n`);
  assert.match(r.out, /resuming the partial run in \S+ \(state failed-cells\)/);

  // Without resume, an existing partial file goes to `run --out`, which refuses it.
  r = step(withResults('no-resume', { state: 'interrupted' }), 'false');
  assert.match(r.calls, /^run --profile tiny .* --out \S+no-resume$/m);
});

test('no npm install in the actions runs a dependency install script (the publish and comment jobs hold write tokens)', () => {
  const files = execFileSync('git', ['ls-files', 'actions'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(sh|ya?ml)$/.test(f));
  const installs = files.flatMap((f) =>
    readFileSync(path.join(ROOT, f), 'utf8')
      .split('\n')
      .filter((l) => /^\s*(npm (ci|install|i)\b)/.test(l))
      .map((l) => `${f}: ${l.trim()}`),
  );
  assert.ok(installs.length > 0, 'the setup action installs the suite');
  for (const line of installs) assert.match(line, /--ignore-scripts/, line);
});
