// The runner brokers (runners/gce/broker.sh, runners/lab/broker.sh) decide when a machine gets a
// single-use JIT runner configuration. A job controls its whole machine, so that decision may rest only
// on what GitHub and the compute API report and on what the broker did itself, never on what a machine
// says. The real scripts run here under bash; the cloud APIs (gcloud, api.github.com) and the lab hosts
// (ssh) are the one thing that cannot run on this machine, so small stand-ins on PATH answer from files
// and record every call.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { tmpDir } from '../history/helpers.js';

const GCE = path.resolve('runners/gce/broker.sh');
const LAB = path.resolve('runners/lab/broker.sh');

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
  // curl -K - ... URL: the token arrives on stdin. GET lists runners.json; POST generate-jitconfig
  // answers a configuration named after the runner, or fails for a name listed in fail-jit.
  script(
    'curl',
    `cat > /dev/null
method=GET data='' url=''
while [ $# -gt 0 ]; do
  case "$1" in -X) method=$2; shift ;; --data) data=$2; shift ;; https://*) url=$1 ;; esac
  shift
done
echo "curl $method $url" >> "$S/calls"
case "$method $url" in
  "GET "*) cat "$S/runners.json" ;;
  "POST "*generate-jitconfig)
    name=$(jq -r .name <<<"$data")
    if grep -qxF "$name" "$S/fail-jit" 2>/dev/null; then exit 22; fi
    jq -n --arg n "$name" '{encoded_jit_config: ("JIT-" + $n)}' ;;
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
  writeFileSync(path.join(dir, 'token'), 'not-a-token');
  writeFileSync(path.join(dir, 'calls'), '');
  return {
    dir,
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
          RUNNER_SCOPE: 'owner/repo',
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
  assert.deepEqual(r.calls, ['reset-host h1']);
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
