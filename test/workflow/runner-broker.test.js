// The runner brokers (runners/gce/broker.sh, runners/lab/broker.sh) decide when a machine gets a
// single-use JIT runner configuration. A job controls its whole machine, so that decision may rest only
// on what GitHub and the compute API report and on what the broker did itself, never on what a machine
// says. And no configuration is issued unless the runners sit behind the fork barrier: an organisation
// runner group that admits only the bench workflow's refs and no public repository. The real scripts
// run here under bash; the cloud APIs (gcloud, api.github.com) and the lab hosts (ssh) are the one thing
// that cannot run on this machine, so small stand-ins on PATH answer from files and record every call.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, createPublicKey, createVerify } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { tmpDir } from '../history/helpers.js';

const GCE = path.resolve('runners/gce/broker.sh');
const LAB = path.resolve('runners/lab/broker.sh');
const JIT = path.resolve('runners/common/jit-config.sh');
const BENCH = 'owner/repo/.github/workflows/bench.yml';
const BENCH_YML = readFileSync('.github/workflows/bench.yml', 'utf8');
/** A runner group as GET /orgs/{org}/actions/runner-groups/{id} returns it: restricted as SECURITY.md asks. */
const RESTRICTED = {
  id: 7,
  name: 'dind-bench',
  visibility: 'selected',
  default: false,
  allows_public_repositories: false,
  restricted_to_workflows: true,
  selected_workflows: [`${BENCH}@refs/heads/main`, `${BENCH}@refs/heads/bench-pr`],
};

