// runners/k8s/validate.py, the check of the ARC runner values: it runs here under python3 with the
// kubernetes-validate package (npm test's pretest, .ci/install-test-tools.sh, installs it; under CI=true a
// missing one fails).
// The repository's files pass with their named placeholders; --deploy, the check before `helm install`,
// refuses every placeholder and every image not pinned by digest. Both refuse the chart's dind mode
// (its privileged sidecar is the moving tag docker:dind), an unpinned sidecar, repository runners and
// the default runner group.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import YAML from 'yaml';
import { tmpDir } from '../history/helpers.js';

const VALIDATE = path.resolve('runners/k8s/validate.py');
const DIND = path.resolve('runners/k8s/values-dind.yaml');
const KUBERNETES = path.resolve('runners/k8s/values-kubernetes.yaml');

/** False when python3 and kubernetes-validate are there; the reason otherwise (a failure under CI=true). */
function pythonOrSkip() {
  const r = spawnSync('python3', ['-c', 'import kubernetes_validate, yaml'], { encoding: 'utf8' });
  if (r.status === 0) return false;
  const why =
    "python3 with kubernetes-validate is missing (`bash .ci/install-test-tools.sh`, npm test's pretest, installs it)";
  if (process.env.CI) throw new Error(`CI=true but ${why}`);
  return why;
}
const skip = pythonOrSkip();

/** @param {string[]} args @param {Record<string, string>} env */
function validate(args, env = {}) {
  const r = spawnSync('python3', [VALIDATE, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: r.status, out: r.stdout + r.stderr };
}

const dir = tmpDir('k8s-values');
let written = 0;
/** A copy of FILE's values, changed by CHANGE, written to a temporary file. @param {string} file @param {(v: any) => void} change */
function variant(file, change) {
  const values = YAML.parse(readFileSync(file, 'utf8'));
  change(values);
  const out = path.join(dir, `values-${++written}.yaml`);
  writeFileSync(out, YAML.stringify(values));
  return out;
}
const container = (/** @type {any} */ v, /** @type {string} */ name) =>
  v.template.spec.containers.find((/** @type {any} */ c) => c.name === name);
const digest = (/** @type {string} */ c) => `@sha256:${c.repeat(64)}`;
/** values-dind.yaml filled in as an operator would: the organisation, the registry, real-looking digests. */
const filled = (/** @type {any} */ v) => {
  v.githubConfigUrl = 'https://github.com/my-org';
  const runner = `registry.invalid/dind-bench-runner:2.321.0${digest('a')}`;
  v.template.spec.initContainers[0].image = runner;
  container(v, 'runner').image = runner;
  container(v, 'dind').image = `docker:28.2.2-dind${digest('b')}`;
};

test('validate.py: the repository files pass, the sidecar pinned by a named digest placeholder', { skip }, () => {
  const r = validate([]);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /ok {2}values-dind\.yaml/);
  assert.match(r.out, /ok {2}networkpolicy\.yaml/);
  const values = YAML.parse(readFileSync(DIND, 'utf8'));
  assert.equal(values.containerMode, undefined, "dind mode's pod written out, not the chart's");
  // A placeholder is a mapping where Kubernetes takes only a string: the chart copies it into the runner
  // scale set as it is (toYaml), and the API server refuses that object, so `helm install` does.
  assert.deepEqual(Object.keys(container(values, 'dind').image), ['REPLACE_WITH']);
  assert.match(container(values, 'dind').image.REPLACE_WITH, /^docker:[\d.]+-dind@sha256:<digest>$/);
  for (const c of [...values.template.spec.initContainers, container(values, 'runner')]) {
    assert.match(c.image.REPLACE_WITH, /^REGISTRY\/dind-bench-runner:[\d.]+@sha256:<digest>$/, c.name);
  }
  assert.equal(container(values, 'dind').securityContext.privileged, true);
});

test(
  'validate.py: a placeholder helm install would take (a string image) is refused in the repository files',
  { skip },
  () => {
    const stringPlaceholder = variant(DIND, (v) => {
      container(v, 'dind').image = 'docker:28.2.2-dind@sha256:REPLACE_WITH_DIGEST_OF_docker_28.2.2-dind';
    });
    const r = validate([stringPlaceholder]);
    assert.equal(r.status, 1);
    assert.match(
      r.out,
      /container 'dind': image docker:28\.2\.2-dind@sha256:REPLACE_WITH_DIGEST_OF_docker_28\.2\.2-dind is a placeholder that `helm install` would deploy: write it as the mapping \{REPLACE_WITH: IMAGE\}/,
    );
  },
);

