#!/usr/bin/env python3
"""Validates the ARC runner scale set values and manifests in this folder, offline.

The chart (gha-runner-scale-set) ships no values schema, so: the keys dind-bench relies on are checked
here, and the Kubernetes objects the values contain (the runner pod template, the work volume claim of
kubernetes mode) and the manifests beside them (networkpolicy.yaml) are validated against Kubernetes' own
JSON schemas as shipped by the kubernetes-validate package (pinned in .ci/install-lib.sh), for the
Kubernetes version below. No network is needed.

    python3 runners/k8s/validate.py                   this folder's files, as the repository keeps them
    python3 runners/k8s/validate.py --deploy FILE...  your filled-in copies, before `helm install`

Both refuse what would weaken the runners: a repository instead of an organisation, the default runner
group, a scale set name or label of GitHub-hosted runners (ubuntu-*, windows-*, macos-*), the chart's dind
mode (its sidecar is the moving tag docker:dind), and a dind sidecar that is not pinned by digest. And what would
not run dind-bench's jobs or not measure what they say: a scale set name the chart or the API server refuses,
scaleSetLabels (chart 0.10.1 ignores them: a scale set's one label is its name, the whole of a job's runs-on),
a dind sidecar whose /var/lib/docker is no volume (its engine and every inner one fall back to vfs), and a
kubernetes-mode runner that requires a job container (dind-bench's jobs name none).
The repository's own files carry named placeholders (OWNER; an image as the mapping
{REPLACE_WITH: IMAGE}, which `helm install` refuses: the chart copies it into the runner scale set, whose
schema takes only a string there, so the API server rejects it); --deploy refuses every placeholder and every
image that is not pinned by digest. RUNNER_ALLOW_REPO_SCOPE=1 and RUNNER_ALLOW_DEFAULT_GROUP=1 accept those
two, as the brokers do.
"""
import os
import pathlib
import re
import sys

import json

import jsonschema
import kubernetes_validate
import yaml

KUBERNETES_VERSION = "1.31.0"
HERE = pathlib.Path(__file__).parent
MODES = {"dind", "kubernetes"}
DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")
# An image's placeholder: the mapping {REPLACE_WITH: "NAME:TAG@sha256:<digest>"}, never a string (a string
# placeholder is an image reference `helm install` deploys; pods then fail to pull it).
PLACEHOLDER_KEY = "REPLACE_WITH"
PLACEHOLDER_IMAGE = re.compile(r"@sha256:<digest>$")
PLACEHOLDERS = re.compile(r"REPLACE_WITH|^REGISTRY/|<digest>|github\.com/OWNER(/|$)")
DIGEST_COMMAND = "`docker buildx imagetools inspect IMAGE:TAG` or `crane digest IMAGE:TAG` prints it"


# The isolation between jobs as a value (dindBench.isolation) and the pod it needs: values.schema.json.
VALUES_SCHEMA = json.loads((HERE / "values.schema.json").read_text())


def isolation_problems(values):
    """What values.schema.json refuses in a dind-mode values file, each with where and what to change."""
    problems = []
    validator = jsonschema.Draft7Validator(VALUES_SCHEMA)
    for e in sorted(validator.iter_errors(values), key=lambda e: list(e.absolute_path)):
        where = ".".join(str(p) for p in e.absolute_path) or "top level"
        choice = (values.get("dindBench") or {}).get("isolation")
        problems.append(
            f"{where}: {e.message} (values.schema.json: dindBench.isolation is {choice!r}; node-per-job needs a "
            "nodeSelector and no runtimeClassName, kata runtimeClassName kata, sysbox runtimeClassName "
            "sysbox-runc and the dind container without privileged: SECURITY.md, ARC)"
        )
    return problems


def containers(spec):
    """Every container of a pod spec, init containers first."""
    return [*(spec.get("initContainers") or []), *(spec.get("containers") or [])]


