// The isolation probe's real output (test/fixtures/isolation/, from the probe in each environment on this
// machine) decided into facts; a fact the lines cannot decide is unknown with the reason; and policies.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { meetsPolicy, modeFacts, parsePolicy, policyText } from '../../src/model/isolation.js';
import { capNames, parseIsolationProbe } from '../../src/parsers/isolation.js';

const fixture = (/** @type {string} */ name) =>
  readFileSync(new URL(`../fixtures/isolation/${name}.txt`, import.meta.url), 'utf8');

/** The runner's view when the fixtures were taken (its namespaces; its engine's socket's device and inode). */
const RUNNER = {
  ns: { user: 'user:[4026531837]', pid: 'pid:[4026531836]', cgroup: 'cgroup:[4026531835]' },
  sockets: [{ path: '/var/run/docker.sock', dev: 65024, ino: 9773097 }],
};

/** @param {string} name @param {'workload' | 'parent'} scope */
const decided = (name, scope = 'workload') =>
  Object.fromEntries(parseIsolationProbe(fixture(name), RUNNER, scope).map((f) => [f.name, f.value]));

test('isolation probe: each fixture decided as the environment is', () => {
  const table = [
    // [fixture, scope, expected subset]
    [
      'docker-workload',
      'workload',
      {
        privileged: 'no',
        seccomp: 'filter',
        host_root: 'yes',
        host_pids: 'no',
        runner_engine: 'no',
        block_mount: 'no',
        block_visible: 'no',
        proc_sys_writable: 'no',
        host_cgroup_writable: 'no',
        host_dev: 'no',
        apparmor: 'none',
      },
    ],
    ['dood-parent', 'parent', { runner_engine: 'yes', privileged: 'no' }],
    ['dind-workload', 'workload', { privileged: 'no', runner_engine: 'no' }],
    [
      'dind-parent',
      'parent',
      {
        privileged: 'yes',
        seccomp: 'disabled',
        runner_engine: 'no',
        block_mount: 'yes',
        proc_sys_writable: 'yes',
        host_cgroup_writable: 'no',
        host_root: 'yes',
      },
    ],
    ['dind-rootless-workload', 'workload', { host_root: 'no', privileged: 'no' }],
    // Seen from the rootless engine's own namespaces: its capabilities hold only in its user namespace.
    [
      'dind-rootless-parent',
      'parent',
      { host_root: 'no', privileged: 'no', block_mount: 'no', proc_sys_writable: 'no', host_cgroup_writable: 'no' },
    ],
  ];
  for (const [name, scope, want] of /** @type {[string, 'workload' | 'parent', Record<string, string>][]} */ (table)) {
    const got = decided(name, scope);
    for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, `${name}: ${k}`);
  }
});

test('isolation probe: what cannot be decided is unknown with the reason, never a guess', () => {
  const facts = parseIsolationProbe(fixture('docker-workload'), { ns: null, sockets: [] }, 'workload');
  const of = (/** @type {string} */ n) => facts.find((f) => f.name === n);
  assert.equal(of('host_root')?.value, 'unknown');
  assert.match(of('host_root')?.evidence ?? '', /could not be compared/);
  assert.equal(of('host_pids')?.value, 'unknown');
  assert.equal(of('runner_engine')?.value, 'unknown');
  assert.match(of('runner_engine')?.evidence ?? '', /socket could not be read/);
  // A probe cut short is refused, naming its first line.
  assert.throws(() => parseIsolationProbe('status.CapEff\t0\n', RUNNER, 'workload'), /did not finish.*status\.CapEff/);
  // A cgroup tree writable where the probe cannot tell whether it is the root.
  const unsure = fixture('docker-workload').replace(
    /cgroup\.writable\t(\S+) no subtree/,
    'cgroup.writable\t$1 yes unknown',
  );
  assert.equal(
    parseIsolationProbe(unsure, RUNNER, 'workload').find((f) => f.name === 'host_cgroup_writable')?.value,
    'unknown',
  );
});

test('isolation probe: capability names from CapEff', () => {
  assert.deepEqual(capNames('0000000000200000'), ['sys_admin']);
  assert.equal(capNames('a80425fb')?.length, 14);
  assert.equal(capNames('not hex'), null);
});

test('mode facts: the worst scope decides; unknown never passes a policy', () => {
  const facts = [
    ...parseIsolationProbe(fixture('dind-workload'), RUNNER, 'workload'),
    ...parseIsolationProbe(fixture('dind-parent'), RUNNER, 'parent'),
  ];
  const mode = modeFacts(facts);
  assert.equal(mode.privileged.value, 'yes');
  assert.match(mode.privileged.evidence[0], /^parent: CAP_SYS_ADMIN held/);
  assert.equal(mode.runner_engine.value, 'no');
  assert.deepEqual(meetsPolicy(mode, parsePolicy('no-runner-engine')), { meets: true, why: [] });
  assert.deepEqual(meetsPolicy(mode, parsePolicy('no-privileged,no-runner-engine')), {
    meets: false,
    why: ['privileged is yes'],
  });
  assert.deepEqual(meetsPolicy({}, parsePolicy('no-host-pids')), { meets: false, why: ['host-pids is unknown'] });
  assert.equal(modeFacts([]).privileged.value, 'unknown');
});

test('--policy: parsed in both spellings; an unknown key or value refused, naming it and the valid ones', () => {
  assert.deepEqual(parsePolicy('no-privileged, runner_engine=no,host-root=NO'), {
    privileged: 'no',
    runner_engine: 'no',
    host_root: 'no',
  });
  assert.equal(policyText(parsePolicy('no-privileged,host-dev=yes')), 'no-privileged,host-dev=yes');
  assert.throws(
    () => parsePolicy('no-rootful'),
    /unknown key "rootful" in "no-rootful"; valid keys: privileged, runner-engine, host-root/,
  );
  assert.throws(() => parsePolicy('privileged=maybe'), /value "maybe" of privileged is not one of: no, yes/);
  assert.throws(() => parsePolicy(''), /--policy is empty/);
  assert.throws(() => parsePolicy('x'.repeat(2000)), /at most 1000/);
});