test(
  'validate.py: the chart dind mode and an unpinned sidecar are refused, naming the command that gives the digest',
  { skip },
  () => {
    const chartMode = variant(DIND, (v) => {
      v.containerMode = { type: 'dind' };
    });
    let r = validate([chartMode]);
    assert.equal(r.status, 1);
    assert.match(
      r.out,
      /containerMode\.type is 'dind': chart 0\.10\.1 then starts its own sidecar from the moving tag docker:dind/,
    );
    for (const image of ['docker:dind', 'docker:28.2.2-dind', 'docker:28.2.2-dind@sha256:abc']) {
      const tagged = variant(DIND, (v) => {
        container(v, 'dind').image = image;
      });
      r = validate([tagged]);
      assert.equal(r.status, 1, image);
      assert.match(
        r.out,
        /the privileged dind sidecar's image .* is not pinned by digest: write it as docker:<version>-dind@sha256:<digest> \(`docker buildx imagetools inspect IMAGE:TAG` or `crane digest IMAGE:TAG` prints it\)/,
      );
    }
  },
);

test(
  'validate.py --deploy: refused until every placeholder is replaced and every image pinned by digest',
  { skip },
  () => {
    let r = validate(['--deploy', DIND]);
    assert.equal(r.status, 1);
    assert.match(r.out, /githubConfigUrl https:\/\/github\.com\/OWNER still has the placeholder OWNER/);
    assert.match(
      r.out,
      /container 'dind': image \{REPLACE_WITH: docker:28\.2\.2-dind@sha256:<digest>\} is a placeholder: replace the mapping with the image, pinned by digest/,
    );
    assert.match(r.out, /container 'runner': image \{REPLACE_WITH: REGISTRY\/dind-bench-runner/);
    // What the API server does with the runner scale set `helm install` sends: Kubernetes' own schema of a
    // container (the runner scale set's CRD embeds the same) takes only a string.
    assert.match(
      r.out,
      /runner pod template: \{'REPLACE_WITH': .*\} is not of type 'string'.* \(at spec\.(initC|c)ontainers\.\d\.image\)/,
    );
    r = validate(['--deploy', KUBERNETES]);
    assert.equal(r.status, 1);
    assert.match(
      r.out,
      /container 'runner': image \{REPLACE_WITH: REGISTRY\/dind-bench-runner:[\d.]+@sha256:<digest>\} is a placeholder/,
    );
    r = validate([
      '--deploy',
      variant(KUBERNETES, (v) => {
        v.githubConfigUrl = 'https://github.com/my-org';
        container(v, 'runner').image = 'registry.invalid/dind-bench-runner:2.321.0';
      }),
    ]);
    assert.equal(r.status, 1);
    assert.match(r.out, /container 'runner': image \S+ is not pinned by digest: append @sha256:<digest>/);
    const ready = variant(DIND, filled);
    r = validate(['--deploy', ready]);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /ready to deploy/);
    // One image left on a tag is enough to refuse.
    r = validate([
      '--deploy',
      variant(DIND, (v) => {
        filled(v);
        v.template.spec.initContainers[0].image = 'registry.invalid/dind-bench-runner:2.321.0';
      }),
    ]);
    assert.equal(r.status, 1);
    assert.match(
      r.out,
      /container 'init-dind-externals': image registry\.invalid\/dind-bench-runner:2\.321\.0 is not pinned by digest/,
    );
  },
);

test(
  'validate.py: a scale set named or labelled like GitHub-hosted runners (ubuntu-*, windows-*, macos-*) is refused',
  { skip },
  () => {
    for (const file of [DIND, KUBERNETES]) {
      for (const [change, where, shown] of /** @type {[(v: any) => void, string, string][]} */ ([
        [(v) => (v.runnerScaleSetName = 'ubuntu-latest'), 'runnerScaleSetName', 'ubuntu-latest'],
        [(v) => (v.runnerScaleSetName = 'Windows-2022'), 'runnerScaleSetName', 'Windows-2022'],
        [(v) => (v.scaleSetLabels = ['dind-bench', 'MACOS-14']), 'scaleSetLabels\\[1\\]', 'MACOS-14'],
      ])) {
        const r = validate([variant(file, change)]);
        assert.equal(r.status, 1, r.out);
        assert.match(
          r.out,
          new RegExp(
            `${where} is '${shown}', a label of GitHub-hosted runners \\(ubuntu-\\*, windows-\\*, macos-\\*\\): jobs meant for GitHub's own machines`,
          ),
        );
      }
      // A name that only looks alike is the scale set's own.
      assert.equal(validate([variant(file, (v) => (v.runnerScaleSetName = 'dind-bench-ubuntu-latest'))]).status, 0);
    }
    // The check before `helm install` too.
    const filledIn = variant(DIND, (v) => {
      filled(v);
      v.runnerScaleSetName = 'ubuntu-22.04';
    });
    assert.equal(validate(['--deploy', filledIn]).status, 1);
  },
);