def scope_problems(values):
    problems = []
    url = str(values.get("githubConfigUrl", ""))
    path = re.sub(r"^https://[^/]+/?", "", url).strip("/")
    if "/" in path and os.environ.get("RUNNER_ALLOW_REPO_SCOPE") != "1":
        problems.append(
            f"githubConfigUrl {url} is a repository: repository runners have no runner group, so every workflow "
            f"of the repository on any branch reaches them. Use the organisation (https://github.com/"
            f"{path.split('/')[0]}) with runnerGroup set to a group restricted to bench.yml (runners/README.md), "
            "or set RUNNER_ALLOW_REPO_SCOPE=1 to accept repository runners"
        )
    elif "/" not in path:
        group = str(values.get("runnerGroup", "default"))
        if group.lower() == "default" and os.environ.get("RUNNER_ALLOW_DEFAULT_GROUP") != "1":
            problems.append(
                f"runnerGroup is {group!r}, the organisation's Default group: set it to a group restricted to "
                "bench.yml of main and bench-pr, with public repositories off (runners/README.md), or set "
                "RUNNER_ALLOW_DEFAULT_GROUP=1 to accept the Default group"
            )
    return problems


# The labels of GitHub-hosted runners. A scale set's name is the label jobs reach it by (runs-on), as are
# its scaleSetLabels (chart 0.14.0 and later); GitHub compares labels ignoring case.
HOSTED_LABEL = re.compile(r"^\s*(ubuntu|windows|macos)-", re.IGNORECASE)
# The chart these values are written for (README.md). It names the scale set's AutoscalingRunnerSet after
# runnerScaleSetName as it is: a Kubernetes object name (lower case, digits, '-' and '.'), at most 45
# characters (the chart's own limit).
CHART_VERSION = "0.10.1"
SCALE_SET_NAME = re.compile(r"^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$")
SCALE_SET_NAME_MAX = 45


def name_problems(values):
    """A runnerScaleSetName the chart or the API server refuses. It is the scale set's one label, the whole
    of a job's runs-on."""
    name = values.get("runnerScaleSetName")
    if name is None:
        return []  # "missing runnerScaleSetName" says it
    if not isinstance(name, str) or not SCALE_SET_NAME.match(name) or len(name) > SCALE_SET_NAME_MAX:
        return [
            f"runnerScaleSetName is {str(name)[:100]!r}: chart {CHART_VERSION} names the scale set's Kubernetes "
            f"object after it, so it must be 1 to {SCALE_SET_NAME_MAX} characters of a-z, 0-9, '-' and '.', "
            "starting and ending with a letter or digit (e.g. dind-bench-dind-28-2)"
        ]
    return []


def label_problems(values):
    """A scale set name or label of GitHub-hosted runners: jobs meant for GitHub's own machines (those
    holding write tokens among them) would run on these runners. And labels the pinned chart drops."""
    named = [("runnerScaleSetName", values.get("runnerScaleSetName"))]
    labels = values.get("scaleSetLabels")
    if isinstance(labels, list):
        named += [(f"scaleSetLabels[{i}]", label) for i, label in enumerate(labels)]
    problems = [
        f"{where} is {str(value)[:100]!r}, a label of GitHub-hosted runners (ubuntu-*, windows-*, macos-*): jobs "
        "meant for GitHub's own machines, those holding write tokens among them, would run on this scale set. "
        "Name it after itself, as dind-bench-dind (SECURITY.md, Workflows and runners)"
        for where, value in named
        if isinstance(value, str) and HOSTED_LABEL.match(value)
    ]
    if labels is not None and labels != []:
        # Chart 0.10.1 does not know the key: the scale set is created with its name as its only label, so a
        # job whose runs-on names one of these waits for a runner that never comes.
        problems.append(
            f"scaleSetLabels is set, but chart {CHART_VERSION} ignores it (scale set labels came with chart "
            f"0.14.0): the scale set's only label is its runnerScaleSetName "
            f"({values.get('runnerScaleSetName')!r}), and a job reaches it with runs-on: that name alone. "
            "Remove scaleSetLabels and name the scale set for what a job should select"
        )
    return problems + name_problems(values)


def is_placeholder(image):
    return isinstance(image, dict) and list(image) == [PLACEHOLDER_KEY] and isinstance(image[PLACEHOLDER_KEY], str)