/** Runs `decide ARGS` from a broker script, sourced. @param {string} script @param {string[]} args */
function decide(script, args) {
  const r = spawnSync('bash', ['-c', '. "$1"; shift; decide "$@"', 'bash', script, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('GCE: one configuration per instance, on compute API and GitHub facts only', () => {
  const id = '123@2026-11-10T00:00:00.000-08:00';
  /** @type {[string[], string][]} status instance mark runner has_jit age max_age -> action */
  const cases = [
    [['RUNNING', id, '', 'none', '0', '0', '3600'], 'issue'], // new instance, nothing registered
    [['RUNNING', id, '', 'offline', '0', '0', '3600'], 'wait'], // a runner of it is registered: never a second
    [['RUNNING', id, '99@earlier', 'none', '0', '0', '3600'], 'issue'], // a recreated VM: new id
    [['RUNNING', id, id, 'none', '0', '10', '3600'], 'recreate'], // configured, its job done: never again
    [['RUNNING', id, id, 'online', '1', '10', '3600'], 'hide'],
    [['RUNNING', id, id, 'busy', '0', '10', '3600'], 'wait'],
    [['RUNNING', id, id, 'offline', '1', '10', '3600'], 'wait'],
    [['RUNNING', id, id, 'offline', '1', '4000', '3600'], 'expire'],
    [['TERMINATED', id, id, 'none', '0', '10', '3600'], 'recreate'], // powered off after its job
    [['TERMINATED', id, id, 'offline', '0', '10', '3600'], 'expire'],
    [['STAGING', id, '', 'none', '0', '0', '3600'], 'wait'],
  ];
  for (const [args, action] of cases) assert.equal(decide(GCE, args), action, args.join(' '));
});

test('lab: one configuration per reset the broker made, on GitHub facts only', () => {
  /** @type {[string[], string][]} phase runner age max_age -> action */
  const cases = [
    [['unknown', 'none', '0', '3600'], 'reset'], // never seen: its state is unknown
    [['reset', 'none', '0', '3600'], 'issue'],
    [['reset', 'offline', '0', '3600'], 'wait'], // the last runner is still registered
    [['issued', 'none', '10', '3600'], 'reset'], // its job is done: reset before the next
    [['issued', 'busy', '10', '3600'], 'wait'],
    [['issued', 'offline', '10', '3600'], 'wait'],
    [['issued', 'offline', '4000', '3600'], 'expire'],
  ];
  for (const [args, action] of cases) assert.equal(decide(LAB, args), action, args.join(' '));
});

/**
 * A folder with stand-ins for gcloud, curl and ssh that answer from files in it and append each call
 * (one line, arguments joined by spaces) to `calls`.
 */
function stubs() {
  const dir = tmpDir('broker');
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  mkdirSync(path.join(dir, 'vm'));
  const script = (/** @type {string} */ name, /** @type {string} */ body) => {
    writeFileSync(path.join(bin, name), `#!/usr/bin/env bash\nset -euo pipefail\nS=${JSON.stringify(dir)}\n${body}`);
    chmodSync(path.join(bin, name), 0o755);
  };
  // gcloud --project P compute ...: describe answers vm/<name>.json, list-instances the file vms.
  script(
    'gcloud',
    `shift 2
echo "gcloud $*" >> "$S/calls"
case "$*" in
  *"list-instances"*) cat "$S/vms" ;;
  *"instances describe"*) cat "$S/vm/$4.json" ;;
  *"--metadata-from-file"*) all="$*"; f=\${all##*dind-bench-jit=}; echo "jit-content $(cat "$f")" >> "$S/calls" ;;
esac
`,
  );
  // curl -K - ... URL: the token arrives on stdin (recorded in tokens). GET of a workflow file's contents
  // answers the file contents/<its URL, sanitised> (404 without it), of a runner group group.json (404
  // without it), other GETs runners.json; POST generate-jitconfig answers a
  // configuration named after the runner (its group recorded), or fails for a name listed in fail-jit;
  // POST access_tokens mints an App installation token (the JWT and body recorded in minted).
  script(
    'curl',
    `auth=$(cat)
token=$(sed -e 's/.*Bearer //' -e 's/"$//' <<<"$auth")
echo "$token" >> "$S/tokens"
method=GET data='' url=''
while [ $# -gt 0 ]; do
  case "$1" in -X) method=$2; shift ;; --data) data=$2; shift ;; https://*) url=$1 ;; esac
  shift
done
echo "curl $method $url" >> "$S/calls"
rest=\${url#https://api.github.com/repos/}
if [ "$method" = GET ] && [ "$rest" != "$url" ] && [[ "$rest" != */*/* ]]; then
  # GET of a repository: readable unless listed in unreadable-repos.
  if grep -qxF "$rest" "$S/unreadable-repos" 2>/dev/null; then exit 22; fi
  echo '{}'; exit 0
fi
case "$method $url" in
  *"/contents/"*)
    key=$(printf %s "\${url#https://api.github.com/repos/}" | tr -c 'A-Za-z0-9._-' '_')
    if [ -f "$S/contents/$key" ]; then
      jq -n --rawfile t "$S/contents/$key" '{type: "file", encoding: "base64", content: ($t | @base64)}'
    else exit 22; fi ;;
  *"/actions/runner-groups/"*) if [ -f "$S/group.json" ]; then cat "$S/group.json"; else exit 22; fi ;;
  "GET "*) cat "$S/runners.json" ;;
  "POST "*generate-jitconfig)
    name=$(jq -r .name <<<"$data")
    echo "jit-group $(jq -r .runner_group_id <<<"$data")" >> "$S/calls"
    if grep -qxF "$name" "$S/fail-jit" 2>/dev/null; then exit 22; fi
    jq -n --arg n "$name" '{encoded_jit_config: ("JIT-" + $n)}' ;;
  "POST "*/access_tokens)
    echo "$token $data" >> "$S/minted"
    jq -n --arg t "app-token-$(wc -l < "$S/minted")" '{token: $t}' ;;
esac
`,
  );
  // ssh -o BatchMode=yes root@HOST COMMAND: the Engine version, or the pushed configuration.
  script(
    'ssh',
    `shift 2
echo "ssh $*" >> "$S/calls"
case "$*" in
  *"docker version"*) echo 28.2.2 ;;
  *"spool"*|*"next.tmp"*) echo "pushed $1 $(cat)" >> "$S/calls" ;;
esac
`,
  );
  script('reset-host', `echo "reset-host $*" >> "$S/calls"\n`);
  writeFileSync(path.join(dir, 'token'), 'not-a-token', { mode: 0o600 });
  writeFileSync(path.join(dir, 'calls'), '');
  const group = (/** @type {object} */ changes = {}) =>
    writeFileSync(path.join(dir, 'group.json'), JSON.stringify({ ...RESTRICTED, ...changes }));
  group();
  mkdirSync(path.join(dir, 'contents'));
  /** Serves `text` as the workflow OWNER/REPO/PATH@REF (GitHub's contents API). @param {string} ref @param {string} text */
  const workflowFile = (ref, text) => {
    const [, repo, file, at] = /^([^/]+\/[^/]+)\/(.+)@(.+)$/.exec(ref) ?? [];
    const key = `${repo}/contents/${file}?ref=${encodeURIComponent(at)}`.replace(/[^A-Za-z0-9._-]/g, '_');
    writeFileSync(path.join(dir, 'contents', key), text);
  };
  for (const ref of RESTRICTED.selected_workflows) workflowFile(ref, BENCH_YML);
  return {
    dir,
    workflowFile,
    /** Sets what GitHub answers for the runner group: RESTRICTED with these changes. */
    group,
    /** @param {string[]} runners names of registered runners, with their state */
    runners: (runners) =>
      writeFileSync(
        path.join(dir, 'runners.json'),
        JSON.stringify({
          runners: runners.map((r, id) => {
            const [name, state] = r.split(':');
            return { id, name, status: state === 'offline' ? 'offline' : 'online', busy: state === 'busy' };
          }),
        }),
      ),
    /** @param {string} name @param {{ id: string, created: string, status?: string, items?: object[] }} vm */
    vm: (name, { id, created, status = 'RUNNING', items = [] }) =>
      writeFileSync(
        path.join(dir, 'vm', `${name}.json`),
        JSON.stringify({
          id,
          creationTimestamp: created,
          status,
          metadata: { items: [{ key: 'dind-bench-labels', value: 'dind-bench,docker-28.2' }, ...items] },
        }),
      ),
    /** Runs a broker with ONCE=1; returns its exit status, output and the calls made (then clears them). @param {string} script @param {string[]} args @param {Record<string,string>} env */
    run(script, args = [], env = {}) {
      const r = spawnSync('bash', [script, ...args], {
        encoding: 'utf8',
        env: {
          PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`,
          HOME: dir,
          ONCE: '1',
          RUNNER_SCOPE: 'owner',
          RUNNER_GROUP_ID: '7',
          RUNNER_REPOSITORY: 'owner/repo',
          RUNNER_PAT_FILE: path.join(dir, 'token'),
          FLEET: 'fleet',
          PROJECT: 'p',
          ZONE: 'z',
          ...env,
        },
      });
      const calls = readFileSync(path.join(dir, 'calls'), 'utf8').split('\n').filter(Boolean);
      writeFileSync(path.join(dir, 'calls'), '');
      return { status: r.status, out: r.stdout + r.stderr, calls };
    },
  };
}

const issued = (/** @type {string[]} */ calls) => calls.filter((c) => c.includes('generate-jitconfig'));
/** The calls besides the runner group checks (the group, and the workflows it selects). */
const work = (/** @type {string[]} */ calls) =>
  calls.filter((c) => !c.includes('/actions/runner-groups/') && !c.includes('/contents/.github/workflows/'));

test('GCE broker pass: a new instance is configured once; a failing one does not stop the others', () => {
  const s = stubs();
  writeFileSync(path.join(s.dir, 'vms'), 'fleet-a\nfleet-b\nfleet-c\n');
  s.vm('fleet-a', { id: '11', created: 't1' });
  s.vm('fleet-b', { id: '22', created: 't2' });
  s.vm('fleet-c', { id: '33', created: 't3' });
  s.runners([]);
  writeFileSync(path.join(s.dir, 'fail-jit'), 'fleet-a-11\n');
  const first = s.run(GCE);
  assert.equal(first.status, 1, 'the pass reports the failed instance');
  assert.match(first.out, /fleet-a: this pass failed for it; next pass tries again/);
  assert.doesNotMatch(first.out, /fleet-[bc]: this pass failed/, 'the configured instances succeeded');
  // b and c, after a, got theirs: each marked with its instance before the configuration was made.
  assert.deepEqual(
    first.calls.filter((c) => c.startsWith('jit-content')),
    ['jit-content JIT-fleet-b-22', 'jit-content JIT-fleet-c-33'],
  );
  assert.ok(first.calls.some((c) => /add-metadata fleet-b .*dind-bench-issued=22@t2@\d+/.test(c)));
  assert.equal(issued(first.calls).length, 3);
});

test('GCE broker pass: nothing the VM can write gets a second configuration; a recreated VM gets one', () => {
  const s = stubs();
  writeFileSync(path.join(s.dir, 'vms'), 'fleet-a\n');
  const mark = { key: 'dind-bench-issued', value: `11@t1@${Math.floor(Date.now() / 1000)}` };
  // Configured, runner not yet online: waits, whatever the VM reports (guest attributes are not read).
  s.vm('fleet-a', { id: '11', created: 't1', items: [mark, { key: 'dind-bench-jit', value: 'JIT' }] });
  s.runners(['fleet-a-11:offline']);
  let r = s.run(GCE);
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(issued(r.calls), []);
  assert.ok(!r.calls.some((c) => c.includes('guest-attributes')));
  // Runner online: the configuration leaves the metadata.
  s.runners(['fleet-a-11:online']);
  r = s.run(GCE);
  assert.ok(r.calls.some((c) => c.includes('remove-metadata fleet-a --zone z --keys dind-bench-jit')));
  // Its job is done (GitHub removed the runner); a hostile job may have wiped or forged anything on
  // the VM: the instance is recreated, not configured again.
  s.vm('fleet-a', { id: '11', created: 't1', items: [mark] });
  s.runners([]);
  r = s.run(GCE);
  assert.deepEqual(issued(r.calls), []);
  assert.ok(r.calls.some((c) => c.includes('recreate-instances fleet --zone z --instances fleet-a')));
  // The instance group recreated it: a new instance id, no mark. It gets exactly one configuration.
  s.vm('fleet-a', { id: '12', created: 't9' });
  r = s.run(GCE);
  assert.deepEqual(
    r.calls.filter((c) => c.startsWith('jit-content')),
    ['jit-content JIT-fleet-a-12'],
  );
});

test('GCE broker pass: a runner that never comes online expires; a stale registration of a gone VM is removed', () => {
  const s = stubs();
  writeFileSync(path.join(s.dir, 'vms'), 'fleet-a\n');
  const old = Math.floor(Date.now() / 1000) - 7200;
  s.vm('fleet-a', { id: '11', created: 't1', items: [{ key: 'dind-bench-issued', value: `11@t1@${old}` }] });
  s.runners(['fleet-a-11:offline', 'fleet-gone-5:offline', 'other-runner:offline']);
  const r = s.run(GCE);
  assert.equal(r.status, 0, r.out);
  const deletes = r.calls.filter((c) => c.startsWith('curl DELETE'));
  assert.equal(deletes.length, 2, deletes.join('\n')); // fleet-a-11 (expired) and fleet-gone-5, not other-runner
  assert.ok(r.calls.some((c) => c.includes('recreate-instances fleet --zone z --instances fleet-a')));
  assert.deepEqual(issued(r.calls), []);
});

test('lab broker: refuses to start without a reset command or an explicit LAB_REUSE=1', () => {
  const s = stubs();
  const r = s.run(LAB, ['h1']);
  assert.equal(r.status, 2);
  assert.match(r.out, /set RESET_CMD .* or LAB_REUSE=1/);
  assert.deepEqual(r.calls, []);
});

test('lab broker: a host is reset before each configuration; files on the host change nothing', () => {
  const s = stubs();
  const env = { RESET_CMD: path.join(s.dir, 'bin/reset-host') };
  s.runners([]);
  // Never seen: reset first, no configuration.
  let r = s.run(LAB, ['h1'], env);
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(work(r.calls), ['reset-host h1']);
  // Reset by us, nothing registered: one configuration, pushed over SSH.
  r = s.run(LAB, ['h1'], env);
  assert.equal(issued(r.calls).length, 1);
  const pushed = r.calls.find((c) => c.startsWith('pushed'));
  assert.match(pushed ?? '', /^pushed root@h1 JIT-h1-\d+$/);
  const name = /JIT-(h1-\d+)/.exec(pushed ?? '')?.[1];
  // Its runner registered and busy: nothing, however often the host asks (the broker reads nothing there).
  s.runners([`${name}:busy`]);
  for (let i = 0; i < 2; i++) {
    r = s.run(LAB, ['h1'], env);
    assert.deepEqual(
      r.calls.filter((c) => !c.startsWith('curl GET')),
      [],
    );
  }
  // Job done (GitHub removed the runner): reset, and only then the next configuration.
  s.runners([]);
  r = s.run(LAB, ['h1'], env);
  assert.deepEqual(issued(r.calls), []);
  assert.ok(r.calls.includes('reset-host h1'));
  r = s.run(LAB, ['h1'], env);
  assert.equal(issued(r.calls).length, 1);
});

test('the fork barrier: both brokers refuse runners outside a restricted organisation group, saying what to change', () => {
  /** @type {[string, Record<string, string>, object | null, RegExp][]} what, env, group changes, message */
  const cases = [
    [
      'a repository scope',
      { RUNNER_SCOPE: 'owner/repo' },
      null,
      /RUNNER_SCOPE=owner\/repo is a repository\. Repository runners have no runner group.*Register them in the organisation: RUNNER_SCOPE=owner, RUNNER_REPOSITORY=owner\/repo and RUNNER_GROUP_ID .*set RUNNER_ALLOW_REPO_SCOPE=1/,
    ],
    [
      'no group',
      { RUNNER_GROUP_ID: '' },
      null,
      /RUNNER_GROUP_ID is '': set it to the id of the organisation runner group/,
    ],
    [
      'group 1',
      { RUNNER_GROUP_ID: '1' },
      null,
      /RUNNER_GROUP_ID=1 is the organisation's Default group.*set RUNNER_GROUP_ID to its id.*set RUNNER_ALLOW_DEFAULT_GROUP=1/,
    ],
    [
      'an unrestricted group',
      {},
      { restricted_to_workflows: false, selected_workflows: [] },
      /runner group 7 \(dind-bench\) of owner admits every workflow \(restricted_to_workflows is false\)\. In Settings → Actions → Runner groups → dind-bench, set Workflow access to Selected workflows: owner\/repo\/\.github\/workflows\/bench\.yml@refs\/heads\/main, owner\/repo\/\.github\/workflows\/bench\.yml@refs\/heads\/bench-pr/,
    ],
    [
      'a group restricted to nothing',
      {},
      { selected_workflows: [] },
      /lists no selected workflow\. In Settings → Actions → Runner groups → dind-bench, list under Selected workflows/,
    ],
    [
      'a group admitting another workflow',
      {},
      { selected_workflows: [`${BENCH}@refs/heads/main`, 'owner/repo/.github/workflows/ci.yml@refs/heads/main'] },
      /admits the workflow owner\/repo\/\.github\/workflows\/ci\.yml@refs\/heads\/main, which is not one of .*remove it from Selected workflows/,
    ],
    [
      'a group allowing public repositories',
      {},
      { allows_public_repositories: true },
      /allows public repositories \(allows_public_repositories is true\)\. In Settings → Actions → Runner groups → dind-bench, turn off Allow public repositories.*RUNNER_ALLOW_PUBLIC_REPOS=1/,
    ],
    [
      'a group open to all repositories',
      {},
      { visibility: 'all' },
      /Repository access is all \(visibility\)\. In Settings → Actions → Runner groups → dind-bench, set Repository access to Selected repositories/,
    ],
    ['the Default group under another id', { RUNNER_GROUP_ID: '9' }, { default: true }, /is the Default group/],
  ];
  for (const [broker, args, brokerEnv] of /** @type {[string, string[], Record<string, string>][]} */ ([
    [GCE, [], {}],
    [LAB, ['h1'], { RESET_CMD: 'reset-host' }],
  ])) {
    for (const [what, env, changes, message] of cases) {
      const s = stubs();
      writeFileSync(path.join(s.dir, 'vms'), 'fleet-a\n');
      s.vm('fleet-a', { id: '11', created: 't1' });
      s.runners([]);
      if (changes) s.group(changes);
      const r = s.run(broker, args, { ...brokerEnv, ...env });
      const label = `${path.basename(path.dirname(broker))}: ${what}`;
      assert.equal(r.status, 2, `${label}\n${r.out}`);
      assert.match(r.out.replace(/\n\s*-\s*/g, ' '), message, label);
      // Nothing was issued, no machine was touched: at most the group was read.
      assert.deepEqual(work(r.calls), [], `${label}\n${r.calls.join('\n')}`);
    }
  }
});

test('the fork barrier: a restricted organisation group passes and gets the configuration; each exception only when set explicitly', () => {
  const s = stubs();
  writeFileSync(path.join(s.dir, 'vms'), 'fleet-a\n');
  s.runners([]);
  let vm = 10;
  const pass = (/** @type {Record<string, string>} */ env) => {
    s.vm('fleet-a', { id: String(++vm), created: `t${vm}` }); // a fresh instance each time
    return s.run(GCE, [], env);
  };
  // Properly restricted: checked before the pass and again before the configuration, then issued in
  // that group, in the organisation.
  let r = pass({});
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(
    r.calls.filter((c) => c.includes('runner-groups') || /jit-|generate-jitconfig/.test(c)),
    [
      'curl GET https://api.github.com/orgs/owner/actions/runner-groups/7',
      'curl GET https://api.github.com/orgs/owner/actions/runner-groups/7',
      'curl POST https://api.github.com/orgs/owner/actions/runners/generate-jitconfig',
      'jit-group 7',
      'jit-content JIT-fleet-a-11',
    ],
  );
  // Repository runners with RUNNER_ALLOW_REPO_SCOPE=1: issued in the repository (no group to check),
  // with a warning.
  r = pass({ RUNNER_SCOPE: 'owner/repo', RUNNER_ALLOW_REPO_SCOPE: '1' });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /warning: repository runners .*no runner group limits which workflows reach them/);
  assert.ok(r.calls.includes('curl POST https://api.github.com/repos/owner/repo/actions/runners/generate-jitconfig'));
  assert.ok(r.calls.includes('jit-group 1'));
  // A public repository's group with RUNNER_ALLOW_PUBLIC_REPOS=1.
  s.group({ allows_public_repositories: true });
  r = pass({ RUNNER_ALLOW_PUBLIC_REPOS: '1' });
  assert.equal(r.status, 0, r.out);
  assert.equal(issued(r.calls).length, 1);
  // The Default group, restricted all the same, with RUNNER_ALLOW_DEFAULT_GROUP=1; its other checks hold.
  s.group({ id: 1, name: 'Default', default: true });
  r = pass({ RUNNER_GROUP_ID: '1', RUNNER_ALLOW_DEFAULT_GROUP: '1' });
  assert.equal(r.status, 0, r.out);
  assert.ok(r.calls.includes('jit-group 1'));
  s.group({ id: 1, name: 'Default', default: true, restricted_to_workflows: false });
  r = pass({ RUNNER_GROUP_ID: '1', RUNNER_ALLOW_DEFAULT_GROUP: '1' });
  assert.equal(r.status, 2);
  assert.match(r.out, /admits every workflow/);
  // Workflows named in RUNNER_WORKFLOWS (the reusable workflow of the organisation's fork of dind-bench, at
  // a pinned commit) replace bench.yml's refs.
  const reusable = `owner/dind-bench/.github/workflows/reusable-bench.yml@${'c'.repeat(40)}`;
  s.workflowFile(reusable, readFileSync('.github/workflows/reusable-bench.yml', 'utf8'));
  s.group({ selected_workflows: [reusable] });
  assert.equal(pass({}).status, 2);
  r = pass({ RUNNER_REPOSITORY: '', RUNNER_WORKFLOWS: reusable });
  assert.equal(r.status, 0, r.out);
  assert.equal(issued(r.calls).length, 1);
  assert.ok(
    r.calls.some((c) => c.includes('/repos/owner/dind-bench/contents/.github/workflows/reusable-bench.yml?ref=ccc')),
  );
});

test("the fork barrier: the group's workflows must define the self-hosted jobs, and a listed reusable workflow must refuse fork events itself", () => {
  const s = stubs();
  writeFileSync(path.join(s.dir, 'vms'), 'fleet-a\n');
  s.runners([]);
  let vm = 10;
  const pass = (/** @type {string} */ ref) => {
    s.vm('fleet-a', { id: String(++vm), created: `t${vm}` });
    s.group({ selected_workflows: [ref] });
    return s.run(GCE, [], { RUNNER_REPOSITORY: '', RUNNER_WORKFLOWS: ref });
  };
  // A caller of the reusable workflow (the example consumer's bench.yml): its own jobs are the call and a
  // hosted one, so GitHub would give the group's runners to none of the reusable workflow's jobs.
  const caller = 'owner/app/.github/workflows/bench.yml@refs/heads/main';
  s.workflowFile(caller, readFileSync('examples/consumer/.github/workflows/bench.yml', 'utf8'));
  let r = pass(caller);
  assert.equal(r.status, 2, r.out);
  assert.match(
    r.out,
    /admits owner\/app\/\.github\/workflows\/bench\.yml@refs\/heads\/main, which defines no self-hosted job: GitHub gives a group's runners only to jobs defined in a selected workflow.*your organisation's fork of dind-bench at a commit SHA/,
  );
  assert.deepEqual(issued(r.calls), []);
  // The reusable workflow without its guard, in each way a copy could lose it while keeping the text
  // "dind-bench fork barrier" (the broker reads the structure, not a marker): any workflow calling it, a
  // fork's too, would get a runner.
  const REUSABLE = readFileSync('.github/workflows/reusable-bench.yml', 'utf8');
  /** @param {(wf: any) => void} edit */
  const edited = (edit) => {
    const wf = parseYaml(REUSABLE);
    edit(wf);
    return `# dind-bench fork barrier\n${stringifyYaml(wf)}`;
  };
  const unguarded = {
    'no guard job': edited((wf) => delete wf.jobs.guard),
    'the guard on a runner a variable chooses': edited((wf) => (wf.jobs.guard['runs-on'] = '${{ vars.RUNNER }}')),
    'the guard with a token': edited((wf) => (wf.jobs.guard.permissions = { contents: 'write' })),
    'the refusal skippable': edited((wf) => (wf.jobs.guard.steps[0]['continue-on-error'] = true)),
    'the guard reading no event': edited((wf) => (wf.jobs.guard.steps[0].env = {})),
    'a job not waiting for the guard': edited((wf) => (wf.jobs.suite.needs = [])),
    'bench without its own condition': edited((wf) => delete wf.jobs.bench.if),
    'bench after a failure': edited((wf) => (wf.jobs.bench.if = `\${{ always() || ${wf.jobs.bench.if} }}`)),
  };
  let n = 0;
  for (const [what, text] of Object.entries(unguarded)) {
    const old = `owner/dind-bench/.github/workflows/reusable-bench.yml@${String(n++).padStart(40, 'a')}`;
    s.workflowFile(old, text);
    r = pass(old);
    assert.equal(r.status, 2, `${what}: ${r.out}`);
    assert.match(
      r.out,
      /a reusable workflow that does not refuse the events a fork can cause \(no dind-bench guard job: /,
      what,
    );
    assert.deepEqual(issued(r.calls), [], what);
  }
  // A job holding a write token that lost its hosted-only first step (issue 52): a runner of the group with
  // a GitHub-hosted label would get it.
  const writer = `owner/dind-bench/.github/workflows/reusable-bench.yml@${'e'.repeat(40)}`;
  s.workflowFile(
    writer,
    edited((wf) => wf.jobs.publish.steps.shift()),
  );
  r = pass(writer);
  assert.equal(r.status, 2, r.out);
  assert.ok(
    r.out.includes(
      `admits ${writer}, whose job publish holds a write permission (contents) and does not open with the step that fails unless RUNNER_ENVIRONMENT is github-hosted: a runner of this group carrying a GitHub-hosted label`,
    ),
    r.out,
  );
  assert.deepEqual(issued(r.calls), []);
  // The guarded workflow at a branch or a tag: refused, it can be moved to code without the guard.
  for (const ref of ['refs/heads/main', 'v1', 'refs/tags/v1.2.0']) {
    const moving = `owner/dind-bench/.github/workflows/reusable-bench.yml@${ref}`;
    s.workflowFile(moving, REUSABLE);
    r = pass(moving);
    assert.equal(r.status, 2, `${ref}: ${r.out}`);
    assert.ok(
      r.out.includes(
        `a reusable workflow at ${ref}, a ref that can be moved (a branch or a tag) to code without the guard: list it at a commit SHA`,
      ),
      r.out,
    );
    assert.deepEqual(issued(r.calls), [], ref);
  }
  // A workflow in a repository the broker cannot read (no Contents: read) is not checked, so refused.
  const hidden = `owner/hidden/.github/workflows/reusable-bench.yml@${'b'.repeat(40)}`;
  writeFileSync(path.join(s.dir, 'unreadable-repos'), 'owner/hidden\n');
  r = pass(hidden);
  assert.equal(r.status, 2, r.out);
  assert.match(
    r.out,
    /admits owner\/hidden\/.*, but the broker cannot read owner\/hidden \(give the credential Contents: read on it\)/,
  );
  assert.deepEqual(issued(r.calls), []);
  // Not at its ref in a readable repository (a bench-pr not pushed yet): it admits no job now; the next
  // configuration checks again.
  r = pass(`owner/dind-bench/.github/workflows/reusable-bench.yml@refs/heads/bench-pr`);
  assert.equal(r.status, 0, r.out);
  // The reusable workflow with its guard, at a pinned commit: configured.
  const guarded = `owner/dind-bench/.github/workflows/reusable-bench.yml@${'d'.repeat(40)}`;
  s.workflowFile(guarded, readFileSync('.github/workflows/reusable-bench.yml', 'utf8'));
  r = pass(guarded);
  assert.equal(r.status, 0, r.out);
  assert.equal(issued(r.calls).length, 1);
});

test('jit-config.sh checks the group again before every configuration: a group opened up since the broker started gets none', () => {
  const s = stubs();
  let r = s.run(JIT, ['fleet-a-11', 'dind-bench,gce']);
  assert.equal(r.status, 0, r.out);
  assert.equal(r.out.trim(), 'JIT-fleet-a-11');
  s.group({ restricted_to_workflows: false });
  r = s.run(JIT, ['fleet-a-12', 'dind-bench,gce']);
  assert.equal(r.status, 1);
  assert.match(
    r.out,
    /refusing to issue runner configurations:\n {2}- runner group 7 \(dind-bench\) of owner admits every workflow/,
  );
  assert.deepEqual(issued(r.calls), []);
  // A group that cannot be read is no group.
  rmSync(path.join(s.dir, 'group.json'));
  r = s.run(JIT, ['fleet-a-13', 'dind-bench,gce']);
  assert.equal(r.status, 1);
  assert.match(r.out, /could not read runner group 7 of the organisation owner/);
  assert.deepEqual(issued(r.calls), []);
});

test('no runner gets a GitHub-hosted label: jit-config.sh, the lab broker and create-fleet.sh refuse ubuntu-*, windows-*, macos-* (any case) before any call', () => {
  const s = stubs();
  for (const [labels, shown] of [
    ['dind-bench,ubuntu-latest', 'ubuntu-latest'],
    ['UBUNTU-22.04', 'UBUNTU-22.04'],
    ['gce, windows-2022 ', 'windows-2022'],
    ['macos-14,x', 'macos-14'],
    ['x,Ubuntu-24.04-arm;$(id)', 'Ubuntu-24.04-arm???id?'],
  ]) {
    const r = s.run(JIT, ['fleet-a-20', labels]);
    assert.equal(r.status, 1, r.out);
    assert.ok(
      r.out.includes(
        `runner labels: the runner's labels holds '${shown}', a label of GitHub-hosted runners (ubuntu-*, windows-*, macos-*)`,
      ),
      r.out,
    );
    assert.deepEqual(r.calls, [], 'nothing asked of GitHub');
  }
  // Labels that only look alike are a runner's own.
  s.runners([]);
  const own = s.run(JIT, ['fleet-a-21', 'ubuntu,my-ubuntu-latest,ubuntu_22,dind-bench']);
  assert.equal(own.status, 0, own.out);
  assert.equal(own.out.trim(), 'JIT-fleet-a-21');

  const lab = s.run(LAB, ['h1'], { RESET_CMD: path.join(s.dir, 'bin/reset-host'), LABELS: 'lab,Ubuntu-24.04' });
  assert.equal(lab.status, 2, lab.out);
  assert.match(lab.out, /runner labels: LABELS holds 'Ubuntu-24.04', a label of GitHub-hosted runners/);
  assert.deepEqual(lab.calls, []);

  for (const env of /** @type {Record<string, string>[]} */ ([
    { LABELS: 'gce,macos-latest' },
    { MACHINE_TYPE: 'windows-latest' },
  ])) {
    const fleet = createFleet(env);
    assert.equal(fleet.status, 2, fleet.out);
    assert.match(fleet.out, /runner labels: MACHINE_TYPE and LABELS holds '(macos|windows)-latest'/);
    assert.deepEqual(fleet.calls, [], 'nothing created');
  }
});

test("the broker's credential comes from the broker's host: never in a GitHub Actions job, never readable by others", () => {
  const s = stubs();
  writeFileSync(path.join(s.dir, 'vms'), 'fleet-a\n');
  s.vm('fleet-a', { id: '11', created: 't1' });
  s.runners([]);
  let r = s.run(GCE, [], { GITHUB_ACTIONS: 'true' });
  assert.equal(r.status, 2);
  assert.match(
    r.out,
    /refusing to run in a GitHub Actions job .*a GitHub secret, which any workflow someone with write access pushes can read/,
  );
  assert.deepEqual(r.calls, []);
  chmodSync(path.join(s.dir, 'token'), 0o640);
  r = s.run(GCE);
  assert.equal(r.status, 2);
  assert.match(
    r.out,
    /RUNNER_PAT_FILE=.*token \(owner uid \d+, mode 640\) must belong to the broker's user and be readable by it alone: .*chmod 600/,
  );
  assert.deepEqual(r.calls, []);
  r = s.run(GCE, [], { RUNNER_PAT_FILE: '' });
  assert.equal(r.status, 2);
  assert.match(r.out, /no credential: set RUNNER_APP_ID, RUNNER_APP_INSTALLATION_ID and RUNNER_APP_KEY_FILE/);
});

test('a GitHub App: the broker mints an installation token limited to the runner permission, signed with its key, and reuses it', () => {
  const s = stubs();
  const key = path.join(s.dir, 'app.pem');
  const made = spawnSync('openssl', ['genrsa', '-out', key, '2048'], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  chmodSync(key, 0o600);
  writeFileSync(path.join(s.dir, 'vms'), 'fleet-a\n');
  s.vm('fleet-a', { id: '11', created: 't1' });
  s.runners([]);
  const env = {
    RUNNER_PAT_FILE: '',
    RUNNER_APP_ID: '12345',
    RUNNER_APP_INSTALLATION_ID: '678',
    RUNNER_APP_KEY_FILE: key,
  };
  let r = s.run(GCE, [], env);
  assert.equal(r.status, 0, r.out);
  assert.equal(issued(r.calls).length, 1);
  assert.ok(r.calls.includes('curl POST https://api.github.com/app/installations/678/access_tokens'));
  const minted = readFileSync(path.join(s.dir, 'minted'), 'utf8').trim().split('\n');
  assert.equal(minted.length, 1, 'one token for the whole pass');
  const [jwt, body] = minted[0].split(' ');
  // Contents read: the broker reads the workflows the group selects (what they define).
  assert.deepEqual(JSON.parse(body), { permissions: { organization_self_hosted_runners: 'write', contents: 'read' } });
  const [head, claims, signature] = jwt.split('.');
  const verifier = createVerify('RSA-SHA256');
  verifier.update(`${head}.${claims}`);
  assert.ok(
    verifier.verify(createPublicKey(readFileSync(key)), Buffer.from(signature, 'base64url')),
    'signed with the key',
  );
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString());
  assert.equal(payload.iss, '12345');
  assert.ok(payload.exp - payload.iat <= 600);
  // Every other call used the installation token, never the key or a JWT.
  const tokens = readFileSync(path.join(s.dir, 'tokens'), 'utf8').trim().split('\n');
  assert.deepEqual([...new Set(tokens.filter((t) => t !== jwt))], ['app-token-1']);
  // The next pass reuses it (kept in the broker's cache folder, mode 600).
  s.vm('fleet-a', { id: '12', created: 't2' });
  r = s.run(GCE, [], env);
  assert.equal(r.status, 0, r.out);
  assert.equal(issued(r.calls).length, 1);
  assert.equal(readFileSync(path.join(s.dir, 'minted'), 'utf8').trim().split('\n').length, 1);
  const cache = path.join(s.dir, '.cache/dind-bench-broker/app-token-12345-678');
  assert.ok(existsSync(cache));
  assert.equal(statSync(cache).mode & 0o077, 0);
});

/**
 * Runs runners/gce/create-fleet.sh with a stand-in gcloud that records each call; `describe` succeeds for
 * the resources named in the file `existing`. @param {Record<string, string>} env @param {string[]} existing
 */
function createFleet(env, existing = []) {
  const dir = tmpDir('fleet');
  mkdirSync(path.join(dir, 'bin'));
  writeFileSync(path.join(dir, 'existing'), existing.map((e) => `${e}\n`).join(''));
  writeFileSync(
    path.join(dir, 'bin/gcloud'),
    `#!/usr/bin/env bash
echo "gcloud $*" >> ${JSON.stringify(path.join(dir, 'calls'))}
case "$*" in
  *" describe "*) for w in "$@"; do grep -qxF -- "$w" ${JSON.stringify(path.join(dir, 'existing'))} && exit 0; done; exit 1 ;;
esac
`,
  );
  chmodSync(path.join(dir, 'bin/gcloud'), 0o755);
  writeFileSync(path.join(dir, 'calls'), '');
  const r = spawnSync('bash', [path.resolve('runners/gce/create-fleet.sh')], {
    encoding: 'utf8',
    env: {
      PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`,
      HOME: dir,
      PROJECT: 'p',
      ZONE: 'europe-west1-b',
      ...env,
    },
  });
  const calls = readFileSync(path.join(dir, 'calls'), 'utf8').split('\n').filter(Boolean);
  return { status: r.status, out: r.stdout + r.stderr, calls };
}

test('GCE fleet: the runners get a network of their own, inbound denied, outbound only to the web ports on public addresses', () => {
  const refused = createFleet({ NETWORK: 'default' });
  assert.equal(refused.status, 2);
  assert.match(refused.out, /NETWORK=default is the project's shared network.*unset NETWORK \(dind-bench-runners\)/);
  assert.deepEqual(refused.calls, []);

  const r = createFleet({});
  assert.equal(r.status, 0, r.out);
  const made = r.calls.filter((c) => !c.includes(' describe ') && !c.includes('config set'));
  const net = 'dind-bench-runners';
  assert.deepEqual(made.slice(0, 8), [
    `gcloud compute networks create ${net} --subnet-mode custom`,
    `gcloud compute networks subnets create ${net}-europe-west1 --network ${net} --region europe-west1 --range 10.77.0.0/24`,
    `gcloud compute routers create ${net}-nat --network ${net} --region europe-west1`,
    `gcloud compute routers nats create ${net}-nat --router ${net}-nat --region europe-west1 --auto-allocate-nat-external-ips --nat-all-subnet-ip-ranges`,
    `gcloud compute firewall-rules create ${net}-deny-ingress --network ${net} --direction INGRESS --action DENY --rules all --source-ranges 0.0.0.0/0 --priority 100`,
    `gcloud compute firewall-rules create ${net}-deny-egress-private --network ${net} --direction EGRESS --action DENY --rules all --destination-ranges 10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,100.64.0.0/10 --priority 100`,
    `gcloud compute firewall-rules create ${net}-allow-egress-web --network ${net} --direction EGRESS --action ALLOW --rules tcp:443,tcp:80 --destination-ranges 0.0.0.0/0 --priority 1000`,
    `gcloud compute firewall-rules create ${net}-deny-egress --network ${net} --direction EGRESS --action DENY --rules all --destination-ranges 0.0.0.0/0 --priority 65000`,
  ]);
  // No rule allows anything inbound; the template puts the VMs on that subnet, without an address or an account.
  assert.ok(!r.calls.some((c) => /--direction INGRESS --action ALLOW/.test(c)));
  const template = r.calls.find((c) => c.includes('instance-templates create')) ?? '';
  assert.match(
    template,
    new RegExp(
      `--network ${net} --subnet projects/p/regions/europe-west1/subnetworks/${net}-europe-west1 --no-address`,
    ),
  );
  assert.match(template, /--no-service-account --no-scopes/);

  // Run again: the network stays, its rules are set to the current values (a narrower EGRESS_PORTS).
  const again = createFleet({ EGRESS_PORTS: 'tcp:443' }, [
    net,
    `${net}-europe-west1`,
    `${net}-nat`,
    `${net}-deny-ingress`,
    `${net}-deny-egress-private`,
    `${net}-allow-egress-web`,
    `${net}-deny-egress`,
  ]);
  assert.equal(again.status, 0, again.out);
  assert.ok(
    !again.calls.some((c) => / (networks|subnets|routers|nats|firewall-rules) create /.test(c)),
    again.calls.join('\n'),
  );
  assert.ok(
    again.calls.includes(
      `gcloud compute firewall-rules update ${net}-allow-egress-web --rules tcp:443 --destination-ranges 0.0.0.0/0 --priority 1000`,
    ),
  );
});

const EPHEMERAL = path.resolve('runners/common/ephemeral-runner.sh');
/** A JIT configuration as GitHub encodes it: base64 JSON of file name -> base64 content. @param {Record<string, string>} files */
const jitOf = (files) =>
  Buffer.from(
    JSON.stringify(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString('base64')]))),
  ).toString('base64');
/** @param {string} jit */
const filesOf = (jit) =>
  Object.fromEntries(
    Object.entries(JSON.parse(Buffer.from(jit, 'base64').toString())).map(([k, v]) => [
      k,
      Buffer.from(/** @type {string} */ (v), 'base64').toString(),
    ]),
  );

test('the runner starts with updates disabled: its JIT settings say so, the rest untouched; an unreadable configuration is refused', () => {
  const run = (/** @type {string} */ jit) =>
    spawnSync('bash', ['-c', '. "$1"; jit_without_updates "$2"', 'bash', EPHEMERAL, jit], { encoding: 'utf8' });
  const runner = { agentId: 12, agentName: 'fleet-a-11', poolId: 1, ephemeral: true, DisableUpdate: false };
  const credentials = '{"scheme":"OAuth","data":{"clientId":"x"}}';
  for (const settings of [JSON.stringify(runner), `\ufeff${JSON.stringify(runner)}`]) {
    const r = run(jitOf({ '.runner': settings, '.credentials': credentials }));
    assert.equal(r.status, 0, r.stderr);
    const files = filesOf(r.stdout.trim());
    const { DisableUpdate, ...rest } = runner;
    assert.equal(DisableUpdate, false);
    assert.deepEqual(JSON.parse(files['.runner']), { ...rest, disableUpdate: true });
    assert.equal(files['.credentials'], credentials);
  }
  for (const bad of [jitOf({ '.credentials': credentials }), jitOf({ '.runner': 'not json' }), 'not base64 !']) {
    const r = run(bad);
    assert.notEqual(r.status, 0, bad);
    assert.equal(r.stdout.trim(), '');
  }
  // The script's runner start goes through it, and fails closed.
  const script = readFileSync(EPHEMERAL, 'utf8');
  assert.match(
    script,
    /if ! jit=\$\(jit_without_updates "\$jit"\); then[\s\S]*?exit 1\n\s*fi\n[^\n]*\n\s*runuser -u "\$user" -- "\$home\/run.sh" --jitconfig "\$jit"/,
  );
});

test("bump-runner.sh pins a new runner release only when GitHub's published digest and the downloaded tarball agree", () => {
  const dir = tmpDir('bump');
  mkdirSync(path.join(dir, 'bin'));
  const tar = Buffer.from('a runner tarball');
  const sha = createHash('sha256').update(tar).digest('hex');
  writeFileSync(path.join(dir, 'tarball'), tar);
  writeFileSync(
    path.join(dir, 'bin/curl'),
    `#!/usr/bin/env bash
out='' url=''
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift ;; https://*) url=$1 ;; esac; shift; done
echo "$url" >> ${JSON.stringify(path.join(dir, 'calls'))}
case "$url" in
  */releases/latest|*/releases/tags/*) cat ${JSON.stringify(path.join(dir, 'release.json'))} ;;
  */releases/download/*) cp ${JSON.stringify(path.join(dir, 'tarball'))} "$out" ;;
  *) exit 22 ;;
esac
`,
  );
  chmodSync(path.join(dir, 'bin/curl'), 0o755);
  const pin = path.join(dir, 'runner-version.sh');
  const original = readFileSync(path.resolve('runners/common/runner-version.sh'), 'utf8');
  const release = (/** @type {object} */ r) => writeFileSync(path.join(dir, 'release.json'), JSON.stringify(r));
  const bump = (/** @type {string[]} */ args) => {
    writeFileSync(path.join(dir, 'calls'), '');
    const r = spawnSync('bash', [path.resolve('runners/common/bump-runner.sh'), ...args], {
      encoding: 'utf8',
      env: { PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, RUNNER_VERSION_FILE: pin },
    });
    return { status: r.status, out: r.stdout + r.stderr, calls: readFileSync(path.join(dir, 'calls'), 'utf8') };
  };
  const pinned = () =>
    spawnSync('bash', ['-c', '. "$1"; echo "$RUNNER_VERSION $RUNNER_TARBALL $RUNNER_SHA256"', 'bash', pin], {
      encoding: 'utf8',
    }).stdout.trim();
  const asset = { name: 'actions-runner-linux-x64-2.330.0.tar.gz', digest: `sha256:${sha}` };

  // The asset digest agrees with the download: pinned.
  writeFileSync(pin, original);
  release({ tag_name: 'v2.330.0', assets: [asset] });
  let r = bump([]);
  assert.equal(r.status, 0, r.out);
  assert.match(
    r.calls,
    /releases\/latest\n.*releases\/download\/v2\.330\.0\/actions-runner-linux-x64-2\.330\.0\.tar\.gz/,
  );
  assert.equal(pinned(), `2.330.0 actions-runner-linux-x64-2.330.0.tar.gz ${sha}`);
  assert.match(r.out, /runner 2\.321\.0 -> 2\.330\.0/);
  // A named version; the digest from the release notes' SHA line when the API lists none.
  writeFileSync(pin, original);
  release({
    tag_name: 'v2.330.0',
    assets: [{ name: asset.name }],
    body: `<!-- BEGIN SHA linux-x64 -->${sha}<!-- END SHA linux-x64 -->`,
  });
  r = bump(['2.330.0']);
  assert.equal(r.status, 0, r.out);
  assert.match(r.calls, /releases\/tags\/v2\.330\.0/);
  assert.equal(pinned().split(' ')[2], sha);
  // They disagree, or GitHub publishes nothing: refused, the pin unchanged.
  for (const [bad, message] of /** @type {[object, RegExp][]} */ ([
    [
      { tag_name: 'v2.330.0', assets: [{ ...asset, digest: `sha256:${'0'.repeat(64)}` }] },
      /downloaded with SHA-256 \w+, but GitHub lists 0{64}; not pinning it/,
    ],
    [
      { tag_name: 'v2.330.0', assets: [{ name: asset.name }] },
      /GitHub publishes no SHA-256 for actions-runner-linux-x64-2\.330\.0\.tar\.gz/,
    ],
    [{ tag_name: 'v2.330.0; rm -rf /', assets: [asset] }, /the release's tag is not a version/],
  ])) {
    writeFileSync(pin, original);
    release(bad);
    r = bump([]);
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, message);
    assert.equal(readFileSync(pin, 'utf8'), original);
  }
});