test('validate.py: repository runners and the default group are refused unless accepted explicitly', { skip }, () => {
  const repo = variant(DIND, (v) => {
    filled(v);
    v.githubConfigUrl = 'https://github.com/my-org/my-repo';
  });
  let r = validate(['--deploy', repo]);
  assert.equal(r.status, 1);
  assert.match(
    r.out,
    /githubConfigUrl https:\/\/github\.com\/my-org\/my-repo is a repository: .*Use the organisation \(https:\/\/github\.com\/my-org\) with runnerGroup .*RUNNER_ALLOW_REPO_SCOPE=1/,
  );
  assert.equal(validate(['--deploy', repo], { RUNNER_ALLOW_REPO_SCOPE: '1' }).status, 0);
  for (const group of [undefined, 'Default']) {
    const defaultGroup = variant(DIND, (v) => {
      filled(v);
      if (group) v.runnerGroup = group;
      else delete v.runnerGroup;
    });
    r = validate(['--deploy', defaultGroup]);
    assert.equal(r.status, 1, String(group));
    assert.match(
      r.out,
      /runnerGroup is '(default|Default)', the organisation's Default group: set it to a group restricted to bench\.yml.*RUNNER_ALLOW_DEFAULT_GROUP=1/,
    );
    assert.equal(validate(['--deploy', defaultGroup], { RUNNER_ALLOW_DEFAULT_GROUP: '1' }).status, 0);
  }
});

test(
  'validate.py: the isolation between jobs is a value (dindBench.isolation) the pod must match (values.schema.json)',
  { skip },
  () => {
    const dindOf = (/** @type {any} */ v) => container(v, 'dind');
    /** @type {Array<[string, (v: any) => void, RegExp | null]>} */
    const cases = [
      ['node-per-job as shipped', () => {}, null],
      [
        'kata with its runtime class',
        (v) => {
          v.dindBench.isolation = 'kata';
          v.template.spec.runtimeClassName = 'kata';
        },
        null,
      ],
      [
        'sysbox with its runtime class, the sidecar unprivileged',
        (v) => {
          v.dindBench.isolation = 'sysbox';
          v.template.spec.runtimeClassName = 'sysbox-runc';
          delete dindOf(v).securityContext;
        },
        null,
      ],
      ['no choice', (v) => delete v.dindBench, /'dindBench' is a required property/],
      ['a choice that is none of the three', (v) => (v.dindBench.isolation = 'trust-me'), /'trust-me' is not one of/],
      [
        'kata without its runtime class',
        (v) => (v.dindBench.isolation = 'kata'),
        /'runtimeClassName' is a required property/,
      ],
      [
        'sysbox with the sidecar still privileged',
        (v) => {
          v.dindBench.isolation = 'sysbox';
          v.template.spec.runtimeClassName = 'sysbox-runc';
        },
        /template\.spec\.containers\.\d\.securityContext\.privileged: .*dindBench\.isolation is 'sysbox'/,
      ],
      [
        'node-per-job with a runtime class',
        (v) => (v.template.spec.runtimeClassName = 'kata'),
        /template\.spec: .*should not be valid/,
      ],
      [
        'node-per-job without its node pool',
        (v) => delete v.template.spec.nodeSelector,
        /'nodeSelector' is a required property/,
      ],
    ];
    for (const [what, change, refused] of cases) {
      const r = validate([variant(DIND, change)]);
      if (refused === null) assert.equal(r.status, 0, `${what}: ${r.out}`);
      else {
        assert.equal(r.status, 1, `${what}: ${r.out}`);
        assert.match(r.out, refused, what);
        assert.match(r.out, /values\.schema\.json: dindBench\.isolation is/, what);
      }
    }
  },
);