def shown(image):
    return f"{{{PLACEHOLDER_KEY}: {image[PLACEHOLDER_KEY]}}}" if is_placeholder(image) else str(image)


def without_placeholders(spec):
    """The pod spec with each placeholder image as its text, for the schema check of the repository's files."""
    out = dict(spec)
    for key in ("initContainers", "containers"):
        if spec.get(key):
            out[key] = [{**c, "image": c["image"][PLACEHOLDER_KEY]} if is_placeholder(c.get("image")) else c
                        for c in spec[key]]
    return out


def image_problems(spec, deploy):
    problems = []
    for c in containers(spec):
        raw = c.get("image", "")
        image = str(raw)
        where = f"container {c.get('name')!r}"
        if is_placeholder(raw):
            if deploy:
                problems.append(f"{where}: image {shown(raw)} is a placeholder: replace the mapping with the image, "
                                f"pinned by digest ({DIGEST_COMMAND})")
            elif not PLACEHOLDER_IMAGE.search(raw[PLACEHOLDER_KEY]):
                problems.append(f"{where}: the placeholder {shown(raw)} must name the image pinned by digest, "
                                "ending @sha256:<digest>")
            continue
        if not deploy and PLACEHOLDERS.search(image):
            problems.append(f"{where}: image {image} is a placeholder that `helm install` would deploy: write it as "
                            f"the mapping {{{PLACEHOLDER_KEY}: IMAGE}}, which it refuses")
            continue
        if deploy:
            if PLACEHOLDERS.search(image):
                problems.append(f"{where}: image {image} still has a placeholder: replace it")
            elif not DIGEST.search(image):
                problems.append(f"{where}: image {image} is not pinned by digest: append @sha256:<digest> "
                                f"({DIGEST_COMMAND})")
        elif c.get("name") == "dind" and not DIGEST.search(image):
            problems.append(
                f"{where}: the privileged dind sidecar's image {image} is not pinned by digest: write it as "
                f"docker:<version>-dind@sha256:<digest> ({DIGEST_COMMAND})"
            )
    return problems


DOCKER_DATA = "/var/lib/docker"


def storage_problems(spec):
    """The dind sidecar's data root must be a volume: on the container's own root filesystem (overlayfs) its
    engine cannot use overlay2 and falls back, and so does every inner engine, whose volumes live there."""
    dind = next((c for c in spec.get("containers") or [] if c.get("name") == "dind"), {})
    volumes = {v.get("name") for v in spec.get("volumes") or []}
    mounted = [m.get("name") for m in dind.get("volumeMounts") or []
               if str(m.get("mountPath", "")).rstrip("/") == DOCKER_DATA]
    if mounted and mounted[0] in volumes:
        return []
    return [
        f"dind mode: the dind container has no volume at {DOCKER_DATA}, so its engine keeps its data on the "
        "container's own root filesystem (overlayfs), where overlay2 cannot run: it falls back to vfs (a full "
        "copy per layer), and so does every inner DinD engine, whose volume lives there. Both environments "
        "would measure that fallback (docs/environments.md, dind-vfs), not the engines. Mount a volume there "
        "(an emptyDir in template.spec.volumes, on the node's disk), as values-dind.yaml does"
    ]


def job_container_problems(spec):
    """Kubernetes mode's runner refuses every job without a `container:` unless told otherwise (the chart
    sets ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER=true when the values leave it out); dind-bench's jobs name none."""
    runner = next((c for c in spec.get("containers") or [] if c.get("name") == "runner"), {})
    env = {e.get("name"): e.get("value") for e in runner.get("env") or []}
    value = env.get("ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER")
    if str(value).lower() == "false":
        return []
    shown_value = "left out (the chart then sets 'true')" if value is None else repr(value)
    return [
        f"kubernetes mode: ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER is {shown_value}: the runner then refuses every "
        "job without a container:, and dind-bench's jobs (the reusable workflow's bench job, a job calling "
        "actions/run) name none, so nothing of dind-bench would run. Set it to 'false' in the runner "
        "container's env, as values-kubernetes.yaml does"
    ]


