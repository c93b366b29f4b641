#!/usr/bin/env python3
"""Validates the ARC runner scale set values in this folder, offline.

The chart (gha-runner-scale-set) ships no values schema, so: the keys dind-bench relies on are checked
here, and the Kubernetes objects the values contain (the runner pod template, the work volume claim of
kubernetes mode) are validated against Kubernetes' own JSON schemas as shipped by the kubernetes-validate
package (pinned in .ci/install.sh), for the Kubernetes version below. No network is needed.
"""
import pathlib
import sys

import kubernetes_validate
import yaml

KUBERNETES_VERSION = "1.31.0"
HERE = pathlib.Path(__file__).parent
MODES = {"dind", "kubernetes"}


def check(path):
    values = yaml.safe_load(path.read_text())
    problems = []
    for key in ("githubConfigUrl", "githubConfigSecret", "runnerScaleSetName", "containerMode", "template"):
        if key not in values:
            problems.append(f"missing {key}")
    mode = (values.get("containerMode") or {}).get("type")
    if mode not in MODES:
        problems.append(f"containerMode.type is {mode!r}; expected one of {sorted(MODES)}")
    if values.get("minRunners", 0) > values.get("maxRunners", 0):
        problems.append("minRunners is greater than maxRunners")
    if isinstance(values.get("githubConfigSecret"), dict):
        problems.append("githubConfigSecret holds credentials inline; name a Kubernetes secret instead")
    if mode == "dind":
        # DinD's socket folders must be on a path the runner and the dind sidecar share (the work volume).
        containers = values.get("template", {}).get("spec", {}).get("containers", [])
        runner = next((c for c in containers if c.get("name") == "runner"), {})
        env = {e.get("name"): e.get("value") for e in runner.get("env", [])}
        if not str(env.get("DIND_BENCH_SOCKET_DIR", "")).startswith("/home/runner/_work/"):
            problems.append("dind mode: the runner container needs DIND_BENCH_SOCKET_DIR under /home/runner/_work/")
    objects = [("runner pod template", {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "runner"},
                                         "spec": values.get("template", {}).get("spec", {})})]
    claim = (values.get("containerMode") or {}).get("kubernetesModeWorkVolumeClaim")
    if claim is not None:
        objects.append(("kubernetesModeWorkVolumeClaim", {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                                                          "metadata": {"name": "work"}, "spec": claim}))
    for what, obj in objects:
        try:
            kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as e:
            location = ".".join(str(p) for p in e.path)
            problems.append(f"{what}: {e.message} (at {location or 'top level'})")
    return problems


def main():
    failed = False
    for path in sorted(HERE.glob("values-*.yaml")):
        problems = check(path)
        for p in problems:
            print(f"{path}: {p}", file=sys.stderr)
        failed |= bool(problems)
        if not problems:
            print(f"ok  {path.name} (Kubernetes {KUBERNETES_VERSION} schemas)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