test(
  'validate.py: a scale set has one label, its name: scaleSetLabels (ignored by chart 0.10.1) and names the chart or Kubernetes refuses are refused',
  { skip },
  () => {
    for (const file of [DIND, KUBERNETES]) {
      let r = validate([variant(file, (v) => (v.scaleSetLabels = ['self-hosted', 'linux', 'arc']))]);
      assert.equal(r.status, 1, r.out);
      assert.match(
        r.out,
        /scaleSetLabels is set, but chart 0\.10\.1 ignores it \(scale set labels came with chart 0\.14\.0\): the scale set's only label is its runnerScaleSetName \('dind-bench-(dind|k8s)'\), and a job reaches it with runs-on: that name alone/,
      );
      // An empty list is no label: the chart renders nothing either way.
      assert.equal(validate([variant(file, (v) => (v.scaleSetLabels = []))]).status, 0);
      for (const name of ['Dind-Bench', 'dind_bench', 'dind bench', '-dind', 'dind-', 'a'.repeat(46), '', 42]) {
        r = validate([variant(file, (v) => (v.runnerScaleSetName = name))]);
        assert.equal(r.status, 1, `${JSON.stringify(name)}: ${r.out}`);
        assert.match(
          r.out,
          /runnerScaleSetName is .*: chart 0\.10\.1 names the scale set's Kubernetes object after it, so it must be 1 to 45 characters of a-z, 0-9, '-' and '\.'/,
          JSON.stringify(name),
        );
      }
      for (const name of ['a'.repeat(45), 'dind-bench-dind-28-2', 'dind-bench.k8s']) {
        r = validate([variant(file, (v) => (v.runnerScaleSetName = name))]);
        assert.equal(r.status, 0, `${name}: ${r.out}`);
      }
    }
  },
);

test(
  "validate.py: dind mode's sidecar keeps its engine's data on a volume; overlayfs under it is refused",
  { skip },
  () => {
    const values = YAML.parse(readFileSync(DIND, 'utf8'));
    const data = container(values, 'dind').volumeMounts.find(
      (/** @type {any} */ m) => m.mountPath === '/var/lib/docker',
    );
    assert.ok(data, 'values-dind.yaml mounts a volume at /var/lib/docker');
    assert.deepEqual(values.template.spec.volumes.find((/** @type {any} */ v) => v.name === data.name).emptyDir, {});
    const refused =
      /dind mode: the dind container has no volume at \/var\/lib\/docker, so its engine keeps its data on the container's own root filesystem \(overlayfs\), where overlay2 cannot run: it falls back to vfs/;
    /** @type {Array<[string, (v: any) => void]>} */
    const cases = [
      [
        'no mount',
        (v) =>
          (container(v, 'dind').volumeMounts = container(v, 'dind').volumeMounts.filter(
            (/** @type {any} */ m) => m.mountPath !== '/var/lib/docker',
          )),
      ],
      [
        'a mount of a volume the pod does not have',
        (v) =>
          (v.template.spec.volumes = v.template.spec.volumes.filter(
            (/** @type {any} */ x) => x.name !== 'dind-storage',
          )),
      ],
      [
        'the mount on the runner container instead',
        (v) => {
          const mounts = container(v, 'dind').volumeMounts;
          const i = mounts.findIndex((/** @type {any} */ m) => m.mountPath === '/var/lib/docker');
          container(v, 'runner').volumeMounts.push(...mounts.splice(i, 1));
        },
      ],
    ];
    for (const [what, change] of cases) {
      const r = validate([variant(DIND, change)]);
      assert.equal(r.status, 1, `${what}: ${r.out}`);
      assert.match(r.out, refused, what);
    }
    // A trailing slash is the same folder.
    const slash = variant(DIND, (v) => {
      container(v, 'dind').volumeMounts.find((/** @type {any} */ m) => m.mountPath === '/var/lib/docker').mountPath =
        '/var/lib/docker/';
    });
    assert.equal(validate([slash]).status, 0);
  },
);

test(
  "validate.py: kubernetes mode's runner must take jobs without a container: (dind-bench's jobs name none)",
  { skip },
  () => {
    const env = (/** @type {any} */ v) => container(v, 'runner').env;
    const values = YAML.parse(readFileSync(KUBERNETES, 'utf8'));
    assert.deepEqual(
      env(values).find((/** @type {any} */ e) => e.name === 'ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER'),
      { name: 'ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER', value: 'false' },
    );
    /** @type {Array<[string, (v: any) => void, RegExp]>} */
    const cases = [
      [
        'left out',
        (v) =>
          (container(v, 'runner').env = env(v).filter(
            (/** @type {any} */ e) => e.name !== 'ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER',
          )),
        /is left out \(the chart then sets 'true'\)/,
      ],
      ['true', (v) => (env(v)[0].value = 'true'), /is 'true'/],
    ];
    for (const [what, change, shown] of cases) {
      const r = validate([variant(KUBERNETES, change)]);
      assert.equal(r.status, 1, `${what}: ${r.out}`);
      assert.match(
        r.out,
        /kubernetes mode: ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER .*the runner then refuses every job without a container:, and dind-bench's jobs .* name none/,
        what,
      );
      assert.match(r.out, shown, what);
    }
  },
);