def check_values(values, deploy):
    problems = []
    spec = (values.get("template") or {}).get("spec") or {}
    names = [c.get("name") for c in spec.get("containers") or []]
    container_mode = values.get("containerMode") or {}
    mode = container_mode.get("type")
    if mode == "dind":
        problems.append(
            "containerMode.type is 'dind': chart 0.10.1 then starts its own sidecar from the moving tag "
            "docker:dind and drops a dind container given here. Leave containerMode unset and write the pod "
            "out, the dind container pinned by digest, as values-dind.yaml does"
        )
    elif mode is None and "dind" in names:
        mode = "dind"  # dind mode's pod, written out
    for key in ("githubConfigUrl", "githubConfigSecret", "runnerScaleSetName", "template"):
        if key not in values:
            problems.append(f"missing {key}")
    if mode not in MODES:
        problems.append(f"containerMode.type is {mode!r}; expected one of {sorted(MODES)}, or a pod with a "
                        "'runner' and a 'dind' container")
    if values.get("minRunners", 0) > values.get("maxRunners", 0):
        problems.append("minRunners is greater than maxRunners")
    if isinstance(values.get("githubConfigSecret"), dict):
        problems.append("githubConfigSecret holds credentials inline; name a Kubernetes secret instead")
    problems += scope_problems(values)
    problems += label_problems(values)
    if deploy and PLACEHOLDERS.search(str(values.get("githubConfigUrl", ""))):
        problems.append(f"githubConfigUrl {values.get('githubConfigUrl')} still has the placeholder OWNER: "
                        "name your organisation")
    if mode == "dind":
        problems += isolation_problems(values)
        # DinD's socket folders must be on a path the runner and the dind sidecar share (the work volume).
        runner = next((c for c in spec.get("containers") or [] if c.get("name") == "runner"), {})
        env = {e.get("name"): e.get("value") for e in runner.get("env") or []}
        if not str(env.get("DIND_BENCH_SOCKET_DIR", "")).startswith("/home/runner/_work/"):
            problems.append("dind mode: the runner container needs DIND_BENCH_SOCKET_DIR under /home/runner/_work/")
        problems += storage_problems(spec)
    if mode == "kubernetes":
        problems += job_container_problems(spec)
    problems += image_problems(spec, deploy)
    # --deploy checks the pod as `helm install` would send it: a placeholder left is a schema error there too.
    objects = [("runner pod template", {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "runner"},
                                         "spec": spec if deploy else without_placeholders(spec)})]
    claim = container_mode.get("kubernetesModeWorkVolumeClaim")
    if claim is not None:
        objects.append(("kubernetesModeWorkVolumeClaim", {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                                                          "metadata": {"name": "work"}, "spec": claim}))
    return problems + schema_problems(objects)


def schema_problems(objects):
    problems = []
    for what, obj in objects:
        try:
            kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as e:
            location = ".".join(str(p) for p in e.path)
            problems.append(f"{what}: {e.message} (at {location or 'top level'})")
    return problems


def check(path, deploy=False):
    doc = yaml.safe_load(path.read_text())
    if not isinstance(doc, dict):
        return ["not a YAML mapping"]
    if "kind" in doc:  # a manifest of its own (networkpolicy.yaml)
        return schema_problems([(doc.get("kind"), doc)])
    return check_values(doc, deploy)


def main(argv):
    deploy = "--deploy" in argv
    paths = [pathlib.Path(a) for a in argv if a != "--deploy"]
    if deploy and not paths:
        print("usage: validate.py --deploy FILE...", file=sys.stderr)
        return 2
    if not paths:
        paths = sorted(HERE.glob("values-*.yaml")) + [HERE / "networkpolicy.yaml"]
    failed = False
    for path in paths:
        problems = check(path, deploy)
        for p in problems:
            print(f"{path}: {p}", file=sys.stderr)
        failed |= bool(problems)
        if not problems:
            print(f"ok  {path.name} (Kubernetes {KUBERNETES_VERSION} schemas{', ready to deploy' if deploy else ''})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
